"""`mindspore.from_numpy` and `mindspore.is_tensor`."""
import numpy as np

from training.backends.dispatch import is_torch
from training.tensor import Tensor


def from_numpy(array):
    """A Tensor on `array`'s memory (no copy: writes to either show in both, as MindSpore's)."""
    if not isinstance(array, np.ndarray):
        raise TypeError("Expected a NumPy array.")
    return Tensor(array)


def is_tensor(obj):
    """Whether `obj` is a Tensor (a Parameter is one; so is the torch backend's torch tensor)."""
    return isinstance(obj, Tensor) or is_torch(obj)
