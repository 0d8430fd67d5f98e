"""`set_context` / `get_context` and the auto-parallel context, as MindSpore's.

Keys: mode (GRAPH_MODE=0 / PYNATIVE_MODE=1), device_target ("CPU", "GPU", "Ascend"), device_id,
print_file_path, save_graphs, save_graphs_path, enable_profiling, profiling_options,
max_call_depth, deterministic. MindSpore keys without meaning here warn once; unknown keys raise
ValueError, as in MindSpore."""
import os
import threading
import warnings

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
_explicit = set()  # the keys a script set (device_id set explicitly forbids a CPU fallback)

# MindSpore's set_context keys that configure its own compiler, memory pools or devices.
_NO_COMPILER = "there is no MindSpore graph compiler (numpy or torch run the network)"
_NO_POOL = "memory is managed by numpy / torch, not by a MindSpore memory pool"
_WITHOUT_EFFECT = {
    **dict.fromkeys(("enable_graph_kernel", "graph_kernel_flags", "jit_syntax_level", "jit_config",
                     "enable_compile_cache", "compile_cache_path", "precompile_only",
                     "check_bprop", "grad_for_scalar", "support_binary", "debug_level",
                     "reserve_class_name_in_scope", "disable_format_transform",
                     "enable_reduce_precision", "exec_order"), _NO_COMPILER),
    **dict.fromkeys(("max_device_memory", "variable_memory_max_size", "mempool_block_size",
                     "memory_optimize_level", "memory_offload"), _NO_POOL),
    **dict.fromkeys(("ascend_config", "aoe_tune_mode", "aoe_config", "op_timeout",
                     "auto_tune_mode", "gpu_config"), "device options belong to MindSpore's own "
                                                      "kernels; torch chooses its kernels itself"),
    **dict.fromkeys(("enable_dump", "save_dump_path"), "dumps are configured with the "
                                                       "MINDSPORE_DUMP_CONFIG environment variable"),
    **dict.fromkeys(("runtime_num_threads", "inter_op_parallel_num"),
                    "set TRAINING_NUMPY_THREADS or torch.set_num_threads instead"),
    "pynative_synchronize": "execution is synchronous already on the numpy backend",
    "env_config_path": "there is no MindSpore runtime to configure",
    "enable_auto_mixed_precision": "use Model(amp_level=...) with a torch network",
}
_warned = set()


class ParallelMode:
    """The parallel modes (`mindspore.ParallelMode`, `context.ParallelMode`); this project runs
    STAND_ALONE and DATA_PARALLEL."""
    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]

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
    """Set global execution options (mindspore.set_context).

    Keys MindSpore has but that mean nothing here (memory pools, graph-kernel fusion, Ascend
    options, ...) are accepted with a one-time warning each; keys MindSpore does not know raise
    ValueError, as MindSpore does."""
    for key, value in kwargs.items():
        if key not in _DEFAULTS and key not in _WITHOUT_EFFECT:
            raise ValueError(f"For 'context.set_context', the keyword argument {key} is not "
                             f"recognized! Expected one of {sorted(_DEFAULTS)} (or a MindSpore key "
                             f"without effect here: {sorted(_WITHOUT_EFFECT)})")
        _check(key, value)
    for key in kwargs:
        if key in _WITHOUT_EFFECT and key not in _warned:
            _warned.add(key)
            warnings.warn(f"set_context({key}=...) has no effect here: {_WITHOUT_EFFECT[key]}",
                          UserWarning, stacklevel=2)
    with _lock:
        _context.update({k: v for k, v in kwargs.items() if k in _DEFAULTS})
        _explicit.update(k for k in kwargs if k in _DEFAULTS)
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


def is_set(attr_key):
    """Whether the script set `attr_key` with set_context (rather than leaving the default)."""
    return attr_key in _explicit


def reset_context():
    """Back to the defaults (for tests and for scripts that reuse one process)."""
    with _lock:
        _context.clear()
        _context.update(_DEFAULTS)
        _explicit.clear()
        _parallel.clear()
        _parallel.update(_PARALLEL_DEFAULTS)


# MindSpore's auto-parallel keys for its graph partitioner and fusion passes.
_PARALLEL_WITHOUT_EFFECT = (
    "gradient_fp32_sync", "loss_repeated_mean", "search_mode", "auto_parallel_search_mode",
    "parameter_broadcast", "strategy_ckpt_load_file", "strategy_ckpt_save_file", "full_batch",
    "dataset_strategy", "enable_parallel_optimizer", "enable_alltoall", "all_reduce_fusion_config",
    "pipeline_stages", "parallel_optimizer_config", "comm_fusion", "strategy_ckpt_config",
    "group_ckpt_save_file", "pipeline_config", "auto_pipeline")


def set_auto_parallel_context(**kwargs):
    for key, value in kwargs.items():
        if key in _PARALLEL_WITHOUT_EFFECT:
            if key not in _warned:
                _warned.add(key)
                warnings.warn(f"set_auto_parallel_context({key}=...) has no effect here: data "
                              f"parallelism is torch's DistributedDataParallel", UserWarning,
                              stacklevel=2)
            continue
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
        _parallel.update({k: v for k, v in kwargs.items() if k in _PARALLEL_DEFAULTS})


def get_auto_parallel_context(attr_key):
    if attr_key not in _parallel:
        raise ValueError(f"For 'get_auto_parallel_context', unknown key '{attr_key}'")
    return _parallel[attr_key]


def reset_auto_parallel_context():
    with _lock:
        _parallel.clear()
        _parallel.update(_PARALLEL_DEFAULTS)
