"""LossMonitor: prints the loss every `per_print_times` steps; a NaN or infinite loss raises
ValueError, which ends training (MindSpore's behaviour)."""
import numpy as np

from training.callbacks.callback import Callback


def loss_value(outputs):
    """A float loss from a step's net_outputs (a tensor, a tuple whose first item is the loss,
    a torch tensor or a number); None when there is none."""
    if isinstance(outputs, (tuple, list)):
        if not outputs:
            return None
        outputs = outputs[0]
    if outputs is None:
        return None
    if hasattr(outputs, "detach") and hasattr(outputs, "cpu"):  # torch tensor
        outputs = outputs.detach().cpu().numpy()
    arr = np.asarray(getattr(outputs, "data", outputs), dtype=np.float64)
    return float(arr.mean()) if arr.size else None


class LossMonitor(Callback):
    def __init__(self, per_print_times=1):
        super().__init__()
        if not isinstance(per_print_times, int) or isinstance(per_print_times, bool) \
                or per_print_times < 0:
            raise ValueError(f"For 'LossMonitor', 'per_print_times' must be an int >= 0, but got "
                             f"{per_print_times!r}")
        self._per_print_times = per_print_times
        self._last_print_step = 0

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        loss = loss_value(cb.net_outputs)
        cur_step_in_epoch = (cb.cur_step_num - 1) % cb.batch_num + 1
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            raise ValueError(f"epoch: {cb.cur_epoch_num} step: {cur_step_in_epoch}. "
                             f"Invalid loss {loss}, terminating training.")
        if self._per_print_times and cb.cur_step_num - self._last_print_step >= self._per_print_times:
            self._last_print_step = cb.cur_step_num
            print(f"epoch: {cb.cur_epoch_num} step: {cur_step_in_epoch}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        metrics = cb.get("metrics")
        if metrics:
            print(f"Eval result: epoch {cb.cur_epoch_num}, metrics: {metrics}", flush=True)
