"""Full file systems, recognised whatever the store reports.

LMDB reports a full file system with the errno the kernel gave: ENOSPC or EDQUOT on disk, but
EIO when tmpfs (the default cache root, /dev/shm) fills in the middle of a write. So a failed
write also counts as "full" when the file system it went to has less room left than the write
needed. Worse, LMDB memory-maps its lock file: touching a page of it that tmpfs cannot
allocate kills the process with SIGBUS. So a store is opened only with room to spare, and its
lock file's pages are allocated before LMDB maps it (``preallocate``)."""
import errno
import os

import lmdb

# Free bytes below which a file system counts as full: when a write to it failed, and before
# a new store (lock file and first pages) is created on it.
FULL_MARGIN_BYTES = 1 << 20


class StoreFull(lmdb.Error):
    """A cache store could not be created, opened or written: its file system is full."""


def free_bytes(path):
    """Bytes an unprivileged writer may still use on ``path``'s file system (the nearest
    existing parent's); infinite when it cannot be told."""
    while path and not os.path.exists(path):
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    try:
        st = os.statvfs(path or "/")
    except OSError:
        return float("inf")
    return st.f_bavail * st.f_frsize


def is_full_error(exc, dirs=(), needed=0):
    """Whether a failed store operation means "no room" on one of ``dirs``."""
    if isinstance(exc, (StoreFull, lmdb.MapFullError)):
        return True
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    text = str(exc).lower()
    if "no space" in text or "disk quota" in text:
        return True
    return any(free_bytes(d) < needed + FULL_MARGIN_BYTES for d in dirs)


def require_room(path, what):
    """StoreFull unless ``path``'s file system has the margin free."""
    if free_bytes(path) < FULL_MARGIN_BYTES:
        raise StoreFull(f"no room to create {what} {path}: its file system has less than "
                        f"{FULL_MARGIN_BYTES >> 20} MiB free")


def preallocate(path, size):
    """Create the file ``path`` if needed, at least ``size`` bytes long, with storage for every
    page (existing pages and contents are kept), so that writing through a memory map of it
    can never fault; StoreFull when there is no room.

    Call it only while this process holds no fcntl lock on the file: closing any descriptor
    of a file drops every such lock the process holds on it (LMDB's lock file included)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        os.posix_fallocate(fd, 0, max(size, os.fstat(fd).st_size))
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise StoreFull(f"no room for the pages of {path}") from None
        if exc.errno not in (errno.EOPNOTSUPP, errno.EINVAL):   # a file system without it
            raise
    finally:
        os.close(fd)
