"""OnRequestExit: on signal `sig` (SIGTERM by default) the current step finishes, a checkpoint
<directory>/<file_name>.ckpt is written (save_ckpt) and training stops, so a job that is asked to
leave keeps its progress. The handler is installed for the duration of training only (from the
main thread) and the previous one restored afterwards."""
import os
import signal
import threading

from training.callbacks.callback import Callback


class OnRequestExit(Callback):
    def __init__(self, save_ckpt=True, save_mindir=False, file_name="Net", directory="./",
                 sig=signal.SIGTERM):
        super().__init__()
        if save_mindir:
            raise ValueError("For 'OnRequestExit', save_mindir=True is not provided: there is no "
                             "MindIR export here; the checkpoint (save_ckpt=True) keeps the weights")
        if not isinstance(file_name, str) or not file_name:
            raise ValueError(f"For 'OnRequestExit', 'file_name' must be a non-empty str, but got "
                             f"{file_name!r}")
        if not isinstance(directory, str):
            raise ValueError(f"For 'OnRequestExit', 'directory' must be a str, but got {directory!r}")
        self.save_ckpt, self.sig = save_ckpt, sig
        self.train_file_path = os.path.join(os.path.abspath(directory), file_name)
        self._requested = False
        self._previous = None

    def _on_signal(self, signum, frame):
        self._requested = True

    def on_train_begin(self, run_context):
        self._requested = False
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(self.sig, self._on_signal)

    def on_train_step_end(self, run_context):
        if not self._requested:
            return
        cb = run_context.original_args()
        if self.save_ckpt:
            from training.checkpoint import save_checkpoint
            os.makedirs(os.path.dirname(self.train_file_path), exist_ok=True)
            network = cb.backend.checkpoint_object(cb.train_network)
            save_checkpoint(network, self.train_file_path + ".ckpt")
        run_context.request_stop()

    def on_train_end(self, run_context):
        if self._previous is not None:
            signal.signal(self.sig, self._previous)
            self._previous = None
