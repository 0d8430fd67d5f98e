"""`Callback`, `RunContext` and the list runner, with MindSpore 2.x's event names.

The on_train_* and on_eval_* methods default to the 1.x names (begin, epoch_begin, step_begin,
step_end, epoch_end, end), so a callback written either way works."""


class Callback:
    def __enter__(self):
        return self

    def __exit__(self, *err):
        return False

    # 1.x names
    def begin(self, run_context):
        pass

    def epoch_begin(self, run_context):
        pass

    def epoch_end(self, run_context):
        pass

    def step_begin(self, run_context):
        pass

    def step_end(self, run_context):
        pass

    def end(self, run_context):
        pass

    # 2.x training names
    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    # 2.x evaluation names
    def on_eval_begin(self, run_context):
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_eval_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        self.step_end(run_context)

    def on_eval_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_eval_end(self, run_context):
        self.end(run_context)


class RunContext:
    """Passed to every callback: `original_args()` gives the cb_params, `request_stop()` asks the
    loop to stop after the current step (epoch_end and end still fire)."""

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError(f"For 'RunContext', 'original_args' must be a dict, but got "
                            f"{type(original_args).__name__}")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        return self._original_args

    def request_stop(self):
        self._stop_requested = True

    def get_stop_requested(self):
        return self._stop_requested


class CallbackParams(dict):
    """MindSpore's cb_params: a dict whose keys are also attributes (cb_params.cur_step_num)."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"cb_params has no field '{name}'") from None

    def __setattr__(self, name, value):
        self[name] = value


def _is_callback(cb):
    if isinstance(cb, Callback):
        return True
    # minddata's WaitedDSCallback is also a training callback (MindSpore's subclasses both).
    from minddata.callback import WaitedDSCallback
    return isinstance(cb, WaitedDSCallback)


class CallbackList(Callback):
    """Runs a list of callbacks in order for every event."""

    def __init__(self, callbacks):
        if callbacks is None:
            callbacks = []
        elif _is_callback(callbacks):
            callbacks = [callbacks]
        elif not isinstance(callbacks, (list, tuple)):
            raise TypeError(f"'callbacks' must be a Callback or a list of Callbacks, but got "
                            f"{type(callbacks).__name__}")
        for cb in callbacks:
            if not _is_callback(cb):
                raise TypeError(f"every element of 'callbacks' must be a Callback, but got "
                                f"{type(cb).__name__}")
        self.callbacks = list(callbacks)

    def __enter__(self):
        for cb in self.callbacks:
            cb.__enter__()
        return self

    def __exit__(self, *err):
        for cb in reversed(self.callbacks):
            cb.__exit__(*err)
        return False


def _make_dispatch(event):
    def dispatch(self, run_context):
        for cb in self.callbacks:
            getattr(cb, event)(run_context)
    dispatch.__name__ = event
    return dispatch


for _event in ("begin", "epoch_begin", "epoch_end", "step_begin", "step_end", "end",
               "on_train_begin", "on_train_epoch_begin", "on_train_step_begin",
               "on_train_step_end", "on_train_epoch_end", "on_train_end", "on_eval_begin",
               "on_eval_epoch_begin", "on_eval_step_begin", "on_eval_step_end",
               "on_eval_epoch_end", "on_eval_end"):
    setattr(CallbackList, _event, _make_dispatch(_event))
