"""EarlyStopping: stop training when the monitored value stops improving."""
from training.callbacks.monitor_base import MonitorCallback


class EarlyStopping(MonitorCallback):
    def __init__(self, monitor="eval_loss", min_delta=0, patience=0, verbose=False, mode="auto",
                 baseline=None, restore_best_weights=False):
        super().__init__(monitor, mode, min_delta, baseline)
        if not isinstance(patience, int) or patience < 0:
            raise ValueError(f"For 'EarlyStopping', 'patience' must be an int >= 0, got {patience!r}")
        self.patience, self.verbose = patience, verbose
        self.restore_best_weights = restore_best_weights
        self.wait = 0
        self.stopped_epoch = 0
        self._best_weights = None

    def on_train_begin(self, run_context):
        self.wait, self.stopped_epoch = 0, 0
        self.best = float("inf") if self.baseline is None else self._sign * self.baseline

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        value = self._current(cb)
        if value is None:
            return
        if self._improved(value):
            self._record(value)
            self.wait = 0
            if self.restore_best_weights:
                self._best_weights = cb.backend.snapshot(cb.train_network)
            return
        self.wait += 1
        if self.wait > self.patience:
            self.stopped_epoch = cb.cur_epoch_num
            run_context.request_stop()
            if self.restore_best_weights and self._best_weights is not None:
                cb.backend.restore(cb.train_network, self._best_weights)

    def on_train_end(self, run_context):
        if self.stopped_epoch and self.verbose:
            print(f"Epoch {self.stopped_epoch}: early stopping", flush=True)
