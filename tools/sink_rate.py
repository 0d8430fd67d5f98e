"""Training rates for the GPU check scripts (check_gpu_pipeline.py, check_nn_torch_gpu.py).

Both rates are taken inside one run, after warm-up, between two points at which the GPU has
finished its work, so neither the pipeline's start nor cuDNN's autotuning is counted:

- sink_rate: Model.train in sink mode, ``chunk`` steps per sink chunk (Model synchronizes the
  device at the end of each chunk); the clock runs from the end of the ``warm``-th chunk to the
  end of the last one.
- synthetic_rate: the same train step (Model.train_network) called on one batch that is already
  on the device, with no pipeline at all: the rate the sink is measured against;
- step_loop_rate: that step in a plain loop over another loader's batches (DALI's, in
  check_gpu_pipeline.py)."""
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


def synthetic_rate(model, inputs, steps=60, warm=15, figures=None):
    """images/s of ``model.train_network`` on ``inputs`` (a tuple of device tensors);
    ``figures`` (a dict), if given, receives step_loop_rate's figures."""
    rate, measured = step_loop_rate(model, lambda: inputs, steps, warm)
    if figures is not None:
        figures.update(measured)
    return rate


def step_loop_rate(model, next_batch, steps=60, warm=15):
    """(images/s, figures) of ``model.train_network`` called in this thread on the batches
    ``next_batch()`` returns (tuples of device tensors: a batch already on the device, or
    another library's loader): figures has the mean data wait and host step time in ms (the
    host's time to queue a step; where it nears the step's device time the GPU waits for the
    host)."""
    import torch
    step = model.train_network
    inputs = None
    for _ in range(warm):
        inputs = next_batch()
        step(*inputs)

    def finish():
        if inputs[0].device.type == "cuda":
            torch.cuda.synchronize()
    finish()
    waited = hosted = 0.0
    images = 0
    start = time.perf_counter()
    for _ in range(steps):
        t0 = time.perf_counter()
        inputs = next_batch()
        t1 = time.perf_counter()
        step(*inputs)
        hosted += time.perf_counter() - t1
        waited += t1 - t0
        images += int(inputs[0].shape[0])
    finish()
    return images / (time.perf_counter() - start), {"data_wait_ms": waited / steps * 1e3,
                                                     "host_step_ms": hosted / steps * 1e3}


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
