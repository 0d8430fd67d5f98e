"""TFRecordDataset: rows of TFRecord files of ``tf.train.Example`` messages, without TensorFlow.

Framing (CRC-32C checked) and Example parsing come from ``mindrecord.tools.tfrecord``. At open,
each file's records are located once (GZIP/ZLIB files are first decompressed into an anonymous
temporary file, so memory stays flat and nothing is left behind); a row read is then one
positional read, a checksum and a parse, from any number of threads.

Columns, as in MindSpore:
- from the schema (a Schema or a JSON schema file) when one is given, typed by it;
- otherwise every feature of the first record, sorted by name: int64_list -> int64,
  float_list -> float32, bytes_list -> uint8 (the bytes, 1-D), all of rank 1;
- ``columns_list`` picks and orders them.
A bytes_list feature may also be read as ``string`` (numpy ``str_``); an int64_list as any
integer type (values cast as C++ would); a float_list only as float32.

Sharding follows MindSpore: by default (``shard_equal_rows=False``) shard k reads the files
k, k+N, k+2N, ... (sorted order) whole; with ``shard_equal_rows=True`` or a ``cache`` the rows of
all files are split by the engine core, every shard getting ceil(rows / N).
"""
import functools
import gzip
import os
import tempfile
import zlib

import numpy as np

from mindrecord.tools import tfrecord as tfr
from mindrecord.tools.bad_input import BadItem

from . import _arrays
from ._file_rows import FileOrderSampling, MultiFileRowSource, file_stamps
from ._source_base import Shuffle, SourceDataset
from ._validation import check_sampling_args, find_files, type_check
from .schema import Schema

_COMPRESSIONS = ("", "ZLIB", "GZIP")
_INT_TYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_CHUNK = 1 << 20     # decompression step: bounds the memory one step can take


# ---- files ---------------------------------------------------------------------------------

def _decompress(path, compression, out):
    """Stream ``path`` (GZIP or ZLIB) into the open binary file ``out``."""
    try:
        with open(path, "rb") as src:
            if compression == "GZIP":
                with gzip.GzipFile(fileobj=src) as stream:
                    while True:
                        block = stream.read(_CHUNK)
                        if not block:
                            break
                        out.write(block)
                return
            inflater = zlib.decompressobj()
            while not inflater.eof:
                data = src.read(_CHUNK)
                if not data:
                    raise EOFError("the ZLIB stream ends before its end marker")
                while data and not inflater.eof:
                    out.write(inflater.decompress(data, _CHUNK))
                    data = inflater.unconsumed_tail
            if inflater.unused_data or src.read(1):
                raise ValueError("there is data after the end of the ZLIB stream")
    except (OSError, EOFError, ValueError, zlib.error) as exc:
        raise RuntimeError(f"Invalid TFRecord file {path}: cannot decompress it as "
                           f"{compression}: {exc}") from exc


class _PositionalReader:
    """``seek``/``read`` over ``os.pread``: each read names its own offset, so one file
    descriptor serves every thread without a lock (read_record needs seek + read)."""

    __slots__ = ("fd", "pos")

    def __init__(self, fd):
        self.fd, self.pos = fd, 0

    def seek(self, pos):
        self.pos = pos

    def read(self, n):
        return os.pread(self.fd, n, self.pos)


class _RecordFile:
    """The records of one TFRecord file: their data offsets and lengths, and reads by index."""

    def __init__(self, path, compression):
        self.path = path
        self._file = None
        try:
            if compression:
                self._file = tempfile.TemporaryFile(prefix="minddata-tfrecord-")
                _decompress(path, compression, self._file)
                self._file.flush()
                where = f"{path} (decompressed {compression})"
            else:
                self._file = open(path, "rb", buffering=0)
                where = path
            size = os.fstat(self._file.fileno()).st_size
            try:
                records = tfr.scan_stream(self._file, size, where)
            except tfr.FramingError as exc:
                raise RuntimeError(f"Invalid TFRecord file {exc}") from exc
        except BaseException:
            self.close()
            raise
        table = np.array(records, dtype=np.int64).reshape(-1, 2)
        self.offsets, self.lengths = table[:, 0], table[:, 1]

    def __len__(self):
        return len(self.offsets)

    def example(self, index):
        """The parsed tf.train.Example of record ``index``: {name: (kind, values)}."""
        fd = self._file.fileno() if self._file is not None else -1
        if fd < 0:
            raise RuntimeError(f"TFRecordDataset: {self.path} is closed")
        try:
            data = tfr.read_record(_PositionalReader(fd), self.path, index,
                                   int(self.offsets[index]), int(self.lengths[index]))
            return tfr.parse_example(data)
        except BadItem as exc:
            raise RuntimeError(f"Invalid TFRecord file {exc}") from exc
        except (ValueError, UnicodeDecodeError) as exc:
            raise RuntimeError(f"Invalid TFRecord file {self.path} record {index}: not a "
                               f"tf.train.Example ({exc})") from exc

    def close(self):
        if self._file is not None:
            self._file.close()      # a temporary copy disappears with its last handle
            self._file = None


def _check_file_header(path, compression):
    """MindSpore checks every file when the pipeline is built; doing it here fails on the line
    that built the dataset. An empty file is a valid TFRecord file with no records."""
    try:
        with open(path, "rb") as f:
            head = f.read(12)
    except OSError:
        return False
    if not head:
        return True
    if compression == "GZIP":
        return head[:2] == b"\x1f\x8b"
    if compression == "ZLIB":
        return len(head) >= 2 and head[0] & 0x0F == 8 and (head[0] << 8 | head[1]) % 31 == 0
    return len(head) == 12 and tfr.masked_crc32c(head[:8]) == int.from_bytes(head[8:], "little")


# ---- values --------------------------------------------------------------------------------

def _materialize_shape(column, count, where):
    """The array shape of a value with ``count`` elements (MindSpore's MaterializeTensorShape,
    except that a fully known shape must match the count exactly)."""
    shape = column.get("shape")
    if shape is None:
        return () if column["rank"] == 0 and count == 1 else (count,)
    known = int(np.prod([d for d in shape if d != -1], dtype=np.int64))
    if -1 in shape:
        if count == 0:
            # MindSpore 2.10 raises for an empty value list in a column whose shape has an
            # unknown dimension (measured: int64, float32, uint8 and string columns shaped [-1]
            # or [1, -1]); a column without a shape takes it, as an array of shape (0,).
            raise RuntimeError(f"{where}: column '{column['name']}' holds no values, which do "
                               f"not fill its shape {shape}: Requested shape has an invalid "
                               f"element count! Number elements: 0.")
        if known == 0 or count % known:
            raise RuntimeError(f"{where}: column '{column['name']}' has {count} elements, which "
                               f"do not fill its shape {shape}.")
        return tuple(count // known if d == -1 else d for d in shape)
    if count != known:
        raise RuntimeError(f"{where}: column '{column['name']}' has {count} elements but its "
                           f"schema shape {shape} holds {known}.")
    return tuple(shape)


def _bytes_value(values):
    """A bytes_list as uint8: the values laid end to end, as MindSpore 2.10 lays them
    (measured: b"ab", b"c" -> [97, 98, 99]; a shape [2] column refuses b"\x00", b""; a shape
    [-1, 4] column refuses b"a"); the column's shape then applies to the bytes."""
    return np.frombuffer(bytearray(b"".join(values)), dtype=np.uint8)


def _column_value(column, feature, where):
    """One column's array from a parsed feature ``(kind, values)``, typed and shaped by the
    column (MindSpore's rules and error texts)."""
    name, kind_wanted = column["name"], column["type"]
    if feature is None:
        raise RuntimeError(f"{where}: Invalid columns_list, column name: {name} does not exist "
                           f"in tfrecord file, check tfrecord files.")
    kind, values = feature
    if kind == "int64":
        if kind_wanted not in _INT_TYPES:
            raise RuntimeError(f"{where}: Invalid column type, the column type of {name} should "
                               f"be uint64, int64, uint32, int32, uint16, int16, uint8 or int8, "
                               f"but got {kind_wanted}.")
        # astype wraps out-of-range values, as MindSpore's static_cast does.
        flat = np.array(values, dtype=np.int64).astype(kind_wanted, copy=False)
    elif kind == "float":
        if kind_wanted != "float32":
            raise RuntimeError(f"{where}: Invalid column type, the column type of {name} should "
                               f"be float32, but got {kind_wanted}.")
        flat = np.array(values, dtype=np.float32)     # a private, writable copy
    elif kind == "bytes":
        if kind_wanted == "string":
            if not values and column.get("shape") is not None:
                # MindSpore 2.10 raises for an empty bytes_list in a string column with any
                # shape, [0] included (measured: "Requested shape has an invalid element
                # count! Number elements: 0, number elements of shape: 0").
                raise RuntimeError(f"{where}: column '{name}' holds no values, which do not "
                                   f"fill its shape {column['shape']}: Requested shape has an "
                                   f"invalid element count! Number elements: 0.")
            try:
                flat = np.array([v.decode("utf-8") for v in values], dtype=np.str_)
            except UnicodeDecodeError as exc:
                raise RuntimeError(f"{where}: column '{name}' is declared string but holds "
                                   f"bytes that are not UTF-8 ({exc}); declare it uint8 to read "
                                   f"the raw bytes.") from None
            return flat.reshape(_materialize_shape(column, len(values), where))
        if kind_wanted != "uint8":
            # MindSpore 2.10 reads a bytes_list only as uint8 or string: int8 and bytes columns
            # raise there too (measured, with a schema object and a schema file alike).
            raise RuntimeError(f"{where}: Invalid column type, the column type of {name} should "
                               f"be uint8 or string, but got {kind_wanted}.")
        flat = _bytes_value(values)
    else:
        raise RuntimeError(f"{where}: Unrecognized datatype, column type in tfrecord file must "
                           f"be uint8, int64 or float32, check tfrecord file (feature {name} "
                           f"holds no value list).")
    return flat.reshape(_materialize_shape(column, flat.size, where))


_KIND_TYPES = {"int64": "int64", "float": "float32", "bytes": "uint8"}


def _columns_from_example(features, columns_list, where):
    """MindSpore's schema for files read without one: each feature of the first record, sorted
    by name (or ``columns_list``), typed by its kind, rank 1."""
    names = list(columns_list) if columns_list else sorted(features)
    if not names:
        # MindSpore 2.10: "GetColumnNames: column_name_id map can not be empty." (and an epoch
        # of no rows); rows of no columns were served here.
        raise RuntimeError(f"{where}: Invalid data, the record holds no features, so there are "
                           f"no columns to read (the columns come from the first record); "
                           f"pass a schema or columns_list.")
    columns = []
    for name in names:
        if name not in features:
            raise RuntimeError(f"{where}: Invalid columns_list, tfrecord file failed to find "
                               f"column name: {name} (its features: {sorted(features)}).")
        kind = features[name][0]
        if kind not in _KIND_TYPES:
            raise RuntimeError(f"{where}: Unrecognized column type, the column type of {name} "
                               f"should be uint8, int64 or float32, but got unrecognized column "
                               f"type.")
        columns.append({"name": name, "type": _KIND_TYPES[kind], "rank": 1})
    return columns


# ---- the row source ------------------------------------------------------------------------

class TFRecordSource(MultiFileRowSource):
    """Every record of ``files`` (in order) as a row of ``columns`` (schema column dicts).

    Without ``columns``, they are taken from the first record of ``infer_from`` (the dataset's
    full file list: a shard that reads other files still gets the columns of the first one).
    """

    _row_unit = "record"

    def __init__(self, files, columns, compression, columns_list=None, infer_from=None):
        self._files = list(files)
        self._compression = compression or ""
        self._open = []
        try:
            self._open = [_RecordFile(p, self._compression) for p in self._files]
            if columns is None:
                columns = self._infer_columns(list(infer_from or self._files), columns_list)
        except BaseException:
            self.close()
            raise
        self._columns = [dict(c) for c in columns]
        self.column_names = [c["name"] for c in self._columns]
        self._starts = np.cumsum([0] + [len(f) for f in self._open], dtype=np.int64)

    def _infer_columns(self, candidates, columns_list):
        opened = dict(zip(self._files, self._open))
        for path in candidates:
            record_file = opened.get(path) or _RecordFile(path, self._compression)
            try:
                if len(record_file):
                    return _columns_from_example(record_file.example(0), columns_list,
                                                 f"{path} record 0")
            finally:
                if path not in opened:
                    record_file.close()
        raise RuntimeError(f"TFRecordDataset: the files {candidates} hold no records, so there "
                           f"is no first record to take the columns from; pass a schema.")

    def __len__(self):
        return int(self._starts[-1])

    def read_rows(self, ids):
        ids = _arrays.as_int_ids(ids)
        _arrays.check_ids(ids, len(self), f"TFRecordDataset {self._files}")
        which = np.searchsorted(self._starts, ids, side="right") - 1
        rows = []
        for rid, k in zip(ids.tolist(), which.tolist()):
            record_file, index = self._open[k], rid - int(self._starts[k])
            features = record_file.example(index)
            where = f"{record_file.path} record {index}"
            rows.append(tuple(_column_value(c, features.get(c["name"]), where)
                              for c in self._columns))
        return rows

    def describe(self):
        stamps = file_stamps(self._files)
        return (f"TFRecordDataset(files={stamps}, compression={self._compression!r}, "
                f"columns={self._columns})")

    def close(self):
        for record_file in self._open:
            record_file.close()


# ---- the public class ----------------------------------------------------------------------

def _schema_columns(schema, columns_list):
    """(columns, numRows) of the ``schema`` argument; columns None when there is none."""
    if schema is None:
        return None, 0
    if isinstance(schema, str):
        schema = Schema(schema)
    elif not isinstance(schema, Schema):
        raise TypeError(f"path: {schema} is not string (schema should be a path to a JSON "
                        f"schema file or a Schema, but got {type(schema)}).")
    columns = schema.columns     # copies: later edits of the user's Schema change nothing here
    if not columns:
        return None, schema.num_rows      # an empty Schema reads the files' own columns
    if columns_list:
        by_name = {c["name"]: c for c in columns}
        missing = [n for n in columns_list if n not in by_name]
        if missing:
            raise RuntimeError(f"Invalid columns_list: {missing} not in the schema's columns "
                               f"{list(by_name)}.")
        columns = [by_name[n] for n in columns_list]
    return columns, schema.num_rows


class TFRecordDataset(FileOrderSampling, SourceDataset):
    """Rows of TFRecord files. Same signature, defaults (``shuffle=Shuffle.GLOBAL``) and errors as
    ``mindspore.dataset.TFRecordDataset``; see the module docstring for columns and sharding."""

    def __init__(self, dataset_files, schema=None, columns_list=None, num_samples=None,
                 num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None,
                 shard_equal_rows=False, cache=None, compression_type=None):
        if not isinstance(dataset_files, (str, list)):
            raise TypeError("dataset_files should be type str or a list of strings.")
        if not dataset_files:
            raise ValueError(f"Input dataset_files can not be empty, but got '{dataset_files}'.")
        if columns_list is not None:
            type_check(columns_list, (list,), "columns_list")
            for i, name in enumerate(columns_list):
                type_check(name, (str,), f"columns_list[{i}]")
            if len(set(columns_list)) != len(columns_list):
                raise ValueError(f"columns_list has duplicate names: {columns_list}.")
        if shard_equal_rows is not None:
            type_check(shard_equal_rows, (bool,), "shard_equal_rows")
        if compression_type is not None and compression_type not in _COMPRESSIONS:
            raise ValueError("Input compression_type can only be either '' (no compression), "
                             f"'ZLIB', or 'GZIP', but got '{compression_type}'.")
        check_sampling_args(num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id)
        files = find_files(dataset_files, "dataset_files")
        compression = compression_type or ""
        if compression and num_shards is not None and len(files) < num_shards:
            # MindSpore 2.10 refuses compressed files fewer than the shards in every sharding
            # mode (measured: one GZIP file, 2 shards, shard_equal_rows=True, no num_samples
            # raises RuntimeError when the pipeline starts); a ValueError from its argument
            # check where num_samples is given.
            error = ValueError if num_samples is not None else RuntimeError
            raise error("When compression_type is provided, the number of dataset files "
                        "cannot be less than num_shards, but the actual number of files is "
                        f"{len(files)} and actual num_shards is {num_shards}.")
        invalid = [p for p in files if not _check_file_header(p, compression)]
        if invalid:
            kind = f"{compression}-compressed TFRecord" if compression else "TFRecordDataset"
            raise RuntimeError("Invalid file. The following files either cannot be opened, or are "
                               f"not valid {kind} files:\n" + "".join(f"    {p}\n" for p in invalid))
        columns, schema_rows = _schema_columns(schema, columns_list)
        if not num_samples and schema_rows > 0:
            num_samples = schema_rows        # numRows of the schema caps the rows read
        # MindSpore shards by file unless shard_equal_rows is set or a cache is used.
        by_file = num_shards is not None and not shard_equal_rows and cache is None
        shard_files = files
        if by_file:
            if len(files) < num_shards:
                # MindSpore's type and words; it raises them only once the pipeline runs.
                raise RuntimeError(f"Invalid file, numbers of tfrecord file should not less than "
                                   f"num_shards when shard_equal_rows is false, but got numbers "
                                   f"of tfrecord file: {len(files)}, num_shards: {num_shards}. "
                                   f"TFRecordDataset shards by file; pass shard_equal_rows=True "
                                   f"to split rows.")
            shard_files = files[shard_id::num_shards]
        # MindSpore's public attributes, with its None replacements.
        self.dataset_files = files
        self.schema = schema
        self.columns_list = list(columns_list or [])
        self.shard_equal_rows = bool(shard_equal_rows)
        self.compression_type = compression
        if columns is not None:
            known = [c["name"] for c in columns]
        else:
            known = list(columns_list) if columns_list else None
        super().__init__(functools.partial(TFRecordSource, shard_files, columns, compression,
                                           list(columns_list or []), files),
                         num_samples=num_samples or None, shuffle=shuffle,
                         num_shards=None if by_file else num_shards,
                         shard_id=None if by_file else shard_id, sampler=None,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         shuffle_modes=(Shuffle.GLOBAL, Shuffle.FILES, Shuffle.INFILE),
                         column_names=known)
