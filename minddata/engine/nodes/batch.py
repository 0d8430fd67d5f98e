"""The batch node: rows into batches written into one preallocated array per column, with
optional per_batch_map and padding, built inline or on workers."""
import numpy as np

from ...state_check import CHILD, COUNT, FLAG, check_node_state
from ..errors import wrap_error
from ..executor import make_executor
from ..node import IterNode
from ..ordered import OrderedStage
from ..positions import NestedState, replace


class BatchInfo:
    """What a callable ``batch_size`` or a ``per_batch_map`` learns about the batch."""

    __slots__ = ("_batch_num", "_epoch_num")

    def __init__(self, batch_num, epoch_num):
        self._batch_num = batch_num
        self._epoch_num = epoch_num

    def get_batch_num(self):
        """Index of the batch in the current epoch, from 0."""
        return self._batch_num

    def get_epoch_num(self):
        """Index of the current epoch, from 0."""
        return self._epoch_num


def stack_column(name, values, pad=None, op_name="Batch", empty=np.empty):
    """One column of a batch: a new array (n, *shape) filled row by row; ``pad`` is
    (pad_shape or None, pad_value) to pad rows of different shapes. A column of Python
    dicts becomes one dict (see batch_dicts). ``empty(shape, dtype)`` allocates the stacked
    array of rows of one shape (a worker process's shared memory, engine/procs.py)."""
    if isinstance(values[0], dict):
        return batch_dicts(name, values, op_name)
    first = np.asarray(values[0])
    n = len(values)
    if first.dtype.kind in "US" and pad is None:
        # String widths differ row to row; numpy picks the widest.
        arrs = _string_rows(name, values, op_name)
        _check_same_shapes(name, arrs, op_name)
        return np.array(arrs)
    if pad is None:
        out = empty((n,) + first.shape, first.dtype)
        shape, dtype = first.shape, first.dtype
        for i, v in enumerate(values):
            if type(v) is not np.ndarray:
                v = np.asarray(v)
            if v.shape != shape:
                raise different_shapes(op_name, name, shape, v.shape, i)
            if v.dtype != dtype:
                raise different_types(op_name, name, dtype, v.dtype, i)
            out[i] = v
        return out
    arrs = [np.asarray(v) for v in values]
    target = _pad_target(name, arrs, pad[0], op_name)
    fill = _pad_fill(name, _padded_dtype(name, arrs, op_name), pad[1], op_name)
    out = np.full((n,) + target, fill, dtype=fill.dtype)
    for i, a in enumerate(arrs):
        # A row larger than pad_shape is cut short, as MindSpore does.
        cut = tuple(slice(0, min(s, t)) for s, t in zip(a.shape, target))
        out[(i,) + cut] = a[cut]
    return out


def _string_rows(name, values, op_name):
    """The rows of a string column as arrays of the first row's kind, as MindSpore 2.10
    batches them (measured): a str row after a bytes one is UTF-8 encoded, a bytes row after a
    str one UTF-8 decoded; a row of another type is refused (numpy's promotion served 5 after
    'a' as '5', and 'b' after b'a' as str)."""
    arrs = [np.asarray(v) for v in values]
    kind = arrs[0].dtype.kind
    for i, a in enumerate(arrs):
        if a.dtype.kind == kind:
            continue
        if a.dtype.kind not in "US":
            raise different_types(op_name, name, arrs[0].dtype, a.dtype, i)
        try:
            arrs[i] = np.char.encode(a, "utf-8") if kind == "S" else np.char.decode(a, "utf-8")
        except UnicodeDecodeError:
            raise RuntimeError(f"{op_name}: column {name!r} row {i} holds bytes that are not "
                               f"UTF-8, which a batch of str rows cannot take") from None
    return arrs


def _pad_target(name, arrs, pad_shape, op_name):
    """The padded shape of one row: pad_shape, its None dimensions (or all of them when it is
    None) the largest of the rows'."""
    ndim = arrs[0].ndim
    for i, a in enumerate(arrs):
        if a.ndim != ndim:
            raise RuntimeError(f"{op_name}: column {name!r} rows have different ranks "
                               f"({ndim} and {a.ndim} at row {i}); padding keeps the rank")
    maxes = [max(a.shape[d] for a in arrs) for d in range(ndim)]
    if pad_shape is None:
        return tuple(maxes)
    if len(pad_shape) != ndim:
        raise RuntimeError(f"{op_name}: pad_shape {list(pad_shape)} of column {name!r} has "
                           f"{len(pad_shape)} dimensions but the rows have {ndim}. Invalid "
                           f"pad_info, rank of pad_shape must be equal to rank of specified "
                           f"column. pad_shapes rank:{len(pad_shape)}, column rank: {ndim}")
    return tuple(m if d is None else d for d, m in zip(pad_shape, maxes))


def _padded_dtype(name, arrs, op_name):
    """The rows' dtype; strings of different widths take the widest. Rows of other types are
    refused, as without padding (MindSpore refuses them too)."""
    first = arrs[0].dtype
    for i, a in enumerate(arrs):
        if a.dtype != first and not (a.dtype.kind == first.kind and first.kind in "US"):
            raise different_types(op_name, name, first, a.dtype, i)
    return np.result_type(*[a.dtype for a in arrs])


def _pad_fill(name, dtype, pad_value, op_name):
    """The pad value as a 0-d array of the batch's dtype: cast as MindSpore casts it (-1 is
    255 in uint8); a string value widens a string column's dtype so it is not cut short. No
    value: 0, or the empty string."""
    strings = dtype.kind in "US"
    if pad_value is None:
        return np.zeros((), dtype)
    if strings != isinstance(pad_value, (str, bytes)):
        raise RuntimeError(f"{op_name}: pad value {pad_value!r} of column {name!r} does not "
                           f"suit its {dtype} rows. PadEnd: can not pad numeric and string "
                           f"tensors together.")
    if strings:
        fill = np.asarray(pad_value).astype(dtype.kind)
        return fill.astype(np.result_type(dtype, fill.dtype))
    return np.asarray(pad_value).astype(dtype)


def batch_dicts(name, dicts, op_name="Batch"):
    """A batch of a Python dict column, as MindSpore builds it: one dict with the keys of the
    first row, each key's values stacked into one numpy array."""
    keys = _dict_keys(name, dicts, op_name)
    out = {}
    for k in keys:
        try:
            arr = np.array([d[k] for d in dicts])
        except ValueError:
            arr = None
        if arr is None or arr.dtype.hasobject:
            raise RuntimeError(f"{op_name}: failed to create a NumPy array with primitive types "
                               f"for the dictionary objects in column {name!r}, key: {k!r}. If "
                               f"you want a customized array, define a custom 'per_batch_map' "
                               f"function.")
        out[k] = arr
    return out


def _dict_keys(name, dicts, op_name):
    keys = list(dicts[0])
    for i, d in enumerate(dicts):
        if not isinstance(d, dict) or list(d) != keys:
            raise RuntimeError(f"{op_name}: column {name!r} row {i} is not a dict with the keys "
                               f"{keys} of row 0")
    return keys


def _merge_dicts(name, dicts):
    """per_batch_map's list of dicts -> one dict of lists (key -> the rows' values), as
    MindSpore 2.10 merges them; a list of one dict is stacked (batch_dicts) instead, as
    MindSpore 2.10 does too."""
    if len(dicts) == 1:
        return batch_dicts(name, dicts, "Batch per_batch_map")
    keys = _dict_keys(name, dicts, "Batch per_batch_map")
    return {k: [d[k] for d in dicts] for k in keys}


def _check_same_shapes(name, arrs, op_name):
    shape = arrs[0].shape
    for i, a in enumerate(arrs):
        if a.shape != shape:
            raise different_shapes(op_name, name, shape, a.shape, i)


def different_shapes(op_name, name, first, shape, row):
    """Rows of one column that cannot be stacked: this project's text, then MindSpore's."""
    return RuntimeError(f"{op_name}: column {name!r} has rows of different shapes: {first} "
                        f"(row 0) and {shape} (row {row}); use pad_info or padded_batch to pad "
                        f"them. Cannot batch tensors with different shapes in column {name}.")


def different_types(op_name, name, first, dtype, row):
    return RuntimeError(f"{op_name}: column {name!r} has rows of different types: {first} (row "
                        f"0) and {dtype} (row {row}). Cannot batch tensors with different types "
                        f"in column {name}.")


class BatchBuilder:
    """Turns a list of rows into one batch (stacking, padding, per_batch_map). Pure, so it
    runs in the pipeline's thread, on worker threads, or in forked worker processes."""

    def __init__(self, ds):
        self.ds = ds
        self.child_cols = ds.children[0].col_names()
        self.pads = [None] * len(self.child_cols)
        for k, c in enumerate(self.child_cols):
            if c in ds.pad_info:
                self.pads[k] = ds.pad_info[c]
            elif ds.pad_all:
                self.pads[k] = (None, None)
        if ds.per_batch_map is not None:
            self.in_idx = [self.child_cols.index(c) for c in ds.in_cols]

    def build(self, rows, info, empty=np.empty):
        """``empty(shape, dtype)`` allocates the stacked columns (see stack_column)."""
        cols = list(zip(*rows))
        if self.ds.per_batch_map is not None:
            return self._per_batch_map(cols, info)
        return tuple(stack_column(name, col, pad, empty=empty) for name, col, pad in
                     zip(self.child_cols, cols, self.pads))

    def _per_batch_map(self, cols, info):
        ds = self.ds
        args = [list(cols[i]) for i in self.in_idx]
        try:
            res = ds.per_batch_map(*args, info)
        except BaseException as e:
            raise wrap_error(e, "Batch(per_batch_map)",
                             f"batch {info.get_batch_num()} of epoch {info.get_epoch_num()}")
        if not isinstance(res, tuple):
            res = (res,)
        if len(res) != len(ds.out_cols):
            raise RuntimeError(f"Batch: per_batch_map returned {len(res)} columns but "
                               f"output_columns has {len(ds.out_cols)}: {ds.out_cols}. [ERROR] "
                               f"Invalid per_batch_map, the number of columns returned in "
                               f"'per_batch_map' function should be {len(ds.out_cols)} , but "
                               f"got: {len(res)}")
        outs = [self._output_column(name, v, len(cols[0])) for name, v in zip(ds.out_cols, res)]
        stacked = {k: stack_column(n, cols[k], self.pads[k]) for k, n in
                   enumerate(self.child_cols) if k not in self.in_idx}
        return tuple(outs[j] if src == "out" else stacked[j] for src, j in ds.placement)

    @staticmethod
    def _output_column(name, v, rows):
        """One column per_batch_map returned, as the batch's array: an array or a dict as it
        is (the whole batch), a list one value per row of the batch (MindSpore checks the
        count), a list of dicts merged (_merge_dicts)."""
        if isinstance(v, (np.ndarray, dict)):
            return v
        if not isinstance(v, (list, tuple)):
            raise RuntimeError(f"Batch: per_batch_map must return lists or numpy arrays, got "
                               f"{type(v).__name__} for column {name!r}")
        if v and all(isinstance(d, dict) for d in v):
            return _merge_dicts(name, v)
        if len(v) != rows:
            raise RuntimeError(f"Batch: per_batch_map returned {len(v)} rows for column "
                               f"{name!r} of a batch of {rows}. [ERROR] Invalid data, column: "
                               f"{name} expects: {rows} rows returned from 'per_batch_map', "
                               f"got: {len(v)}")
        return stack_column(name, v, None, "Batch per_batch_map")


class _BatchTask:
    """Rows in, one batch out (inline, on a worker thread or in a worker process)."""

    name = "Batch"

    def __init__(self, builder):
        self.builder = builder

    def __call__(self, meta, rows_in):
        return [self.builder.build(rows_in, BatchInfo(*meta))]




class BatchIter(NestedState, IterNode):
    """Collects rows in the pipeline's thread; builds batches through an executor
    (engine/executor.py): inline, or with ``num_parallel_workers`` > 1 on worker threads (numpy
    copies release the GIL) or, for a per_batch_map with ``python_multiprocessing=True``, in
    worker processes. Batches come out in order."""

    name = "Batch"

    def __init__(self, ds, ctx, children):
        child = children[0]
        workers = ctx.workers(ds.num_parallel_workers or 1)
        self._pool = None   # before anything can fail: close() must work
        super().__init__(ctx, [child], num_workers=workers)
        self.ds = ds
        self.builder = BatchBuilder(ds)
        self.workers = workers
        self._batch_num = 0      # batches collected this epoch
        self._done = False       # the child is exhausted for this epoch
        self._last = None        # (child state, batch_num, done) after the last batch returned
        processes = workers > 1 and ds.python_multiprocessing and ds.per_batch_map is not None
        self._pool = make_executor(workers, _BatchTask(self.builder), "batch",
                                   processes=processes, budget=ctx.threads,
                                   max_rowsize=ds.max_rowsize,
                                   rows_per_task=ds.batch_size if isinstance(ds.batch_size, int)
                                   else 64, slot_mb=64)
        self._stage = OrderedStage(self._pool, 2 * workers if workers > 1 else 1)
        if workers > 1:
            self.stats.queue_capacity = 2 * workers

    def start(self, epoch):
        super().start(epoch)
        self._restart(0, False)

    def _restart(self, batch_num, done):
        if self._pool is not None:
            self._pool.clear()
        self._batch_num = batch_num
        self._done = done
        self._last = None

    # state codec (engine/positions.py) -------------------------------------------------------
    role = "batch"

    @staticmethod
    def state_at(node, at, child):
        return {"epoch": at.epoch, "batch_num": at.items, "done": False,
                "child": child(replace(at, items=at.items * node.batch_size))}

    @staticmethod
    def items_in(state):
        return int(state["batch_num"])

    def get_state(self):
        if self._last is None:
            return {"epoch": self.epoch, "batch_num": 0, "done": False, "child": None}
        cstate, num, done = self._last
        return {"epoch": self.epoch, "batch_num": num, "done": done, "child": cstate}

    def reset(self, state):
        check_node_state(self, state, epoch=COUNT, batch_num=COUNT, done=FLAG, child=CHILD)
        self.epoch = state["epoch"]
        if state["child"] is None:
            self.children[0].start(self.epoch)
        else:
            self.children[0].reset(state["child"])
        self._restart(state["batch_num"], state["done"])

    def _collect(self):
        """Rows of the next batch and its BatchInfo, or None at the end of the epoch."""
        if self._done:
            return None
        ds = self.ds
        # The iterator's epoch, not a repeat's pass below it (as MindSpore counts them).
        epoch = self.ctx.run_epoch if self.ctx.run_epoch is not None else self.epoch
        info = BatchInfo(self._batch_num, epoch)
        size = ds.batch_size
        if callable(size):
            try:
                size = size(info)
            except BaseException as e:
                raise wrap_error(e, "Batch(batch_size)",
                                 f"batch {info.get_batch_num()} of epoch {epoch}")
            if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
                raise RuntimeError(f"Batch: the batch_size callable returned {size!r} for batch "
                                   f"{info.get_batch_num()} of epoch {epoch}. Invalid "
                                   f"batch_size function, 'batch_size' function should return "
                                   f"an integer greater than 0, but got: {size!r}")
        child = self.children[0]
        rows = []
        for _ in range(size):
            r = self.pull(child)
            if r is None:
                self._done = True
                break
            rows.append(r)
        if not rows or (len(rows) < size and ds.drop_remainder):
            self._done = True
            return None
        self._batch_num += 1
        return rows, info

    def _next_batch(self):
        """The next batch's rows as a task, or None at the end of the epoch."""
        got = self._collect()
        if got is None:
            return None
        rows, info = got
        return ((info.get_batch_num(), info.get_epoch_num()), rows,
                (self.children[0].get_state(), self._batch_num, self._done))

    def _next(self):
        done = self._stage.take(self._next_batch)
        if done is None:
            return None
        if self.workers > 1:
            self.stats.sample_queue(len(self._pool) + 1)
        batch, self._last = done
        return batch[0]

    def _close_self(self):
        if self._pool is not None:
            self._pool.close()
