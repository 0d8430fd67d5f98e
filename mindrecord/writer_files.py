"""File names and file lifetimes for the writer.

New data files are unnamed (O_TMPFILE) until commit, or, where the file system cannot do
that, written under hidden temporary names beside the final ones; at commit they are named and
renamed into place, so an interrupted, failed or killed writer never leaves a file that looks
complete. Appends
modify the existing files in place; on failure they are rolled back (truncated to their old
size, bytes written inside the old extent zeroed), so the old header still describes them.
"""
import errno
import os
import uuid

from .errors import ParamTypeError, ParamValueError

_FORBIDDEN = set('\\/:*?"<>|`&;\'')


def check_file_name(file_name, param="file_name"):
    """MindSpore's file-name rules; returns the name as a str."""
    if isinstance(file_name, os.PathLike):
        file_name = os.fspath(file_name)
    if not isinstance(file_name, str):
        raise ParamTypeError(f"'{param}' expect str type.")
    if not file_name:
        raise ParamValueError(f"File path is not valid: '{param}' is empty.")
    dirname, base = os.path.split(file_name)
    if not base:
        raise ParamValueError(f"File path should not end with '/': {file_name!r}.")
    if base.startswith(" ") or base.endswith(" "):
        raise ParamValueError(f"File name should not start/end with space: {file_name!r}.")
    if set(base) & _FORBIDDEN:
        raise ParamValueError(r"File name should not contains \/:*?\"<>|`&;\'")
    return file_name


def shard_paths(file_name, shard_num):
    """Absolute shard file paths: the name itself, or name + zero-padded shard index."""
    path = os.path.abspath(file_name)
    if shard_num == 1:
        return [path]
    width = len(str(shard_num - 1))
    return [path + str(i).rjust(width, "0") for i in range(shard_num)]


def temp_path(final_path):
    """Hidden temporary name beside final_path (same file system, so rename is atomic)."""
    dirname, base = os.path.split(final_path)
    return os.path.join(dirname, f".{base}.{os.getpid()}-{uuid.uuid4().hex[:8]}.partial")


def create_unnamed(final_path):
    """(fd, None) for an unnamed file (O_TMPFILE) in final_path's directory, or (fd, name) of
    a hidden temporary file where the file system cannot create unnamed files."""
    directory = os.path.dirname(final_path)
    if hasattr(os, "O_TMPFILE"):
        try:
            fd = os.open(directory, os.O_TMPFILE | os.O_RDWR, 0o644)
        except OSError as exc:
            if exc.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
                raise
        else:
            if _can_name_unnamed(fd, final_path):
                return fd, None
            os.close(fd)
    tmp = temp_path(final_path)
    return os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644), tmp


_LINKABLE = {}    # st_dev -> whether unnamed files on that device can be linked into place


def _can_name_unnamed(fd, final_path):
    """Whether an unnamed file can later get a name through /proc/self/fd (it cannot without
    /proc, and some sandboxes refuse the link with EXDEV); probed once per device."""
    device = os.fstat(fd).st_dev
    if device not in _LINKABLE:
        probe = temp_path(final_path)
        try:
            os.link(f"/proc/self/fd/{fd}", probe)
            os.unlink(probe)
            _LINKABLE[device] = True
        except OSError:
            _LINKABLE[device] = False
    return _LINKABLE[device]


def publish(fd, temp_name, final_path):
    """Give a finished file its final name, replacing any file there.

    Unnamed files (temp_name None) are linked straight to final_path when nothing is there,
    else linked to a hidden name and renamed over it (link cannot replace a file); where /proc
    is unavailable to link through, the bytes are copied to a hidden name first."""
    if temp_name is not None:
        os.replace(temp_name, final_path)
        return
    source = f"/proc/self/fd/{fd}"
    if not os.path.lexists(final_path):
        try:
            os.link(source, final_path)
            return
        except FileExistsError:
            pass
        except OSError:
            source = None
    tmp = temp_path(final_path)
    try:
        if source is not None:
            try:
                os.link(source, tmp)
            except OSError:
                _copy_fd_to(fd, tmp)
        else:
            _copy_fd_to(fd, tmp)
        os.replace(tmp, final_path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _copy_fd_to(fd, path):
    out = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        size = os.fstat(fd).st_size
        offset = 0
        while offset < size:
            sent = os.sendfile(out, fd, offset, size - offset)
            if sent == 0:
                raise OSError(errno.EIO, f"short copy while writing {path}")
            offset += sent
    finally:
        os.close(out)


def existing_files(paths):
    found = []
    for path in paths:
        for candidate in (path, path + ".db"):
            if os.path.lexists(candidate):
                found.append(candidate)
    return found


class FileSet:
    """Open descriptors and temporary files of one writer; release() is idempotent and is also
    registered as the writer's finalizer, so a writer dropped without commit cleans up."""

    def __init__(self):
        self.fds = []
        self.temp_files = []
        self.rollbacks = []          # (fd, original size, touched list) for appends
        self.pools = []              # write-behind executors (parallel_writer=True)
        self.done = False

    def shutdown_pools(self):
        # Wait for writes in flight before any descriptor is closed.
        for pool in self.pools:
            pool.shutdown(wait=True, cancel_futures=True)
        self.pools = []

    def release(self, rollback=True):
        if self.done:
            return
        self.done = True
        self.shutdown_pools()
        for fd, size, touched in self.rollbacks if rollback else ():
            try:
                for offset, length in touched:
                    if offset < size:
                        os.pwrite(fd, bytes(min(length, size - offset)), offset)
                os.ftruncate(fd, size)
            except OSError:
                pass
        for fd in self.fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self.fds = []
        for path in self.temp_files if rollback else ():
            try:
                os.unlink(path)
            except OSError:
                pass
        self.temp_files = []
