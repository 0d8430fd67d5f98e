"""Write-behind for filling a stage: full batches of rows are committed to LMDB by a background
thread (LMDB and the copies release the GIL), so the pipeline thread that calls ``put`` goes on
producing rows instead of waiting for the commit. At most ``max_batches`` batches wait; a put
beyond that blocks, which bounds the memory held. Rows waiting here are still found by ``get``."""
import collections
import threading


class WriteBehind:
    def __init__(self, write_batch, max_batches=2):
        self._write_batch = write_batch   # callable(batch: dict key -> value); runs on the thread
        self._max = max_batches
        self._cond = threading.Condition()
        self._queue = collections.deque()
        self._error = None
        self._stop = False
        self._thread = None

    def _raise_pending_error(self):
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def submit(self, batch):
        with self._cond:
            self._raise_pending_error()
            while len(self._queue) >= self._max and self._error is None:
                self._cond.wait()
            self._raise_pending_error()
            self._queue.append(batch)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, daemon=True,
                                                name="minddata-cache-write-behind")
                self._thread.start()
            self._cond.notify_all()

    def lookup(self, key):
        """The value of ``key`` in a batch not yet committed, or None."""
        with self._cond:
            for batch in self._queue:
                value = batch.get(key)
                if value is not None:
                    return value
        return None

    def drain(self):
        """Wait until every submitted batch is committed; re-raise a failure of the thread."""
        with self._cond:
            while self._queue and self._error is None:
                self._cond.wait()
            self._raise_pending_error()

    def close(self):
        """Commit what was submitted, then stop the thread."""
        try:
            self.drain()
        finally:
            self.stop()

    def stop(self):
        """Stop the thread; batches not yet written are dropped."""
        with self._cond:
            self._stop = True
            self._queue.clear()
            self._cond.notify_all()
            thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def _run(self):
        while True:
            with self._cond:
                while not self._queue and not self._stop:
                    self._cond.wait()
                if self._stop:
                    return
                batch = self._queue[0]
            try:
                self._write_batch(batch)
            except BaseException as exc:  # handed to the next submit/drain in the caller
                with self._cond:
                    self._error = exc
                    self._queue.clear()
                    self._cond.notify_all()
                continue
            with self._cond:
                if self._queue and self._queue[0] is batch:
                    self._queue.popleft()
                self._cond.notify_all()
