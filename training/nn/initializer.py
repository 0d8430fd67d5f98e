"""How layers turn their weight_init / bias_init arguments into arrays: an Initializer, an alias
('normal', 'he_uniform', ...), a number, an array or a Tensor (training.common.initializer),
with MindSpore's defaults when the argument is None."""
import math

import numpy as np

from training.common import initializer as init_lib
from training.common.seed import rng, set_seed  # noqa: F401  (layers draw masks from rng)
from training.tensor import Tensor


def initialize(init, shape, dtype=np.float32, name="weight"):
    """An array of `shape`; None is MindSpore's default weight init, HeUniform(sqrt(5))."""
    shape = tuple(shape)
    if isinstance(init, (Tensor, np.ndarray)) and tuple(np.shape(init)) != shape:
        raise ValueError(f"'{name}' initial value has shape {np.shape(init)}, expected {shape}")
    if init is None:
        init = init_lib.HeUniform(negative_slope=math.sqrt(5))
    return init_lib.initializer(init, shape, dtype).data


def bias_uniform(fan_in, shape, dtype=np.float32):
    """MindSpore's default bias: U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
    bound = 1.0 / math.sqrt(max(fan_in, 1))
    return rng().uniform(-bound, bound, shape).astype(dtype)
