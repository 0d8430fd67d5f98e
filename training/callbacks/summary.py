"""SummaryCollector: scalars (loss, learning rate, eval metrics) written as TensorBoard event files
through tensorboardX (`tensorboard --logdir <summary_dir>` reads them)."""
import os

from training.callbacks.callback import Callback
from training.callbacks.loss_monitor import loss_value


def _event_writer(directory):
    # Imported here, not at the top: tensorboardX imports torch when it is installed, which
    # `import training` must not pay for unless a summary is actually written.
    from tensorboardX import SummaryWriter
    return SummaryWriter(logdir=directory)


class SummaryCollector(Callback):
    def __init__(self, summary_dir, collect_freq=10, num_process=32, collect_specified_data=None,
                 keep_default_action=True, custom_lineage_data=None, collect_tensor_freq=None,
                 max_file_size=None, export_options=None):
        super().__init__()
        if not isinstance(summary_dir, (str, os.PathLike)) or not str(summary_dir):
            raise ValueError(f"For 'SummaryCollector', 'summary_dir' must be a non-empty str, but "
                             f"got {summary_dir!r}")
        if not isinstance(collect_freq, int) or isinstance(collect_freq, bool) or collect_freq <= 0:
            raise ValueError(f"For 'SummaryCollector', 'collect_freq' must be a positive int, but "
                             f"got {collect_freq!r}")
        self.summary_dir = os.path.abspath(os.fspath(summary_dir))
        self.collect_freq = collect_freq
        self._writer = None

    def __exit__(self, *err):
        self.close()
        return False

    def close(self):
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def _open(self):
        if self._writer is None:
            self._writer = _event_writer(self.summary_dir)
        return self._writer

    def _add_scalars(self, step, scalars):
        writer = self._open()
        for tag, value in scalars:
            writer.add_scalar(tag, value, global_step=step)
        writer.flush()    # readable by a running tensorboard as soon as it is collected

    def on_train_begin(self, run_context):
        self._open()

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        step = cb.cur_step_num
        if cb.dataset_sink_mode or step % self.collect_freq == 0 or step == 1:
            scalars = []
            loss = loss_value(cb.net_outputs)
            if loss is not None:
                scalars.append(("loss", loss))
            backend = cb.get("backend")
            if cb.get("optimizer") is not None and backend is not None:
                scalars.append(("learning_rate", backend.get_lr(cb.optimizer)))
            if scalars:
                self._add_scalars(step, scalars)

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        results = cb.get("eval_results")
        if results:
            scalars = [(f"eval_{k}", float(v)) for k, v in results.items()
                       if getattr(v, "ndim", 0) == 0]
            self._add_scalars(cb.cur_step_num, scalars)

    def on_train_end(self, run_context):
        self.close()
