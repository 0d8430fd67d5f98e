"""The ``Dataset`` API: MindSpore's methods on the logical graph.

Every dataset object is a frozen logical node (minddata/graph/) with this API on it: each
method that adds an operation (``map``, ``batch``, ...) validates its arguments at once (so a
wrong argument fails at the line that wrote it) and returns a new node; nothing runs until an
iterator is created, which plans the graph (minddata/planner/) and runs the plan
(minddata/engine/). The API classes live one per module in ``minddata.ops``.
"""


import numpy as np

from .graph.checks import check_bool, check_columns, check_num_parallel_workers  # noqa: F401
from .graph.node import LogicalNode
from .graph.source import check_shard_args

_OBJECT = np.dtype(object)


class Dataset(LogicalNode):
    """Base of every dataset class (sources and operations)."""

    def __init__(self, children=(), num_parallel_workers=None):
        super().__init__(children, num_parallel_workers)
        self._init_step = None     # set_init_step's; None: this dataset's input's
        self._size_cache = None

    def _forget_memos(self):
        super()._forget_memos()
        self._size_cache = None

    # -- operations -----------------------------------------------------------------------
    def map(self, operations, input_columns=None, output_columns=None, num_parallel_workers=None,
            **kwargs):
        from .ops.map import MapDataset
        return MapDataset(self, operations, input_columns, output_columns, num_parallel_workers,
                          **kwargs)

    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, **kwargs):
        from .ops.batch import BatchDataset
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, **kwargs)

    def padded_batch(self, batch_size, drop_remainder=False, num_parallel_workers=None,
                     pad_info=None):
        from .ops.batch import PaddedBatchDataset
        # pad_info None: no padding (rows must have one shape), as in MindSpore; {} pads every
        # column to its largest row.
        return PaddedBatchDataset(self, batch_size, drop_remainder, num_parallel_workers,
                                  pad_info=pad_info)

    def bucket_batch_by_length(self, column_names, bucket_boundaries, bucket_batch_sizes,
                               element_length_function=None, pad_info=None,
                               pad_to_bucket_boundary=False, drop_remainder=False):
        from .ops.bucket_batch import BucketBatchByLengthDataset
        return BucketBatchByLengthDataset(self, column_names, bucket_boundaries,
                                          bucket_batch_sizes, element_length_function, pad_info,
                                          pad_to_bucket_boundary, drop_remainder)

    def shuffle(self, buffer_size):
        from .ops.shuffle import ShuffleDataset
        return ShuffleDataset(self, buffer_size)

    def repeat(self, count=None):
        from .ops.repeat import RepeatDataset
        return RepeatDataset(self, count)

    def project(self, columns):
        from .ops.project import ProjectDataset
        return ProjectDataset(self, columns)

    def rename(self, input_columns, output_columns):
        from .ops.rename import RenameDataset
        return RenameDataset(self, input_columns, output_columns)

    def zip(self, datasets):
        from .ops.zip import ZipDataset
        if isinstance(datasets, LogicalNode):
            datasets = (datasets,)
        elif not isinstance(datasets, tuple):
            raise TypeError(f"datasets must be a Dataset or a tuple of Datasets, got "
                            f"{type(datasets).__name__}")
        if not datasets:
            # MindSpore 2.10 fails when the pipeline starts: a RuntimeError
            raise _no_datasets("ZipNode: input datasets are not specified.")
        return ZipDataset((self,) + tuple(datasets))

    def concat(self, datasets):
        from .ops.concat import ConcatDataset
        if isinstance(datasets, LogicalNode):
            datasets = [datasets]
        elif not isinstance(datasets, list):
            raise TypeError(f"datasets must be a Dataset or a list of Datasets, got "
                            f"{type(datasets).__name__}")
        if not datasets:
            # MindSpore 2.10 fails when the pipeline starts: a RuntimeError
            raise _no_datasets("Concat: concatenated datasets are not specified.")
        return ConcatDataset([self] + list(datasets))

    def flat_map(self, func):
        """The datasets ``func`` returns for each row (given the row's columns as numpy
        arrays), concatenated. As in MindSpore this reads this dataset once, when called."""
        if not callable(func):
            raise TypeError("func must be a function.")
        out = None
        for row in self.create_tuple_iterator(num_epochs=1, output_numpy=True):
            part = func(*row)
            if not isinstance(part, Dataset):
                raise TypeError(f"flat_map must return a Dataset object (func returned "
                                f"{type(part).__name__}).")
            out = part if out is None else out + part
        if out is None:
            raise ValueError("flat_map: the dataset has no rows to map")
        return out

    def to_json(self, filename=""):
        """The pipeline as MindSpore's JSON (``ds.serialize``), written to ``filename`` when
        one is given."""
        from .serialization import serialize
        return serialize(self, filename)

    def __add__(self, other):
        return self.concat(other)

    def take(self, count=-1):
        from .ops.take import TakeDataset
        return TakeDataset(self, count)

    def skip(self, count):
        from .ops.skip import SkipDataset
        return SkipDataset(self, count)

    def filter(self, predicate, input_columns=None, num_parallel_workers=None):
        from .ops.filter import FilterDataset
        return FilterDataset(self, predicate, input_columns, num_parallel_workers)

    def apply(self, apply_func):
        """``apply_func(self)``, which must return a Dataset (MindSpore's Dataset.apply)."""
        if not callable(apply_func):
            raise TypeError(f"apply_func must be a function, got {type(apply_func).__name__}.")
        out = apply_func(self)
        if not isinstance(out, Dataset):
            raise TypeError(f"apply_func must return a dataset, got {type(out).__name__}.")
        return out

    def split(self, sizes, randomize=True):
        from .ops.split import split_dataset
        return split_dataset(self, sizes, randomize)

    # -- iteration ------------------------------------------------------------------------
    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False,
                              do_copy=False, state=None, service=None):
        """Iterator of rows as lists: ``minddata.Tensor`` values (zero-copy views of the
        pipeline's arrays), or numpy arrays with ``output_numpy=True``; string columns are
        numpy arrays either way. ``do_copy=True`` copies each array first. ``state`` resumes
        from an iterator's ``get_state()``."""
        from .iterators import TupleIterator
        return TupleIterator(_served(self, service), columns=columns, num_epochs=num_epochs,
                             state=state,
                             output_numpy=_bool_or_none("output_numpy", output_numpy),
                             do_copy=_bool_or_none("do_copy", do_copy))

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=False,
                             state=None, service=None):
        """Iterator of rows as dicts column name -> value (as create_tuple_iterator's)."""
        from .iterators import DictIterator
        return DictIterator(_served(self, service), num_epochs=num_epochs, state=state,
                            output_numpy=_bool_or_none("output_numpy", output_numpy),
                            do_copy=_bool_or_none("do_copy", do_copy))

    def __iter__(self):
        return iter(self.create_tuple_iterator(num_epochs=1))

    def set_init_step(self, init_step):
        """Start the iterators created afterwards ``init_step`` steps (rows or batches) into
        the run: ``init_step // dataset_size`` epochs are skipped, then the remainder. As in
        MindSpore 2.10 the value is checked when an iterator starts from it (a bool is the int
        it is), and None takes it back (the input's init step counts again)."""
        self._init_step = init_step

    def get_init_step(self):
        """The step ``set_init_step`` set; without one, as MindSpore 2.10, that of this
        dataset's only input (so a pipeline built on a dataset that has an init step starts
        there too, counting its own steps), 0 for a source or an op of several inputs."""
        if self._init_step is not None:
            return self._init_step
        if len(self.children) == 1 and hasattr(self.children[0], "get_init_step"):
            return self.children[0].get_init_step()
        return 0

    def reset(self):
        """Datasets hold no iteration state; kept for compatibility (no-op)."""

    # -- metadata -------------------------------------------------------------------------
    def get_dataset_size(self):
        """Rows (or batches) per epoch; computed from the graph when it can be, else by one
        pass over the pipeline."""
        if self._size_cache is None:
            self.col_names()    # MindSpore builds the pipeline to answer: its mistakes raise
            n = self.row_count()
            if n is None:
                from .callback import muted
                from .graph.repeat import one_pass
                from .iterators import rows_from_start
                from .graph.sync_wait import waits_open
                # No sync_update comes during a count, and MindSpore runs no map callbacks
                # for it (a WaitedDSCallback would wait for a training step that never ends).
                with waits_open(), muted():
                    it = rows_from_start(one_pass(self))
                try:
                    n = sum(1 for _ in it)
                finally:
                    it.close()
            self._size_cache = n
        return self._size_cache

    def __len__(self):
        """``len(dataset)`` is ``get_dataset_size()``, as in MindSpore 2.x."""
        return self.get_dataset_size()

    def __bool__(self):
        # With __len__ alone, ``if dataset:`` would size the pipeline (one pass, for some) and
        # call an empty one false: a dataset object is always true.
        return True

    def get_col_names(self):
        cols = self.col_names()
        if cols is None:
            cols = list(self._first_row()[0])
        return list(cols)

    def _first_row(self):
        from .iterators import first_row
        return first_row(self)

    def output_shapes(self, estimate=False):
        """Shapes of the first row's columns (list of lists); with ``estimate=True`` those of
        every row of one epoch, a dimension that varies given as None (MindSpore's)."""
        if check_bool("estimate", estimate):
            return _estimated_shapes(self)
        names, row = self._first_row()
        return [list(_shape_of(a)) for a in row]

    def output_types(self):
        """numpy dtypes of the first row's columns; a str or bytes column's without a width
        (``np.dtype(np.str_)``, as MindSpore 2.10 gives: its type does not depend on a row)."""
        names, row = self._first_row()
        return [_column_type(a) for a in row]

    def get_batch_size(self):
        self.col_names()    # MindSpore builds the pipeline to answer: a column mistake raises
        return self._batch_size()

    def get_repeat_count(self):
        self.col_names()
        return self._repeat_count()

    def num_classes(self):
        return self._num_classes()

    def get_class_indexing(self):
        """Class name -> id of the source (ImageFolderDataset, ...); {} when it has none."""
        return dict(self._class_indexing() or {})

    def plan(self, num_shards=None, shard_id=None):
        """What the engine would run for this pipeline: a minddata.planner Plan with the physical
        tree (``nodes``, root first) and every rule's decision (``rewrites``,
        ``fired(rule)``). Plans without running anything: no thread or process is started and
        no row is read (a source may read its metadata once). ``num_shards``/``shard_id``:
        the plan of this pipeline re-sharded for that rank (see ``auto_shard``)."""
        from .planner import PlanOptions, plan
        shard = _check_shard(num_shards, shard_id)
        return plan(self, PlanOptions.from_config(shard=shard))

    def profile(self, num_batches=None, seconds=None, service=None):
        """Run the pipeline and report where the time goes (see minddata.bench); with
        ``service`` (a RayService) through it, its actors' throughput included."""
        from .bench import profile as _profile
        return _profile.profile(self, num_batches=num_batches, seconds=seconds,
                                service=service)

    def save(self, file_name, num_files=1, file_type="mindrecord"):
        from .engine.save import save_dataset
        from .iterators import rows_from_start
        save_dataset(self, file_name, num_files, file_type, rows=rows_from_start)

    def sync_wait(self, condition_name, num_batch=1, callback=None):
        """Hold rows back until the training loop calls ``sync_update(condition_name)``:
        ``num_batch`` batches pass at the start of each epoch, each sync_update lets more
        through and calls ``callback(data)`` first (minddata/graph/sync_wait.py)."""
        from .ops.sync_wait import SyncWaitDataset
        return SyncWaitDataset(self, condition_name, num_batch, callback)

    def sync_update(self, condition_name, num_batch=None, data=None):
        """Release ``num_batch`` batches (the sync_wait's own number when None) of the
        sync_wait named ``condition_name`` under this dataset, after calling its callback
        with ``data``."""
        from .graph.sync_wait import sync_update
        sync_update(self, condition_name, num_batch, data)

    def is_sync(self):
        """True when a sync_wait is in this pipeline."""
        from .graph.sync_wait import has_sync_wait
        return has_sync_wait(self)

    def disable_sync(self):
        """Let every row through the nearest sync_wait below this dataset (on the way down the
        first inputs) until the next iterator is created."""
        from .graph.sync_wait import disable_sync
        disable_sync(self)

    def device_que(self, send_epoch_end=True, create_data_info_queue=False, queue_name=""):
        """MindSpore's TransferDataset: this pipeline's metadata, not iterable, and its
        ``send()`` says to use training.Model's sink mode (minddata/ops/transfer.py)."""
        from .ops.transfer import TransferDataset
        return TransferDataset(self, send_epoch_end, create_data_info_queue, queue_name)

    def __repr__(self):
        return f"<{type(self).__name__} {self._describe_self()}>"


def _estimated_shapes(ds):
    """The shape of each column over one epoch, None where rows differ; rows of another rank
    are an error (MindSpore's RuntimeError and words)."""
    from .iterators import rows_from_start
    shapes = None
    it = rows_from_start(ds)
    try:
        for row in it:
            current = [_shape_of(a) for a in row]
            if shapes is None:
                shapes = [list(s) for s in current]
                continue
            for known, shape in zip(shapes, current):
                if len(known) != len(shape):
                    raise RuntimeError(
                        f"output_shapes(estimate=True): Inconsistent shapes, expect same shape "
                        f"for each data row, last data row: <{_dims(known)}>, current data "
                        f"row: <{_dims(shape)}>")
                known[:] = [k if k == d else None for k, d in zip(known, shape)]
    finally:
        it.close()
    return shapes if shapes is not None else []


def _shape_of(column):
    # MindSpore gives a dict (Python object) column the shape [0] (measured in 2.10).
    return (0,) if isinstance(column, dict) else np.shape(column)


def _column_type(column):
    # a dict column: object; str and bytes without their width (<U0, |S0, as MindSpore 2.10)
    dtype = getattr(column, "dtype", _OBJECT)
    return np.dtype(dtype.kind) if dtype.kind in "US" else dtype


def _dims(shape):
    return ",".join("-1" if d is None else str(d) for d in shape)


def _check_shard(num_shards, shard_id):
    """(num_shards, shard_id), or None when neither is given; a source's checks and errors."""
    check_shard_args(num_shards, shard_id, None, None)
    return None if num_shards is None else (num_shards, shard_id)


def _served(ds, service):
    """The graph an iterator runs: ``ds``, or with ``service`` (a minddata.service.RayService,
    which runs the source, maps and batches on a Ray cluster) its shipped part replaced."""
    if service is None:
        return ds
    if not hasattr(service, "ship"):
        raise TypeError(f"service must be a minddata.service.RayService, got "
                        f"{type(service).__name__}")
    return service.ship(ds)


def _no_datasets(message):
    """zip(()) and concat([]): refused when built (MindSpore 2.10 fails when the pipeline
    starts, a RuntimeError; this error is one too)."""
    from .graph.checks import PipelineArgumentError
    return PipelineArgumentError(message)


def _bool_or_none(name, value):
    """An iterator's output_numpy or do_copy: a bool, or None for False (MindSpore 2.10 takes
    None and refuses any other value that is no bool)."""
    return False if value is None else check_bool(name, value)
