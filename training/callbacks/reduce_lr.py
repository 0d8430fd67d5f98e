"""ReduceLROnPlateau: multiply the optimizer's learning rate by `factor` when the monitored value
has not improved for `patience` epochs."""
from training.callbacks.monitor_base import MonitorCallback


class ReduceLROnPlateau(MonitorCallback):
    def __init__(self, monitor="eval_loss", factor=0.1, patience=10, verbose=False, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0):
        super().__init__(monitor, mode, min_delta)
        if not 0 <= factor < 1:
            raise ValueError(f"For 'ReduceLROnPlateau', 'factor' must be in [0, 1), got {factor}")
        self.factor, self.patience, self.verbose = factor, patience, verbose
        self.cooldown, self.min_lr = cooldown, min_lr
        self.wait = self.cooldown_counter = 0

    def on_train_begin(self, run_context):
        self.wait = self.cooldown_counter = 0
        self.best = float("inf")

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        value = self._current(cb)
        if value is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self._improved(value):
            self._record(value)
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                backend = cb.get("backend")
                old = backend.get_lr(cb.optimizer)
                if old > self.min_lr:
                    new = max(old * self.factor, self.min_lr)
                    backend.set_lr(cb.optimizer, new)
                    if self.verbose:
                        print(f"Epoch {cb.cur_epoch_num}: reducing learning rate to {new}.", flush=True)
                    self.cooldown_counter, self.wait = self.cooldown, 0
