"""Feeding batches to the step loop.

`SinkFeeder` (dataset_sink_mode=True): a background thread pulls batches from the dataset's
iterator, converts them for the backend and copies them to the device ahead of time (the
backend's `to_device`: pinned memory and a side CUDA stream with torch on GPU), handing them over
through a bounded queue whose depth is minddata's prefetch size. `InlineFeeder` (non-sink) does
the same work in the caller's thread. Both measure the time the step loop waits for data."""
import logging
import queue
import threading
import time

logger = logging.getLogger("training.sink")

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


def iterate_epochs(dataset, num_epochs):
    """Yields (data_epoch, batch_tuple) over `num_epochs` passes of `dataset`, from one
    iterator created with num_epochs (MindSpore's contract: each pass over it is one epoch)."""
    it = dataset.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True)
    try:
        for epoch in range(num_epochs):
            produced = False
            for row in it:
                produced = True
                yield epoch, tuple(row)
            if not produced:
                if epoch == 0:
                    raise RuntimeError("the training dataset produced no batches")
                # An iterator that cannot start a new pass: open a fresh one for this epoch.
                _close_iterator(it)
                it = dataset.create_tuple_iterator(num_epochs=num_epochs - epoch, output_numpy=True)
                for row in it:
                    produced = True
                    yield epoch, tuple(row)
                if not produced:
                    raise RuntimeError(f"the training dataset produced no batches in epoch {epoch}")
    finally:
        _close_iterator(it)


class _End:
    pass


class InlineFeeder:
    """Non-sink: batches pulled in the step loop's own thread."""

    def __init__(self, dataset, num_epochs, convert):
        self._gen = iterate_epochs(dataset, num_epochs)
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
