"""Callbacks run by a map stage (``mindspore.dataset.callback.DSCallback``).

A map calls its callbacks in the pipeline's thread as rows leave it: ``ds_begin`` once,
``ds_epoch_begin``/``ds_epoch_end`` around each epoch, and ``ds_step_begin``/``ds_step_end``
every ``step_size`` rows (a step is one row through the map; with worker threads or processes
both step hooks run as the row is handed downstream, after its operations ran).
"""


class DSRunContext:
    """What a callback learns: epoch and step counters (epochs and steps count from 1)."""

    __slots__ = ("cur_epoch_num", "cur_step_num_in_epoch", "cur_step_num")

    def __init__(self):
        self.cur_epoch_num = 0
        self.cur_step_num_in_epoch = 0
        self.cur_step_num = 0


class DSCallback:
    def __init__(self, step_size=1):
        if isinstance(step_size, bool) or not isinstance(step_size, int):
            raise TypeError(f"step_size must be of type int, but got {type(step_size).__name__}")
        if step_size < 1:
            raise ValueError(f"step_size {step_size} must be >= 1")
        self.step_size = step_size

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


def check_callbacks(callbacks):
    if callbacks is None:
        return []
    if isinstance(callbacks, DSCallback):
        return [callbacks]
    if not isinstance(callbacks, (list, tuple)):
        raise TypeError(f"callbacks must be a DSCallback or a list of them, got "
                        f"{type(callbacks).__name__}")
    for c in callbacks:
        if not isinstance(c, DSCallback):
            raise TypeError(f"callbacks must contain DSCallback objects, got {type(c).__name__}")
    return list(callbacks)


class CallbackRunner:
    """Drives a map's callbacks from its iterator node."""

    def __init__(self, callbacks):
        self.callbacks = callbacks
        self.ctx = DSRunContext()
        self.begun = False
        self.in_epoch = False

    def epoch_begin(self):
        ctx = self.ctx
        if not self.begun:
            self.begun = True
            for c in self.callbacks:
                c.ds_begin(ctx)
        ctx.cur_epoch_num += 1
        ctx.cur_step_num_in_epoch = 0
        self.in_epoch = True
        for c in self.callbacks:
            c.ds_epoch_begin(ctx)

    def step(self):
        ctx = self.ctx
        ctx.cur_step_num_in_epoch += 1
        ctx.cur_step_num += 1
        for c in self.callbacks:
            if (ctx.cur_step_num - 1) % c.step_size == 0:
                c.ds_step_begin(ctx)
                c.ds_step_end(ctx)

    def epoch_end(self):
        if self.in_epoch:
            self.in_epoch = False
            for c in self.callbacks:
                c.ds_epoch_end(self.ctx)
