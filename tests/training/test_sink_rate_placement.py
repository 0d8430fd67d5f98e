"""tools/sink_rate.py's MoveTrainingThread, which the GPU check uses to give the training loop a
core of its own beside the pipeline's cores (Linux thread affinity)."""
import os
import sys
import threading

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
from sink_rate import MoveTrainingThread  # noqa: E402


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs Linux thread affinity and two cores")
def test_the_training_thread_moves_and_the_others_stay_on_the_pipelines_cores():
    cores = sorted(os.sched_getaffinity(0))
    pipeline_cores, training = {cores[0]}, cores[1]
    started, stop, seen = threading.Event(), threading.Event(), {}

    def pipeline_thread():
        started.set()
        stop.wait(10)
        seen["pipeline"] = os.sched_getaffinity(0)

    def training_loop():
        worker = threading.Thread(target=pipeline_thread)
        worker.start()
        started.wait(10)
        move = MoveTrainingThread(pipeline_cores, training)
        move.on_train_epoch_end(None)
        seen["training"] = os.sched_getaffinity(0)
        os.sched_setaffinity(0, set(cores))
        move.on_train_epoch_end(None)           # only after the first chunk
        seen["training later"] = os.sched_getaffinity(0)
        stop.set()
        worker.join()

    # every thread of this process is moved: put them all back afterwards
    saved = {tid: os.sched_getaffinity(tid) for tid in map(int, os.listdir("/proc/self/task"))}
    loop = threading.Thread(target=training_loop)
    loop.start()
    loop.join()
    try:
        assert seen == {"pipeline": pipeline_cores, "training": {training},
                        "training later": set(cores)}
    finally:
        for tid, mask in saved.items():
            try:
                os.sched_setaffinity(tid, mask)
            except OSError:         # ended meanwhile
                pass
