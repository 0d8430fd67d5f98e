"""Read-ahead for a complete stage read in order: while the engine consumes row k, a background
thread decodes rows k+1..k+depth (the copy out of LMDB releases the GIL), so reading the cache
overlaps with the work after it (batching, the training step).

Only sequential reading is helped: on any other access pattern the thread pauses and the caller
reads directly, so random access costs no extra reads."""
import threading

_MISS = object()


class ReadAhead:
    def __init__(self, lookup, limit, depth):
        self._lookup = lookup          # key -> row or None; thread-safe
        self._limit = limit            # keys >= limit are never read ahead (end of the stage)
        self._depth = depth
        self._cond = threading.Condition()
        self._ready = {}               # key -> row (or _MISS)
        self._next = 0                 # next key the thread reads
        self._last = None              # last key handed to the caller
        self._enabled = False          # True while the access pattern is sequential
        self._inflight = None          # key the thread is reading now
        self._generation = 0           # bumped on reposition: stale reads are dropped
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="minddata-cache-read-ahead",
                                        daemon=True)
        self._thread.start()

    def take(self, key):
        """(True, row or None) when the row was read ahead, else (False, None): read it directly."""
        with self._cond:
            sequential = self._last is not None and key == self._last + 1
            self._last = key
            if sequential:
                while self._inflight == key and key not in self._ready and not self._stop:
                    self._cond.wait()
                if key in self._ready:
                    row = self._ready.pop(key)
                    self._cond.notify_all()
                    return True, (None if row is _MISS else row)
                if not self._enabled:
                    self._enabled = True
                    self._ready.clear()
                    self._generation += 1
                self._next = max(self._next, key + 1)
            else:
                self._enabled = False
                self._ready.clear()
                self._generation += 1
                self._next = key + 1
            self._cond.notify_all()
            return False, None

    def _wanted(self):
        return (self._enabled and not self._stop and self._next < self._limit
                and self._next <= self._last + self._depth)

    def _run(self):
        while True:
            with self._cond:
                while not self._stop and not self._wanted():
                    self._cond.wait()
                if self._stop:
                    return
                key, generation = self._next, self._generation
                self._next += 1
                self._inflight = key
            try:
                row = self._lookup(key)
            except Exception:  # store closing or session gone: the caller reads directly
                row = None
                with self._cond:
                    self._enabled = False
            with self._cond:
                self._inflight = None
                if generation == self._generation and key > self._last:
                    self._ready[key] = _MISS if row is None else row
                self._cond.notify_all()

    def close(self):
        with self._cond:
            self._stop = True
            self._ready.clear()
            self._cond.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join()
