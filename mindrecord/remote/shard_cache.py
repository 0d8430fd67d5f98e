"""The node-local cache of remote shard files.

One directory per node (``MINDDATA_REMOTE_CACHE``, default ``~/.cache/minddata/remote``), shared
by every process that reads through it:

- an entry is a whole object, named by a hash of its URL and of the version the store reported
  (ETag and size), so a changed object is a different entry and is never served for the old one;
- a download goes to ``<entry>.partial.<pid>`` and becomes the entry by one atomic rename after it
  was verified (length of every range, size and ETag unchanged at the end) and fsync'ed: a reader
  never sees a partial file, and a kill -9 leaves only a partial that the next run removes;
- one process downloads an entry at a time (an exclusive ``flock`` on ``<entry>.lock``); the
  others wait for it and then use its file. The kernel drops the lock of a killed process;
- the cache holds at most ``max_bytes`` (``MINDDATA_REMOTE_CACHE_SIZE``, e.g. "50GB"; default 80%
  of the disk space free when the cache is first used); before a download, the least recently
  used entries are removed until the new one fits (under ``.lock``, the directory-wide lock).
  Removing an entry that a reader has open is safe: the reader keeps its descriptor.
"""
import fcntl
import hashlib
import os
import re
import shutil
import tempfile

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?I?B?)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "B": 1, "K": 1e3, "KB": 1e3, "KIB": 2 ** 10, "M": 1e6, "MB": 1e6,
          "MIB": 2 ** 20, "G": 1e9, "GB": 1e9, "GIB": 2 ** 30, "T": 1e12, "TB": 1e12,
          "TIB": 2 ** 40}
_ENTRY_SUFFIX = ".shard"
_HEADER_SUFFIX = ".header"


def parse_size(text, what="MINDDATA_REMOTE_CACHE_SIZE"):
    """Bytes of a size such as 1000000, "500MB", "20GiB"."""
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    else:
        m = _SIZE.match(str(text))
        if not m or (m.group(2) or "").upper() not in _UNITS:
            raise ValueError(f"{what} must be a size in bytes such as 1000000, '500MB' or "
                             f"'20GiB', got {text!r}")
        value = int(float(m.group(1)) * _UNITS[(m.group(2) or "").upper()])
    if value <= 0:
        raise ValueError(f"{what} must be positive, got {text!r}")
    return value


def default_directory():
    return os.environ.get("MINDDATA_REMOTE_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "minddata", "remote")


class _Flock:
    """An flock on a lock file (exclusive or shared), released on exit or by the kernel when
    the process dies."""

    def __init__(self, path, shared=False):
        self.path, self.shared = path, shared

    def __enter__(self):
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX)
        except BaseException:
            os.close(self.fd)
            raise
        return self

    def __exit__(self, *exc):
        os.close(self.fd)       # closing drops the lock
        return False


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class ShardCache:
    """See the module doc. ``directory``/``max_bytes`` default to the environment's."""

    def __init__(self, directory=None, max_bytes=None):
        self.directory = os.path.abspath(directory or default_directory())
        try:
            os.makedirs(self.directory, exist_ok=True)
        except OSError as exc:
            raise RuntimeError(f"The remote-file cache directory {self.directory} "
                               f"(MINDDATA_REMOTE_CACHE) cannot be created: {exc}") from None
        if max_bytes is None:
            env = os.environ.get("MINDDATA_REMOTE_CACHE_SIZE")
            if env:
                max_bytes = parse_size(env)
            else:
                max_bytes = int(0.8 * (shutil.disk_usage(self.directory).free +
                                       self.used_bytes()))
        self.max_bytes = parse_size(max_bytes, "cache size")

    # ---- names ----------------------------------------------------------------------------
    def _stem(self, obj):
        url = hashlib.sha256(obj.url.encode("utf-8")).hexdigest()[:24]
        version = hashlib.sha256(f"{obj.etag}|{obj.size}".encode("utf-8")).hexdigest()[:12]
        return os.path.join(self.directory, f"{url}-{version}")

    def entry_path(self, obj):
        return self._stem(obj) + _ENTRY_SUFFIX

    def _entries(self):
        """[(path, size, mtime)] of the complete entries."""
        out = []
        for name in os.listdir(self.directory):
            if name.endswith(_ENTRY_SUFFIX) or name.endswith(_HEADER_SUFFIX):
                path = os.path.join(self.directory, name)
                try:
                    st = os.stat(path)
                except FileNotFoundError:
                    continue
                out.append((path, st.st_blocks * 512, st.st_mtime))   # disk used, not holes
        return out

    def used_bytes(self):
        return sum(size for _, size, _ in self._entries())

    # ---- headers (small; kept so that a reopen costs one listing) -------------------------
    def header(self, obj):
        """The cached first bytes of `obj` (its MindRecord header), or None."""
        try:
            with open(self._stem(obj) + _HEADER_SUFFIX, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def put_header(self, obj, data):
        self._write_atomically(self._stem(obj) + _HEADER_SUFFIX, data)

    def _write_atomically(self, path, data):
        fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise

    # ---- entries --------------------------------------------------------------------------
    def open_entry(self, obj):
        """A read-only descriptor of the complete entry of `obj`, or None. The entry's mtime
        is its last use (LRU)."""
        path = self.entry_path(obj)
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            return None
        if os.fstat(fd).st_size != obj.size:     # never happens unless someone edits it
            os.close(fd)
            return None
        try:
            os.utime(path)
        except OSError:
            pass
        return fd

    def fetch(self, obj, download, need=None):
        """A read-only descriptor of the entry of `obj`, downloading it first if needed.

        download(fd) writes the object's bytes into the open file `fd` (already of the
        object's size, sparse: bytes nobody reads may stay holes) and verifies them; `need` is
        how many bytes it writes (the room to make; default: the object's size); it raises to
        abandon the download (the partial file is removed)."""
        fd = self.open_entry(obj)
        if fd is not None:
            return fd
        need = obj.size if need is None else need
        if need > self.max_bytes:
            raise RuntimeError(f"{obj.url} ({need} bytes of data) does not fit the remote-file "
                               f"cache of {self.max_bytes} bytes in {self.directory}; raise "
                               f"MINDDATA_REMOTE_CACHE_SIZE")
        stem = self._stem(obj)
        with _Flock(stem + ".lock"):
            fd = self.open_entry(obj)          # another process finished it meanwhile
            if fd is not None:
                return fd
            self._remove_partials(stem)
            self._make_room(need)
            partial = f"{stem}.partial.{os.getpid()}"
            wfd = os.open(partial, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
            try:
                os.ftruncate(wfd, obj.size)     # sparse: download writes what holds data
                download(wfd)
                if os.fstat(wfd).st_size != obj.size:
                    raise RuntimeError(f"download of {obj.url} wrote {os.fstat(wfd).st_size} "
                                       f"bytes, expected {obj.size}")
                os.fsync(wfd)
                os.rename(partial, self.entry_path(obj))
            except BaseException:
                os.close(wfd)
                try:
                    os.unlink(partial)
                except FileNotFoundError:
                    pass
                raise
            os.close(wfd)
            dfd = os.open(self.directory, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
            fd = self.open_entry(obj)
        if fd is None:          # evicted between the rename and the open by a tiny cache
            raise RuntimeError(f"the cache entry of {obj.url} was evicted as soon as it was "
                               f"written; MINDDATA_REMOTE_CACHE_SIZE ({self.max_bytes}) is too "
                               f"small for the shards read at once")
        return fd

    def _remove_partials(self, stem):
        """Partial downloads of this entry: left by a killed process (we hold its lock)."""
        prefix = os.path.basename(stem) + ".partial."
        for name in os.listdir(self.directory):
            if name.startswith(prefix):
                try:
                    os.unlink(os.path.join(self.directory, name))
                except FileNotFoundError:
                    pass

    def _make_room(self, size):
        """Evict least recently used entries until `size` more bytes fit; also removes partial
        files of dead processes."""
        with _Flock(os.path.join(self.directory, ".lock")):
            for name in os.listdir(self.directory):
                pid = name.rsplit(".partial.", 1)[-1] if ".partial." in name else None
                if pid and pid.isdigit() and not _pid_alive(int(pid)):
                    try:
                        os.unlink(os.path.join(self.directory, name))
                    except FileNotFoundError:
                        pass
            entries = sorted(self._entries(), key=lambda e: e[2])
            used = sum(size for _, size, _ in entries)
            for path, entry_size, _ in entries:
                if used + size <= self.max_bytes:
                    break
                try:
                    os.unlink(path)
                    used -= entry_size
                except FileNotFoundError:
                    pass
