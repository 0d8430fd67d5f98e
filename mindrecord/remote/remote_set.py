"""Opening a remote MindRecord set from its headers, and materialising its shards on demand.

Opening ``s3://bucket/dir/train.mindrecord0`` costs one listing of ``dir`` (sizes and ETags of
every shard and ``.db``) plus one ranged read of each shard's first bytes (its header; headers are
kept in the node-local cache, so a reopen of an unchanged set costs the listing only). Rows are
located from the headers; the ``.db`` files must be listed (MindSpore requires them) but are not
read.

A shard's bytes are read when the reader first needs them: the whole object is downloaded into
the node-local cache (``shard_cache``), checked, and then memory-mapped like a local file. Only
the bytes that hold data are read: the used part of each page (pages are padded to the page
size, 32 MiB by default, and the header area to the header size, 16 MiB), as concurrent ranged
reads of at most ``CHUNK_BYTES``; the padding stays a hole of the sparse cache file.
``prefetch(order)`` downloads shards ahead of the reader, in the order in which the sampler will
need them, a few at a time.
"""
import os
import threading
from concurrent.futures import ThreadPoolExecutor

from ..header import header_from_bytes, header_length, invalid_header, missing_index
from . import urls
from .objects import RemoteStore, check_listed
from .retry import ChangedObject
from .shard_cache import ShardCache

HEAD_BYTES = 1 << 16        # one read gets the header of nearly every shard
CHUNK_BYTES = 64 << 20      # ranged reads of a download: one per page of the default size
GAP_BYTES = 8 << 20         # padding read rather than a request more
CHUNKS_AT_ONCE = 4          # concurrent ranged reads per shard
SHARDS_AHEAD = 2            # shards downloaded ahead of the reader at once


def _listing(store, directory, memo):
    if directory not in memo:
        memo[directory] = store.list_dir(directory)
    return memo[directory]


def _object(store, url, memo):
    """ObjectInfo of `url` from its directory's listing (one request per directory), or from
    a HEAD where the store cannot list."""
    listing = _listing(store, urls.dirname(url), memo)
    if listing is None:
        return store.info(url)
    return check_listed(listing, url)


class RemoteShardSet:
    """The shards of one remote set: their URLs, headers and sizes, and their local files."""

    def __init__(self, file_name, storage_options=None, check_index=True, cache=None,
                 listings=None):
        """listings: a dict kept by the caller between opens ({directory URL: listing}): a
        dataset passes one, so that every open of its source (metadata, native access, each
        pipeline) costs no request once the set was listed. A listing reused after an object
        changed never serves wrong rows: the cache is keyed by the listed ETag, and a download
        ends by checking the object's ETag."""
        first = file_name[0] if isinstance(file_name, (list, tuple)) else file_name
        self.store = RemoteStore(first, storage_options)
        self.cache = cache or ShardCache()
        memo = {} if listings is None else listings
        if isinstance(file_name, (list, tuple)):
            objects = [_object(self.store, u, memo) for u in file_name]
            heads = self._heads(objects)
        else:
            obj0 = _object(self.store, file_name, memo)
            head0 = self._heads([obj0])[0]
            header0 = header_from_bytes(obj0.url, head0, obj0.size)
            names = header0.get("shard_addresses")
            if (not isinstance(names, list) or not names or not all(
                    isinstance(n, str) and n and "/" not in n for n in names)):
                raise invalid_header(obj0.url, "'shard_addresses' must be a non-empty list of "
                                               "file names")
            directory = urls.dirname(file_name)
            objects = [_object(self.store, urls.join(directory, n), memo) for n in names]
            others = self._heads([o for o in objects if o.url != obj0.url])
            by_url = {obj0.url: head0}
            by_url.update({o.url: h for o, h in zip([o for o in objects if o.url != obj0.url],
                                                     others)})
            heads = [by_url[o.url] for o in objects]
        if check_index:
            for obj in objects:
                self._check_index_listed(obj, memo)
        self.objects = objects
        self._head_bytes = heads
        self.headers = [header_from_bytes(o.url, h, o.size) for o, h in zip(objects, heads)]
        self._order = []
        self._closed = False
        self._start_downloaders()

    def _start_downloaders(self):
        """The download threads, their futures and lock, in this process."""
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._futures = {}
        self._shard_pool = ThreadPoolExecutor(SHARDS_AHEAD, thread_name_prefix="mr-remote")
        self._chunk_pool = ThreadPoolExecutor(SHARDS_AHEAD * CHUNKS_AT_ONCE,
                                              thread_name_prefix="mr-remote-range")

    def _after_fork(self):
        """A forked child (a DataLoader worker) has the parent's pools without their threads,
        and maybe its lock held: it starts its own. The cache is shared, so a shard the parent
        downloaded is not downloaded again."""
        if self._pid != os.getpid():
            inherited = self._futures.values()
            self._start_downloaders()
            for f in inherited:
                if f.done() and not f.cancelled() and f.exception() is None:
                    os.close(f.result())

    # ---- opening --------------------------------------------------------------------------
    def _heads(self, objects):
        """The header bytes of each object: from the cache, else one ranged read each (two
        for a header longer than HEAD_BYTES)."""
        heads = [self.cache.header(o) for o in objects]
        missing = [i for i, h in enumerate(heads) if h is None]
        read = self.store.read_heads([objects[i] for i in missing], HEAD_BYTES)
        for i, head in zip(missing, read):
            obj = objects[i]
            end = header_length(obj.url, head, obj.size) if len(head) >= 8 else 8
            if end > len(head):
                head += self.store.read_range(obj, len(head), min(end, obj.size))
            head = head[:end]
            header_from_bytes(obj.url, head, obj.size)      # validate before keeping it
            self.cache.put_header(obj, head)
            heads[i] = head
        return heads

    def _check_index_listed(self, obj, memo):
        listing = _listing(self.store, urls.dirname(obj.url), memo)
        db_url = obj.url + ".db"
        db = listing.get(urls.basename(db_url)) if listing is not None else None
        if listing is not None and (db is None or db.size < 8):
            raise missing_index(db_url)

    # ---- shards ---------------------------------------------------------------------------
    def _used_ranges(self, i):
        """[(start, stop)] of the bytes of shard i that hold data: the used part of each page
        (pages are padded to the page size, and the header area to the header size, with
        bytes nobody reads). Ranges less than GAP_BYTES apart are read as one (a request costs
        more than a few MiB of padding), and a range is cut into reads of at most CHUNK_BYTES."""
        header, size = self.headers[i], self.objects[i].size
        header_size, page_size = header.get("header_size"), header.get("page_size")
        used = sorted((header_size + p["page_id"] * page_size,
                       min(header_size + p["page_id"] * page_size + p["page_size"], size))
                      for p in header.get("page") or [])
        merged = []
        for start, stop in used:
            if merged and start - merged[-1][1] <= GAP_BYTES and \
                    stop - merged[-1][0] <= CHUNK_BYTES:
                merged[-1] = (merged[-1][0], max(stop, merged[-1][1]))
            else:
                merged.append((start, stop))
        return [(a, min(a + CHUNK_BYTES, stop)) for start, stop in merged
                for a in range(start, stop, CHUNK_BYTES)]

    def _download(self, i, fd):
        """Writes shard i's header (known since the open) and the used bytes of its pages into
        `fd` (a sparse file of the object's size), then checks that the object is unchanged."""
        obj = self.objects[i]
        head = self.cache.header(obj) or self._heads([obj])[0]
        if head != self._head_bytes[i]:
            raise ChangedObject(f"[ERROR] The mindrecord file {obj.url} changed while it was "
                                f"being read (its header differs); open the dataset again.")
        os.pwrite(fd, head, 0)
        futures = [self._chunk_pool.submit(self.store.read_into, obj, a, b, fd)
                   for a, b in self._used_ranges(i)]
        try:
            for f in futures:
                f.result()
        except BaseException:
            for f in futures:
                f.cancel()
            raise
        self.store.check_unchanged(obj)

    def _fetch(self, i):
        if self._closed:
            raise RuntimeError(f"[ERROR] The mindrecord file {self.objects[i].url} was closed.")
        need = len(self._head_bytes[i]) + sum(b - a for a, b in self._used_ranges(i))
        return self.cache.fetch(self.objects[i], lambda fd: self._download(i, fd), need)

    def _future(self, i):
        self._after_fork()
        with self._lock:
            future = self._futures.get(i)
            if future is None or (future.done() and future.exception() is not None):
                future = self._futures[i] = self._shard_pool.submit(self._fetch, i)
            return future

    def local_file(self, i):
        """A read-only descriptor of shard i's complete, verified bytes, which the caller
        closes. Blocks until it is downloaded; starts the next shards of the prefetch order."""
        future = self._future(i)
        self._schedule_after(i)
        return os.dup(future.result())

    def prefetch(self, order):
        """Downloads shards in the background in `order` (indices, first needed first): the
        first SHARDS_AHEAD now, each further one when the reader reaches the one before it,
        so that no more than a few shards are fetched ahead of what is read."""
        with self._lock:
            self._order = [int(i) for i in dict.fromkeys(order)]
        for i in self._order[:SHARDS_AHEAD]:
            self._future(i)

    def _schedule_after(self, i):
        order = self._order
        if i in order:
            k = order.index(i)
            for j in order[k + 1:k + 1 + SHARDS_AHEAD]:
                self._future(j)

    def close(self):
        """Stops the downloads (the ones running finish their current ranges)."""
        self._closed = True
        self._after_fork()
        with self._lock:
            futures, self._futures = self._futures, {}
        for f in futures.values():
            f.cancel()
        self._shard_pool.shutdown(wait=True, cancel_futures=True)
        self._chunk_pool.shutdown(wait=True, cancel_futures=True)
        for f in futures.values():      # descriptors of downloads nobody asked for
            if f.done() and not f.cancelled() and f.exception() is None:
                os.close(f.result())
