"""One LMDB environment handle per directory per process.

LMDB forbids opening the same environment twice in one process (its fcntl locks belong to the
process, so closing either handle would drop both handles' locks), and a forked child must not use
its parent's handle. So handles are shared through this registry, reference counted, and a forked
child closes the handles it inherited before opening its own. That close is safe because the
environments keep no cached read transactions (max_spare_txns=0) and every transaction goes
through ``txn()``, which counts them: a handle with no transaction open at the fork holds no
reader slot or lock, so closing it touches nothing of the parent's. A handle that another thread
was using at the fork is kept, unused, and that session cannot be reopened in the child (a clear
RuntimeError, never a hang or a damaged parent)."""
import contextlib
import logging
import os
import threading

import lmdb

from . import disk_space
from . import root as cache_root_mod

logger = logging.getLogger(__name__)

# Virtual address space reserved per environment; pages are only allocated as rows are written.
# The memory cap, not this number, bounds what a session holds.
MAP_SIZE = 1 << 40
MAX_READERS = 1024
# At least the size LMDB gives lock.mdb for MAX_READERS (a 64-byte slot per reader after a
# header); a larger file only gives room for more readers.
LOCK_FILE_BYTES = (MAX_READERS + 64) * 64

_lock = threading.Lock()
_open = {}  # realpath -> [env, refcount]


_active = {}     # id(env) -> transactions open now (any thread); see _after_fork_in_child
_active_lock = threading.Lock()
_inherited = []  # handles a forked child could not close safely: kept, never used


@contextlib.contextmanager
def txn(env, write=False, buffers=False):
    """``env.begin(...)`` that also counts the transactions open on ``env``, so that a forked
    child knows which inherited handles it can close without touching the parent's state."""
    key = id(env)
    with _active_lock:
        _active[key] = _active.get(key, 0) + 1
    try:
        with env.begin(write=write, buffers=buffers) as t:
            yield t
    finally:
        with _active_lock:
            _active[key] -= 1


def _after_fork_in_child():
    global _lock, _active_lock
    _active_lock = threading.Lock()
    inherited = [entry[0] for entry in _open.values()]
    _open.clear()
    _lock = threading.Lock()
    for env in inherited:
        if _active.get(id(env), 0):
            # Another thread of the parent was inside a transaction when it forked: closing
            # would end that transaction's reader slot or writer lock, which belong to the
            # parent. Keep the handle unused; this child cannot reopen that session.
            _inherited.append(env)
            continue
        try:
            env.close()
        except Exception:  # an unusable inherited handle is simply dropped
            pass
    _active.clear()


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
            if not os.path.isdir(key):
                disk_space.require_room(key, "the dataset cache store")
            try:
                os.makedirs(key, mode=0o700, exist_ok=True)
            except OSError as exc:
                if disk_space.is_full_error(exc):
                    raise disk_space.StoreFull(f"no room to create {key}: {exc}") from None
                raise
        elif not os.path.isdir(key):
            raise FileNotFoundError(key)
        try:
            env = _open_env(key, create)
        except (lmdb.InvalidError, lmdb.CorruptedError, lmdb.VersionMismatchError) as exc:
            # Not a usable store (e.g. truncated by a full disk, or written by an incompatible
            # LMDB): it is only a cache, so start it afresh rather than fail the pipeline.
            logger.warning("dataset cache store %s is unreadable (%s); rebuilding it", key, exc)
            for name in ("data.mdb", "lock.mdb"):
                try:
                    os.remove(os.path.join(key, name))
                except FileNotFoundError:
                    pass
            env = _open_env(key, create=True)
        except lmdb.Error as exc:
            if "already open" not in str(exc):
                raise
            raise RuntimeError(
                f"the dataset cache store {key} cannot be opened in this process: it was forked "
                "while another thread was using it; open it in a process started after that "
                "use, or with the 'spawn' start method") from None
        # Reader slots of processes killed with -9 are left in lock.mdb; clear them now so
        # they do not pin old pages forever.
        env.reader_check()
        _open[key] = [env, 1]
        return env


def _open_env(key, create):
    lock_file = os.path.join(key, "lock.mdb")
    if create or os.path.exists(lock_file):
        if not os.path.exists(lock_file):
            # Creating the lock file and the first pages needs room (see disk_space).
            disk_space.require_room(key, "the dataset cache store")
        # Reader slots live in the memory-mapped lock file: its pages get their storage now,
        # so that a thread taking a new slot on a full tmpfs gets no SIGBUS. This process
        # holds no lock on the file yet (one handle per environment per process).
        disk_space.preallocate(lock_file, LOCK_FILE_BYTES)
    durable = not cache_root_mod.is_tmpfs(key)
    return lmdb.open(key, map_size=MAP_SIZE, subdir=True, create=create,
                     # On tmpfs an fsync buys nothing; on disk, sync data but not the meta page
                     # every commit (LMDB keeps integrity, may lose the last batch).
                     sync=durable, metasync=False, readahead=False, meminit=False,
                     max_readers=MAX_READERS, max_dbs=0, max_spare_txns=0, lock=True)


def release(path):
    key = os.path.realpath(path)
    with _lock:
        entry = _open.get(key)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] <= 0:
            del _open[key]
            _close(entry[0])


def forget_under(directory):
    """Close every handle this process holds inside ``directory`` (before deleting it)."""
    prefix = os.path.realpath(directory).rstrip("/") + "/"
    with _lock:
        for key in [k for k in _open if k.startswith(prefix) or k + "/" == prefix]:
            _close(_open.pop(key)[0])


def _close(env):
    with _active_lock:
        _active.pop(id(env), None)
    env.close()


def open_count():
    with _lock:
        return len(_open)
