"""Shared logic of EarlyStopping and ReduceLROnPlateau: read a monitored value (an eval metric
from Model.fit, or the training loss) and decide whether it improved."""
import numpy as np

from training.callbacks.callback import Callback
from training.callbacks.loss_monitor import loss_value


class MonitorCallback(Callback):
    def __init__(self, monitor, mode, min_delta, baseline=None):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"For '{type(self).__name__}', 'mode' must be 'auto', 'min' or 'max', "
                             f"but got {mode!r}")
        if not isinstance(monitor, str):
            raise TypeError(f"For '{type(self).__name__}', 'monitor' must be a str")
        self.monitor = monitor
        lower_better = mode == "min" or (mode == "auto" and ("loss" in monitor or "error" in monitor
                                                              or monitor in ("mae", "mse")))
        self._sign = 1.0 if lower_better else -1.0
        self.min_delta = abs(min_delta)
        self.baseline = baseline
        self.best = np.inf

    def _current(self, cb):
        """The monitored value at epoch end, or None when not available."""
        results = cb.get("eval_results") or cb.get("metrics") or {}
        name = self.monitor[5:] if self.monitor.startswith("eval_") else self.monitor
        if name in results:
            return float(results[name])
        if self.monitor in results:
            return float(results[self.monitor])
        if self.monitor in ("loss", "train_loss"):
            return loss_value(cb.net_outputs)
        if self.monitor == "eval_loss" and "loss" in results:
            return float(results["loss"])
        return None

    def _improved(self, value):
        return self._sign * value < self.best - self.min_delta

    def _record(self, value):
        self.best = self._sign * value
