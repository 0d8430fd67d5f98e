"""Dropout1d, Dropout2d and Dropout3d: in training each channel of each sample is zeroed with
probability p (the rest scaled by 1 / (1 - p)); identity in evaluation. The numpy backend
draws from training.nn.initializer's generator (seeded by training.set_seed), the torch
backend from torch's."""
import numpy as np

from training.backends.dispatch import is_torch
from training.nn import initializer
from training.nn.cell import Cell


class _DropoutNd(Cell):
    """`ranks` the input ranks MindSpore takes in training (the channel axis is the one before
    the last `dims`)."""
    dims, ranks = 1, (2, 3)

    def __init__(self, p=0.5):
        super().__init__()
        if not isinstance(p, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'p' should be 'float', but got "
                            f"type '{type(p).__name__}'.")
        if not 0 <= p <= 1:
            raise ValueError(f"For '{self.cls_name}', the 'p' must be a number in range [0, 1], "
                             f"but got {p}.")
        self.p = p

    def construct(self, x):
        if not self.training or self.p == 0:      # (MindSpore checks no rank then)
            return x
        if x.ndim not in self.ranks:
            raise ValueError(f"For {self.cls_name}, the rank of the input must be "
                             f"{' or '.join(map(str, self.ranks))}, but got {x.ndim}.")
        shape = tuple(x.shape[:-self.dims]) + (1,) * self.dims   # one draw per channel
        keep = 1.0 - self.p
        if is_torch(x):
            import torch
            kept = torch.empty(shape, dtype=x.dtype, device=x.device).bernoulli_(keep)
            return x * (kept / keep if keep > 0 else kept)
        kept = (initializer.rng().random(shape) < keep).astype(x.dtype)
        return x * (kept / np.asarray(keep, x.dtype) if keep > 0 else kept)


class Dropout1d(_DropoutNd):
    """Channel dropout of (N, C, L) or (C, L)."""


class Dropout2d(_DropoutNd):
    """Channel dropout of (N, C, H, W)."""
    dims, ranks = 2, (4,)


class Dropout3d(_DropoutNd):
    """Channel dropout of (N, C, D, H, W)."""
    dims, ranks = 3, (5,)
