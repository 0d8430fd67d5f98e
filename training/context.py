"""`set_context` / `get_context` and the auto-parallel context, as MindSpore's.

Keys: mode (GRAPH_MODE=0 / PYNATIVE_MODE=1), device_target ("CPU", "GPU", "Ascend"), device_id,
print_file_path, save_graphs, save_graphs_path, enable_profiling, profiling_options,
max_call_depth. Unknown keys raise ValueError, as in MindSpore."""
import os
import threading

GRAPH_MODE = 0
PYNATIVE_MODE = 1

DEVICE_TARGETS = ("CPU", "GPU", "Ascend")

_lock = threading.Lock()
_DEFAULTS = {
    "mode": PYNATIVE_MODE,  # MindSpore 2.x default
    "device_target": "CPU",
    "device_id": 0,
    "print_file_path": None,
    "save_graphs": False,
    "save_graphs_path": ".",
    "enable_profiling": False,
    "profiling_options": None,
    "max_call_depth": 1000,
    "deterministic": "OFF",
}
_context = dict(_DEFAULTS)

_PARALLEL_DEFAULTS = {
    "parallel_mode": "stand_alone",
    "gradients_mean": False,
    "device_num": 1,
    "global_rank": 0,
}
_parallel = dict(_PARALLEL_DEFAULTS)
PARALLEL_MODES = ("stand_alone", "data_parallel", "semi_auto_parallel", "auto_parallel",
                  "hybrid_parallel")


def _check(key, value):
    if key == "mode" and value not in (GRAPH_MODE, PYNATIVE_MODE):
        raise ValueError(f"For 'set_context', 'mode' must be GRAPH_MODE (0) or PYNATIVE_MODE (1), "
                         f"but got {value!r}")
    if key == "device_target" and value not in DEVICE_TARGETS:
        raise ValueError(f"For 'set_context', 'device_target' must be one of {DEVICE_TARGETS}, "
                         f"but got {value!r}")
    if key == "device_id" and (not isinstance(value, int) or isinstance(value, bool)
                               or not 0 <= value < 4096):
        raise ValueError(f"For 'set_context', 'device_id' must be an int in [0, 4096), "
                         f"but got {value!r}")
    if key == "save_graphs" and value not in (True, False, 0, 1, 2, 3):
        raise ValueError(f"For 'set_context', 'save_graphs' must be a bool or 0-3, got {value!r}")
    if key == "profiling_options" and value is not None and not isinstance(value, (str, dict)):
        raise TypeError("For 'set_context', 'profiling_options' must be a JSON string or a dict")


def set_context(**kwargs):
    """Set global execution options (mindspore.set_context)."""
    for key, value in kwargs.items():
        if key not in _DEFAULTS:
            raise ValueError(f"For 'set_context', the keyword argument '{key}' is not recognized; "
                             f"expected one of {sorted(_DEFAULTS)}")
        _check(key, value)
    with _lock:
        _context.update(kwargs)
    if "print_file_path" in kwargs and kwargs["print_file_path"]:
        directory = os.path.dirname(os.path.abspath(kwargs["print_file_path"]))
        if not os.path.isdir(directory):
            raise ValueError(f"For 'set_context', the directory of 'print_file_path' "
                             f"({directory}) does not exist")


def get_context(attr_key):
    if attr_key not in _context:
        raise ValueError(f"For 'get_context', '{attr_key}' is not a context key; expected one of "
                         f"{sorted(_context)}")
    return _context[attr_key]


def reset_context():
    """Back to the defaults (for tests and for scripts that reuse one process)."""
    with _lock:
        _context.clear()
        _context.update(_DEFAULTS)
        _parallel.clear()
        _parallel.update(_PARALLEL_DEFAULTS)


def set_auto_parallel_context(**kwargs):
    for key, value in kwargs.items():
        if key not in _PARALLEL_DEFAULTS:
            raise ValueError(f"For 'set_auto_parallel_context', the keyword argument '{key}' is "
                             f"not recognized; expected one of {sorted(_PARALLEL_DEFAULTS)}")
        if key == "parallel_mode" and value not in PARALLEL_MODES:
            raise ValueError(f"For 'set_auto_parallel_context', 'parallel_mode' must be one of "
                             f"{PARALLEL_MODES}, but got {value!r}")
        if key == "parallel_mode" and value not in ("stand_alone", "data_parallel"):
            raise NotImplementedError(f"parallel_mode {value!r} is not supported; only "
                                      "'stand_alone' and 'data_parallel' are")
    with _lock:
        _parallel.update(kwargs)


def get_auto_parallel_context(attr_key):
    if attr_key not in _parallel:
        raise ValueError(f"For 'get_auto_parallel_context', unknown key '{attr_key}'")
    return _parallel[attr_key]


def reset_auto_parallel_context():
    with _lock:
        _parallel.clear()
        _parallel.update(_PARALLEL_DEFAULTS)
