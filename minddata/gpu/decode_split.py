"""How a batch's JPEG rows are shared between the GPU decoder and CPU threads.

The GPU decodes a batch in one call; a few CPU threads (libjpeg-turbo, the CPU path's own
Decode, GIL released) can decode some of its rows meanwhile. The batch is ready when the slower
side finishes, so the best CPU share is the one where both finish together: with the GPU at
``g`` rows/s and ``t`` CPU threads at ``c`` rows/s each, the CPU takes ``t*c / (g + t*c)`` of the
rows. Both rates are measured as the pipeline runs (the GPU's on its own clock, CUDA events
around the decoder call; a CPU thread's by wall time per row) and smoothed, so the split
follows what this machine and this data do: a fast GPU beside busy cores ends with a share near
zero, a small GPU beside idle cores gives the CPU more.
"""
import threading

#: weight of the newest measurement in the smoothed rates
SMOOTHING = 0.25


class DecodeSplit:
    """Shared by a GPU node's workers: ``cpu_rows(n)`` rows of each batch go to the CPU."""

    def __init__(self, cpu_threads):
        if isinstance(cpu_threads, bool) or not isinstance(cpu_threads, int) or cpu_threads < 0:
            raise ValueError(f"cpu_threads must be an int >= 0, but got {cpu_threads!r}")
        self.cpu_threads = cpu_threads
        self.gpu_rate = None        # rows/s of the batched GPU decode
        self.cpu_rate = None        # rows/s of one CPU thread
        self._lock = threading.Lock()

    def cpu_rows(self, n):
        """How many of a batch's ``n`` JPEG rows the CPU decodes (the GPU keeps at least one).
        Until both rates are known, one row goes to the CPU, which measures its rate."""
        if self.cpu_threads == 0 or n < 2:
            return 0
        with self._lock:
            gpu, cpu = self.gpu_rate, self.cpu_rate
        if gpu is None or cpu is None:
            return 1
        cpu_total = self.cpu_threads * cpu
        return min(n - 1, int(round(n * cpu_total / (cpu_total + gpu))))

    def cpu_share(self):
        """The fraction of rows the CPU takes now (None before both rates are measured)."""
        with self._lock:
            gpu, cpu = self.gpu_rate, self.cpu_rate
        if gpu is None or cpu is None or self.cpu_threads == 0:
            return None if self.cpu_threads else 0.0
        cpu_total = self.cpu_threads * cpu
        return cpu_total / (cpu_total + gpu)

    def gpu_decoded(self, rows, seconds):
        self._update("gpu_rate", rows, seconds)

    def cpu_decoded(self, rows, seconds):
        """``rows`` decoded by one CPU thread in ``seconds`` of its time."""
        self._update("cpu_rate", rows, seconds)

    def _update(self, name, rows, seconds):
        if rows <= 0 or seconds <= 0:
            return
        rate = rows / seconds
        with self._lock:
            old = getattr(self, name)
            setattr(self, name, rate if old is None else old + SMOOTHING * (rate - old))
