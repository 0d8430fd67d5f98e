"""History: per epoch, the step's network output (the loss) under history['net_output'] and
each evaluation metric of Model.fit under its name; `epoch` lists the epoch numbers."""
from training.callbacks.callback import Callback
from training.callbacks.loss_monitor import loss_value


class History(Callback):
    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = None

    def on_train_begin(self, run_context):
        self.epoch = []
        self.history = {}

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        self.epoch.append(cb.cur_epoch_num)
        loss = loss_value(cb.get("net_outputs"))
        if loss is not None:
            self.history.setdefault("net_output", []).append(loss)
        for name, value in (cb.get("eval_results") or {}).items():
            self.history.setdefault(name, []).append(value)
