"""Weight initializers by MindSpore's names ('normal', 'zeros', 'he_uniform', ...) and the
global seed (`training.set_seed`) every random initial value and dropout mask draws from."""
import math

import numpy as np

from training.tensor import Tensor

_rng = np.random.default_rng()


def set_seed(seed):
    """Seed the initializers and dropout (`mindspore.set_seed`)."""
    global _rng
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"'seed' must be a non-negative int, but got {seed!r}")
    _rng = np.random.default_rng(seed)


def rng():
    return _rng


def _fans(shape):
    if len(shape) < 2:
        return shape[0] if shape else 1, shape[0] if shape else 1
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def initialize(init, shape, dtype=np.float32, name="weight"):
    """An array of `shape` from an initializer name, number, array or Tensor."""
    shape = tuple(shape)
    if isinstance(init, Tensor):
        init = init.data
    if isinstance(init, np.ndarray):
        if tuple(init.shape) != shape:
            raise ValueError(f"'{name}' initial value has shape {init.shape}, expected {shape}")
        return init.astype(dtype, copy=True)
    if isinstance(init, (int, float)) and not isinstance(init, bool):
        return np.full(shape, init, dtype=dtype)
    key = str(init).lower().replace("_", "") if init is not None else "heuniform5"
    fan_in, fan_out = _fans(shape)
    if key in ("zeros", "zero"):
        return np.zeros(shape, dtype)
    if key in ("ones", "one"):
        return np.ones(shape, dtype)
    if key == "heuniform5":  # MindSpore's default: HeUniform(negative_slope=sqrt(5))
        bound = 1.0 / math.sqrt(max(fan_in, 1))
        return _rng.uniform(-bound, bound, shape).astype(dtype)
    if key == "heuniform":
        bound = math.sqrt(6.0 / max(fan_in, 1))
        return _rng.uniform(-bound, bound, shape).astype(dtype)
    if key == "henormal":
        return (_rng.standard_normal(shape) * math.sqrt(2.0 / max(fan_in, 1))).astype(dtype)
    if key == "xavieruniform":
        bound = math.sqrt(6.0 / max(fan_in + fan_out, 1))
        return _rng.uniform(-bound, bound, shape).astype(dtype)
    if key == "normal":
        return (_rng.standard_normal(shape) * 0.01).astype(dtype)
    if key == "truncatednormal":
        return np.clip(_rng.standard_normal(shape), -2, 2).astype(dtype) * np.float32(0.01)
    if key == "uniform":
        return _rng.uniform(-0.07, 0.07, shape).astype(dtype)
    raise ValueError(f"Unknown initializer {init!r} for '{name}'; expected one of 'zeros', 'ones', "
                     "'normal', 'uniform', 'truncatednormal', 'he_uniform', 'he_normal', "
                     "'xavier_uniform', a number or an array")


def bias_uniform(fan_in, shape, dtype=np.float32):
    bound = 1.0 / math.sqrt(max(fan_in, 1))
    return _rng.uniform(-bound, bound, shape).astype(dtype)
