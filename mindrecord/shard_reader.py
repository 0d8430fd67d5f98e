"""ShardReader: random access to the rows of a MindRecord dataset (docs/internals.md).

Opening does all the parsing once: each shard's header is validated (header.py), the data file is
memory-mapped, the native code walks the pages into a row table (row id -> raw and blob offsets),
decodes every raw (scalar) row into numpy columns and splits multi-field blobs. After that,
reading a row is an index lookup: scalars come from the columns, bytes fields are zero-copy
1-element ``|S<n>`` views of the map (MindSpore's representation, see bytes_value), and integer
arrays are decompressed on demand in C++ with the GIL released.
"""
import mmap
import os
import threading
import time

import numpy as np

from . import _reader_native as native
from .header import (check_index_db, parse_layout, read_header_and_id,
                     resolve_shard_files, truncated)
from .remote import is_url
from .remote.urls import local_path
from .writer_commit import ShardSetChanged, check_one_commit

_KINDS = {"int32": native.KIND_INT, "int64": native.KIND_INT, "float32": native.KIND_FLOAT,
          "float64": native.KIND_FLOAT, "string": native.KIND_STRING}
_INT32 = np.iinfo(np.int32)


def bytes_value(u8, start, stop):
    """The ``bytes`` field value held in ``u8[start:stop]`` as MindDataset gives it: a 1-element
    array of dtype ``|S<n>`` (n = its length), as MindSpore 2.10 returns it. A view of the same
    memory (no copy): ``value.tobytes()`` or ``np.frombuffer(value, np.uint8)`` give every byte,
    trailing zero bytes included (``value[0]``, as any numpy ``bytes_`` item, drops those). An
    empty value is ``np.array([b""])`` (``|S1``), as MindSpore gives it."""
    if stop <= start:
        return np.array([b""])
    return u8[start:stop].view(np.dtype((np.bytes_, stop - start)))


def _corrupt(path, row, detail):
    where = f" row {row}" if row is not None and row >= 0 else ""
    return RuntimeError(f"[ERROR] [Internal ERROR] Unexpected exception raised in "
                        f"ConvertLabelToJson function. The mindrecord file: {path}{where} is "
                        f"corrupt: {detail}.")


class _Shard:
    """One open shard file: its map, row table and decoded columns (immutable after open)."""

    def __init__(self, layout, file_id=None, fd=None):
        """file_id: (st_dev, st_ino) the local file must still have; fd: an open descriptor of
        the shard's bytes to map instead (a remote shard's cache entry; the caller closes it)."""
        self.path = layout.path
        self.schema = layout.schema
        self.num_rows = layout.num_rows
        self._mm = None
        try:
            if fd is not None:
                self._mm = mmap.mmap(fd, 0, access=mmap.ACCESS_READ) if layout.size else b""
            else:
                with open(self.path, "rb") as f:
                    stat = os.fstat(f.fileno())
                    if (stat.st_dev, stat.st_ino) != file_id:
                        raise ShardSetChanged(f"{self.path} was replaced since its header was "
                                              f"read")
                    # The map keeps its own descriptor; the file object is closed right away.
                    self._mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as e:  # e.g. emptied or removed since its header was read
            raise truncated(self.path, f"it cannot be mapped ({e})") from None
        try:
            if len(self._mm) != layout.size:
                raise truncated(self.path, "the file changed size while it was being opened")
            self.u8 = np.frombuffer(self._mm, dtype=np.uint8)
            self._build(layout)
        except BaseException:
            self.close()
            raise

    def _build(self, layout):
        try:
            raw_off, raw_len, blob_off, blob_len = native.row_table(self.u8, layout.groups,
                                                                    self.num_rows)
        except native.FormatError as e:
            raise truncated(self.path, str(e)) from None
        fields = self.schema.raw_fields
        kinds = [_KINDS[self.schema.fields[n]["type"]] for n in fields]
        try:
            ints, floats, strings = native.decode_raw(self.u8, raw_off, raw_len, fields, kinds)
        except native.FormatError as e:
            raise _corrupt(self.path, e.row, str(e)) from None
        del raw_off, raw_len  # only needed to decode the scalars
        self.columns = {}       # numeric raw field -> 1-D array (int64 for int32 with overflow)
        self.strings = {}       # string raw field -> (offsets, lengths)
        self.int32_overflow = set()
        self.stored_floats = {}     # float32 raw field -> its values as stored (float64)
        slots = [0, 0, 0]
        for name, kind in zip(fields, kinds):
            slot = slots[kind]
            slots[kind] += 1
            dtype = self.schema.fields[name]["type"]
            if kind == native.KIND_INT:
                col = ints[slot]
                if dtype == "int32":
                    if col.size and (col.min() < _INT32.min or col.max() > _INT32.max):
                        # MindSpore stores such values; reading them as int32 fails per row.
                        self.int32_overflow.add(name)
                    else:
                        col = col.astype(np.int32)
                self.columns[name] = col
            elif kind == native.KIND_FLOAT:
                with np.errstate(over="ignore", invalid="ignore"):  # float32 narrowing -> inf
                    self.columns[name] = floats[slot].astype(dtype)
                if dtype == "float32":
                    # FileReader gives the stored value, as MindSpore's does: a Python float
                    # that is no float32 value is stored as a double (0.1 reads back as 0.1)
                    self.stored_floats[name] = floats[slot]
            else:
                self.strings[name] = (strings[2 * slot], strings[2 * slot + 1])
        blobs = self.schema.blob_fields
        self.blobs = {}         # blob field -> (offsets, lengths)
        if len(blobs) == 1:
            self.blobs[blobs[0]] = (blob_off, blob_len)
        elif len(blobs) > 1:
            try:
                offs, lens = native.split(self.u8, blob_off, blob_len, len(blobs))
            except native.FormatError as e:
                raise _corrupt(self.path, e.row, str(e)) from None
            for i, name in enumerate(blobs):
                self.blobs[name] = (offs[i], lens[i])

    # ---- values -------------------------------------------------------------------------
    def _u8(self):
        u8 = self.u8
        if u8 is None:
            raise RuntimeError(f"[ERROR] The mindrecord file: {self.path} has been closed.")
        return u8

    def _int32_values(self, name, col, local):
        values = col[local]
        bad = (values < _INT32.min) | (values > _INT32.max)
        if bad.any():
            i = int(np.argmax(bad))
            raise RuntimeError(f"[ERROR] [Internal ERROR] column value: {values[i]} is out of "
                               f"range. Field '{name}' of the mindrecord file: {self.path} row "
                               f"{int(local[i])} does not fit int32.")
        return values.astype(np.int32)

    def string(self, u8, name, row):
        offs, lens = self.strings[name]
        o, n = int(offs[row]), int(lens[row])
        try:
            return u8[o:o + n].tobytes().decode("utf-8")
        except UnicodeDecodeError:
            raise _corrupt(self.path, row, f"field '{name}' is not valid UTF-8") from None

    def array(self, u8, name, row):
        spec = self.schema.fields[name]
        offs, lens = self.blobs[name]
        o, n = int(offs[row]), int(lens[row])
        dtype = np.dtype(spec["type"])
        try:
            if self.schema.compressed and dtype.kind == "i":
                flat = native.decompress(u8, o, n, dtype)
            else:
                if n % dtype.itemsize:
                    raise native.FormatError(f"{n} bytes is not a whole number of {dtype} values")
                flat = u8[o:o + n].view(dtype).copy()  # aligned and writable for the caller
        except native.FormatError as e:
            raise _corrupt(self.path, row, f"field '{name}': {e}") from None
        if not spec["shape"] and flat.size != 1:
            return flat  # degenerate shape [] (accepted by MindSpore's add_schema)
        try:
            return flat.reshape(spec["shape"])
        except ValueError:
            raise _corrupt(self.path, row, f"field '{name}' holds {flat.size} values, which do "
                                           f"not fit the schema shape {spec['shape']}") from None

    def values(self, local, columns):
        """Dataset representation (docs/internals.md) of rows `local` (int64 array)."""
        u8 = self._u8()
        n = len(local)
        out = {}
        for name in columns:
            col = self.columns.get(name)
            if col is not None:
                if name in self.int32_overflow:
                    col = self._int32_values(name, col, local)
                else:
                    col = col[local]
                out[name] = [col[i, ...] for i in range(n)]
            elif name in self.strings:
                out[name] = [np.array(self.string(u8, name, r)) for r in local.tolist()]
            elif self.schema.is_array(name):
                out[name] = [self.array(u8, name, r) for r in local.tolist()]
            else:
                offs, lens = self.blobs[name]
                o, e = offs[local].tolist(), (offs[local] + lens[local]).tolist()
                out[name] = [bytes_value(u8, a, b) for a, b in zip(o, e)]
        return out

    def python_values(self, start, stop, columns):
        """FileReader's representation (int, float, str, bytes, ndarray) of rows start..stop-1."""
        u8 = self._u8()
        out = {}
        rows = range(start, stop)
        for name in columns:
            col = self.stored_floats.get(name, self.columns.get(name))
            if col is not None:
                out[name] = col[start:stop].tolist()
            elif name in self.strings:
                out[name] = [self.string(u8, name, r) for r in rows]
            elif self.schema.is_array(name):
                out[name] = [self.array(u8, name, r) for r in rows]
            else:
                offs, lens = self.blobs[name]
                o = offs[start:stop].tolist()
                e = (offs[start:stop] + lens[start:stop]).tolist()
                out[name] = [u8[a:b].tobytes() for a, b in zip(o, e)]
        return out

    def close(self):
        # Only the map goes: a read_rows running in another thread keeps consistent tables.
        self.u8 = None
        mm, self._mm = getattr(self, "_mm", None), None
        if isinstance(mm, mmap.mmap):
            try:
                mm.close()
            except BufferError:
                pass  # views handed to callers still use the map; it is unmapped when they go


_OPEN_ATTEMPTS = 5


def _check_one_schema(layouts):
    """The first layout; RuntimeError naming the file whose schema differs from it."""
    first = layouts[0]
    for other in layouts[1:]:
        if other.schema.fields != first.schema.fields or \
                other.schema.blob_fields != first.schema.blob_fields:
            raise RuntimeError(f"[ERROR] Invalid file, the metadata of mindrecord file: "
                               f"{other.path} is different from others, please make sure all "
                               f"the mindrecord files generated by the same script: its schema "
                               f"differs from the schema of {first.path}.")
    return first


def _shard0_paths(layouts):
    """Shard 0 of each file's set (beside it): where a FileWriter keeps its commit marker."""
    found = set()
    for layout in layouts:
        names = layout.header.get("shard_addresses")
        if isinstance(names, list) and names and isinstance(names[0], str):
            found.add(os.path.join(os.path.dirname(layout.path), os.path.basename(names[0])))
    return sorted(found)


class _RemoteScalarColumn:
    """ShardReader.scalar_column of a remote set: indexed by row ids, it maps only the shards
    those rows are in (the engine reads a label column this way, batch by batch)."""

    def __init__(self, reader, column):
        self._reader, self._column = reader, column

    def __getitem__(self, ids):
        return self._reader.scalar_values(self._column, ids)


class ShardReader:
    """Random-access reader over one MindRecord dataset (docs/internals.md).

    file_name: str = one shard; the set is found through its header's ``shard_addresses`` in
    the same directory. list = exactly those files, in order. ``check_index`` validates every
    ``.db`` as MindSpore does; rows are located from the header, so the .db is not read further.
    A URL (s3://, gs://, http(s)://...) opens a set in object storage (mindrecord/remote):
    ``storage_options`` go to its fsspec file system; ``listings`` is a dict the caller keeps
    between opens of the same set, so that it is listed once.
    """

    def __init__(self, file_name, *, check_index=True, storage_options=None, listings=None):
        self._lock = threading.Lock()
        self._shards = []
        self._remote = None
        if isinstance(file_name, (list, tuple)):
            file_name = [local_path(f) for f in file_name]
            remote = any(is_url(f) for f in file_name)
            if remote and not all(is_url(f) for f in file_name):
                raise ValueError(f"file_name mixes URLs and local paths: {file_name}")
        else:
            file_name = local_path(file_name)
            remote = is_url(file_name)
        for attempt in range(_OPEN_ATTEMPTS):
            try:
                if remote:
                    files, first = self._open_remote(file_name, check_index, storage_options,
                                                     listings)
                else:
                    files, first = self._open(file_name, check_index)
                break
            except ShardSetChanged as changed:
                if attempt + 1 == _OPEN_ATTEMPTS:
                    raise RuntimeError(f"[ERROR] The mindrecord dataset could not be opened "
                                       f"as one commit in {_OPEN_ATTEMPTS} attempts: {changed}. "
                                       f"Open it again when the FileWriter has committed.") \
                        from None
                time.sleep(0.05 * (attempt + 1))
        self.files = list(files)
        self._info = first.schema
        self.header = first.header
        self.shard_row_counts = [layout.num_rows for layout in self._layouts]
        self._ends = np.cumsum(self.shard_row_counts, dtype=np.int64)
        self._starts = self._ends - np.asarray(self.shard_row_counts, dtype=np.int64)
        self.num_rows = int(self._ends[-1]) if len(self._ends) else 0
        self.schema = {k: dict(v) for k, v in self._info.fields.items()}
        self.column_names = sorted(self.schema)
        self.blob_fields = list(self._info.blob_fields)
        self.raw_fields = list(self._info.raw_fields)
        self._closed = False

    def _open(self, file_name, check_index):
        """Open the set once: (files, first layout). ShardSetChanged if a FileWriter replaced a
        file meanwhile; RuntimeError if the files on disk mix two commits (writer_commit)."""
        files = resolve_shard_files(file_name)
        try:
            layouts, file_ids = [], []
            for path in files:
                header, size, file_id = read_header_and_id(path)
                layouts.append(parse_layout(path, header, size))
                file_ids.append(file_id)
            # Before anything else can fail on a mixture: the maps below are checked to be
            # of these same files.
            check_one_commit(files, file_ids, _shard0_paths(layouts))
            first = _check_one_schema(layouts)
            if check_index:
                for layout in layouts:
                    check_index_db(layout.path, layout.num_rows)
            self._layouts = layouts
            for layout, file_id in zip(layouts, file_ids):
                self._shards.append(_Shard(layout, file_id))
        except BaseException:
            self.close()
            raise
        return files, first

    def _open_remote(self, file_name, check_index, storage_options, listings):
        """Open a set in object storage from its headers (mindrecord/remote/remote_set.py);
        each shard is mapped when first read, from the node-local cache. `listings`: a dict
        the caller keeps between opens, to list the set once (RemoteShardSet)."""
        from .remote.remote_set import RemoteShardSet
        self._remote = RemoteShardSet(file_name, storage_options, check_index,
                                      listings=listings)
        try:
            layouts = [parse_layout(o.url, dict(h), o.size) for o, h in
                       zip(self._remote.objects, self._remote.headers)]
            _check_one_schema(layouts)
        except BaseException:
            self.close()
            raise
        self._layouts = layouts
        self._shards = [None] * len(layouts)
        return [o.url for o in self._remote.objects], layouts[0]

    # ---- helpers --------------------------------------------------------------------------
    def _live_shards(self):
        shards = self._shards
        if not shards:
            raise RuntimeError("[ERROR] The ShardReader has been closed.")
        return shards

    def _shard(self, s):
        """Shard s, mapped (a remote one is downloaded into the node-local cache first)."""
        shards = self._live_shards()
        shard = shards[s]
        if shard is None:
            fd = self._remote.local_file(s)
            try:
                with self._lock:
                    shard = self._shards[s] if self._shards else None
                    if shard is None:
                        if not self._shards:
                            raise RuntimeError("[ERROR] The ShardReader has been closed.")
                        shard = _Shard(self._layouts[s], fd=fd)
                        self._shards[s] = shard
            finally:
                os.close(fd)
        return shard

    def will_read(self, row_ids):
        """Hint: rows `row_ids` will be read in this order. A remote set starts downloading
        its shards in that order; local files need nothing."""
        if self._remote is None or not len(row_ids):
            return
        shard = np.searchsorted(self._ends, np.asarray(row_ids, np.int64), side="right")
        _, first = np.unique(shard, return_index=True)
        self._remote.prefetch(shard[np.sort(first)].tolist())

    def _columns(self, columns):
        if columns is None:
            return self.column_names
        if isinstance(columns, str):
            columns = [columns]
        unknown = [c for c in columns if c not in self.schema]
        if unknown:
            raise ValueError(f"columns {unknown} are not in the schema of {self.files[0]}; "
                             f"available: {self.column_names}")
        return list(columns)

    def _ids(self, row_ids):
        ids = np.asarray(row_ids)
        if ids.ndim == 0:
            ids = ids.reshape(1)
        if ids.ndim != 1 or (ids.size and ids.dtype.kind not in "iu"):
            raise TypeError(f"row_ids must be a 1-D sequence of integers, got {row_ids!r:.80}")
        ids = ids.astype(np.int64, copy=False)
        if ids.size and (ids.min() < 0 or ids.max() >= self.num_rows):
            bad = ids[(ids < 0) | (ids >= self.num_rows)][0]
            raise IndexError(f"row id {bad} is out of range [0, {self.num_rows})")
        return ids

    def _locate(self, ids):
        """(shard index array, local row array)."""
        shard = np.searchsorted(self._ends, ids, side="right")
        return shard, ids - self._starts[shard]

    # ---- public API -----------------------------------------------------------------------
    def __len__(self):
        return self.num_rows

    def read_rows(self, row_ids, columns=None):
        """dict name -> list of per-row values for the global `row_ids`, in order."""
        shards = self._live_shards()
        columns = self._columns(columns)
        ids = self._ids(row_ids)
        if len(shards) == 1:
            return self._shard(0).values(ids, columns)
        shard, local = self._locate(ids)
        if ids.size and shard[0] == shard[-1] and (shard == shard[0]).all():
            return self._shard(int(shard[0])).values(local, columns)
        out = {name: [None] * len(ids) for name in columns}
        for s in np.unique(shard).tolist():
            pos = np.flatnonzero(shard == s)
            part = self._shard(s).values(local[pos], columns)
            for name in columns:
                dest, src = out[name], part[name]
                for p, v in zip(pos.tolist(), src):
                    dest[p] = v
        return out

    def read_row(self, i, columns=None):
        return {name: values[0] for name, values in self.read_rows([i], columns).items()}

    def blob_locations(self, row_ids, column):
        """Where the bytes of the ``bytes`` field `column` of each row lie in memory: (uint64
        addresses, int64 sizes), for native code that reads them without the GIL. Valid while
        this reader is open (the maps stay mapped until close())."""
        shards = self._live_shards()
        if self.schema.get(column, {}).get("type") != "bytes":
            raise ValueError(f"blob_locations: {column!r} is not a bytes field of {self.files[0]}")
        ids = self._ids(row_ids)
        if len(shards) == 1:        # a batch of a one-file set: no grouping by file
            offs, lens = self._shard(0).blobs[column]
            base = np.uint64(self._shard(0)._u8().ctypes.data)
            return offs[ids].astype(np.uint64) + base, lens[ids].astype(np.int64, copy=False)
        shard, local = self._locate(ids)
        addresses = np.empty(len(ids), np.uint64)
        sizes = np.empty(len(ids), np.int64)
        for s in np.unique(shard).tolist():
            pos = np.flatnonzero(shard == s)
            mapped = self._shard(s)
            offs, lens = mapped.blobs[column]
            base = mapped._u8().ctypes.data
            addresses[pos] = offs[local[pos]].astype(np.uint64) + np.uint64(base)
            sizes[pos] = lens[local[pos]]
        return addresses, sizes

    def scalar_column(self, column):
        """The values of the int/float field `column` for every row, as one 1-D array (what
        read_rows returns row by row), or None for other fields. For a remote set: an object
        whose ``[row_ids]`` gives those rows' values, mapping only the shards they are in."""
        shards = self._live_shards()
        spec = self.schema.get(column, {})
        if "shape" in spec or spec.get("type") not in ("int32", "int64", "float32", "float64"):
            return None
        if self._remote is not None:
            return _RemoteScalarColumn(self, column)
        parts = []
        for shard in shards:
            if column in shard.int32_overflow:
                return None
            parts.append(shard.columns[column])
        return np.concatenate(parts) if len(parts) > 1 else parts[0]

    def scalar_values(self, column, ids):
        """Values of the scalar field `column` at the global `ids` (1-D array)."""
        ids = self._ids(ids)
        shard, local = self._locate(ids)
        out = np.empty(len(ids), np.dtype(self.schema[column]["type"]))
        for s in np.unique(shard).tolist():
            pos = np.flatnonzero(shard == s)
            mapped = self._shard(s)
            col = mapped.columns[column]
            if column in mapped.int32_overflow:
                out[pos] = mapped._int32_values(column, col, local[pos])
            else:
                out[pos] = col[local[pos]]
        return out

    def file_versions(self):
        """[(path or URL, size, version)] of the files: the mtime in ns of a local file, the
        ETag of an object; a cache key built from them changes when a file is rewritten."""
        if self._remote is not None:
            return [(o.url, o.size, o.etag) for o in self._remote.objects]
        out = []
        for path in self.files:
            st = os.stat(path)
            out.append((path, st.st_size, st.st_mtime_ns))
        return out

    def row_provenance(self, i):
        """(file path, shard-local row id) of global row `i`."""
        ids = self._ids([i])
        shard, local = self._locate(ids)
        return self.files[int(shard[0])], int(local[0])

    def file_row_ranges(self):
        """[(start, stop)] global row-id range of each file."""
        return [(int(a), int(b)) for a, b in zip(self._starts, self._ends)]

    def python_row(self, i, columns=None):
        """Global row `i` as a dict of Python values (FileReader's representation)."""
        columns = self._columns(columns)
        shard, local = self._locate(self._ids([i]))
        start = int(local[0])
        part = self._shard(int(shard[0])).python_values(start, start + 1, columns)
        return {name: part[name][0] for name in columns}

    def iter_python_rows(self, columns=None, chunk=1024):
        """Rows in global order as dicts of Python values (FileReader's representation)."""
        columns = self._columns(columns)
        for s in range(len(self._live_shards())):
            shard = self._shard(s)
            for start in range(0, shard.num_rows, chunk):
                stop = min(start + chunk, shard.num_rows)
                part = shard.python_values(start, stop, columns)
                cols = [part[name] for name in columns]
                for values in zip(*cols):
                    yield dict(zip(columns, values))

    def close(self):
        with self._lock:
            shards, self._shards = self._shards, []
        for s in shards:
            if s is not None:
                s.close()
        remote, self._remote = self._remote, None
        if remote is not None:
            remote.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return f"ShardReader(files={self.files!r}, num_rows={self.num_rows})"
