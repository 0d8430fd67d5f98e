"""The user-facing iterators (``create_tuple_iterator``, ``create_dict_iterator``): rows of a
PipelineRun (minddata/engine/runtime.py) converted as asked, one epoch per ``for`` loop."""
import json
import weakref

from .callback import muted
from .compat_layout.iterator_registry import track
from .engine.runtime import PipelineRun
from .graph.checks import check_columns, unknown_column_error
from .graph.sync_wait import bind_sync_waits, waits_open
from .state_check import check_state
from .tensor import to_output


def _start_at(ds, num_epochs):
    """(epoch, items to skip) of ``Dataset.set_init_step``: whole epochs are skipped by
    number, the rest item by item. A step the run does not reach is refused when the
    iterator is made, as MindSpore 2.10 refuses it (but with num_epochs=-1, which MindSpore
    refuses for every step but 0)."""
    init_step = ds.get_init_step() if hasattr(ds, "get_init_step") else 0
    if not isinstance(init_step, int):
        raise TypeError(f"init_step must be of type int, but got {type(init_step).__name__} "
                        f"(set_init_step({init_step!r}))")
    if not init_step:
        return None
    _check_reset_step(init_step, 1, -1)     # its sign, before the size is counted
    size = ds.get_dataset_size()
    if not size:
        raise RuntimeError("Cannot reset the pipeline, dataset size is undefined (the "
                           f"pipeline has no rows, init step {init_step})")
    _check_reset_step(init_step, size, num_epochs)
    return divmod(init_step, size)


def _check_reset_step(step, dataset_size, num_epochs):
    """MindSpore's refusals of a step to start (or reset) a run at, in its words."""
    if step < 0:
        raise RuntimeError(f"Cannot reset the pipeline, reset step must be >= 0. (got {step})")
    # (a num_epochs of the wrong type or range is refused when the run is made)
    if isinstance(num_epochs, int) and num_epochs > 0 and step >= dataset_size * num_epochs:
        raise RuntimeError(f"Cannot reset the pipeline, reset step must be less than "
                           f"dataset_size * num_epochs. (got {step}, dataset_size "
                           f"{dataset_size}, num_epochs {num_epochs})")


class _IteratorBase:
    """Common part of the tuple and dict iterators: one epoch per ``for`` loop."""

    def __init__(self, ds, num_epochs, state, from_init_step=True):
        # The pipeline's signature: checked against ``state``, stamped on the states it saves.
        self._pipeline = check_state(state, ds)
        bind_sync_waits(ds)
        start_at = _start_at(ds, num_epochs) if state is None and from_init_step else None
        self._start(PipelineRun(ds, num_epochs=num_epochs, state=state, start_at=start_at))
        self.dataset = ds
        track(self)     # mindspore.dataset.engine.iterators' list of live iterators

    def _start(self, run):
        run.owner = type(self).__name__
        self._run = run
        self._finalizer = weakref.finalize(self, run.close)

    def _reset(self, step, dataset_size):
        """MindSpore's failover reset (``engine.datasets._reset_training_dataset``): the
        next row is the one after ``step`` rows of ``dataset_size`` per epoch (epoch
        ``step // dataset_size``), the rows a run from the start gives there."""
        num_epochs = self._run.num_epochs
        _check_reset_step(step, dataset_size, num_epochs)
        self._finalizer()
        self._start(PipelineRun(self.dataset, num_epochs=num_epochs,
                                start_at=divmod(step, dataset_size)))

    def __iter__(self):
        return self

    def __next__(self):
        row = self._run.next_item()
        if row is None:
            raise StopIteration
        return self._convert(row)

    def get_state(self):
        """JSON-serializable position after the last row returned (pass it as ``state=`` to
        create_*_iterator to continue from there)."""
        return _copy_state(dict(self._run.state, pipeline=self._pipeline))

    def stage_stats(self):
        """StageStats of every node, from the source(s) to the root."""
        return self._run.stage_stats()

    def plan_report(self):
        """The planned iterator tree this iterator runs and the planner's rewrite decisions
        (minddata/planner Plan)."""
        return self._run.plan

    def get_col_names(self):
        return list(self._run.column_names)

    def close(self):
        """Stop the pipeline and release every resource (also done on garbage collection)."""
        self._run.stop_by_user()
        self._finalizer()

    stop = close
    release = close     # MindSpore's names, both

    def __deepcopy__(self, memo):
        # As MindSpore's: an iterator is shared, not copied (a running pipeline cannot be).
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _copy_state(st):
    return json.loads(json.dumps(st))


class TupleIterator(_IteratorBase):
    def __init__(self, ds, columns=None, num_epochs=-1, state=None, output_numpy=True,
                 do_copy=False, from_init_step=True):
        cols = check_columns("columns", columns)
        self._output_numpy = output_numpy
        self._do_copy = do_copy
        super().__init__(ds, num_epochs, state, from_init_step)
        self._index = _shown_columns(self._run.column_names)
        self._columns = cols
        if cols is not None:
            names = self._run.column_names
            missing = [c for c in cols if c not in names]
            if missing:
                self.close()
                raise unknown_column_error("", "columns", missing, names)
            self._index = [names.index(c) for c in cols]

    def _convert(self, row):
        if self._index is not None:
            row = [row[i] for i in self._index]
        return [to_output(v, self._output_numpy, self._do_copy) for v in row]

    def get_col_names(self):
        # As MindSpore's: the columns asked for (``columns=``), in their order.
        if self._columns is not None:
            return list(self._columns)
        return super().get_col_names()


class DictIterator(_IteratorBase):
    def __init__(self, ds, num_epochs=-1, state=None, output_numpy=True, do_copy=False):
        self._output_numpy = output_numpy
        self._do_copy = do_copy
        super().__init__(ds, num_epochs, state)
        names = self._run.column_names
        shown = _shown_columns(names)
        self._shown = list(enumerate(names)) if shown is None else [(i, names[i]) for i in shown]

    def _convert(self, row):
        return {name: to_output(row[i], self._output_numpy, self._do_copy)
                for i, name in self._shown}


# Columns named "_meta-..." travel through the pipeline but are not handed to the user, as in
# MindSpore (get_col_names still lists them; a tuple iterator given them by name returns them).
_META = "_meta-"


def _shown_columns(names):
    """Indices of the columns an iterator hands out by default, or None for all of them."""
    if not any(n.startswith(_META) for n in names):
        return None
    return [i for i, n in enumerate(names) if not n.startswith(_META)]


def rows_from_start(ds):
    """A one-epoch iterator of numpy rows that starts at the first row whatever
    ``set_init_step`` says: the passes a pipeline makes for itself (its size, its shapes, a
    save) read a whole epoch, as MindSpore's getters and consumers do."""
    return TupleIterator(ds, num_epochs=1, output_numpy=True, from_init_step=False)


def first_row(ds):
    """(column names, first row) of one epoch, for output_shapes/output_types; the row is
    empty when the epoch has none (MindSpore's output_shapes() is then [])."""
    bind_sync_waits(ds)
    # No sync_update comes while the first row is read; MindSpore runs no callbacks for it.
    with waits_open(), muted():
        # Inline: as in MindSpore, no worker starts (nor computes rows ahead) for one row.
        run = PipelineRun(ds, num_epochs=1, inline=True)
    try:
        row = run.next_item()
    except StopIteration:
        row = None
    finally:
        run.close()
    return run.column_names, [] if row is None else row
