"""LambdaCallback: a callback from plain functions, one per event."""
from training.callbacks.callback import Callback

EVENTS = ("on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin",
          "on_train_step_end", "on_train_begin", "on_train_end", "on_eval_epoch_begin",
          "on_eval_epoch_end", "on_eval_step_begin", "on_eval_step_end", "on_eval_begin",
          "on_eval_end")


class LambdaCallback(Callback):
    def __init__(self, on_train_epoch_begin=None, on_train_epoch_end=None,
                 on_train_step_begin=None, on_train_step_end=None, on_train_begin=None,
                 on_train_end=None, on_eval_epoch_begin=None, on_eval_epoch_end=None,
                 on_eval_step_begin=None, on_eval_step_end=None, on_eval_begin=None,
                 on_eval_end=None):
        super().__init__()
        given = dict(locals())
        for event in EVENTS:
            fn = given[event]
            if fn is not None:
                if not callable(fn):
                    raise TypeError(f"For 'LambdaCallback', '{event}' must be callable")
                setattr(self, event, fn)
