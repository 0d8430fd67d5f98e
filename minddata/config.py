"""Global pipeline settings (``mindspore.dataset.config``).

Settings are read when an iterator is created, so changing them affects pipelines iterated
afterwards, as in MindSpore.
"""
import enum
import json
import logging
import os
import random as _random
import threading

from transforms_c._rng import seed_eager_stream
from transforms_c._validate import check_type, wrong_type

_lock = threading.Lock()
# MindSpore's defaults. The seed default is std::mt19937's default seed, which is what
# MindSpore's get_seed() reports when set_seed was never called.
_DEFAULT_SEED = 5489
_state = {
    "seed": None,
    "num_parallel_workers": 8,
    "prefetch_size": 16,
    "native_batches": True,
    "batch_ring_depth": 3,
    "enable_shared_mem": True,
    "debug_mode": False,
    "debug_hooks": [],
    "autotune": False,
    "autotune_prefix": None,
    "autotune_interval": 0,
    "monitor_sampling_interval": 1000,
    "auto_num_workers": False,
    "mp_timeout_interval": 300,
    "error_samples_mode": None,         # ErrorSamplesMode.RETURN, set below
    "enable_watchdog": True,
    "fast_recovery": True,
    "numa_enable": False,
    "auto_offload": False,
    "dynamic_shape": False,
    "multiprocessing_start_method": "fork",
    "video_backend": "CPU",
    "iterator_mode": {"do_copy": False, "parallel_convert": False},
    "sending_batches": 0,
    "callback_timeout": 60,
}
_UINT32_MAX = 2 ** 32 - 1
_INT32_MAX = 2 ** 31 - 1

logger = logging.getLogger("minddata")


def _check_int(name, value, low, high, mindspore_words="", type_words="isn't of type int"):
    """An int in [low, high]; the errors carry MindSpore's words for the setting (its suite and
    ported code match on them)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} {type_words}, but got {type(value).__name__}: {value!r}")
    if not low <= value <= high:
        extra = f" {mindspore_words}" if mindspore_words else ""
        raise ValueError(f"Input {name} is not within the required interval of [{low}, {high}]. "
                         f"Got {value!r}.{extra}")


def set_seed(seed):
    """Seed every random decision of the pipelines created afterwards (samplers, shuffle,
    random transforms), and Python's ``random`` and numpy's global RNG, as MindSpore does."""
    _check_int("seed", seed, 0, _UINT32_MAX, "seed given is not within the required range "
               "[0, UINT32_MAX(4294967295)].")
    with _lock:
        _state["seed"] = seed
    _random.seed(seed)
    import numpy as np
    np.random.seed(seed)
    seed_eager_stream(seed)


def get_seed():
    """The seed set with set_seed, or MindSpore's default (5489) if none was set."""
    s = _state["seed"]
    return _DEFAULT_SEED if s is None else s


# Eager random ops (op(img) outside a pipeline) draw from the configured seed, MindSpore's
# default until set_seed is called.
seed_eager_stream(get_seed())


def _debug_mode_seed():
    """A pipeline run in debug mode with the default seed (5489, set or not) sets the seed to 1,
    which stays after debug mode is turned off, as MindSpore 2.10 does (measured; Python's and
    numpy's generators are not reseeded there either)."""
    with _lock:
        if get_seed() == _DEFAULT_SEED:
            _state["seed"] = 1
            seed_eager_stream(1)


def _seed_is_set():
    return _state["seed"] is not None


def set_num_parallel_workers(num):
    """Default number of workers of sources and map stages that do not name one."""
    _check_int("num", num, 1, max(512, os.cpu_count() or 1), "Number of parallel workers "
               "given is not within the required range (0, INT32_MAX(2147483647)].")
    _state["num_parallel_workers"] = num


def get_num_parallel_workers():
    return _state["num_parallel_workers"]


def set_prefetch_size(size):
    """Capacity (in rows or batches) of the queue between stages and in front of the user."""
    _check_int("size", size, 1, _INT32_MAX, "size is not within the required range "
               "(0, INT32_MAX(2147483647)].")
    _state["prefetch_size"] = size


def get_prefetch_size():
    return _state["prefetch_size"]


def set_native_batches(enable):
    """Whether the planner may run ``Batch(Map(Source))`` chains of native ops as native batches
    (C++ threads, no interpreter lock per row); on by default. Rows are the same either way."""
    if not isinstance(enable, bool):
        raise TypeError(f"enable must be of type bool, but got {type(enable).__name__}")
    _state["native_batches"] = enable


def get_native_batches():
    return _state["native_batches"]


def set_batch_ring_depth(depth):
    """Batches a native batch node keeps in flight ahead of the consumer (its memory is about
    ``depth + 1`` batches, whatever the batch size)."""
    _check_int("depth", depth, 1, 1024, type_words="must be of type int")
    _state["batch_ring_depth"] = depth


def get_batch_ring_depth():
    return _state["batch_ring_depth"]


def set_enable_shared_mem(enable):
    """Process workers move arrays through shared memory (True, default) or pickles (False)."""
    if not isinstance(enable, bool):
        raise TypeError(f"enable must be of type bool, but got {type(enable).__name__}")
    _state["enable_shared_mem"] = enable


def get_enable_shared_mem():
    return _state["enable_shared_mem"]


def set_debug_mode(debug_mode_flag, debug_hook_list=None):
    """Run pipelines in one thread; log each stage's and op's shapes and dtypes (``minddata``
    logger, INFO), and call the ``debug_hook_list`` hooks (``minddata.debug.DebugHook``
    objects; default ``[PrintMetaDataHook()]``) on the input columns of each map's first op and
    on the output columns of every op, as MindSpore does.
    """
    from .debug import DebugHook, PrintMetaDataHook
    if not isinstance(debug_mode_flag, bool):
        raise TypeError(f"debug_mode_flag isn't of type boolean. Got "
                        f"{type(debug_mode_flag).__name__}: {debug_mode_flag!r}")
    if debug_hook_list is None:
        debug_hook_list = [PrintMetaDataHook()]
    if not isinstance(debug_hook_list, list):
        raise TypeError(f"debug_hook_list is not a list. Got {type(debug_hook_list).__name__}")
    for h in debug_hook_list:
        if not isinstance(h, DebugHook):
            raise TypeError(f"All items in debug_hook_list must be of type DebugHook. Got "
                            f"{type(h).__name__}")
    _state["debug_mode"] = debug_mode_flag
    # An empty list keeps the hooks set before (MindSpore's rule).
    if debug_hook_list:
        _state["debug_hooks"] = list(debug_hook_list)


def get_debug_mode():
    return _state["debug_mode"]


def _debug_hooks():
    return list(_state["debug_hooks"])


def independent_mode():
    """MindSpore's dataset independent-process mode (``MS_INDEPENDENT_DATASET=True``): this
    project has no such mode, but refuses what MindSpore refuses in it."""
    value = os.getenv("MS_INDEPENDENT_DATASET")
    return value is not None and value.strip() in ("True", "true")


def check_independent_mode(feature, condition=True):
    """MindSpore's RuntimeError for a feature it does not support in independent mode (cache,
    AutoTune, sync_wait/sync_update, map callbacks)."""
    if condition and independent_mode():
        raise RuntimeError(f"{feature} is not supported in Dataset Independent mode "
                           f"(MS_INDEPENDENT_DATASET=True).")


def set_enable_autotune(enable, filepath_prefix=None):
    """Turn Dataset AutoTune on or off for the pipelines iterated afterwards.

    This engine sizes its worker threads itself (one thread budget per pipeline), so AutoTune
    changes nothing while a pipeline runs: it watches each run (``minddata.autotune``) and,
    with ``filepath_prefix``, writes ``<filepath_prefix>_<RANK_ID>.json`` when the run ends:
    the pipeline as ``ds.serialize`` gives it (``"tree"``, which ``ds.deserialize`` loads back)
    and the workers and prefetch each op actually ran with (``"summary"``). ``RANK_ID`` is the
    environment variable, 0 when unset. Raises MindSpore's errors: TypeError for a non-bool
    ``enable`` or a non-str ``filepath_prefix``, RuntimeError for an empty path, a directory,
    a missing or unwritable directory, and in Dataset Independent mode.
    """
    if not isinstance(enable, bool):
        raise TypeError(f"enable must be of type bool, but got {type(enable).__name__}")
    check_independent_mode("Dataset AutoTune", enable)
    if filepath_prefix is not None and not isinstance(filepath_prefix, str):
        raise TypeError(f"json_filepath must be a str value but was: {filepath_prefix!r}.")
    if enable and filepath_prefix == "":
        raise RuntimeError("The value of json_filepath cannot be the empty string.")
    if enable and filepath_prefix:
        path = os.path.abspath(filepath_prefix)
        if os.path.isdir(path) or filepath_prefix.endswith(os.sep):
            raise RuntimeError(f"Invalid json_filepath parameter. <{filepath_prefix}> is a "
                               f"directory, not filename.")
        parent = os.path.dirname(path)
        if not os.path.isdir(parent):
            raise RuntimeError(f"Invalid json_filepath parameter.  Directory <{parent}> does not "
                               f"exist.")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise RuntimeError(f"Invalid json_filepath parameter. No write permission on the "
                               f"directory <{parent}>.")
    _state["autotune"] = enable
    _state["autotune_prefix"] = filepath_prefix if enable else None


def get_enable_autotune():
    return _state["autotune"]


def _autotune_prefix():
    """The path prefix of the tuned configuration's file, or None (not saved)."""
    return _state["autotune_prefix"]


def set_autotune_interval(interval):
    """Steps between two samples of AutoTune (0, the default: one sample at each epoch's end).
    AutoTune logs each sample at INFO level (minddata logger); see set_enable_autotune."""
    _check_int("interval", interval, 0, _INT32_MAX, "Interval given is not within the required "
               "range [0, INT32_MAX(2147483647)].", type_words="must be of type int")
    _state["autotune_interval"] = interval


def get_autotune_interval():
    return _state["autotune_interval"]


def set_monitor_sampling_interval(interval):
    """Milliseconds between two samples of Dataset Profiling (default 1000)."""
    _check_int("interval", interval, 1, _INT32_MAX, "Interval given is not within the required "
               "range (0, INT32_MAX(2147483647)].")
    _state["monitor_sampling_interval"] = interval


def get_monitor_sampling_interval():
    return _state["monitor_sampling_interval"]


def set_auto_num_workers(enable):
    if not isinstance(enable, bool):
        raise TypeError(f"enable must be of type bool, but got {type(enable).__name__}")
    _state["auto_num_workers"] = enable


def get_auto_num_workers():
    return _state["auto_num_workers"]


def set_multiprocessing_timeout_interval(interval):
    """Seconds between warnings while the main process waits on a silent worker process."""
    _check_int("interval", interval, 1, _INT32_MAX, "Interval given is not within the required "
               "range (0, INT32_MAX(2147483647)).")
    _state["mp_timeout_interval"] = interval


def get_multiprocessing_timeout_interval():
    return _state["mp_timeout_interval"]


class ErrorSamplesMode(enum.IntEnum):
    """MindSpore's modes for rows whose map fails (``set_error_samples_mode``)."""
    RETURN = 0
    REPLACE = 1
    SKIP = 2


def set_error_samples_mode(error_samples_mode):
    """What a map does with a row whose operations fail, as MindSpore 2.10 does: RETURN
    (default) raises, SKIP drops the row, REPLACE gives an earlier good row of the map in its
    place (engine/nodes/map.py, _Replacer). Read when a pipeline starts; debug mode always
    raises."""
    if not isinstance(error_samples_mode, ErrorSamplesMode):
        raise wrong_type("error_samples_mode", error_samples_mode, ErrorSamplesMode)
    _state["error_samples_mode"] = error_samples_mode


def get_error_samples_mode():
    return _state["error_samples_mode"]


# Settings of MindSpore's own runtime that this engine does not need: accepted and checked as
# MindSpore checks them, kept, and read back; they change nothing here (README, deviations).
def _check_bool(name, value, what=None):
    if not isinstance(value, bool):
        raise TypeError(what or f"{name} must be a boolean dtype.")


def set_enable_watchdog(enable):
    _check_bool("enable", enable)
    _state["enable_watchdog"] = enable


def get_enable_watchdog():
    return _state["enable_watchdog"]


def set_fast_recovery(fast_recovery):
    _check_bool("fast_recovery", fast_recovery)
    _state["fast_recovery"] = fast_recovery


def get_fast_recovery():
    return _state["fast_recovery"]


def set_numa_enable(numa_enable):
    _check_bool("numa_enable", numa_enable)
    _state["numa_enable"] = numa_enable


def get_numa_enable():
    return _state["numa_enable"]


def set_auto_offload(offload):
    _check_bool("offload", offload, "offload must be a bool dtype")
    _state["auto_offload"] = offload


def get_auto_offload():
    return _state["auto_offload"]


def set_dynamic_shape(is_dynamic):
    _check_bool("is_dynamic", is_dynamic)
    _state["dynamic_shape"] = is_dynamic


def get_dynamic_shape():
    return _state["dynamic_shape"]


def set_multiprocessing_start_method(start_method="fork"):
    if not isinstance(start_method, str):
        raise wrong_type("start_method", start_method, str)
    if start_method not in ("fork", "spawn"):
        raise ValueError("Input start_method is not within the valid set of ['fork', 'spawn'].")
    _state["multiprocessing_start_method"] = start_method


def get_multiprocessing_start_method():
    return _state["multiprocessing_start_method"]


def set_video_backend(backend):
    if backend not in ("CPU", "Ascend"):
        raise ValueError("Input backend is not within the valid set of ['CPU', 'Ascend'].")
    _state["video_backend"] = backend


def get_video_backend():
    return _state["video_backend"]


def set_iterator_mode(do_copy=False, parallel_convert=False):
    check_type(do_copy, bool, "do_copy")
    check_type(parallel_convert, bool, "parallel_convert")
    _state["iterator_mode"] = {"do_copy": do_copy, "parallel_convert": parallel_convert}


def get_iterator_mode():
    return dict(_state["iterator_mode"])


def set_sending_batches(batch_num):
    """MindSpore's limit on the batches a device queue sends; the sink's own queue bounds
    what is sent ahead here."""
    if isinstance(batch_num, bool) or not isinstance(batch_num, int):
        raise TypeError(f"batch_num must be an int dtype, but got {type(batch_num).__name__}")
    if not -2 ** 63 <= batch_num < 2 ** 63:
        # MindSpore 2.10 hands it to C++ as an int64: pybind11's TypeError
        raise TypeError(f"set_sending_batches(): incompatible function arguments. The batch_num "
                        f"{batch_num} is out of int64's range.")
    _state["sending_batches"] = batch_num


def set_callback_timeout(timeout):
    """Seconds a WaitedDSCallback waits for the training step or epoch it syncs with."""
    _check_int("timeout", timeout, 1, _INT32_MAX, "Timeout given is not within the required "
               "range.")
    _state["callback_timeout"] = timeout


def get_callback_timeout():
    return _state["callback_timeout"]


_state["error_samples_mode"] = ErrorSamplesMode.RETURN


# Keys of MindSpore's JSON config files that map onto a setting here; the others (log paths,
# connector sizes of its C++ ops) are read and ignored.
_CONFIG_FILE_KEYS = {"numParallelWorkers": set_num_parallel_workers,
                     "opConnectorSize": set_prefetch_size, "seed": set_seed,
                     "monitorSamplingInterval": set_monitor_sampling_interval,
                     "callbackTimeout": set_callback_timeout}


def load(file):
    """Settings from a MindSpore config file (JSON: ``{"numParallelWorkers": 4, "seed": 5489,
    "opConnectorSize": 16, ...}``)."""
    if not isinstance(file, (str, os.PathLike)):
        raise TypeError(f"file must be a path (str), but got {type(file).__name__}")
    try:
        with open(file, encoding="utf-8") as f:
            settings = json.load(f)
    except OSError as exc:
        raise RuntimeError(f"Failed to load the config file {file}: {exc}") from None
    except ValueError as exc:
        raise RuntimeError(f"The config file {file} is not valid JSON: {exc}") from None
    if not isinstance(settings, dict):
        raise RuntimeError(f"The config file {file} must hold a JSON object")
    for key, setter in _CONFIG_FILE_KEYS.items():
        if key in settings:
            setter(settings[key])
