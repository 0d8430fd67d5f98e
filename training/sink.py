"""Feeding batches to the step loop.

`SinkFeeder` (dataset_sink_mode=True): a background thread pulls batches from the dataset's
iterator, converts them for the backend and copies them to the device ahead of time (the
backend's `to_device`: pinned memory and a side CUDA stream with torch on GPU), handing them over
through a bounded queue whose depth is minddata's prefetch size. `InlineFeeder` (non-sink) does
the same work in the caller's thread. Both measure the time the step loop waits for data;
`TrainStats` adds the host and device time of the steps (Model.last_train_stats, TimeMonitor)."""
import collections
import contextlib
import logging
import queue
import threading
import time

import numpy as np

logger = logging.getLogger("training.sink")
WAITS_KEPT = 100_000  # per-batch waits kept for the percentiles (the latest, 800 kB at most)

DEFAULT_PREFETCH = 16


def prefetch_depth():
    try:
        from minddata import config
    except Exception:  # minddata absent or not built: training still runs
        logger.debug("minddata not importable; prefetch depth %d", DEFAULT_PREFETCH, exc_info=True)
        return DEFAULT_PREFETCH
    return max(1, int(config.get_prefetch_size()))


def _close_iterator(it):
    for name in ("stop", "close"):
        fn = getattr(it, name, None)
        if callable(fn):
            try:
                fn()
            except Exception:  # closing is best effort; the original error matters more
                logger.debug("closing the dataset iterator failed", exc_info=True)
            return


def _host_or_device(row):
    """A batch as the step takes it: numpy arrays, except the device tensors a pipeline that
    decodes and augments on the GPU hands over (they stay on the device)."""
    from minddata.tensor import Tensor as DataTensor  # importing training loads no minddata
    return tuple(v.asnumpy() if isinstance(v, DataTensor) else v for v in row)


def _device_decode_s(it):
    """Seconds the iterator's stages decoded on a device (GPU decode), or None where none did."""
    stats = it.stage_stats() if callable(getattr(it, "stage_stats", None)) else []
    busy = [s.device_busy_s for s in stats if getattr(s, "device_busy_s", None) is not None]
    return sum(busy) if busy else None


def iterate_epochs(dataset, num_epochs, figures=None):
    """Yields (data_epoch, batch_tuple) over `num_epochs` passes of `dataset`, from one
    iterator created with num_epochs (MindSpore's contract: each pass over it is one epoch).
    The iterator hands over Tensors (zero-copy views of numpy arrays, made numpy again here)
    rather than numpy, so that a batch already on the device is not copied back to the host.
    `figures["device_decode_s"]` (a dict given by the caller) receives the pipeline's device
    decode time when the iterator ends."""
    it = dataset.create_tuple_iterator(num_epochs=num_epochs, output_numpy=False)
    try:
        # An iterator that starts at a later epoch (set_init_step) has that many passes
        # fewer: asking for one more would raise past its last epoch.
        for epoch in range(num_epochs - _first_epoch(dataset)):
            produced = False
            for row in it:
                produced = True
                yield epoch, _host_or_device(row)
            if not produced:
                if epoch == 0:
                    raise RuntimeError("the training dataset produced no batches")
                # An iterator that cannot start a new pass: open a fresh one for this epoch.
                _close_iterator(it)
                it = dataset.create_tuple_iterator(num_epochs=num_epochs - epoch,
                                                   output_numpy=False)
                for row in it:
                    produced = True
                    yield epoch, _host_or_device(row)
                if not produced:
                    raise RuntimeError(f"the training dataset produced no batches in epoch {epoch}")
    finally:
        if figures is not None:
            decode = _device_decode_s(it)
            if decode is not None:
                figures["device_decode_s"] = figures.get("device_decode_s", 0.0) + decode
        _close_iterator(it)


def init_step_of(dataset):
    """The step a dataset's iterators start at (``set_init_step``; a bool is the int it is, as
    in MindSpore): 0 for other datasets and for a value that is no positive int (a wrong one
    is refused when the iterator starts)."""
    step = dataset.get_init_step() if hasattr(dataset, "get_init_step") else 0
    return int(step) if isinstance(step, int) and step > 0 else 0


def _first_epoch(dataset):
    """The epoch a dataset's iterators start at (``set_init_step``), 0 for other datasets."""
    step = init_step_of(dataset)
    return step // dataset.get_dataset_size() if step else 0


class _End:
    pass


class InlineFeeder:
    """Non-sink: batches pulled in the step loop's own thread."""

    def __init__(self, dataset, num_epochs, convert):
        self.figures = {}  # filled when the data ends (the pipeline's device decode time)
        self._gen = iterate_epochs(dataset, num_epochs, self.figures)
        self._convert = convert
        self.total_wait = 0.0
        self._pushed = None

    def push_back(self, item):
        """Return an item taken by next() (the step loop read one batch past an epoch's end)."""
        self._pushed = item

    def __enter__(self):
        return self

    def __exit__(self, *err):
        self.close()
        return False

    def next(self):
        """(data_epoch, device_batch, wait_seconds), or None at the end of the data."""
        if self._pushed is not None:
            item, self._pushed = self._pushed, None
            return item
        start = time.perf_counter()
        try:
            epoch, batch = next(self._gen)
        except StopIteration:
            return None
        batch = self._convert(batch)
        wait = time.perf_counter() - start
        self.total_wait += wait
        return epoch, batch, wait

    def close(self):
        self._gen.close()


class SinkFeeder(InlineFeeder):
    """Sink mode: a producer thread fills a bounded queue ahead of the step loop."""

    def __init__(self, dataset, num_epochs, convert, depth=None):
        super().__init__(dataset, num_epochs, convert)
        self.depth = depth or prefetch_depth()
        self._queue = queue.Queue(maxsize=self.depth)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._produce, name="training-sink", daemon=True)
        self._started = False
        self.occupancy_sum = 0
        self.gets = 0

    def _put(self, item):
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _produce(self):
        try:
            for epoch, batch in self._gen:
                if not self._put((epoch, self._convert(batch))):
                    return
            self._put(_End)
        except BaseException as exc:  # handed to the step loop, raised there
            self._put(exc)
        finally:
            self._gen.close()

    def next(self):
        if self._pushed is not None:
            item, self._pushed = self._pushed, None
            return item
        if not self._started:
            self._started = True
            self._thread.start()
        self.occupancy_sum += self._queue.qsize()
        self.gets += 1
        start = time.perf_counter()
        while True:
            try:
                item = self._queue.get(timeout=0.5)
                break
            except queue.Empty:
                if not self._thread.is_alive() and self._queue.empty():
                    raise RuntimeError("the sink thread ended without a result") from None
        wait = time.perf_counter() - start
        self.total_wait += wait
        if item is _End:
            self._queue.put(_End)  # later calls see the end too
            return None
        if isinstance(item, BaseException):
            raise item
        epoch, batch = item
        return epoch, batch, wait

    def close(self):
        self._stop.set()
        if self._started:
            # Drain so a producer blocked on a full queue sees the stop flag at once.
            while self._thread.is_alive():
                try:
                    while True:
                        self._queue.get_nowait()
                except queue.Empty:
                    pass
                self._thread.join(timeout=0.1)
        else:
            self._gen.close()


class CudaStepTimer:
    """Device time of steps from CUDA events recorded on the step's stream before and after it:
    the time the GPU took from the step's first queued operation to its last, gaps included
    (a GPU starved by a slow host shows the gaps; waiting for the batch's copy counts too)."""

    description = "cuda events"

    def __init__(self, torch, device):
        self._cuda, self._device = torch.cuda, device
        self._open = []        # (start, end) events not read yet, oldest first
        self.total_s = 0.0
        self.epoch_s = 0.0

    def _event(self):
        event = self._cuda.Event(enable_timing=True)
        event.record(self._cuda.current_stream(self._device))
        return event

    def begin(self):
        return self._event()

    def end(self, start):
        self._open.append((start, self._event()))
        self.collect(wait=False)

    def collect(self, wait):
        """Read the finished steps' times (all of them, waiting for the GPU, when `wait`)."""
        while self._open and (wait or self._open[0][1].query()):
            start, end = self._open.pop(0)
            end.synchronize()
            seconds = start.elapsed_time(end) / 1000.0
            self.total_s += seconds
            self.epoch_s += seconds


def device_timer(backend):
    """(timer or None, what it measures or why there is none) for `backend`'s steps."""
    device = getattr(backend, "device", None)
    if getattr(backend, "name", None) == "torch" and getattr(device, "type", None) == "cuda":
        return CudaStepTimer(backend.torch, device), CudaStepTimer.description
    where = getattr(device, "type", "cpu")
    if where == "cpu":
        return None, (f"n/a: the {backend.name} backend runs the step on the host, so the host "
                      f"step time is the step time")
    return None, f"n/a: no device timer for {where}"


class TrainStats:
    """What one Model.train call measured. Every second of the run is either data wait (the
    step loop waiting for a batch), host step time (the step call, as the host saw it: with an
    asynchronous device, the time to queue the step's work) or other (callbacks, evaluation,
    the wait for the device at the end of a sink chunk). Device step time is measured apart, on
    the device's own clock, where the backend has one."""

    def __init__(self, backend, sink):
        self.sink = sink
        self.steps = 0
        self.data_wait_s = 0.0
        self.first_wait_s = None
        self.host_step_s = 0.0
        self._timer, self.device_timing = device_timer(backend)
        self._started = time.perf_counter()
        self._epoch = {"steps": 0, "host_s": 0.0}
        self._waits = collections.deque(maxlen=WAITS_KEPT)
        self.device_decode_s = None  # set by Model from the feeder when the data ends

    def add_data_wait(self, seconds):
        self.data_wait_s += seconds
        self._waits.append(seconds)
        if self.first_wait_s is None:
            self.first_wait_s = seconds

    @contextlib.contextmanager
    def step(self):
        start = self._timer.begin() if self._timer is not None else None
        t0 = time.perf_counter()
        try:
            yield
        finally:
            host = time.perf_counter() - t0
            if self._timer is not None:
                self._timer.end(start)
            self.host_step_s += host
            self.steps += 1
            self._epoch["steps"] += 1
            self._epoch["host_s"] += host

    def end_epoch(self):
        """(host step seconds, device step seconds or None, steps) of the epoch now ending;
        the next epoch counts from zero."""
        device = None
        if self._timer is not None:
            self._timer.collect(wait=True)
            device, self._timer.epoch_s = self._timer.epoch_s, 0.0
        epoch, self._epoch = self._epoch, {"steps": 0, "host_s": 0.0}
        return epoch["host_s"], device, epoch["steps"]

    def as_dict(self):
        """Model.last_train_stats: totals in seconds, per-step means in milliseconds."""
        total = time.perf_counter() - self._started
        device = None
        if self._timer is not None:
            self._timer.collect(wait=True)
            device = self._timer.total_s
        per_step = 1000.0 / self.steps if self.steps else 0.0
        return {
            "steps": self.steps, "sink": self.sink, "total_s": total,
            "data_wait_s": self.data_wait_s, "first_wait_s": self.first_wait_s,
            "host_step_s": self.host_step_s, "step_s": self.host_step_s,
            "device_step_s": device,
            "other_s": total - self.data_wait_s - self.host_step_s,
            "data_wait_ms": self.data_wait_s * per_step,
            "host_step_ms": self.host_step_s * per_step,
            "device_step_ms": None if device is None else device * per_step,
            "device_timing": self.device_timing,
            **self._wait_percentiles(),
            "device_decode_s": self.device_decode_s,
            "device_decode_utilisation": None if self.device_decode_s is None else
            self.device_decode_s / max(total, 1e-9),
        }

    def _wait_percentiles(self):
        """p50/p99 of the step loop's wait for each batch (the latest WAITS_KEPT), in ms."""
        if not self._waits:
            return {"data_wait_p50_ms": None, "data_wait_p99_ms": None}
        waits = np.asarray(self._waits) * 1000.0
        return {"data_wait_p50_ms": float(np.percentile(waits, 50)),
                "data_wait_p99_ms": float(np.percentile(waits, 99))}
