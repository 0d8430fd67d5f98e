"""Keep freed memory in the process while a conversion runs (glibc only).

A conversion loads a chunk of rows (about 15 MB of image bytes), writes it and frees it, over
and over. glibc returns freed heap memory to the system as soon as more than 128 KB sits free at
the top of the heap, so every chunk is faulted in again page by page: measured on the ImageNet
-like folder, that tripled the cost of reading the files. Raising the trim threshold (and the
mmap threshold, which glibc would otherwise use for files over 128 KB) lets the next chunk
reuse the same pages. Both are restored to glibc's defaults when the last conversion ends.
Elsewhere (musl, macOS, Windows) this does nothing.
"""
import contextlib
import ctypes
import ctypes.util
import threading

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_DEFAULT = 128 * 1024                 # glibc's default for both
_RETAIN = 512 << 20                   # keep up to 512 MB of freed memory
_MMAP = 32 << 20                      # glibc's own upper limit for the mmap threshold

_lock = threading.Lock()
_active = 0


def _mallopt():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        fn = libc.mallopt
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_int]
    fn.restype = ctypes.c_int
    return fn


_MALLOPT = _mallopt()


@contextlib.contextmanager
def retain_freed_memory():
    global _active
    with _lock:
        _active += 1
        if _active == 1 and _MALLOPT is not None:
            _MALLOPT(_M_TRIM_THRESHOLD, _RETAIN)
            _MALLOPT(_M_MMAP_THRESHOLD, _MMAP)
    try:
        yield
    finally:
        with _lock:
            _active -= 1
            if _active == 0 and _MALLOPT is not None:
                _MALLOPT(_M_TRIM_THRESHOLD, _DEFAULT)
                _MALLOPT(_M_MMAP_THRESHOLD, _DEFAULT)
