"""LearningRateScheduler: after every step, sets the optimizer's learning rate to
`learning_rate_function(lr, cur_step_num)` when that differs from the current one."""
import math

from training.callbacks.callback import Callback


class LearningRateScheduler(Callback):
    def __init__(self, learning_rate_function):
        super().__init__()
        if not callable(learning_rate_function):
            raise TypeError(f"For 'LearningRateScheduler', 'learning_rate_function' must be "
                            f"callable, but got {type(learning_rate_function).__name__}")
        self.learning_rate_function = learning_rate_function

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        if cb.get("optimizer") is None:
            raise RuntimeError("For 'LearningRateScheduler', the model has no optimizer to "
                               "schedule: build Model with 'optimizer'")
        backend = cb.backend
        lr = backend.get_lr(cb.optimizer)
        new_lr = float(self.learning_rate_function(lr, cb.cur_step_num))
        if not math.isclose(lr, new_lr, rel_tol=1e-10):
            backend.set_lr(cb.optimizer, new_lr)
