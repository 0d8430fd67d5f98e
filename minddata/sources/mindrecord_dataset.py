"""MindDataset: rows of MindRecord files, read through ``mindrecord.ShardReader``.

Row ids are positions in MindSpore's global order (shard files in order, rows in row-id order,
spec §7), so the core's samplers and its §10.3 shard split give MindSpore's rows. A chunk of ids
is one ``ShardReader.read_rows`` call; this module only regroups its columns into row tuples.

``padded_sample``/``num_padded`` append ``num_padded`` copies of one row after the real rows (ids
R .. R+num_padded-1), as MindSpore does to make a dataset split evenly over ``num_shards``.

Values, as MindSpore 2.10 gives them: scalars 0-d arrays of the schema dtype, strings 0-d str
arrays, arrays of the schema dtype and shape, ``bytes`` columns 1-element ``|S<n>`` arrays (shape
(1,), a zero-copy view of the file's map: ``mindrecord.shard_reader.bytes_value``; ``Decode``
takes them as they are, ``arr.tobytes()`` gives the stored bytes, a batch of them is
``|S<longest>`` of shape (n, 1)). The native batch path reads the same bytes through
``native_column`` without making these arrays. An empty array field is served as stored: shape
(0,), or (2, 0) for a schema shape [2, -1], as FileReader gives it (MindSpore 2.10's MindDataset
gives a 0-d value of memory it never wrote: a deviation on purpose, README).
"""
import functools
import os

import numpy as np

from ._source_base import RowSource, Sampler, Shuffle, SourceDataset
from .native_access import EncodedBytes
from ._validation import check_file_list, check_sampling_args, type_check

SUPPORTED_SAMPLERS = ("SubsetRandomSampler", "SubsetSampler", "PKSampler", "DistributedSampler",
                      "RandomSampler", "SequentialSampler")


def _open_reader(dataset_files, storage_options=None, listings=None):
    from mindrecord import ShardReader
    try:
        return ShardReader(dataset_files, storage_options=storage_options, listings=listings)
    except Exception as exc:  # noqa: BLE001 - MindSpore reports every open failure as RuntimeError
        if isinstance(exc, RuntimeError):
            raise
        raise RuntimeError(f"MindDataset: cannot open {dataset_files}: {exc}") from exc


def padded_value(spec, value, column):
    """One ``padded_sample`` value in the dataset representation of its schema ``spec``."""
    kind = spec.get("type")
    try:
        if kind == "bytes":
            raw = value.tobytes() if isinstance(value, np.ndarray) else bytes(value)
            return np.array([raw])      # |S<len> of shape (1,), as the real rows (|S1 if empty)
        if kind == "string":
            return np.array(str(value))
        arr = np.array(value, dtype=np.dtype(kind))
        if "shape" in spec:
            shape = [d for d in spec["shape"]]
            if -1 in shape:
                arr = arr.reshape(-1) if len(shape) == 1 else arr.reshape(shape)
            else:
                arr = arr.reshape(shape)
        elif arr.ndim != 0:
            raise ValueError(f"expected a scalar, got shape {arr.shape}")
        return arr
    except (TypeError, ValueError) as exc:
        raise RuntimeError(f"MindDataset: padded_sample['{column}'] = {value!r} does not fit the "
                           f"column's schema {spec}: {exc}") from exc


class MindRecordSource(RowSource):
    """A ShardReader plus the optional padded rows; thread-safe because ShardReader is."""

    def __init__(self, dataset_files, columns_list, padded_sample, num_padded, num_shards=None,
                 storage_options=None, listings=None):
        self._reader = _open_reader(dataset_files, storage_options, listings)
        try:
            self._setup(dataset_files, columns_list, padded_sample, num_padded)
            if self._num_padded and num_shards and len(self) % num_shards:
                raise RuntimeError(f"Invalid data, the size of dataset and padded samples: "
                                   f"{len(self)} can not be divisible by the value of "
                                   f"'num_shards': {num_shards} ({self._num_real} rows + "
                                   f"{self._num_padded} padded). Please adjust the value of "
                                   f"'num_padded'.")
        except BaseException:
            self._reader.close()
            raise

    def _setup(self, dataset_files, columns_list, padded_sample, num_padded):
        reader = self._reader
        available = list(reader.column_names)
        if columns_list:
            for name in columns_list:
                if name not in available:
                    raise RuntimeError(f"Invalid data, specified loading column name: {name} does not "
                                       f"exist in data file {reader.files[0]} (columns: {available}).")
            self.column_names = list(columns_list)
        else:
            self.column_names = available
        self._num_real = int(reader.num_rows)
        self._num_padded = int(num_padded or 0)
        self._padded_row = None
        if padded_sample is not None and self._num_padded:
            self._padded_row = tuple(padded_value(reader.schema[c], padded_sample[c], c)
                                     for c in self.column_names)
        # Project only when asked: reading every column lets the reader skip a lookup per name.
        self._columns = self.column_names if columns_list else None
        self._files = list(reader.files)

    def __len__(self):
        return self._num_real + self._num_padded

    def _read_real(self, ids):
        data = self._reader.read_rows(ids, self._columns)
        return list(zip(*[data[c] for c in self.column_names]))

    def read_rows(self, ids):
        ids = np.asarray(ids, dtype=np.int64).reshape(-1)
        n = len(self)
        if ids.size and (ids.min() < 0 or ids.max() >= n):
            bad = int(ids[(ids < 0) | (ids >= n)][0])
            raise IndexError(f"row id {bad} is out of range for MindDataset {self._files} ({n} rows)")
        padded = ids >= self._num_real
        if not padded.any():
            return self._read_real(ids)
        rows = [None] * ids.size
        real_pos = np.flatnonzero(~padded)
        for pos, row in zip(real_pos, self._read_real(ids[real_pos]) if real_pos.size else []):
            rows[pos] = row
        for pos in np.flatnonzero(padded):
            rows[pos] = tuple(v.copy() for v in self._padded_row)
        return rows

    def provenance(self, row_id):
        row_id = int(row_id)
        if row_id >= self._num_real:
            return f"padded_sample (row {row_id}, after the {self._num_real} rows of {self._files})"
        path, local = self._reader.row_provenance(row_id)
        return f"{os.path.basename(path)} row {local} ({path})"

    def will_read(self, ids):
        ids = np.asarray(ids, dtype=np.int64)
        self._reader.will_read(ids[ids < self._num_real])

    def describe(self):
        stamps = self._reader.file_versions()
        padded = None
        if self._padded_row is not None:
            padded = [(v.dtype.str, v.shape, v.tobytes().hex()) for v in self._padded_row]
        return (f"MindDataset(files={stamps}, columns={self.column_names}, "
                f"num_padded={self._num_padded}, padded_sample={padded})")

    def class_indexing(self):
        return None

    @property
    def class_column(self):
        """No stand-in column for a PKSampler: its ``class_column`` must be a field of the
        files, as MindSpore requires (RowSource's default would group by ``label``)."""
        raise AttributeError("MindDataset has no stand-in class column")

    def native_column(self, name):
        if self._num_padded or self._reader.schema.get(name, {}).get("type") != "bytes":
            return None
        reader = self._reader
        return EncodedBytes(lambda ids: reader.blob_locations(ids, name))

    def column_values(self, name):
        return None if self._num_padded else self._reader.scalar_column(name)

    def file_row_ranges(self):
        starts = np.cumsum([0] + [int(c) for c in self._reader.shard_row_counts])
        ranges = [(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:])]
        if self._num_padded:
            ranges.append((self._num_real, len(self)))
        return ranges

    def close(self):
        self._reader.close()


def check_padding(columns_list, padded_sample, num_padded):
    """MindSpore's check_padding_options: the two go together and need columns_list."""
    if padded_sample is not None:
        if num_padded is None:
            raise RuntimeError("padded_sample is specified and requires num_padded as well.")
        if num_padded < 0:
            raise ValueError(f"num_padded is invalid, num_padded={num_padded}.")
        if columns_list is None:
            raise RuntimeError("padded_sample is specified and requires columns_list as well.")
        for column in columns_list:
            if column not in padded_sample:
                raise ValueError("padded_sample cannot match columns_list.")
    if padded_sample is None and num_padded is not None:
        raise RuntimeError("num_padded is specified but padded_sample is not.")


class MindDataset(SourceDataset):
    """Rows of MindRecord files (one file of a set, or a list of files).

    Same signature, defaults and errors as ``mindspore.dataset.MindDataset``: columns in
    alphabetical order (or ``columns_list`` order), ``shuffle`` None/True = ``Shuffle.GLOBAL``,
    ``Shuffle.FILES`` / ``Shuffle.INFILE`` / False, ``num_shards``/``shard_id`` split as spec
    §10.3, ``padded_sample`` + ``num_padded`` to even out shards.

    ``dataset_files`` may be URLs (``s3://bucket/dir/train.mindrecord0``, ``gs://``,
    ``http(s)://``, any fsspec URL): the set is opened from its headers and its shards are read
    through the node-local cache (README, "Object storage"). ``storage_options`` (keyword-only)
    are the fsspec file system's options, e.g. ``{"endpoint_url": ..., "anon": True}``; without
    them the store's usual environment (``AWS_ENDPOINT_URL``, ``AWS_PROFILE``...) applies.

    ``shuffle=Shuffle.BLOCKS`` (minddata's own level, for files read remotely or through a
    node-local cache): each file's rows are cut into blocks of ``shuffle_block_rows``
    consecutive rows (a block never spans files; a file's leftover rows join its last block),
    the blocks are put in a random order, then the rows are shuffled within consecutive
    windows of ``shuffle_window_rows`` rows of that sequence. A reader thus works on about
    ``shuffle_window_rows / shuffle_block_rows + 1`` blocks at a time, each one contiguous byte
    range of one file, instead of a row of every file. The order is a function of the seed and
    the epoch, as the other levels', so exact and elastic resume work. With ``num_shards``,
    shard k reads the k-th contiguous part of the epoch's order (wrapping to its start to
    give every shard the same count), not MindSpore's strided split, so that each rank reads
    its own blocks. Keyword-only options, allowed only with ``Shuffle.BLOCKS``:

    - ``shuffle_block_rows`` (default 256): about one 32 MiB page (the writer's default page
      size) of ImageNet-sized rows (~110 KiB encoded), so a block is one ranged read.
    - ``shuffle_window_rows`` (default 16 blocks: 4096 rows with the default block; at least
      ``shuffle_block_rows``): a batch of 128 draws from 16 blocks of random places of the
      set, while a window's blocks (~450 MB of ImageNet rows) stay in a node's cache. More
      blocks per window mix better and touch more blocks at a time:
      ``benchmarks/shuffle_quality_bench.py`` measures both. On files written in class order
      (the worst case), batches' class mix is further from the set's than under GLOBAL (mean
      total-variation distance 0.31 vs 0.11 with 10 classes; 0.17 with 64 blocks per window),
      with 17x fewer distinct 256-row ranges read per 1,000 rows (5x with 64 blocks).
    """

    def __init__(self, dataset_files, columns_list=None, num_parallel_workers=None, shuffle=None,
                 num_shards=None, shard_id=None, sampler=None, padded_sample=None, num_padded=None,
                 num_samples=None, cache=None, *, shuffle_block_rows=None,
                 shuffle_window_rows=None, storage_options=None):
        files = check_file_list(dataset_files, urls=True)
        if storage_options is not None:
            type_check(storage_options, (dict,), "storage_options")
        if columns_list is not None:
            type_check(columns_list, (list,), "columns_list")
            if not columns_list:
                raise ValueError("columns_list should not be empty.")
            for name in columns_list:
                type_check(name, (str,), "columns_list")
            if len(set(columns_list)) != len(columns_list):
                raise ValueError(f"columns_list has duplicate names: {columns_list}.")
        if padded_sample is not None:
            type_check(padded_sample, (dict,), "padded_sample")
        if num_padded is not None:
            type_check(num_padded, (int,), "num_padded")
        check_sampling_args(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        check_padding(columns_list, padded_sample, num_padded)
        if sampler is not None and type(sampler).__name__ not in SUPPORTED_SAMPLERS:
            if not isinstance(sampler, (Sampler, int)) and (
                    isinstance(sampler, (str, bytes)) or not hasattr(sampler, "__iter__")):
                # MindSpore's words for what is no sampler, list or iterable
                raise TypeError(f"Unsupported sampler object of type ({type(sampler)})")
            raise ValueError("The sampler is not supported yet.")
        self.dataset_files = files
        # One listing of a remote set per dataset: every open of the source shares it.
        listings = {}
        super().__init__(functools.partial(MindRecordSource, files, columns_list, padded_sample,
                                           num_padded, num_shards, storage_options, listings),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         shuffle_modes=(Shuffle.GLOBAL, Shuffle.FILES, Shuffle.INFILE,
                                        Shuffle.BLOCKS),
                         column_names=columns_list, shuffle_block_rows=shuffle_block_rows,
                         shuffle_window_rows=shuffle_window_rows)
        if num_samples and shuffle in (Shuffle.FILES, Shuffle.INFILE):
            # MindSpore's check (these levels read whole files: no row count to stop at)
            raise ValueError("'Shuffle.FILES' or 'Shuffle.INFILE' and 'num_samples' "
                             "cannot be specified at the same time.")
        if num_padded and num_shards is not None:
            # Whether rows + num_padded split evenly over the shards is in the file's header:
            # an invalid num_shards fails here, not when iterating (MindSpore finds it when
            # the pipeline starts).
            self.source_meta()


class OBSMindDataset(MindDataset):
    """MindSpore's ``OBSMindDataset``: MindRecord files in OBS or another S3-compatible store
    (MinIO, AWS S3), read through this project's remote reader (README, "Object storage").

    ``dataset_files`` are the files' ``s3://bucket/key`` URLs (exactly those files, in order);
    ``server`` is the store's endpoint (``http://`` or ``https://``), ``ak``/``sk`` its access
    and secret keys (fsspec's ``endpoint_url``, ``key`` and ``secret``). ``sync_obs_path`` is
    MindSpore's folder in the store through which the nodes of a job wait for each other's
    downloads; the remote reader needs no such folder (each node reads its shards through its
    own cache), so it is checked and kept, not used. Every shard gets the same number of rows
    whatever ``shard_equal_rows`` says (MindDataset's split always evens them out). Arguments
    are checked with MindSpore's types and words.
    """

    def __init__(self, dataset_files, server, ak, sk, sync_obs_path, columns_list=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, shard_equal_rows=True):
        type_check(dataset_files, (list,), "dataset_files")
        for item in dataset_files:
            if not isinstance(item, str):
                raise TypeError(f"Item of dataset files is not of type [{type('')}], but got "
                                f"{type(item)}.")
        for name, value, kind in (("num_shards", num_shards, int), ("shard_id", shard_id, int),
                                  ("columns_list", columns_list, list),
                                  ("shard_equal_rows", shard_equal_rows, bool),
                                  ("server", server, str), ("ak", ak, str), ("sk", sk, str),
                                  ("sync_obs_path", sync_obs_path, str)):
            if value is not None:
                type_check(value, (kind,), name)
        if not server.startswith(("http://", "https://")):
            raise ValueError(f"server should be a str that starts with http:// or https://, but "
                             f"got {server}.")
        if shuffle is not None and not isinstance(shuffle, (bool, Shuffle)):
            raise TypeError("shuffle must be of boolean or enum of 'Shuffle' values like "
                            "'Shuffle.GLOBAL' or 'Shuffle.FILES'.")
        self.server, self.sync_obs_path, self.shard_equal_rows = server, sync_obs_path, \
            shard_equal_rows
        super().__init__(dataset_files, columns_list=columns_list, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id,
                         storage_options={"endpoint_url": server, "key": ak, "secret": sk})


def sync_wait_for_dataset(rank_id, rank_size, current_epoch, obs_runtime):
    """MindSpore's ``sync_wait_for_dataset``: the barrier through which MindSpore's
    OBSMindDataset makes every rank wait, each epoch, until all ranks have downloaded their
    shards (a ready-marker object per rank under ``sync_obs_path``).

    This package's OBSMindDataset downloads nothing ahead: each rank reads its rows through
    its own node-local cache, so no rank's data depends on another's download, and the
    barrier has nothing to wait for. The arguments are checked (ints, ``0 <= rank_id <
    rank_size``, ``current_epoch >= 0``) and the call returns at once; ``obs_runtime`` (an
    object of MindSpore's OBS runtime, which this package does not have) is not used. For a
    barrier between the ranks of a job, use the training framework's own (e.g.
    ``torch.distributed.barrier()``)."""
    for name, value in (("rank_id", rank_id), ("rank_size", rank_size),
                        ("current_epoch", current_epoch)):
        type_check(value, (int,), name)
    if rank_size < 1:
        raise ValueError(f"rank_size must be at least 1, but got {rank_size}.")
    if not 0 <= rank_id < rank_size:
        raise ValueError(f"rank_id must be in [0, {rank_size}), but got {rank_id}.")
    if current_epoch < 0:
        raise ValueError(f"current_epoch must not be negative, but got {current_epoch}.")
