"""Training rates for the GPU check scripts (check_gpu_pipeline.py, check_nn_torch_gpu.py).

Both rates are taken inside one run, after warm-up, between two points at which the GPU has
finished its work, so neither the pipeline's start nor cuDNN's autotuning is counted:

- sink_rate: Model.train in sink mode, ``chunk`` steps per sink chunk (Model synchronizes the
  device at the end of each chunk); the clock runs from the end of the ``warm``-th chunk to the
  end of the last one.
- synthetic_rate: the same train step (Model.train_network) called on one batch that is already
  on the device, with no pipeline at all: the rate the sink is measured against."""
import os
import threading
import time

from training.callbacks import Callback


class _ChunkClock(Callback):
    def __init__(self):
        self.ends = []

    def on_train_epoch_end(self, run_context):
        self.ends.append(time.perf_counter())


def sink_rate(model, dataset, batch, chunks=8, chunk=10, warm=2, callbacks=()):
    """(images/s, Model.last_train_stats) of ``chunks - warm`` timed sink chunks; ``callbacks``
    run before the clock's."""
    clock = _ChunkClock()
    model.train(chunks, dataset, callbacks=[*callbacks, clock], dataset_sink_mode=True,
                sink_size=chunk)
    if len(clock.ends) != chunks:
        raise RuntimeError(f"the dataset ended after {len(clock.ends)} of {chunks} sink chunks")
    seconds = clock.ends[-1] - clock.ends[warm - 1]
    return (chunks - warm) * chunk * batch / seconds, dict(model.last_train_stats)


def synthetic_rate(model, inputs, steps=60, warm=15):
    """images/s of ``model.train_network`` on ``inputs`` (a tuple of device tensors)."""
    import torch
    step = model.train_network

    def finish():
        if inputs[0].device.type == "cuda":
            torch.cuda.synchronize()
    for _ in range(warm):
        step(*inputs)
    finish()
    start = time.perf_counter()
    for _ in range(steps):
        step(*inputs)
    finish()
    return steps * inputs[0].shape[0] / (time.perf_counter() - start)


class MoveTrainingThread(Callback):
    """After the first sink chunk, when the pipeline's threads and the sink's have started on
    ``pipeline_cores``: every other thread of the process stays on those cores and the training
    loop's thread (the one calling back) moves to ``core`` of its own (Linux)."""

    def __init__(self, pipeline_cores, core):
        self.pipeline_cores, self.core = set(pipeline_cores), core
        self.moved = False

    def on_train_epoch_end(self, run_context):
        if self.moved:
            return
        me = threading.get_native_id()
        for tid in map(int, os.listdir("/proc/self/task")):
            if tid != me:
                try:
                    os.sched_setaffinity(tid, self.pipeline_cores)
                except OSError:         # a thread that ended meanwhile
                    pass
        os.sched_setaffinity(0, {self.core})
        self.moved = True
