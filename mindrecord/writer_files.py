"""File names and file lifetimes for the writer.

New data files are unnamed (O_TMPFILE) until commit, or, where the file system cannot do
that, written under hidden temporary names beside the final ones; at commit they are named and
renamed into place, so an interrupted, failed or killed writer never leaves a file that looks
complete. Appends
modify the existing files in place; on failure they are rolled back (truncated to their old
size, bytes written inside the old extent zeroed), so the old header still describes them.
"""
import errno
import hashlib
import os
import re
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


# Hidden temporary names are "<stem>~<pid>-<8 hex>.partial" beside the final name. The stem is
# "." + the final name, cut and completed by a hash of it when needed, so that the temporary
# name stays within NAME_MAX for every legal final name; the pid lets the next writer on the
# path remove the files of writers that died (kill -9 cannot be caught).
NAME_MAX = 255
_TEMP_SUFFIX_ROOM = len("~4294967295-0123abcd.partial")
_STEM_MAX = NAME_MAX - _TEMP_SUFFIX_ROOM
_TEMP_TAIL = re.compile(r"~(\d+)-[0-9a-f]{8}\.partial")


def hidden_stem(final_path):
    """The hidden-name stem of final_path's base name (see above)."""
    base = os.path.basename(final_path)
    if len(os.fsencode(base)) + 1 <= _STEM_MAX:
        return "." + base
    digest = hashlib.blake2b(os.fsencode(base), digest_size=4).hexdigest()
    cut = base[:_STEM_MAX - 10]
    while len(os.fsencode(cut)) > _STEM_MAX - 10:     # NAME_MAX counts bytes
        cut = cut[:-1]
    return "." + cut + "~" + digest


def temp_path(final_path):
    """Hidden temporary name beside final_path (same file system, so rename is atomic)."""
    return os.path.join(os.path.dirname(final_path),
                        f"{hidden_stem(final_path)}~{os.getpid()}-{uuid.uuid4().hex[:8]}.partial")


def remove_temp_files(final_paths, only_dead_writers=True):
    """Remove the hidden temporary files of final_paths (each also stands for its .db) that
    writers left behind; with only_dead_writers, only those whose writer process is gone."""
    stems = {}
    for path in final_paths:
        for final in (path, path + ".db"):
            stems.setdefault(os.path.dirname(os.path.abspath(final)), set()).add(
                hidden_stem(final))
    for directory, wanted in stems.items():
        try:
            names = os.listdir(directory)
        except OSError:
            continue
        for name in names:
            if not name.endswith(".partial"):
                continue
            stem, _, tail = name.rpartition("~")
            match = _TEMP_TAIL.fullmatch("~" + tail)
            if stem not in wanted or match is None:
                continue
            if only_dead_writers and process_alive(int(match.group(1))):
                continue
            try:
                os.unlink(os.path.join(directory, name))
            except OSError:
                pass


def process_alive(pid):
    """Whether process `pid` exists (on this host, in this pid namespace)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:          # it exists, as another user's process
        return True
    return True


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
    """Give one finished file its final name, replacing any file there (a rename, so a reader
    sees the old file or the new one). Sets of files go through writer_commit.publish_set."""
    if temp_name is None:
        temp_name = temp_path(final_path)
        name_file(fd, temp_name)
    try:
        os.replace(temp_name, final_path)
    except BaseException:
        try:
            os.unlink(temp_name)
        except OSError:
            pass
        raise


def name_file(fd, path):
    """Give open file fd (unnamed or not) the new name `path`: a hard link through /proc, or,
    where that is refused, a copy of its bytes."""
    try:
        os.link(f"/proc/self/fd/{fd}", path)
    except OSError:
        _copy_fd_to(fd, path)


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
    except BaseException:
        os.close(out)
        os.unlink(path)
        raise
    os.close(out)


def check_final_names(paths):
    """ParamValueError unless every shard name and its .db name fit NAME_MAX; RuntimeError if
    one of them is a directory. Checked when the writer is created, before anything is
    written."""
    for path in paths:
        for final in (path, path + ".db"):
            if len(os.fsencode(os.path.basename(final))) > NAME_MAX:
                raise ParamValueError(f"File name {os.path.basename(final)!r} is longer than "
                                      f"{NAME_MAX} bytes (NAME_MAX); the shard files and their "
                                      f".db files need names within it. Choose a shorter "
                                      f"file_name.")
            if os.path.isdir(final):
                raise RuntimeError(f"[ERROR] Invalid file, mindrecord file name: {final} is an "
                                   f"existing directory; a FileWriter cannot replace a "
                                   f"directory. Choose another file_name.")


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
