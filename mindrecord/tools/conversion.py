"""The conversion engine every converter uses: items -> rows -> MindRecord shards.

A converter describes its job as a :class:`ConversionSpec`: the schema, the list of source items
(cheap descriptors: a path, an index, a record offset) and a *loader* that turns a chunk of items
into rows. The engine then

* splits the items into contiguous per-shard ranges (``shard_set.split_rows``),
* loads chunks in a pool of worker threads (file reads, JPEG encoding and pyarrow all release the
  GIL) while one writer thread per shard feeds its own ``FileWriter`` (shards written in parallel),
* links the shards into one dataset (``shard_set.link_shards``),
* on bad input stops everything and removes what it wrote, or with ``skip_bad`` leaves the item
  out and records it in the skip report.

A destination may be a URL (s3://, gs://, any fsspec URL): the set is then converted into a
private local staging directory exactly as for a local destination and uploaded by
``remote.upload`` (shard 0 last, so it appears complete or not at all); the skip report goes
beside it (uploaded before the set).

Chunk boundaries depend only on the items, never on timing, so a run gives identical files for
any worker count, and the Ray backend (``ray_runner``) gives the same files as a local run.
"""
import collections
import dataclasses
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from .bad_input import BadItem, ConversionError, SkipReport
from . import shard_set
from ..remote.urls import basename as url_basename, is_url
from .malloc_tuning import retain_freed_memory

CHUNK_ROWS = 256           # rows per write_raw_data call (MindSpore's converters use 256 too)
LOOKAHEAD_CHUNKS = 3       # chunks loaded ahead of each shard writer


class ItemLoader:
    """Turns source items into rows. Subclasses define ``load(item) -> dict`` (raising
    :class:`BadItem` for unusable input) or override ``load_chunk`` when a whole chunk is cheaper
    to load at once. Must be picklable (it travels to Ray workers)."""

    def load(self, item):
        raise NotImplementedError

    def load_chunk(self, items):
        """List with one row dict or :class:`BadItem` per item, in order."""
        out = []
        for item in items:
            try:
                out.append(self.load(item))
            except BadItem as bad:
                out.append(bad)
        return out


@dataclass
class ConversionSpec:
    """One MindRecord dataset to write. ``items`` must support ``len`` and slicing."""
    destination: str
    schema: dict
    desc: str
    items: object
    loader: ItemLoader
    num_shards: int = 1
    index_fields: list = None
    header_size: int = None
    page_size: int = None
    pre_skipped: list = field(default_factory=list)   # (where, reason) found while listing
    # Rows per write_raw_data call (each call is a row group in the file); None: the whole
    # shard in one call, as MindSpore's CIFAR converters do. Loading still runs in chunks.
    write_rows: int = CHUNK_ROWS


@dataclass
class ConversionResult:
    """What a conversion wrote: ``rows`` written, ``skipped`` items ((where, reason) pairs),
    ``files`` (data files, in shard order), ``bytes`` (on disk, data and index files),
    ``seconds``."""
    rows: int = 0
    skipped: list = field(default_factory=list)
    files: list = field(default_factory=list)
    bytes: int = 0
    seconds: float = 0.0
    report_file: str = None

    def __eq__(self, other):
        """A finished conversion also equals MindSpore's ``SUCCESS`` (0), which MindSpore's
        converters return, so ``assert converter.transform() == SUCCESS`` keeps working."""
        if isinstance(other, ConversionResult):
            return vars(self) == vars(other)
        if isinstance(other, int) and not isinstance(other, bool):
            return other == 0
        return NotImplemented

    def merged(self, other):
        return ConversionResult(
            self.rows + other.rows, self.skipped + other.skipped, self.files + other.files,
            self.bytes + other.bytes, self.seconds + other.seconds,
            other.report_file or self.report_file)


@dataclass
class ShardOutcome:
    rows: int
    skipped: list


class _Cancelled(Exception):
    """Another shard failed; this one stops early."""


def open_shard_writer(spec, path, shard_num=1):
    """A FileWriter for one shard of ``spec``, schema and index set up (``shard_num`` > 1: a
    writer of the whole shard set at once, as benchmarks/convert_bench.py times FileWriter)."""
    from ..writer import FileWriter
    writer = FileWriter(path, shard_num=shard_num, overwrite=True)
    if spec.header_size:
        writer.set_header_size(spec.header_size)
    if spec.page_size:
        writer.set_page_size(spec.page_size)
    writer.add_schema(spec.schema, spec.desc)
    if spec.index_fields:
        writer.add_index(list(spec.index_fields))
    return writer


def _discard_writer(writer):
    """Release an uncommitted FileWriter's resources, whatever its version offers."""
    for name in ("abort", "_abort", "close"):   # FileWriter has no public abort
        method = getattr(writer, name, None)
        if callable(method):
            try:
                method()
            except Exception:   # noqa: BLE001 - cleanup after an error must not mask it
                pass
            return


def write_shard(spec, path, items, skip_bad, load_pool=None, on_items=None, cancel=None):
    """Write ``items`` as one shard file at ``path``; returns a :class:`ShardOutcome`.

    Chunks are loaded in ``load_pool`` (a thread pool) ahead of the writer when given, inline
    otherwise. Raises ConversionError on a bad item unless ``skip_bad``.
    """
    chunks = [items[i:i + CHUNK_ROWS] for i in range(0, len(items), CHUNK_ROWS)]
    writer = open_shard_writer(spec, path)
    committed = False
    pending = collections.deque()
    rows_written, skipped, rows = 0, [], []
    try:
        next_chunk = 0
        while next_chunk < len(chunks) or pending:
            while load_pool is not None and next_chunk < len(chunks) \
                    and len(pending) < LOOKAHEAD_CHUNKS:
                pending.append(load_pool.submit(spec.loader.load_chunk, chunks[next_chunk]))
                next_chunk += 1
            if pending:
                loaded = pending.popleft().result()
            else:
                loaded = spec.loader.load_chunk(chunks[next_chunk])
                next_chunk += 1
            if cancel is not None and cancel.is_set():
                raise _Cancelled()
            for entry in loaded:
                if isinstance(entry, BadItem):
                    if not skip_bad:
                        raise ConversionError(f"bad input: {entry}")
                    skipped.append((entry.where, entry.reason))
                else:
                    rows.append(entry)
            last = next_chunk >= len(chunks) and not pending
            if rows and (last or (spec.write_rows and len(rows) >= spec.write_rows)):
                writer.write_raw_data(rows, parallel_writer=True)   # write-behind
                rows_written += len(rows)
                rows = []
            if on_items is not None:
                on_items(len(loaded))
        writer.commit()
        committed = True
    finally:
        for fut in pending:
            fut.cancel()
        if not committed:
            _discard_writer(writer)
    return ShardOutcome(rows_written, skipped)


def check_destination(paths, overwrite, storage_options=None):
    """Refuse to replace existing files unless ``overwrite``; then clear the way. A URL
    destination is only checked (one listing, with ``overwrite`` False): its objects are
    replaced by the upload at the end, so the old set stays readable until then."""
    if is_url(paths[0]):
        if not overwrite:
            from ..remote.upload import RemoteSet
            RemoteSet(paths[0], storage_options).refuse_existing(_names(paths))
        return
    existing = shard_set.existing_outputs(paths)
    if existing and not overwrite:
        raise RuntimeError(
            f"Invalid file, mindrecord files already exist: {', '.join(existing)}. If you do not "
            "want to keep the files, set 'overwrite' to True (--overwrite) and try again.")
    directory = os.path.dirname(os.path.abspath(paths[0]))
    if not os.path.isdir(directory):
        # MindSpore 2.10's type (its FileWriter's "failed to get the realpath"; measured)
        raise RuntimeError(f"Invalid file, the destination directory {directory} does not "
                           f"exist.")
    shard_set.remove_outputs(paths)


def _names(paths):
    """Base names of a set's data and .db files."""
    return [url_basename(n) if is_url(n) else os.path.basename(n)
            for path in paths for n in (path, path + ".db")]


def remove_dataset(destination, num_shards, storage_options=None):
    """Remove a converted dataset (files or objects) again; best effort for objects."""
    paths = shard_set.shard_paths(destination, num_shards)
    if is_url(destination):
        from ..remote.upload import RemoteSet
        RemoteSet(destination, storage_options).delete(_names(paths), url_basename(paths[0]))
    else:
        shard_set.remove_outputs(paths)


def run_conversion(spec, workers=None, skip_bad=False, overwrite=False, report_file=None,
                   progress=None, backend="local", storage_options=None):
    """Convert ``spec``; returns a :class:`ConversionResult`.

    ``progress``: callable ``progress(n)`` told of every ``n`` source items handled.
    ``report_file``: where the skip report goes (default ``<destination>.skipped.txt``, written
    only when something was skipped; a URL is uploaded). ``backend``: "local" (threads) or
    "ray" (one task/shard; with a URL destination the tasks write to the staging directory,
    which every host of a cluster must see: set TMPDIR to a shared file system).
    ``storage_options``: fsspec options of a URL destination (credentials, endpoint).
    """
    if not isinstance(spec.num_shards, int) or isinstance(spec.num_shards, bool) \
            or not 1 <= spec.num_shards <= 1000:
        raise ValueError(f"partition_number (shards) must be an int in [1, 1000], "
                         f"got {spec.num_shards!r}")
    if workers is None:
        workers = os.cpu_count() or 1
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    if report_file is None:
        report_file = spec.destination + ".skipped.txt"
    if not is_url(spec.destination) and not is_url(report_file):
        if storage_options is not None:
            raise ValueError(f"storage_options is for a URL destination; "
                             f"{spec.destination!r} is a local path")
        return _convert(spec, workers, skip_bad, overwrite, report_file, progress, backend)
    upload = _Upload(spec, overwrite, report_file, storage_options)
    try:
        # a URL's set goes to a fresh staging directory; a local one keeps its own check
        local_overwrite = overwrite if upload.remote is None else True
        result = _convert(upload.local_spec, workers, skip_bad, local_overwrite,
                          upload.local_report,
                          progress, backend, on_done=upload.run,
                          shown=(spec.destination, report_file))
    finally:
        upload.staging.remove()
    return dataclasses.replace(result, files=upload.files(result.files),
                               report_file=upload.report_url(result.report_file))


class _Upload:
    """A URL destination (or skip report) of one conversion: the local spec and report path
    in a staging directory, and their upload once the set is converted (upload.RemoteSet)."""

    def __init__(self, spec, overwrite, report_file, storage_options):
        from ..remote.upload import RemoteSet, Staging
        self.remote = self.report_remote = None
        self.paths = shard_set.shard_paths(spec.destination, spec.num_shards)
        if is_url(spec.destination):
            self.remote = RemoteSet(spec.destination, storage_options)
            if not overwrite:
                self.remote.refuse_existing(_names(self.paths))
        elif storage_options is not None:
            raise ValueError(f"storage_options is for a URL destination; {spec.destination!r} "
                             f"is a local path")
        if is_url(report_file):
            self.report_remote = RemoteSet(report_file, storage_options)
        self.overwrite = overwrite
        self.report_file = report_file
        self.staging = Staging()
        self.local_spec = spec
        if self.remote is not None:
            self.local_spec = dataclasses.replace(spec, destination=os.path.join(
                self.staging.path, url_basename(spec.destination)))
        self.local_report = report_file
        if self.report_remote is not None:
            # its own subdirectory: the report's name may be one of the set's
            self.local_report = os.path.join(self.staging.path, "report",
                                             url_basename(report_file))
            os.mkdir(os.path.dirname(self.local_report))

    def run(self, paths, report_path):
        """Upload the report (first) and the set; the report is deleted again if the set
        fails."""
        from ..remote.upload import upload_order
        report_name = None
        if report_path is not None and self.report_remote is not None:
            report_name = url_basename(self.report_file)
            self.report_remote.put(report_path, report_name)
        if self.remote is None or paths is None:
            return
        try:
            self.remote.upload(upload_order(paths), self.overwrite, os.path.basename(paths[0]))
        except BaseException:
            if report_name is not None:
                self.report_remote.delete([report_name])
            raise

    def files(self, local_files):
        return self.paths if self.remote is not None else local_files

    def report_url(self, local_report):
        if local_report is None or self.report_remote is None:
            return local_report
        return self.report_file


def _convert(spec, workers, skip_bad, overwrite, report_file, progress, backend, on_done=None,
             shown=None):
    """run_conversion to local files; ``on_done(paths or None, report path or None)`` is
    called once the files are complete (paths None when nothing usable was converted) and may
    raise, which removes the files. ``shown``: (destination, report) named in errors."""
    paths = shard_set.shard_paths(spec.destination, spec.num_shards)
    check_destination(paths, overwrite)
    ranges = shard_set.split_rows(len(spec.items), spec.num_shards)
    start = time.perf_counter()
    try:
        if backend == "ray":
            from .ray_runner import run_shards_on_ray
            outcomes = run_shards_on_ray(spec, paths, ranges, skip_bad, progress)
        else:
            with retain_freed_memory():
                outcomes = _run_shards_locally(spec, paths, ranges, skip_bad, workers,
                                               progress)
        shard_set.link_shards(paths)
    except BaseException:
        shard_set.remove_outputs(paths)
        raise
    result = ConversionResult(
        rows=sum(o.rows for o in outcomes),
        skipped=list(spec.pre_skipped) + [s for o in outcomes for s in o.skipped],
        files=paths,
        bytes=sum(_disk_bytes(p) + _disk_bytes(p + ".db") for p in paths),
        seconds=time.perf_counter() - start)
    usable = True
    if result.skipped:
        report = SkipReport()
        report.extend(result.skipped)
        result.report_file = report.write(report_file)
        # Nothing usable: an empty dataset would only hide the problem downstream.
        usable = result.rows > 0
    if on_done is not None:
        try:
            on_done(paths if usable else None, result.report_file)
        except BaseException:
            shard_set.remove_outputs(paths)
            raise
        result.seconds = time.perf_counter() - start
    if not usable:
        shard_set.remove_outputs(paths)
        destination, report_name = shown or (spec.destination, result.report_file)
        raise ConversionError(f"no usable rows: all {len(result.skipped)} item(s) of "
                              f"{destination} were bad; see {report_name}")
    return result


def _disk_bytes(path):
    """Bytes a file occupies: MindRecord pages are sparse (holes up to page_size), so the
    apparent size overstates what was written."""
    st = os.stat(path)
    blocks = getattr(st, "st_blocks", None)
    return min(st.st_size, blocks * 512) if blocks is not None else st.st_size


def _run_shards_locally(spec, paths, ranges, skip_bad, workers, progress):
    cancel = threading.Event()
    lock = threading.Lock()

    def on_items(n):
        if progress is not None:
            with lock:
                progress(n)

    with ThreadPoolExecutor(workers, thread_name_prefix="mr-load") as load_pool, \
            ThreadPoolExecutor(min(workers, len(paths)), thread_name_prefix="mr-shard") as shards:
        futures = [shards.submit(write_shard, spec, path, spec.items[a:b], skip_bad,
                                 load_pool, on_items, cancel)
                   for path, (a, b) in zip(paths, ranges)]
        try:
            outcomes, first_error = [], None
            for fut in futures:
                try:
                    outcomes.append(fut.result())
                except _Cancelled:
                    pass
                except BaseException as exc:   # noqa: BLE001 - re-raised below
                    cancel.set()
                    first_error = first_error or exc
            if first_error is not None:
                raise first_error
            return outcomes
        except BaseException:
            cancel.set()   # KeyboardInterrupt while waiting: stop the shard writers too
            for fut in futures:
                fut.cancel()
            raise
