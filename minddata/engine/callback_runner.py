"""The engine side of dataset callbacks (minddata/callback.py holds the user's classes): a
map's iterator node drives its callbacks through a CallbackRunner, and the epoch ends still
pending when the run closes fire then, map by map from the source up."""
import weakref

from ..callback import DSRunContext, check_overrides, is_muted
from .errors import wrap_error


def runner_for(callbacks, ctx):
    """The CallbackRunner of a map with these callbacks in the run of build context ``ctx``,
    or None (none, or muted)."""
    if not callbacks or is_muted():
        return None
    runner = CallbackRunner(callbacks, ctx.stopping)
    _last_epoch_ends(ctx).runners.append(runner)
    return runner


class _LastEpochEnds:
    """Closed with the run (registered with its build context): the epoch ends still pending
    then are the last epoch's; they fire map by map from the source up, the order in which
    MindSpore's maps end their epochs (the run closes its nodes the other way round)."""

    name = "dataset callbacks"

    def __init__(self):
        self.runners = []

    def close(self):
        for runner in self.runners:
            runner.close()


_ends_of_run = weakref.WeakKeyDictionary()


def _last_epoch_ends(ctx):
    ends = _ends_of_run.get(ctx)
    if ends is None:
        ends = _ends_of_run[ctx] = _LastEpochEnds()
        ctx.register(ends)
    return ends


class CallbackRunner:
    """Drives a map's callbacks from its iterator node. A callback's exception reaches the
    user as MindSpore's RuntimeError (errors.py), the original as its cause."""

    def __init__(self, callbacks, stopping=None):
        for c in callbacks:
            check_overrides(c)
        self.callbacks = callbacks
        self.ctx = DSRunContext(stopping)
        self.begun = False
        self.in_epoch = False
        self._run_epoch = None      # the run's epoch the callbacks are in
        # A pass of the map ended: the epoch ends unless the next pass is of the same epoch.
        self._pass_ended = False

    def _call(self, callback, method):
        try:
            getattr(callback, method)(self.ctx)
        except Exception as exc:
            raise wrap_error(exc, f"{type(callback).__name__}.{method}") from exc

    def epoch_begin(self, run_epoch=None):
        """A pass of the map starts; a new epoch unless ``run_epoch`` is the current one (a
        repeat's next pass). None (no run to ask): every pass is an epoch."""
        self._pass_ended = False
        if run_epoch is not None and run_epoch == self._run_epoch:
            return
        self._run_epoch = run_epoch
        self.epoch_end()
        ctx = self.ctx
        if not self.begun:
            self.begun = True
            for c in self.callbacks:
                self._call(c, "ds_begin")
        ctx.cur_epoch_num += 1
        ctx.cur_step_num_in_epoch = 0
        self.in_epoch = True
        for c in self.callbacks:
            self._call(c, "ds_epoch_begin")

    def step(self):
        ctx = self.ctx
        ctx.cur_step_num_in_epoch += 1
        ctx.cur_step_num += 1
        for c in self.callbacks:
            if (ctx.cur_step_num_in_epoch - 1) % c.step_size == 0:   # counted per epoch
                self._call(c, "ds_step_begin")
                self._call(c, "ds_step_end")

    def pass_end(self):
        """The map's child ran out: the epoch ends, at the next epoch's start or when the run
        closes (a repeat's next pass of the same epoch continues it)."""
        self._pass_ended = True

    def close(self):
        if self._pass_ended:
            self.epoch_end()

    def epoch_end(self):
        if self.in_epoch:
            self.in_epoch = False
            for c in self.callbacks:
                self._call(c, "ds_epoch_end")
