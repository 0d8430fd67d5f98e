"""Dump of each Cell's inputs and outputs as .npy files (MindSpore's synchronous dump).

Configured by a JSON file named in the environment variable MINDSPORE_DUMP_CONFIG, with MindSpore's
keys under "common_dump_settings": dump_mode (0: every cell, 1: only those in "kernels"), path
(absolute), net_name, iteration ("all", or "0|5-8|100"), input_output (0: both, 1: inputs,
2: outputs), kernels (cell scope names or type names, when dump_mode is 1).
Files: <path>/rank_<id>/<net_name>/0/<iteration>/<CellType>.<scope>.0.0.<seq>.<input|output>.<slot>.DefaultFormat.npy
"""
import json
import os
import threading

import numpy as np

ENV_VAR = "MINDSPORE_DUMP_CONFIG"
_state = {"env": None, "config": None, "iteration": 0, "seq": 0}
_lock = threading.Lock()


def _parse_iterations(spec):
    spec = str(spec).strip()
    if spec == "all":
        return None
    ranges = []
    for part in spec.split("|"):
        lo, _, hi = part.partition("-")
        try:
            ranges.append((int(lo), int(hi or lo)))
        except ValueError:
            raise ValueError(f"dump config: 'iteration' must be 'all' or like '0|5-8|100', "
                             f"but got {spec!r}") from None
    return ranges


def load_config(path):
    """Read and validate a dump config file; returns the settings dict."""
    try:
        with open(path) as f:
            raw = json.load(f)
    except (OSError, ValueError) as exc:
        raise ValueError(f"dump config file {path!r} (from {ENV_VAR}) could not be read as "
                         f"JSON: {exc}") from exc
    common = raw.get("common_dump_settings")
    if not isinstance(common, dict):
        raise ValueError(f"dump config file {path!r}: missing 'common_dump_settings' object")
    for key in ("dump_mode", "path", "net_name", "iteration", "input_output"):
        if key not in common:
            raise ValueError(f"dump config file {path!r}: 'common_dump_settings' lacks '{key}'")
    if common["dump_mode"] not in (0, 1):
        raise ValueError(f"dump config file {path!r}: 'dump_mode' must be 0 or 1")
    if common["input_output"] not in (0, 1, 2):
        raise ValueError(f"dump config file {path!r}: 'input_output' must be 0, 1 or 2")
    if not os.path.isabs(common["path"]):
        raise ValueError(f"dump config file {path!r}: 'path' must be absolute, got {common['path']!r}")
    return {"mode": common["dump_mode"], "path": common["path"], "net_name": common["net_name"],
            "iterations": _parse_iterations(common["iteration"]),
            "input_output": common["input_output"], "kernels": list(common.get("kernels", []))}


def _config():
    env = os.environ.get(ENV_VAR)
    if env != _state["env"]:
        _state["env"] = env
        _state["config"] = load_config(env) if env else None
    return _state["config"]


def enabled():
    return _config() is not None


def set_iteration(step):
    """The executor calls this before each step (0-based), as MindSpore's iteration counter."""
    _state["iteration"] = step


def _wanted(config, cell):
    if config["mode"] == 1 and not any(k in (cell.scope_name(), type(cell).__name__)
                                       for k in config["kernels"]):
        return False
    its = config["iterations"]
    it = _state["iteration"]
    return its is None or any(lo <= it <= hi for lo, hi in its)


def _arrays(values):
    values = values if isinstance(values, (tuple, list)) else (values,)
    for v in values:
        if type(v).__module__.startswith("torch"):  # a cell running on the torch backend
            v = v.detach()
            bfloat16 = str(v.dtype) == "torch.bfloat16"  # numpy has no bfloat16
            yield (v.float() if bfloat16 else v).cpu().numpy()
            continue
        data = v if isinstance(v, np.ndarray) else getattr(v, "data", None)  # Tensor -> array
        if isinstance(data, np.ndarray):
            yield data


def record(cell, inputs, outputs):
    config = _config()
    if config is None or not _wanted(config, cell):
        return
    from training import communication
    folder = os.path.join(config["path"], f"rank_{communication.get_rank_or_zero()}",
                          config["net_name"], "0", str(_state["iteration"]))
    os.makedirs(folder, exist_ok=True)
    with _lock:
        _state["seq"] += 1
        seq = _state["seq"]
    scope = cell.scope_name().replace("/", "_")
    kinds = []
    if config["input_output"] in (0, 1):
        kinds.append(("input", inputs))
    if config["input_output"] in (0, 2):
        kinds.append(("output", outputs))
    for kind, values in kinds:
        for slot, arr in enumerate(_arrays(values)):
            name = f"{type(cell).__name__}.{scope}.0.0.{seq}.{kind}.{slot}.DefaultFormat.npy"
            np.save(os.path.join(folder, name), arr)
