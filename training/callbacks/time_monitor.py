"""TimeMonitor: per-epoch time and per-step time; with `data_time=True` also the time the step
loop spent waiting for data (the sink executor measures it) and, per step, the host time of the
step call and the device time of the step where the backend can measure it (torch on CUDA:
CUDA events; elsewhere "n/a", the host time being the step time)."""
import time

from training.callbacks.callback import Callback


class TimeMonitor(Callback):
    def __init__(self, data_size=None, data_time=False):
        super().__init__()
        if data_size is not None and (not isinstance(data_size, int) or data_size <= 0):
            raise ValueError(f"For 'TimeMonitor', 'data_size' must be a positive int or None, "
                             f"but got {data_size!r}")
        if not isinstance(data_time, bool):
            raise TypeError(f"For 'TimeMonitor', 'data_time' must be a bool, got {data_time!r}")
        self.data_size, self.data_time = data_size, data_time
        self.epoch_time = None
        self.last_report = {}

    def on_train_epoch_begin(self, run_context):
        self.epoch_time = time.perf_counter()

    def on_train_epoch_end(self, run_context):
        if self.epoch_time is None:
            return
        cb = run_context.original_args()
        epoch_ms = (time.perf_counter() - self.epoch_time) * 1000
        steps = self.data_size or cb.get("epoch_steps") or cb.batch_num
        report = {"epoch_ms": epoch_ms, "per_step_ms": epoch_ms / max(steps, 1)}
        line = f"Train epoch time: {epoch_ms:.3f} ms, per step time: {report['per_step_ms']:.3f} ms"
        if self.data_time:
            wait_ms = cb.get("epoch_data_wait_time", 0.0) * 1000
            report["data_wait_ms"] = wait_ms
            report["data_wait_fraction"] = wait_ms / epoch_ms if epoch_ms else 0.0
            line += f", data wait time: {wait_ms:.3f} ms ({100 * report['data_wait_fraction']:.2f}%)"
            line += self._step_times(cb, report)
        self.last_report = report
        print(line, flush=True)

    @staticmethod
    def _step_times(cb, report):
        """Host and device time per step of the epoch, added to `report`; the text to print."""
        steps = max(cb.get("epoch_steps") or 0, 1)
        report["host_step_ms"] = cb.get("epoch_host_step_time", 0.0) * 1000 / steps
        device = cb.get("epoch_device_step_time")
        report["device_step_ms"] = None if device is None else device * 1000 / steps
        text = f", host step time: {report['host_step_ms']:.3f} ms"
        if device is None:
            return text + ", device step time: n/a"
        return text + f", device step time: {report['device_step_ms']:.3f} ms"
