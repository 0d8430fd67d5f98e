"""ModelCheckpoint and CheckpointConfig: save the training network every N steps and/or seconds,
as `<directory>/<prefix>-<epoch>_<step in epoch>.ckpt`, keeping the newest `keep_checkpoint_max`
files, and once more at the end of training."""
import os
import time

from training.callbacks.callback import Callback


def _check_int(value, name, minimum=0, allow_none=True):
    if value is None and allow_none:
        return
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ValueError(f"For 'CheckpointConfig', '{name}' must be an int >= {minimum}, but got "
                         f"{value!r}")


class CheckpointConfig:
    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False,
                 saved_network=None, append_info=None, enc_key=None, enc_mode="AES-GCM",
                 exception_save=False, crc_check=False, remove_redundancy=False, format="ckpt",
                 **kwargs):
        _check_int(save_checkpoint_steps, "save_checkpoint_steps")
        _check_int(save_checkpoint_seconds, "save_checkpoint_seconds")
        _check_int(keep_checkpoint_max, "keep_checkpoint_max")
        _check_int(keep_checkpoint_per_n_minutes, "keep_checkpoint_per_n_minutes")
        if not save_checkpoint_steps and not save_checkpoint_seconds:
            raise ValueError("For 'CheckpointConfig', 'save_checkpoint_steps' and "
                             "'save_checkpoint_seconds' cannot both be 0 or None")
        if append_info is not None and not isinstance(append_info, list):
            raise TypeError("For 'CheckpointConfig', 'append_info' must be a list or None")
        if enc_key is not None:
            raise NotImplementedError("For 'CheckpointConfig', encrypted checkpoints are not supported")
        if crc_check:
            raise NotImplementedError("For 'CheckpointConfig', crc_check=True is not supported")
        if format != "ckpt":
            raise ValueError(f"For 'CheckpointConfig', 'format' must be 'ckpt', but got {format!r}")
        self.save_checkpoint_steps = save_checkpoint_steps
        self.save_checkpoint_seconds = save_checkpoint_seconds
        self.keep_checkpoint_max = keep_checkpoint_max if keep_checkpoint_max else None
        self.keep_checkpoint_per_n_minutes = keep_checkpoint_per_n_minutes
        self.integrated_save, self.async_save = integrated_save, async_save
        self.saved_network, self.append_info = saved_network, append_info or []
        self.exception_save, self.format = exception_save, format


class ModelCheckpoint(Callback):
    def __init__(self, prefix="CKP", directory=None, config=None):
        super().__init__()
        if not isinstance(prefix, str) or not prefix or "/" in prefix:
            raise ValueError(f"For 'ModelCheckpoint', 'prefix' must be a non-empty str without "
                             f"'/', but got {prefix!r}")
        if config is not None and not isinstance(config, CheckpointConfig):
            raise TypeError(f"For 'ModelCheckpoint', 'config' must be a CheckpointConfig, but got "
                            f"{type(config).__name__}")
        self._config = config or CheckpointConfig()
        self._directory = os.path.abspath(directory if directory is not None else ".")
        os.makedirs(self._directory, exist_ok=True)
        # Like MindSpore: an existing file with this prefix gets a numbered prefix (CKP_1-...).
        base, n = prefix, 0
        while any(f.startswith(prefix + "-") and f.endswith(".ckpt")
                  for f in os.listdir(self._directory)):
            n += 1
            prefix = f"{base}_{n}"
        self._prefix = prefix
        self._saved = []
        self._last_saved_step = 0
        self._last_time = time.monotonic()
        self._last_kept = float("-inf")
        self.latest_ckpt_file_name = None

    def on_train_begin(self, run_context):
        self._cb = run_context.original_args()

    def __exit__(self, exc_type, exc, tb):
        # exception_save: an exception ending training leaves "<prefix>-<epoch>_<step>_breakpoint.ckpt"
        cb = getattr(self, "_cb", None)
        if exc_type is not None and self._config.exception_save and cb is not None \
                and cb.cur_step_num:
            self._save(cb, suffix="_breakpoint")
        return False

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        cfg = self._config
        due = False
        if cfg.save_checkpoint_steps and \
                cb.cur_step_num - self._last_saved_step >= cfg.save_checkpoint_steps:
            due = True
        if cfg.save_checkpoint_seconds and \
                time.monotonic() - self._last_time >= cfg.save_checkpoint_seconds:
            due = True
        if due:
            self._save(cb)

    def on_train_end(self, run_context):
        cb = run_context.original_args()
        if cb.cur_step_num and cb.cur_step_num != self._last_saved_step:
            self._save(cb)
        from training.checkpoint import wait_async_save
        wait_async_save()

    def _save(self, cb, suffix=""):
        from training.checkpoint import save_checkpoint
        step_in_epoch = (cb.cur_step_num - 1) % cb.batch_num + 1
        name = f"{self._prefix}-{cb.cur_epoch_num}_{step_in_epoch}{suffix}.ckpt"
        path = os.path.join(self._directory, name)
        network = self._config.saved_network or cb.train_network
        append = {}
        for key in self._config.append_info:
            if isinstance(key, dict):
                append.update(key)
            elif key == "epoch_num":
                append["epoch_num"] = int(cb.cur_epoch_num)
            elif key == "step_num":
                append["step_num"] = int(cb.cur_step_num)
        save_obj = network
        if hasattr(cb.get("backend"), "checkpoint_object"):
            save_obj = cb.backend.checkpoint_object(network)
        save_checkpoint(save_obj, path, async_save=self._config.async_save,
                        append_dict=append or None)
        self._last_saved_step = cb.cur_step_num
        self._last_time = time.monotonic()
        self.latest_ckpt_file_name = path
        if path in self._saved:
            self._saved.remove(path)
        per_minutes = self._config.keep_checkpoint_per_n_minutes
        if per_minutes and time.monotonic() - self._last_kept >= per_minutes * 60:
            # keep_checkpoint_per_n_minutes: one file every n minutes is never rotated out
            self._last_kept = time.monotonic()
        else:
            self._saved.append(path)
        keep = self._config.keep_checkpoint_max
        while keep and len(self._saved) > keep:
            old = self._saved.pop(0)
            if os.path.exists(old):
                os.remove(old)
