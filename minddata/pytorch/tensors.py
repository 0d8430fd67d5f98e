"""numpy arrays of the pipeline -> torch tensors, sharing memory whenever that is safe."""
import numpy as np
import torch

# Kinds torch has no dtype for: strings, bytes, Python objects, structured records.
_HOST_ONLY_KINDS = frozenset("USOV")


def as_tensor(value):
    """``torch.from_numpy(value)`` (zero-copy) for a writable numeric array. A read-only array
    is copied first (a tensor is writable, and writing into read-only memory would crash), as
    is one with negative strides (torch cannot view it). Strings, bytes and objects stay numpy
    arrays; anything that is not an array is returned as it is."""
    if not isinstance(value, np.ndarray) or value.dtype.kind in _HOST_ONLY_KINDS:
        return value
    if not value.flags.writeable:
        value = value.copy()
    elif any(stride < 0 for stride in value.strides):
        value = np.ascontiguousarray(value)
    return torch.from_numpy(value)


def row_to_tensors(row):
    return tuple(as_tensor(value) for value in row)
