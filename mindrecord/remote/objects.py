"""The objects of one remote MindRecord set: one listing, ranged reads, length and ETag checks.

Every request goes through ``retry.with_retries``. A ranged read that returns fewer bytes than
asked for (a truncated body) is retried; an object whose ETag or size differs from the one the
listing gave is refused (``retry.ChangedObject``), so bytes of two versions of an object are never
mixed into one shard.
"""
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from . import urls
from ..header import not_found
from .retry import DEFAULT_POLICY, ChangedObject, ShortRead, with_retries

# botocore waits 60 s for a silent connection by default; a store that stops answering should
# cost a retry much sooner (a retry reconnects). storage_options["config_kwargs"] overrides it.
_S3_TIMEOUTS = {"connect_timeout": 10, "read_timeout": 30}


@dataclass(frozen=True)
class ObjectInfo:
    """What the store said about one object when the set was opened."""
    url: str
    size: int
    etag: str       # "" when the store gives none (then only the size pins the version)


def _etag(entry):
    for key in ("ETag", "etag", "md5Hash", "generation"):
        value = entry.get(key)
        if value:
            return str(value).strip('"')
    return ""


class RemoteStore:
    """The fsspec file system behind a set's URLs, with the retry policy.

    The file system is made again in a forked child (fsspec's async clients do not survive a
    fork), so a store can be pickled to and used by worker processes."""

    def __init__(self, url, storage_options=None, policy=DEFAULT_POLICY):
        self.storage_options = urls.check_storage_options(storage_options)
        self.scheme = urls.scheme(url)
        self.policy = policy
        self._fs = None
        self._pid = None
        self.filesystem(url)        # fails here, naming the URL, when the protocol is unusable

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_fs"] = state["_pid"] = None
        return state

    def _options(self):
        options = dict(self.storage_options)
        if self.scheme in ("s3", "s3a") and "config_kwargs" not in options:
            options["config_kwargs"] = dict(_S3_TIMEOUTS)
        return options

    def filesystem(self, url):
        """(fs, path) for `url` on this store."""
        if self._fs is None or self._pid != os.getpid():
            self._fs, _ = urls.filesystem(url, self._options())
            self._pid = os.getpid()
        return self._fs, self._fs._strip_protocol(url)

    # ---- metadata -------------------------------------------------------------------------
    def list_dir(self, directory):
        """{basename: ObjectInfo} of the objects directly under the URL `directory` (one
        listing request where the store can list; None where it cannot, e.g. plain HTTP, whose
        "directories" are whatever HTML a server chooses to give, if any)."""
        if self.scheme in ("http", "https"):
            return None
        fs, path = self.filesystem(directory)

        def call():
            try:
                return fs.ls(path, detail=True, refresh=True)
            except TypeError:           # file systems without a refresh argument
                return fs.ls(path, detail=True)
        try:
            entries = with_retries(call, directory, "listing", self.policy)
        except NotImplementedError:
            return None
        except RuntimeError as exc:
            if "can not be found" in str(exc):      # no such directory: nothing is listed
                return {}
            raise
        found = {}
        for entry in entries:
            if entry.get("type", "file") != "file":
                continue
            name = entry["name"].rstrip("/").rsplit("/", 1)[-1]
            found[name] = ObjectInfo(urls.join(directory, name), int(entry.get("size") or 0),
                                     _etag(entry))
        return found

    def info(self, url):
        """ObjectInfo of one object (one HEAD request)."""
        fs, path = self.filesystem(url)
        entry = with_retries(lambda: fs.info(path, refresh=True) if self.scheme.startswith("s3")
                             else fs.info(path), url, "reading the size of", self.policy)
        if entry.get("type", "file") != "file":
            raise not_found(url)
        return ObjectInfo(url, int(entry.get("size") or 0), _etag(entry))

    def check_unchanged(self, obj):
        """ChangedObject unless the store still has the version of `obj` (one request)."""
        now = self.info(obj.url)
        if now.size != obj.size or (obj.etag and now.etag and now.etag != obj.etag):
            raise ChangedObject(f"[ERROR] The mindrecord file {obj.url} changed while it was "
                                f"being read (size {obj.size} -> {now.size}, ETag {obj.etag!r} "
                                f"-> {now.etag!r}); open the dataset again.")

    # ---- bytes ----------------------------------------------------------------------------
    def read_range(self, obj, start, stop):
        """Bytes start..stop-1 of object `obj` (exactly that many, or an error)."""
        if not 0 <= start <= stop <= obj.size:
            raise ValueError(f"range {start}..{stop} is outside {obj.url} ({obj.size} bytes)")
        fs, path = self.filesystem(obj.url)

        def call():
            data = fs.cat_file(path, start=start, end=stop)
            if len(data) != stop - start:
                raise ShortRead(f"asked for {stop - start} bytes, got {len(data)}")
            return data
        return with_retries(call, obj.url, f"reading bytes {start}-{stop - 1} of", self.policy)

    def read_into(self, obj, start, stop, fd):
        """Writes bytes start..stop-1 of `obj` at the same offsets of the file `fd`."""
        data = self.read_range(obj, start, stop)
        view = memoryview(data)
        offset = start
        while view:
            n = os.pwrite(fd, view, offset)
            view, offset = view[n:], offset + n

    def read_heads(self, objs, length):
        """The first min(length, size) bytes of each object, read concurrently."""
        if not objs:
            return []
        with ThreadPoolExecutor(max_workers=min(16, len(objs))) as pool:
            return list(pool.map(lambda o: self.read_range(o, 0, min(length, o.size)), objs))


def check_listed(listing, url):
    """The ObjectInfo of `url` from a listing, RuntimeError naming it when it is not there."""
    obj = listing.get(urls.basename(url))
    if obj is None:
        raise not_found(url)
    return obj


__all__ = ["ObjectInfo", "RemoteStore", "check_listed", "ChangedObject"]
