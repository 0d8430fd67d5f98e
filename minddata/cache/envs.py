"""One LMDB environment handle per directory per process.

LMDB forbids opening the same environment twice in one process (its fcntl locks belong to the
process, so closing either handle would drop both handles' locks), and a forked child must not use
its parent's handle. So handles are shared through this registry, reference counted, and a forked
child closes the handles it inherited before opening its own. That close is safe because the
environments keep no cached read transactions (max_spare_txns=0): the child owns no reader slot
and no lock, so closing touches nothing of the parent's. (Forking while another thread is inside
a cache call is not supported, as with any LMDB program.)"""
import os
import threading

import lmdb

from . import root as cache_root_mod

# Virtual address space reserved per environment; pages are only allocated as rows are written.
# The memory cap, not this number, bounds what a session holds.
MAP_SIZE = 1 << 40
MAX_READERS = 1024

_lock = threading.Lock()
_open = {}  # realpath -> [env, refcount]


def _after_fork_in_child():
    global _lock
    inherited = [entry[0] for entry in _open.values()]
    _open.clear()
    _lock = threading.Lock()
    for env in inherited:
        try:
            env.close()
        except Exception:  # an unusable inherited handle is simply dropped
            pass


os.register_at_fork(after_in_child=_after_fork_in_child)


def acquire(path, create=True):
    """Open (or share) the LMDB environment in directory ``path``. Returns the env; pair every
    call with ``release(path)``."""
    key = os.path.realpath(path)
    with _lock:
        entry = _open.get(key)
        if entry is not None:
            entry[1] += 1
            return entry[0]
        if create:
            os.makedirs(key, mode=0o700, exist_ok=True)
        elif not os.path.isdir(key):
            raise FileNotFoundError(key)
        durable = not cache_root_mod.is_tmpfs(key)
        env = lmdb.open(key, map_size=MAP_SIZE, subdir=True, create=create,
                        # On tmpfs an fsync buys nothing; on disk, sync data but not the meta
                        # page every commit (LMDB keeps integrity, may lose the last batch).
                        sync=durable, metasync=False, readahead=False, meminit=False,
                        max_readers=MAX_READERS, max_dbs=0, max_spare_txns=0, lock=True)
        # Reader slots of processes killed with -9 are left in lock.mdb; clear them now so
        # they do not pin old pages forever.
        env.reader_check()
        _open[key] = [env, 1]
        return env


def release(path):
    key = os.path.realpath(path)
    with _lock:
        entry = _open.get(key)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] <= 0:
            del _open[key]
            entry[0].close()


def forget_under(directory):
    """Close every handle this process holds inside ``directory`` (before deleting it)."""
    prefix = os.path.realpath(directory).rstrip("/") + "/"
    with _lock:
        for key in [k for k in _open if k.startswith(prefix) or k + "/" == prefix]:
            _open.pop(key)[0].close()


def open_count():
    with _lock:
        return len(_open)
