"""GeneratorDataset: rows from Python code.

Random-access sources (``__getitem__`` + ``__len__``) go through the engine's sampler, sharding
and workers like file sources (worker processes with shared memory when
``python_multiprocessing=True`` and ``num_parallel_workers > 1``). Iterables and generator
functions are read in order by one stream node.
"""
import logging
from types import GeneratorType

import numpy as np

from . import config
from . import mstype
from .cache.identity import Deferred, describe_value, unidentified
from .dataset import check_columns, check_num_parallel_workers
from .engine.errors import wrap_error
from .graph.checks import INT32_MAX, check_bool, out_of_range, wrong_type
from .ops.source import SourceDataset
from .sampled_batches import SampledBatches, check_batch_sampler, sampled_batches
from .samplers import Shuffle, refuse_pk_sampler, user_source_sampling
from .sources.base import RowSource
from .sources.schema import Schema

logger = logging.getLogger("minddata")


def _column_type_name(t, k):
    """The name MindSpore gives the type of ``column_types[k]`` ("int32", "string", ...), or
    None for None (a column whose values are not checked). MindSpore's types, numpy's dtypes
    and scalar types (which ``mindspore.common.dtype``'s names are under training.compat)."""
    if t is None:
        return None
    if isinstance(t, mstype.Type):
        return "string" if t is mstype.string else t.dtype.name
    d = None
    if isinstance(t, np.dtype):
        d = t
    elif isinstance(t, type) and issubclass(t, np.generic):
        d = np.dtype(t)
    if d is not None:
        if d.kind == "U":
            return "string"
        if d.kind == "S":
            return "bytes"
        if d.kind in "biufc":
            return d.name
    # MindSpore raises NotImplementedError (without words) for a type it does not know.
    raise NotImplementedError(f"column_types[{k}]: {t!r} is not a MindSpore data type "
                              f"(mindspore.int32, mindspore.float32, mindspore.string, ...)")


def _check_column_types(column_types):
    """The type names to check each column's values against (measured in MindSpore 2.10):
    None when there is no check (``column_types`` None or empty); a None entry leaves its
    column unchecked; entries past the last column are ignored; a column past the end of the
    list is checked against "unknown", which no value has (MindSpore reads past the end of
    its list there, and so fails on the first row too)."""
    if column_types is None:
        return None
    if not isinstance(column_types, list):
        raise wrong_type("column_types", column_types, list)
    names = [_column_type_name(t, k) for k, t in enumerate(column_types)]
    return names or None


def _column_checks(type_names, n):
    """One type name (or None) per column: ``type_names`` cut or filled with "unknown" to
    ``n`` columns; None when nothing is checked."""
    if type_names is None:
        return None
    return tuple(type_names[:n]) + ("unknown",) * (n - len(type_names))


def _type_matches(a, name):
    """Whether the array ``a`` has the column type ``name`` (byte order aside)."""
    kind = a.dtype.kind
    if name == "string":
        return kind == "U"
    if name == "bytes":
        return kind == "S"
    return kind in "biufc" and a.dtype.name == name


def _check_source(source):
    if not callable(source):
        try:
            iter(source)
        except TypeError:
            raise TypeError("Input `source` function of GeneratorDataset should be callable, "
                            "iterable or random accessible, commonly it should implement one of "
                            "the method like yield, __getitem__ or __next__(__iter__).") from None


def _check_max_rowsize(max_rowsize):
    """MB of shared memory per row for worker processes, checked in MindSpore's words; a
    list (map's [in, out] pair) counts as its larger size. None, -1 and 0 (which MindSpore
    accepts too) leave the size to the engine: returns None."""
    if max_rowsize is None:
        return None
    if isinstance(max_rowsize, bool) or not isinstance(max_rowsize, (int, list)):
        raise wrong_type("max_rowsize", max_rowsize, int)
    if isinstance(max_rowsize, list):
        max_rowsize = max(max_rowsize)
    if not -1 <= max_rowsize <= INT32_MAX:
        raise out_of_range("max_rowsize", max_rowsize, -1, INT32_MAX)
    return max_rowsize if max_rowsize > 0 else None


def _stream_sampling(sampler, shuffle, num_shards):
    """The shuffle of a source read as a stream (no __getitem__). Sampling it is refused
    (MindSpore's ValueErrors); a shuffle is ignored, as MindSpore ignores it, but with a
    warning: the rows come in the order the source gives them."""
    for name, given in (("sampler", sampler), ("num_shards", num_shards)):
        if given is not None:
            raise ValueError(f"{name} is not supported if source does not have attribute "
                             f"'__getitem__'.")
    if shuffle not in (None, False, Shuffle.FALSE):
        logger.warning("minddata: GeneratorDataset(shuffle=%r) is ignored (as in MindSpore): "
                       "a source without __getitem__ gives its rows in its own order", shuffle)
    return None


def _schema_columns(schema):
    """The column names of ``schema`` (a Schema or the path of a schema file) and their type
    names, which a GeneratorDataset checks its values against as MindSpore does."""
    if isinstance(schema, str):
        schema = Schema(schema)
    elif not isinstance(schema, Schema):
        raise ValueError(f"schema should be a path to schema file or a schema object, got "
                         f"{type(schema).__name__}.")
    cols = schema.columns
    if not cols:
        # MindSpore's words (when its pipeline is built; here when the dataset is).
        raise RuntimeError('GeneratorDataset: Invalid data, "columns" field is missing: the '
                           'schema has no columns.')
    return [c["name"] for c in cols], [c["type"] for c in cols]


def _type_error(names, k, where, got, want):
    """MindSpore's words for a value of another type than its column's (measured in MindSpore
    2.10: a RuntimeError when the row is read, never a cast), then ours."""
    return RuntimeError(f"GeneratorDataset: {where} column {names[k]!r}: Invalid Python "
                        f"function, type of returned data in 'GeneratorDataset' should be same "
                        f"with specified column_types, but the type of returned data: "
                        f"{got}, specified column type: {want}")


def make_row(item, names, types, where):
    """Generator output -> tuple of numpy arrays, or dicts for Python object columns: a tuple
    or list holds one value per column (as in MindSpore, a list too when there is one column:
    ``[x]`` is the column value x); any other value is the value of the one column.

    ``types`` (None, or one type name or None per column: ``_column_checks``) are the types
    the values must have, from ``column_types`` or a schema; as in MindSpore a value of
    another type is an error, never cast."""
    n = len(names)
    single = not isinstance(item, (tuple, list))
    values = (item,) if single else item
    if len(values) != n:
        # The words of MindSpore's message, which code may match on.
        raise RuntimeError(f"GeneratorDataset: {where}: Invalid Python function, the 'source' "
                           f"of 'GeneratorDataset' should return same number of NumPy arrays "
                           f"as specified in column_names, the size of column_names is:{n} and "
                           f"number of returned NumPy array is:{len(values)} (column_names: "
                           f"{names})")
    out = []
    for k, v in enumerate(values):
        want = None if types is None else types[k]
        if isinstance(v, dict):
            # A Python object column (MindSpore keeps dicts as they are; wrap any other
            # Python object in a dict to carry it through the pipeline).
            if want is not None:
                raise _type_error(names, k, where, type(v), want)
            out.append(v)
            continue
        a = v if type(v) is np.ndarray else np.asarray(v)
        if a.dtype == object:
            # MindSpore numbers the item only when the row is a tuple of values.
            item_words = "the input" if single else f"{k + 1}th item of the input"
            raise TypeError(f"GeneratorDataset: {where} column {names[k]!r}: Data type of "
                            f"{item_words} or its converted Numpy array is expected to be int "
                            f"or float or str, but got {type(v).__name__} (object); wrap other "
                            f"Python objects in a dict")
        refuse_unknown_dtype(a, f"GeneratorDataset: {where} column {names[k]!r}")
        if want is not None and not _type_matches(a, want):
            raise _type_error(names, k, where, type(a), f"{want} (the value's dtype is "
                                                        f"{a.dtype})")
        out.append(a)
    return tuple(out)


def refuse_unknown_dtype(a, where):
    """MindSpore's error for a value of a dtype its tensors have no type for: dates, time
    spans, structured records (measured in MindSpore 2.10: a RuntimeError when the row is
    read)."""
    if a.dtype.kind in "MmV":
        raise RuntimeError(f"{where}: Failed to create tensor from numpy array, data type is "
                           f"unknown: {a.dtype} (numbers, bool, str and bytes are)")


def describe_source(source, types):
    """Cache-key text of a generator source. Python code can return anything (files read
    afresh, random draws, a counter), so its rows are identified only by what the user
    states: the source's ``cache_identity`` attribute, a non-empty str that must change
    whenever its rows change. In-memory data given as the source (a list, a tuple, a numpy
    array) is identified by its content instead. Anything else cannot be cached."""
    kind = f"{type(source).__module__}.{type(source).__qualname__}"
    types_text = None if types is None else list(types)
    identity = getattr(source, "cache_identity", None)
    if isinstance(identity, str) and identity:
        return f"GeneratorDataset({kind}, cache_identity={identity!r}, column_types={types_text})"
    if identity is None and isinstance(source, (list, tuple, np.ndarray)):
        return Deferred(lambda: f"GeneratorDataset({kind}#{describe_value(source, 'source')}, "
                                f"column_types={types_text})")
    name = getattr(source, "__qualname__", None) or type(source).__qualname__
    problem = ("its cache_identity is not a non-empty str" if identity is not None else
               "Python code can return different rows for the same index")
    return unidentified(
        f"the rows of GeneratorDataset(source={name}) cannot be identified ({problem}); set "
        f"{name}.cache_identity to a str that changes whenever the rows change (a version, a "
        "hash of the input files), or cache a file source or NumpySlicesDataset instead")


def _source_len(obj):
    """len() of a random-access source; MindSpore's error (when building) without __len__."""
    if not hasattr(obj, "__len__"):
        raise RuntimeError(f"GeneratorDataset: source {type(obj).__name__} has __getitem__ but "
                           f"no __len__: Attempt to construct a random access dataset, "
                           f"'__len__' method is required!")
    return len(obj)


def _is_random_access(source):
    """Rows read by index: the source has __getitem__. One without __len__ counts too (it
    fails when the pipeline is built, as in MindSpore), unless it can be iterated instead
    (torch's IterableDataset inherits a __getitem__ that raises)."""
    return hasattr(source, "__getitem__") and (hasattr(source, "__len__")
                                               or not hasattr(source, "__iter__"))


class _ReplayedGenerator:
    """A generator object given as the source. Unlike a generator function it cannot be
    called again, yet MindSpore reads it again each epoch (and for get_dataset_size): its
    rows are kept as it yields them and replayed from the start by every iteration (memory
    grows with the rows, as in MindSpore)."""

    def __init__(self, generator):
        self.generator = generator
        self.rows = []
        self.exhausted = False

    def __iter__(self):
        k = 0
        while k < len(self.rows) or self._pull():
            yield self.rows[k]
            k += 1

    def _pull(self):
        if self.exhausted:
            return False
        try:
            self.rows.append(next(self.generator))
            return True
        except StopIteration:
            self.exhausted = True
            return False


def _user_source(source):
    """The source MindSpore reads: a zip becomes a list (random access, readable each
    epoch), a generator object is replayed each epoch."""
    if isinstance(source, zip):
        return list(source)
    if isinstance(source, GeneratorType):
        return _ReplayedGenerator(source)
    return source


class _RandomAccessSource(RowSource):
    def __init__(self, obj, names, types):
        self.obj = obj
        self.column_names = names
        self.types = types

    def __len__(self):
        return _source_len(self.obj)

    def read_rows(self, ids):
        obj, names, types = self.obj, self.column_names, self.types
        out = []
        for i in ids:
            i = int(i)
            try:
                out.append(make_row(obj[i], names, types, f"source[{i}]"))
            except BaseException as e:
                raise wrap_error(e, "GeneratorDataset", f"source[{i}]")
        return out

    def provenance(self, row_id):
        return f"{type(self.obj).__name__}[{int(row_id)}]"

    def describe(self):
        return describe_source(self.obj, self.types)


class GeneratorDataset(SourceDataset):

    def __init__(self, source, column_names=None, column_types=None, schema=None,
                 num_samples=None, num_parallel_workers=1, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, python_multiprocessing=True, max_rowsize=None,
                 batch_sampler=None, collate_fn=None):
        _check_source(source)
        if column_names is None and schema is None:
            raise ValueError("GeneratorDataset: Neither columns_names nor schema are provided.")
        names = check_columns("column_names", column_names) if column_names is not None \
            else None
        type_names = _check_column_types(column_types)
        if schema is not None:
            # As in MindSpore, a schema gives the columns and their types: column_names and
            # column_types are then ignored (measured in MindSpore 2.10).
            names, type_names = _schema_columns(schema)
        types = _column_checks(type_names, len(names))
        check_num_parallel_workers(num_parallel_workers)
        sampler, shuffle, num_shards, shard_id = user_source_sampling(
            num_samples, sampler, shuffle, num_shards, shard_id)
        check_bool("python_multiprocessing", python_multiprocessing)
        max_rowsize = _check_max_rowsize(max_rowsize)
        check_batch_sampler(source, batch_sampler, collate_fn, num_samples, shuffle, sampler,
                            num_shards, shard_id)
        source = _user_source(source)
        if batch_sampler is not None:
            source = sampled_batches(source, batch_sampler, collate_fn, names, make_row)
        self.source = source
        self.batch_sampled = batch_sampler is not None
        self.random_access = _is_random_access(source)
        if not self.random_access:
            shuffle = _stream_sampling(sampler, shuffle, num_shards)
        self.column_types = types
        self.python_multiprocessing = python_multiprocessing

        def factory(obj=source, names=names, types=types):
            return _RandomAccessSource(obj, names, types)

        super().__init__(factory, num_samples=num_samples, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, column_names=names,
                         process_workers=python_multiprocessing, max_rowsize=max_rowsize,
                         chunk_rows=None)
        # Without an explicit count, MindSpore's default of one worker reads in the main thread.
        self.num_parallel_workers = num_parallel_workers

    def __getitem__(self, index):
        """MindSpore's random access to the dataset: the source's item (as the source returns
        it) at the ``index``-th id this dataset reads in its first epoch."""
        if isinstance(index, bool) or not isinstance(index, (int, np.number)):
            raise wrong_type("index", index, int, np.number)
        if self.batch_sampled:
            raise RuntimeError("GeneratorDataset with batch_sampler does not support random "
                               "access.")
        if not hasattr(self.source, "__getitem__"):
            raise RuntimeError("Dataset don't support randomized access.")
        if index < 0:
            raise RuntimeError(f"Index [{index}] can not be a negative number.")
        src = self.open_source()
        try:
            ids = self.epoch_ids(src, config.get_seed(), 0, 0)
        finally:
            src.close()
        if index >= len(ids):
            raise RuntimeError(f"Index [{index}] exceeded the number of data samples. "
                               f"(the dataset reads {len(ids)})")
        return self.source[int(ids[int(index)])]

    def open_source(self):
        # A PKSampler added after construction (add_sampler) fails when the pipeline is built.
        refuse_pk_sampler(self.sampler, RuntimeError)
        return super().open_source()

    def _batch_size(self):
        # MindSpore's get_batch_size() when each row is a batch of the batch sampler's.
        return -1 if self.batch_sampled else super()._batch_size()

    @property
    def kind(self):
        # Without __getitem__ the rows come as a stream (engine/nodes/generator_stream.py).
        return "Source" if self.random_access else "GeneratorStream"

    @property
    def keeps_positions(self):
        return self.random_access

    def stream_for_run(self):
        """The rows of an iterable or generator-function source for one run (an iterator):
        its ``open(epoch)`` gives a fresh iterator of an epoch's rows (closing it closes the
        source's generator). The source is shared by every run, as in MindSpore; a batch
        sampler is copied for each (sampled_batches.py)."""
        src = self.source
        if isinstance(src, SampledBatches):
            src = src.for_run()
        return _RunStream(src, self.known_columns, self.column_types, self.row_count())

    def row_count(self):
        if self.random_access:
            return self.count_ids(_source_len(self.source))
        if hasattr(self.source, "__len__"):
            n = len(self.source)
            return min(n, self.num_samples) if self.num_samples else n
        return None

    def _num_classes(self):
        return None

    def _class_indexing(self):
        return None

    def source_meta(self):
        if not self.random_access:
            return {"columns": self.known_columns, "len": None, "classes": None,
                    "describe": describe_source(self.source, self.column_types)}
        return super().source_meta()

    def _is_random_self(self):
        return self.random_access and super()._is_random_self()

    def use_sampler(self, new_sampler):
        self._refuse_sampler_of_stream()
        super().use_sampler(new_sampler)

    def add_sampler(self, new_sampler):
        self._refuse_sampler_of_stream()
        super().add_sampler(new_sampler)

    def _refuse_sampler_of_stream(self):
        # as sampler= is refused (MindSpore's ValueError); MindSpore 2.10 ignores a sampler
        # added later and serves the rows (measured: num_samples=6 then
        # add_sampler(SequentialSampler(2)) gives rows 0-5), this package served every row
        if not self.random_access:
            raise ValueError("sampler is not supported if source does not have attribute "
                             "'__getitem__'.")


class _RunStream:
    """The stream of one run: opens the rows of each of its epochs."""

    def __init__(self, source, names, types, rows):
        self.source = source
        self.names = names
        self.types = types
        self.rows = rows    # per epoch, from the source's __len__ (None without one)

    def open(self, epoch):
        src = self.source
        if isinstance(src, SampledBatches):
            it = src.batches_of(epoch)
        else:
            it = iter(src() if callable(src) and not hasattr(src, "__iter__") else src)
        return _rows_of(it, self.names, self.types, self.rows)


def _rows_of(it, names, types, expected=None):
    """The rows of one epoch. A source that ends after another number of rows than its
    __len__ said (what get_dataset_size() gave) fails, as in MindSpore."""
    pos = 0
    try:
        for pos, item in enumerate(it, 1):
            yield make_row(item, names, types, f"generator row {pos - 1}")
        if expected is not None and pos != expected:
            raise RuntimeError(f"The actual amount of data read from generator {pos} is "
                               f"different from generator.len {expected}, you should adjust "
                               f"generator.len to make them match.")
    finally:
        close = getattr(it, "close", None)
        if close is not None:
            close()
