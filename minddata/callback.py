"""Callbacks run by a map stage (``mindspore.dataset.DSCallback``, ``WaitedDSCallback``).

A map calls its callbacks in the pipeline's thread as rows leave it: ``ds_begin`` once,
``ds_epoch_begin``/``ds_epoch_end`` around each epoch of the run (the passes of a ``repeat``
above the map are one epoch, as in MindSpore), and ``ds_step_begin``/``ds_step_end`` every
``step_size`` rows (a step is one row through the map; with worker threads or processes both
step hooks run as the row is handed downstream, after its operations ran).

``WaitedDSCallback`` is also a training callback: given to ``Model.train(callbacks=...)`` as
well, it holds the pipeline at each dataset epoch (after the first) until the training epoch
before it ended, and every ``step_size`` rows until a training step ended, then calls the
user's ``sync_epoch_begin``/``sync_step_begin`` with both run contexts.
"""
import contextlib
import threading

from transforms_c._validate import check_int, wrong_type

from . import config


class DSRunContext:
    """What a callback learns: epoch and step counters (epochs and steps count from 1).
    ``stopping`` (an addition to MindSpore's fields) is set when the pipeline is closing."""

    __slots__ = ("cur_epoch_num", "cur_step_num_in_epoch", "cur_step_num", "stopping")

    def __init__(self, stopping=None):
        self.cur_epoch_num = 0
        self.cur_step_num_in_epoch = 0
        self.cur_step_num = 0
        self.stopping = stopping if stopping is not None else threading.Event()


class DSCallback:
    #: The methods a subclass must override one of (MindSpore refuses a callback that
    #: overrides none when the pipeline starts).
    _USER_METHODS = ("ds_begin", "ds_epoch_begin", "ds_epoch_end", "ds_step_begin",
                     "ds_step_end")

    def __init__(self, step_size=1):
        self.step_size = check_int(step_size, "step_size", 1, config._INT32_MAX)

    def ds_begin(self, ds_run_context):
        """Called once, before the first row."""

    def ds_epoch_begin(self, ds_run_context):
        """Called at the start of each epoch."""

    def ds_epoch_end(self, ds_run_context):
        """Called at the end of each epoch."""

    def ds_step_begin(self, ds_run_context):
        """Called every step_size rows."""

    def ds_step_end(self, ds_run_context):
        """Called every step_size rows."""


class WaitedDSCallback(DSCallback):
    """A DSCallback synchronised with training (``mindspore.dataset.WaitedDSCallback``).

    Override ``sync_epoch_begin(train_run_context, ds_run_context)`` and
    ``sync_step_begin(train_run_context, ds_run_context)``; pass the same object to
    ``dataset.map(callbacks=...)`` and to ``Model.train(callbacks=...)``. A wait longer than
    ``ds.config.get_callback_timeout()`` seconds (60 by default) raises RuntimeError; after
    the training's ``end`` nothing waits any more."""

    _POLL_S = 0.05      # how often a wait checks that the pipeline is still running
    _USER_METHODS = ("sync_epoch_begin", "sync_step_begin")

    def __init__(self, step_size=1):
        super().__init__(step_size)
        self.step_event = threading.Event()
        self.step_run_context = None
        self.epoch_event = threading.Event()
        self.epoch_run_context = None
        self.training_ended = False

    def sync_epoch_begin(self, train_run_context, ds_run_context):
        """Called before a dataset epoch (after the first) starts, once the training epoch
        before it has ended."""

    def sync_step_begin(self, train_run_context, ds_run_context):
        """Called every step_size rows (after the first step_size), once a training step has
        ended."""

    # -- training side (the names training.Callback uses, 1.x and 2.x) ---------------------
    def epoch_end(self, run_context):
        self.epoch_run_context = run_context
        self.epoch_event.set()

    def step_end(self, run_context):
        self.step_run_context = run_context
        self.step_event.set()

    def end(self, run_context):
        self.epoch_end(run_context)
        self.step_end(run_context)
        self.training_ended = True

    def begin(self, run_context):
        """Training events this callback does not use."""

    epoch_begin = step_begin = begin

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    # -- dataset side ---------------------------------------------------------------------
    def ds_epoch_begin(self, ds_run_context):
        if ds_run_context.cur_epoch_num > 1:
            self._wait(self.epoch_event, "ds_epoch_begin", ds_run_context)
            self.sync_epoch_begin(self.epoch_run_context, ds_run_context)

    def ds_step_begin(self, ds_run_context):
        if ds_run_context.cur_step_num > self.step_size:
            self._wait(self.step_event, "ds_step_begin", ds_run_context)
            self.sync_step_begin(self.step_run_context, ds_run_context)

    def _wait(self, event, where, ds_run_context):
        if self.training_ended:
            return
        timeout = config.get_callback_timeout()
        remaining = float(timeout)
        while not event.wait(min(self._POLL_S, remaining)):
            remaining -= self._POLL_S
            if ds_run_context.stopping.is_set():
                raise RuntimeError(f"{where}: the pipeline was closed while waiting for the "
                                   f"training loop")
            if remaining <= 0:
                raise RuntimeError(f"{where} timed out after {timeout} second(s): no training "
                                   f"{'epoch' if 'epoch' in where else 'step'} ended; pass this "
                                   f"WaitedDSCallback to Model.train(callbacks=...) too")
        event.clear()


def _forward_training_event(name):
    def forward(self, run_context):
        getattr(self, name)(run_context)
    forward.__name__ = name
    return forward


# MindSpore 2.x's training and evaluation event names call the 1.x ones, as training.Callback's.
for _event in ("begin", "epoch_begin", "step_begin", "step_end", "epoch_end", "end"):
    for _phase in ("train", "eval"):
        setattr(WaitedDSCallback, f"on_{_phase}_{_event}", _forward_training_event(_event))


def check_callbacks(callbacks):
    """The map's callbacks as a list; MindSpore's TypeErrors (a tuple is accepted too)."""
    if callbacks is None:
        return []
    if isinstance(callbacks, DSCallback):
        return [callbacks]
    if not isinstance(callbacks, (list, tuple)):
        raise wrong_type("callbacks", callbacks, DSCallback)
    for i, c in enumerate(callbacks):
        if not isinstance(c, DSCallback):
            raise wrong_type(f"callbacks[{i}]", c, DSCallback)
    return list(callbacks)


_muted = threading.local()


def is_muted():
    """Whether pipelines built now (in this thread) run no callbacks (see ``muted``)."""
    return getattr(_muted, "depth", 0) > 0


@contextlib.contextmanager
def muted():
    """Pipelines built inside (in this thread) run no callbacks: MindSpore drops them from
    the runs that only answer output_shapes() and the like."""
    _muted.depth = getattr(_muted, "depth", 0) + 1
    try:
        yield
    finally:
        _muted.depth -= 1


def check_overrides(callback):
    """MindSpore's AttributeError for a callback whose class overrides none of the methods
    (checked when the pipeline starts, as MindSpore does)."""
    base = WaitedDSCallback if isinstance(callback, WaitedDSCallback) else DSCallback
    if all(getattr(type(callback), m) is getattr(base, m) for m in base._USER_METHODS):
        raise AttributeError("Inheriting Callback class without overriding any methods, check "
                             "the usage of user defined Callback.")
