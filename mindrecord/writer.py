"""FileWriter: writes MindRecord datasets byte-compatible with MindSpore 2.10.

    from mindrecord import FileWriter
    with FileWriter("data.mindrecord", shard_num=1, overwrite=True) as writer:
        writer.add_schema({"label": {"type": "int32"}, "data": {"type": "bytes"}}, "my data")
        writer.write_raw_data([{"label": 1, "data": b"..."}])
    # commit() runs on leaving the block; on an exception nothing complete-looking is left.

Rows are checked and encoded by the native encoder (_writer_native), cut into pages by
writer_pages.ShardState, and the per-shard SQLite index is written at commit (index_db).
Where MindSpore silently drops data, this writer raises instead (see the README, "Writing MindRecord files").
"""
import collections
import json
import logging
import os
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from . import schema as schema_mod
from ._writer_native import RowEncoder, _BadRow
from .errors import (MRMAddSchemaError, MRMCommitError, MRMDefineIndexError, MRMGetMetaError,
                     MRMValidateDataError, ParamTypeError, ParamValueError)
from .index_db import index_db_bytes, write_index_db
from .remote import urls as _urls
from .writer_append import load_dataset
from .writer_commit import publish_set
from .writer_files import (FileSet, check_file_name, check_final_names, create_unnamed,
                           existing_files, publish, remove_temp_files, shard_paths, temp_path)
from .writer_pages import ShardState, common_header_parts, header_bytes, pwrite_all

logger = logging.getLogger("mindrecord")

MIN_HEADER_SIZE, MAX_HEADER_SIZE = 1 << 14, 1 << 27
MIN_PAGE_SIZE, MAX_PAGE_SIZE = 1 << 15, 1 << 28
MIN_SHARD_COUNT, MAX_SHARD_COUNT = 1, 1000
DEFAULT_HEADER_SIZE, DEFAULT_PAGE_SIZE = 1 << 24, 1 << 25

_AFTER_COMMIT = ("Not allowed to call `write_raw_data` on flushed MindRecord files.When creating "
                 "new MindRecord files, please remove `commit` before `write_raw_data`. In other "
                 "cases, when appending to existing MindRecord files, please call "
                 "`open_for_append` first and then `write_raw_data`.")
_NO_VALID_DATA = ("There is no valid data which can be written by 'write_raw_data' to mindrecord "
                  "file. Please check the abnormal input data indicated in the warning log above.")


def _check_indexable(field, why):
    """The .db names an index field's column ``<field>_0`` without quotes, as MindSpore writes
    it; SQLite cannot parse a name that starts with a digit. MindSpore 2.10 fails at commit()
    (RuntimeError) and leaves its data files half-written: refused here before anything is
    written."""
    if field[:1].isdigit():
        raise RuntimeError(
            f"Invalid index field '{field}' {why}: a field whose name starts with a digit cannot "
            f"be indexed (its .db column '{field}_0' is no SQL name); leave it out with "
            f"add_index([...]) or rename it.")


def _size_check(value, what, low, high):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TypeError(f"set_{what.replace(' ', '_')}(): incompatible function arguments: "
                        f"expected a non-negative int, got {value!r}")
    if not low <= value <= high:
        raise RuntimeError(f"[ERROR] Invalid data, {what}: {value} should be in range "
                           f"[{low} bytes, {high} bytes].")
    if value % 4:
        raise RuntimeError(f"[ERROR] Invalid data, {what} {value} should be divided by four.")


def _map_io(fn, items):
    """fn over items, on a few threads when there are many (creating files and SQLite
    databases is latency-bound; the GIL is released while waiting). Results in order; the
    first exception is raised after every call has finished."""
    if len(items) < 8:
        return [fn(item) for item in items]
    with ThreadPoolExecutor(max_workers=8, thread_name_prefix="mindrecord-io") as pool:
        futures = [pool.submit(fn, item) for item in items]
        return [future.result() for future in futures]


def _split_rows(n, shard_num):
    """Contiguous per-shard row counts of one write call: the first n % shard_num shards get
    one extra row (MindSpore picks those shards at random; any choice is a valid file)."""
    q, rem = divmod(n, shard_num)
    return [q + 1 if k < rem else q for k in range(shard_num)]


class FileWriter:
    """Writes a MindRecord dataset of `shard_num` files (MindSpore's FileWriter API)."""

    def __init__(self, file_name, shard_num=1, overwrite=False, *, storage_options=None):
        """file_name: the dataset's path, or a URL (s3://, gs://, any fsspec URL; shards get
        0..N-1 appended when shard_num > 1).

        A set bound for a URL is written in a private local staging directory (``tempfile``:
        TMPDIR chooses the disk, which needs room for the whole set), exactly as a local set,
        and uploaded by commit(): every other shard and its .db first, then shard 0's .db, then
        shard 0, through which readers open a set, so a new set becomes visible only once
        complete. Each object's size is checked after its upload; failed uploads are retried.
        If the upload fails, the objects it put are deleted, the staging directory is removed
        and RuntimeError names the URL and the cause. The staging directory is removed in every
        outcome (commit, failure, abort, garbage collection).

        With overwrite=False, existing objects of the set's names are refused here (one listing
        of the directory) and again at commit. With overwrite=True an existing set is replaced
        object by object, not atomically: a reader that opens it during commit() can see old
        and new files mixed, and an upload that fails after replacing part of it deletes the
        old set too (see mindrecord/remote/upload.py). storage_options are passed to the fsspec
        file system (credentials, endpoint); without them s3fs follows the usual AWS variables
        (AWS_ENDPOINT_URL, AWS_PROFILE, AWS_ACCESS_KEY_ID, ...).
        """
        file_name = _urls.local_path(check_file_name(file_name))
        if shard_num is None:
            raise ParamValueError("Parameter shard_num is None.")
        if isinstance(shard_num, bool) or not isinstance(shard_num, int):
            raise ParamValueError("Parameter shard_num's type is not int.")
        if not MIN_SHARD_COUNT <= shard_num <= MAX_SHARD_COUNT:
            raise ParamValueError(f"Parameter shard_num's value: {shard_num} should between "
                                  f"{MIN_SHARD_COUNT} and {MAX_SHARD_COUNT}.")
        if not isinstance(overwrite, bool):
            raise ParamValueError("Parameter overwrite's type is not bool.")   # MindSpore's
        if _urls.is_url(file_name):
            self._init_remote(file_name, shard_num, overwrite, storage_options)
            return
        if storage_options is not None:
            raise ParamValueError(f"'storage_options' is for a URL file_name; {file_name!r} is "
                                  f"a local path.")
        paths = shard_paths(file_name, shard_num)
        directory = os.path.dirname(paths[0])
        if not os.path.isdir(directory):
            raise RuntimeError(f"[ERROR] Invalid file, the directory of mindrecord file: "
                               f"{directory} does not exist or is not a directory.")
        check_final_names(paths)
        remove_temp_files(paths)        # of writers on these paths that were killed
        self._init_state(paths, overwrite)
        if not overwrite:
            self._refuse_existing()

    def _init_remote(self, url, shard_num, overwrite, storage_options):
        """The set goes to `url`: checked (file system, existing objects) before anything is
        written, then written in a staging directory (see __init__)."""
        from .remote.upload import RemoteSet, Staging
        remote = RemoteSet(url, storage_options)
        names = [os.path.basename(p) for p in shard_paths(url, shard_num)]
        if not overwrite:
            remote.refuse_existing([n for name in names for n in (name, name + ".db")])
        staging = Staging()
        paths = [os.path.join(staging.path, name) for name in names]
        try:
            check_final_names(paths)
        except BaseException:
            staging.remove()
            raise
        self._init_state(paths, overwrite)
        self._remote, self._staging = remote, staging

    def _init_state(self, paths, overwrite):
        self._paths = paths
        self._shard_num = len(paths)
        self._overwrite = overwrite
        self._header_size = DEFAULT_HEADER_SIZE
        self._page_size = DEFAULT_PAGE_SIZE
        self._schema = None            # normalised, sorted by name
        self._schema_order = None      # field names as add_schema received them
        self._desc = ""
        self._index_fields = None      # None: every scalar field (MindSpore's default)
        self._compression_size = 0
        self._encoder = None
        self._shards = None            # ShardState per shard once files are open
        self._append = False
        self._state = "open"           # open -> committed | failed
        self._parallel_mode = None     # parallel_writer of the first write_raw_data call
        self._files = FileSet()
        self._pending = collections.deque()   # futures of write-behind calls
        # Calls from several threads are serialised (the page layout is one sequence).
        self._lock = threading.RLock()
        self._finalizer = weakref.finalize(self, FileSet.release, self._files)
        self._remote = None            # RemoteSet when the set goes to a URL
        self._staging = None           # its local staging directory (upload.Staging)

    def _refuse_existing(self):
        if self._remote is not None:
            return      # one listing at construction, one more by the upload at commit
        found = existing_files(self._paths)
        if found:
            raise RuntimeError(
                f"[ERROR] Invalid file, mindrecord files already exist. Please check file path: "
                f"{found[0]}.\nIf you do not want to keep the files, set the 'overwrite' "
                f"parameter to True and try again.")

    # ---- context manager -------------------------------------------------------------------
    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.commit()
        else:
            self._abort()
        return False

    def _abort(self):
        """Drop everything written by this writer (temporary files, or an append's changes)."""
        if self._state == "open":
            self._state = "failed"
        self._files.release(rollback=True)
        self._pending.clear()
        if self._staging is not None:
            self._staging.remove()

    # ---- configuration ---------------------------------------------------------------------
    def _check_configurable(self, what):
        if self._state != "open":
            raise RuntimeError(f"Not allowed to call `{what}` on a committed or failed FileWriter.")
        if self._shards is not None and not self._append:
            raise RuntimeError(f"Not allowed to call `{what}` after `write_raw_data`: the layout "
                               f"of the pages already written depends on it.")

    def add_schema(self, content, desc=None):
        """Set the dataset's only schema; returns its id (always 0)."""
        if self._append or self._schema is not None:
            raise MRMAddSchemaError(
                "The schema is added repeatedly. Please remove the redundant 'add_schema' "
                "function." if not self._append else
                "A dataset opened with open_for_append keeps its schema.")
        self._check_configurable("add_schema")
        normalised = schema_mod.validate_schema(content)
        if desc is not None and not isinstance(desc, str):
            raise ParamTypeError("'desc' expect str type.")
        desc = "" if desc is None else desc
        try:
            desc.encode("utf-8")
        except UnicodeEncodeError:
            raise ParamValueError("'desc' is not valid UTF-8 text.") from None
        self._schema = normalised
        self._schema_order = list(content)
        self._desc = desc
        return 0

    def add_index(self, index_fields):
        """Choose the scalar fields indexed in the .db (default: every scalar field)."""
        if not index_fields or not isinstance(index_fields, list):
            raise ParamTypeError("'index_fields' expect list type.")
        if self._schema is None:
            raise MRMGetMetaError("add_schema must be called before add_index.")
        blobs = schema_mod.blob_fields(self._schema)
        for field in index_fields:
            if field in blobs:
                raise MRMDefineIndexError(f"Failed to set field {field} since it's not primitive type.")
            if not isinstance(field, str):
                raise ParamTypeError("'index field' expect str type.")
        if self._append:
            raise RuntimeError("A dataset opened with open_for_append keeps its index fields.")
        self._check_configurable("add_index")
        current = list(self._index_fields or [])
        for field in index_fields:
            if field not in self._schema or field in current:
                # as MindSpore's: the fields named before the bad one stay index fields
                self._index_fields = current or self._index_fields
            if field not in self._schema:
                raise RuntimeError(
                    f"[ERROR] Invalid input, 'index_fields': {field} can not found in schema: "
                    f"{schema_mod.schema_json(self._schema)}.\n Please use 'add_index' function "
                    f"to add proper 'index_fields'.")
            if field in current:
                raise RuntimeError(f"[ERROR] The 'index_fields': {field} is added repeatedly. "
                                   f"Please remove the redundant 'add_index' function.")
            _check_indexable(field, "(named by add_index)")
            current.append(field)
        self._index_fields = current

    def set_header_size(self, header_size):
        """Header area size in bytes: [16 KiB, 128 MiB], a multiple of 4."""
        _size_check(header_size, "header size", MIN_HEADER_SIZE, MAX_HEADER_SIZE)
        if self._append:
            logger.warning("set_header_size is ignored for a dataset opened with open_for_append.")
            return
        self._check_configurable("set_header_size")
        self._header_size = header_size

    def set_page_size(self, page_size):
        """Page size in bytes: [32 KiB, 256 MiB], a multiple of 4."""
        _size_check(page_size, "page size", MIN_PAGE_SIZE, MAX_PAGE_SIZE)
        if self._append:
            logger.warning("set_page_size is ignored for a dataset opened with open_for_append.")
            return
        self._check_configurable("set_page_size")
        self._page_size = page_size

    # ---- writing ---------------------------------------------------------------------------
    def _index_list(self):
        if self._index_fields is None:
            fields = schema_mod.default_index_fields(self._schema)
            for field in fields:
                _check_indexable(field, "(every scalar field is an index field without "
                                        "add_index)")
            return fields
        return self._index_fields

    def _open_files(self):
        """Create the shard files on the first write or commit: unnamed (O_TMPFILE) where the
        file system allows, so a process killed before commit leaves nothing at all; hidden
        temporary names otherwise. Both get their final names at commit."""
        if self._shards is not None:
            return
        if not self._overwrite:
            self._refuse_existing()

        def create(path):
            fd, tmp = create_unnamed(path)
            if tmp is not None:
                self._files.temp_files.append(tmp)
            self._files.fds.append(fd)      # list.append is atomic: safe from pool threads
            return fd, tmp

        try:
            created = _map_io(create, self._paths)
        except BaseException:
            self._abort()           # no half-created shard set stays behind
            raise
        shards = []
        for shard_id, (fd, tmp) in enumerate(created):
            shard = ShardState(shard_id, fd, self._header_size, self._page_size,
                               n_index=len(self._index_list()))
            shard.temp_path = tmp
            shards.append(shard)
        self._shards = shards

    def _get_encoder(self):
        if self._encoder is None:
            self._encoder = RowEncoder(self._schema, list(self._index_list()),
                                       schema_mod.compresses_int_arrays(self._schema))
        return self._encoder

    def write_raw_data(self, raw_data, parallel_writer=False, skip_bad_rows=False):
        """Append rows (a list of dicts) to the dataset.

        A row that does not match the schema raises MRMValidateDataError naming the row, the
        field, what was expected and what was given; with skip_bad_rows=True such rows are
        left out with MindSpore's warning instead. With parallel_writer=True the pages are
        written by background threads (several shards at once) while the caller prepares the
        next call; an error there is raised by the next write_raw_data or by commit().
        """
        with self._lock:
            self._write(raw_data, parallel_writer, skip_bad_rows, None)

    def _write_raw_data_split(self, raw_data, rows_per_shard, parallel_writer=False):
        """write_raw_data with an explicit per-shard split (contiguous blocks in shard order);
        used to reproduce a MindSpore file whose random split is known."""
        with self._lock:
            self._write(raw_data, parallel_writer, False, list(rows_per_shard))

    def _write(self, raw_data, parallel_writer, skip_bad_rows, split):
        if not isinstance(parallel_writer, bool):
            raise ParamTypeError("'parallel_writer' expect bool type.")
        if self._parallel_mode is None:
            self._parallel_mode = parallel_writer
        if self._parallel_mode != parallel_writer:     # MindSpore 2.10's rule and words
            raise RuntimeError("The parameter `parallel_writer` must be consistent during use.")
        if not isinstance(raw_data, list):
            raise ParamTypeError("'raw_data' expect list type.")
        if self._state == "committed":
            raise RuntimeError(_AFTER_COMMIT)
        if self._state == "failed":
            raise RuntimeError("This FileWriter failed earlier; its files were removed. "
                               "Create a new FileWriter.")
        self._check_pending()
        for item in raw_data:
            if not isinstance(item, dict):
                raise ParamTypeError("'raw_data item' expect dict type.")
        if self._schema is None:
            raise MRMGetMetaError("add_schema must be called before write_raw_data.")
        threads = min(self._shard_num, os.cpu_count() or 1, 8) if parallel_writer else 1
        threads = max(threads, 2 if parallel_writer else 1)
        try:
            enc = self._get_encoder().encode(raw_data, skip_bad_rows, threads, parallel_writer)
        except _BadRow as bad:
            _, message = self._explain(raw_data, bad.index)
            raise MRMValidateDataError(message) from None
        for index in enc.bad:
            warning, _ = self._explain(raw_data, index)
            logger.warning(warning)
        n = len(enc)
        if n == 0:
            raise RuntimeError(_NO_VALID_DATA)
        self._check_index_floats(enc)
        self._check_row_sizes(enc)
        if split is None:
            split = _split_rows(n, self._shard_num)
        elif len(split) != self._shard_num or sum(split) != n or min(split) < 0:
            raise ValueError(f"rows_per_shard {split} must list {self._shard_num} non-negative "
                             f"counts summing to {n}")
        self._open_files()
        bounds = np.concatenate([[0], np.cumsum(split)]).tolist()
        jobs = [(shard, bounds[k], bounds[k + 1]) for k, shard in enumerate(self._shards)
                if bounds[k + 1] > bounds[k]]
        if parallel_writer:
            self._submit(jobs, enc)
        else:
            self._drain()
            try:
                for shard, a, b in jobs:
                    shard.append_rows(enc, a, b, enc.index_values)
            except BaseException:
                # A page write failed half-way: the shard files are inconsistent; drop them.
                self._abort()
                raise
            self._check_header_room()
        self._compression_size += enc.saved

    def _check_index_floats(self, enc):
        """NaN or infinity in an indexed float field is an error raised here, before anything is
        written. (MindSpore's index generator cannot parse them and aborts the whole process at
        commit; a value that cannot be indexed must not be indexed: leave the field out of
        add_index to store it.)"""
        for name, values in zip(self._get_encoder().index_fields, enc.index_values):
            if self._schema[name]["type"] not in schema_mod.FLOAT_TYPES or not values:
                continue
            finite = np.isfinite(np.asarray(values, dtype=np.float64))
            if not finite.all():
                k = int(np.argmin(finite))
                raise MRMValidateDataError(
                    f"row {enc.kept[k]}: field '{name}' is an index field and holds "
                    f"{values[k]!r}; NaN and infinity cannot be indexed. Leave '{name}' out of "
                    f"add_index(...) to store such values.")

    # parallel_writer=True: page writes run behind the caller on worker threads (one FIFO
    # worker per group of shards keeps each shard's writes in order), so encoding the next
    # call overlaps writing this one; at most _MAX_PENDING calls are in flight.
    _MAX_PENDING = 2

    def _submit(self, jobs, enc):
        if not self._files.pools:
            workers = min(self._shard_num, max(2, os.cpu_count() or 1), 4)
            self._files.pools = [ThreadPoolExecutor(max_workers=1,
                                                    thread_name_prefix="mindrecord-writer")
                                 for _ in range(workers)]
        pools = self._files.pools
        futures = [(shard.shard_id % len(pools), pools[shard.shard_id % len(pools)].submit(
            shard.append_rows, enc, a, b, enc.index_values)) for shard, a, b in jobs]
        self._pending.append(futures)
        while len(self._pending) > self._MAX_PENDING:
            self._wait_oldest()

    def _wait_oldest(self):
        futures = self._pending.popleft()
        try:
            for _, future in futures:
                future.result()
        except BaseException:
            self._abort()
            raise

    def check_worker_status(self, index):
        """Whether background writer `index` (parallel_writer=True) is running without error."""
        pools = self._files.pools
        if isinstance(index, bool) or not isinstance(index, int):
            raise ParamTypeError("'index' expect int type.")
        if not 0 <= index < max(len(pools), 1):
            raise ParamValueError(f"Parameter index's value: {index} should between 0 and "
                                  f"{max(len(pools), 1) - 1}.")
        if self._state == "failed":
            return False
        return not any(k == index and f.done() and f.exception() is not None
                       for futures in self._pending for k, f in futures)

    def check_all_worker_status(self):
        """Raise the error of a failed background write now (it would surface at the next
        write_raw_data or commit otherwise)."""
        if self._state == "failed":
            raise RuntimeError("This FileWriter failed earlier; its files were removed.")
        self._check_pending()

    def _check_pending(self):
        # Surface a failed write-behind call at the next call rather than at commit.
        while self._pending and all(f.done() for _, f in self._pending[0]):
            self._wait_oldest()

    def _drain(self):
        while self._pending:
            self._wait_oldest()

    def _check_header_room(self):
        """Fail as soon as the page list no longer fits in the header area, rather than at
        commit after everything is written. Exact lengths are computed only when a cheap upper
        bound (300 bytes per page descriptor and row group) says it might not fit."""
        base = 2048 + len(json.dumps(self._schema)) + len(self._desc.encode("utf-8")) * 2 \
            + 32 * len(self._index_list()) + self._shard_num * (len(os.path.basename(self._paths[-1])) + 3)
        worst = max(len(s.pages) for s in self._shards)
        if base + 600 * worst <= self._header_size - 8:
            return
        common = common_header_parts(self._schema, self._desc,
                                     schema_mod.blob_fields(self._schema), self._index_list(),
                                     self._compression_size,
                                     [os.path.basename(p) for p in self._paths])
        for path, shard in zip(self._paths, self._shards):
            needed = 8 + len(shard.header_json(common))
            if needed > self._header_size:
                self._abort()
                raise MRMCommitError(
                    f"header of {path} needs {needed} bytes, more than the header size "
                    f"{self._header_size}; call set_header_size with a larger value before "
                    f"writing. The files written so far were removed.")

    def _explain(self, raw_data, index):
        from .writer_validate import describe_bad_row
        return describe_bad_row(raw_data[index], index, self._schema_order, self._schema)

    def _check_row_sizes(self, enc):
        limit = self._page_size
        for kind, offsets in (("blob", enc.blob_offsets), ("raw", enc.raw_offsets)):
            sizes = np.diff(offsets)
            too_big = np.nonzero(sizes > limit)[0]
            if too_big.size:
                i = int(too_big[0])
                raise RuntimeError(
                    f"[ERROR] Invalid data, Page size: {limit} is too small to save a {kind} row. "
                    f"Please try to use the mindrecord api 'set_page_size(value)' to enable larger "
                    f"page size, and the value range is in [{MIN_PAGE_SIZE} bytes, "
                    f"{MAX_PAGE_SIZE} bytes]. (row {enc.kept[i]} needs {int(sizes[i])} bytes "
                    f"including its 8-byte length)")

    # ---- commit ----------------------------------------------------------------------------
    def commit(self):
        """Write the headers and the .db index files and move the files into place (for a URL:
        then upload them, shard 0 last; see __init__)."""
        with self._lock:
            self._commit()

    def _commit(self):
        if self._state == "committed":
            return
        if self._state == "failed":
            raise RuntimeError("This FileWriter failed earlier; its files were removed.")
        if self._schema is None:
            raise MRMGetMetaError("add_schema must be called before commit.")
        try:
            self._drain()
            self._files.shutdown_pools()
            self._open_files()
            self._commit_files()
            if self._remote is not None:
                self._upload()
        except BaseException:
            self._abort()
            raise
        self._state = "committed"
        self._finalizer.detach()

    def _upload(self):
        """Put the committed staging files at the URL (shard 0 last), then drop them."""
        from .remote.upload import upload_order
        self._remote.upload(upload_order(self._paths), self._overwrite,
                            os.path.basename(self._paths[0]))
        self._staging.remove()

    def _commit_files(self):
        index_fields = self._index_list()
        common = common_header_parts(self._schema, self._desc,
                                     schema_mod.blob_fields(self._schema), index_fields,
                                     self._compression_size,
                                     [os.path.basename(p) for p in self._paths])
        headers = [shard.header_json(common) for shard in self._shards]
        for path, header in zip(self._paths, headers):
            if 8 + len(header) > self._header_size:
                raise MRMCommitError(
                    f"header of {path} needs {8 + len(header)} bytes, more than the header size "
                    f"{self._header_size}; call set_header_size with a larger value.")
        if not self._append and not self._overwrite:
            self._refuse_existing()
        db_files = _map_io(lambda job: self._build_index(*job),
                           list(zip(self._paths, self._shards)))
        for shard, header in zip(self._shards, headers):
            data = header_bytes(header)
            old_len = getattr(shard, "old_header_len", 0)
            if old_len > len(header):
                data += bytes(old_len - len(header))
            pwrite_all(shard.fd, data, 0)
            os.ftruncate(shard.fd, shard.file_size(len(header)))
        # Everything is written; only now do the files get their final names: the indexes
        # first, then the data files from the last shard to shard 0 (the name users open).
        indexes = [(db_fd, db_tmp, path + ".db") for path, (db_fd, db_tmp) in
                   zip(self._paths, db_files)]
        if self._append:
            for fd, tmp, final in indexes:
                publish(fd, tmp, final)
        else:
            data = [(shard.fd, shard.temp_path, path) for path, shard in
                    reversed(list(zip(self._paths, self._shards)))]
            publish_set(indexes + data, self._paths[0], self._files.temp_files)
        self._files.temp_files = []
        for fd in self._files.fds:
            os.close(fd)
        self._files.fds = []
        self._files.rollbacks = []
        self._files.done = True

    def _build_index(self, path, shard):
        """(fd, temporary name or None) of the finished .db of one shard, not yet named."""
        args = (os.path.basename(path), self._index_list(), self._schema, shard.locations(),
                shard.index_values)
        data = index_db_bytes(*args)
        if data is None:                         # no in-memory build: a named temporary
            tmp = temp_path(path + ".db")
            self._files.temp_files.append(tmp)
            write_index_db(tmp, *args)
            fd = os.open(tmp, os.O_RDONLY)
            self._files.fds.append(fd)
            return fd, tmp
        fd, tmp = create_unnamed(path + ".db")
        self._files.fds.append(fd)
        if tmp is not None:
            self._files.temp_files.append(tmp)
        pwrite_all(fd, data, 0)
        return fd, tmp

    # ---- append ----------------------------------------------------------------------------
    @classmethod
    def open_for_append(cls, file_name):
        """Open an existing dataset (all shards of its shard_addresses) to add rows.

        Local files only: a set at a URL raises NotImplementedError, since objects in a store
        cannot be appended to in place (append to a local copy and write it to the URL)."""
        file_name = _urls.local_path(check_file_name(file_name))
        if _urls.is_url(file_name):
            raise NotImplementedError(
                f"open_for_append cannot append to {file_name}: objects in a store cannot be "
                f"modified in place. Download the set, append to the local files, and write "
                f"them to the URL again (FileWriter(url, overwrite=True) or an upload).")
        if not os.path.exists(file_name):
            raise RuntimeError(f"The input: {file_name} is not exists.")
        info = load_dataset(file_name)
        remove_temp_files(info["paths"])
        writer = cls.__new__(cls)
        writer._init_state(info["paths"], False)
        writer._append = True
        writer._header_size = info["header_size"]
        writer._page_size = info["page_size"]
        writer._schema = info["schema"]
        writer._schema_order = list(info["schema"])
        writer._desc = info["desc"]
        writer._index_fields = info["index_fields"]
        writer._compression_size = info["compression_size"]
        shards = []
        try:
            for shard_id, s in enumerate(info["shards"]):
                fd = os.open(s["path"], os.O_RDWR)
                writer._files.fds.append(fd)
                shard = ShardState(shard_id, fd, writer._header_size, writer._page_size,
                                   s["pages"], s["locations"], s["values"])
                shard.old_header_len = s["header_len"]
                writer._files.rollbacks.append((fd, s["size"], shard.touched))
                shards.append(shard)
        except OSError:
            writer._files.release()
            raise
        writer._shards = shards
        return writer
