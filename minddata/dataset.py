"""The ``Dataset`` base class: an immutable, lazy graph node with MindSpore's methods.

Every method that adds an operation (``map``, ``batch``, ...) validates its arguments at once
(so a wrong argument fails at the line that wrote it) and returns a new node; nothing runs
until an iterator is created, which compiles the graph into a tree of iterator nodes
(``minddata.engine``). Operation nodes live one per module in ``minddata.ops``.
"""


import numpy as np

_INT32_MAX = 2 ** 31 - 1
_OBJECT = np.dtype(object)


def check_num_parallel_workers(n):
    if n is None:
        return None
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"num_parallel_workers must be of type int, but got {type(n).__name__}")
    if not 1 <= n <= 512:
        raise ValueError(f"num_parallel_workers {n} is not within the required interval of "
                         f"[1, 512]")
    return n


def check_columns(name, cols, allow_none=True):
    """str or non-empty list of distinct str -> list, or None."""
    if cols is None:
        if allow_none:
            return None
        raise TypeError(f"{name} must not be None")
    if isinstance(cols, str):
        cols = [cols]
    if not isinstance(cols, (list, tuple)):
        raise TypeError(f"{name} must be a str or a list of str, but got {type(cols).__name__}")
    if not cols:
        raise ValueError(f"{name} must not be empty")
    for c in cols:
        if not isinstance(c, str):
            raise TypeError(f"{name} must contain str values, but got {type(c).__name__}: {c!r}")
        if not c:
            raise ValueError(f"{name} must not contain an empty column name")
    if len(set(cols)) != len(cols):
        raise ValueError(f"{name} must not contain duplicate names: {list(cols)}")
    return list(cols)


def _check_bool(name, value):
    if not isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value!r} is not of type [<class 'bool'>], "
                        f"but got {type(value)}.")
    return value


class Dataset:
    """Base of every dataset node (sources and operations)."""

    _op_name = "Dataset"

    def __init__(self, children=(), num_parallel_workers=None):
        self.children = list(children)
        self.num_parallel_workers = num_parallel_workers
        self._init_step = 0
        self._size_cache = None

    # -- graph description (overridden by nodes) -------------------------------------------
    def _build_iter(self, ctx):
        raise NotImplementedError(f"{type(self).__name__} cannot be iterated")

    def _col_names(self):
        return self.children[0]._col_names()

    def _size(self):
        """Rows per epoch, or None when only iterating can tell (filter, ...)."""
        return self.children[0]._size()

    def _num_classes(self):
        return self.children[0]._num_classes() if self.children else None

    def _describe_self(self):
        return self._op_name

    def _describe(self):
        """Stable text identifying the pipeline up to this node (cache keys)."""
        inner = ",".join(c._describe() for c in self.children)
        return f"{self._describe_self()}({inner})" if inner else self._describe_self()

    def _is_random_self(self):
        return False

    def _is_random(self):
        return self._is_random_self() or any(c._is_random() for c in self.children)

    def _batch_size(self):
        return self.children[0]._batch_size() if self.children else 1

    def _repeat_count(self):
        return self.children[0]._repeat_count() if self.children else 1

    def _without_device_tail(self):
        """(this pipeline with batches stopping before a trailing Normalize / Rescale /
        HWC2CHW, the DeviceTail finishing them on a device) or (self, None): the nodes that
        can, say so (engine/device_tail.py)."""
        return self, None

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
        from .ops.batch import BatchDataset
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers,
                            pad_info=pad_info if pad_info is not None else {})

    def bucket_batch_by_length(self, column_names, bucket_boundaries, bucket_batch_sizes,
                               element_length_function=None, pad_info=None,
                               pad_to_bucket_boundary=False, drop_remainder=False):
        from .ops.bucket_batch import BucketBatchDataset
        return BucketBatchDataset(self, column_names, bucket_boundaries, bucket_batch_sizes,
                                  element_length_function, pad_info, pad_to_bucket_boundary,
                                  drop_remainder)

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
        if isinstance(datasets, Dataset):
            datasets = (datasets,)
        elif not isinstance(datasets, tuple):
            raise TypeError(f"datasets must be a Dataset or a tuple of Datasets, got "
                            f"{type(datasets).__name__}")
        return ZipDataset((self,) + tuple(datasets))

    def concat(self, datasets):
        from .ops.concat import ConcatDataset
        if isinstance(datasets, Dataset):
            datasets = [datasets]
        elif not isinstance(datasets, list):
            raise TypeError(f"datasets must be a Dataset or a list of Datasets, got "
                            f"{type(datasets).__name__}")
        return ConcatDataset([self] + list(datasets))

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
            raise TypeError(f"apply_func must be callable, got {type(apply_func).__name__}")
        out = apply_func(self)
        if not isinstance(out, Dataset):
            raise TypeError(f"apply_func must return a Dataset, got {type(out).__name__}")
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
        from .engine.runtime import TupleIterator
        return TupleIterator(_served(self, service), columns=columns, num_epochs=num_epochs,
                             state=state,
                             output_numpy=_check_bool("output_numpy", output_numpy),
                             do_copy=_check_bool("do_copy", do_copy))

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=False,
                             state=None, service=None):
        """Iterator of rows as dicts column name -> value (as create_tuple_iterator's)."""
        from .engine.runtime import DictIterator
        return DictIterator(_served(self, service), num_epochs=num_epochs, state=state,
                            output_numpy=_check_bool("output_numpy", output_numpy),
                            do_copy=_check_bool("do_copy", do_copy))

    def __iter__(self):
        return iter(self.create_tuple_iterator(num_epochs=1))

    def set_init_step(self, init_step):
        """Start the iterators created afterwards ``init_step`` steps (rows or batches) into
        the run: ``init_step // dataset_size`` epochs are skipped, then the remainder."""
        if isinstance(init_step, bool) or not isinstance(init_step, int):
            raise TypeError(f"init_step must be of type int, but got {type(init_step).__name__}")
        if init_step < 0:
            raise ValueError(f"init_step {init_step} must be >= 0")
        self._init_step = init_step

    def reset(self):
        """Datasets hold no iteration state; kept for compatibility (no-op)."""

    # -- metadata -------------------------------------------------------------------------
    def get_dataset_size(self):
        """Rows (or batches) per epoch; computed from the graph when it can be, else by one
        pass over the pipeline."""
        if self._size_cache is None:
            n = self._size()
            if n is None:
                it = self.create_tuple_iterator(num_epochs=1)
                try:
                    n = sum(1 for _ in it)
                finally:
                    it.close()
            self._size_cache = n
        return self._size_cache

    def get_col_names(self):
        cols = self._col_names()
        if cols is None:
            cols = list(self._first_row()[0])
        return list(cols)

    def _first_row(self):
        from .engine.runtime import first_row
        return first_row(self)

    def output_shapes(self, estimate=False):
        """Shapes of the first row's columns (list of lists)."""
        names, row = self._first_row()
        return [list(np.shape(a)) for a in row]     # a dict column: []

    def output_types(self):
        """numpy dtypes of the first row's columns (MindSpore returns its own dtypes)."""
        names, row = self._first_row()
        return [getattr(a, "dtype", _OBJECT) for a in row]     # a dict column: object

    def get_batch_size(self):
        return self._batch_size()

    def get_repeat_count(self):
        return self._repeat_count()

    def num_classes(self):
        return self._num_classes()

    def get_class_indexing(self):
        """Class name -> id of the source (ImageFolderDataset, ...); {} when it has none."""
        return dict(self._class_indexing() or {})

    def _class_indexing(self):
        return self.children[0]._class_indexing() if self.children else None

    def plan(self):
        """What the engine would run for this pipeline (engine/plan.py): a PlanReport with the
        planned iterator tree (``nodes``, root first) and the planner's rewrite decisions
        (``rewrites``, ``fired(rule)``). Builds the tree without running it."""
        from .engine.runtime import PipelineRun
        run = PipelineRun(self, num_epochs=1, start=False)
        try:
            return run.plan_report()
        finally:
            run.close()

    def profile(self, num_batches=None, seconds=None, service=None):
        """Run the pipeline and report where the time goes (see minddata.bench); with
        ``service`` (a RayService) through it, its actors' throughput included."""
        from .bench import profile as _profile
        return _profile.profile(self, num_batches=num_batches, seconds=seconds,
                                service=service)

    def save(self, file_name, num_files=1, file_type="mindrecord"):
        from .engine.save import save_dataset
        save_dataset(self, file_name, num_files, file_type)

    def sync_wait(self, condition_name, num_batch=1, callback=None):
        raise NotImplementedError("sync_wait is not supported by minddata")

    def device_que(self, send_epoch_end=True, create_data_info_queue=False, queue_name=""):
        raise NotImplementedError("device_que is MindSpore-device specific; use "
                                  "training.Model(..., dataset_sink_mode=True) instead")

    def __repr__(self):
        return f"<{type(self).__name__} {self._describe_self()}>"


def _served(ds, service):
    """The graph an iterator runs: ``ds``, or with ``service`` (a minddata.service.RayService,
    which runs the source, maps and batches on a Ray cluster) its shipped part replaced."""
    if service is None:
        return ds
    if not hasattr(service, "ship"):
        raise TypeError(f"service must be a minddata.service.RayService, got "
                        f"{type(service).__name__}")
    return service.ship(ds)


def flatten_tree(ds):
    """All nodes of a graph, each once, in depth-first order."""
    seen, out = set(), []

    def visit(n):
        if id(n) in seen:
            return
        seen.add(id(n))
        for c in n.children:
            visit(c)
        out.append(n)
    visit(ds)
    return out



