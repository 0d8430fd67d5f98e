"""Upsample (MindSpore 2.10's ops.interpolate as a layer): every mode is a linear map along
each spatial axis (a matrix of `out` x `in` weights: nearest, nearest-exact, (bi/tri)linear,
bicubic as MindSpore's, area = adaptive average), applied axis by axis
with Tensor ops, so both backends share it and its gradient. MindSpore 2.10's CPU takes
scale_factor in 'area' mode and for 5-D inputs only, align_corners in the linear and cubic
modes only."""
import math

import numpy as np

from training.backends.dispatch import is_torch
from training.backends.numpy.pooling import adaptive_bins
from training.nn.cell import Cell
from training.ops import array_kernels as K

RANKS = {"nearest": (3, 4, 5), "nearest-exact": (3, 4), "area": (3, 4, 5), "linear": (3,),
         "bilinear": (4,), "bicubic": (4,), "trilinear": (5,)}
CUBIC_A, CUBIC_HALF_PIXEL_A = -0.75, -0.5     # (align_corners=True, else)
CUBIC_TABLE = 1024      # (MindSpore's cubic weights: a table of 1024 points in [0, 1])


def _cubic(t, a):
    """The four weights of a cubic convolution (coefficient a) at offsets -1, 0, 1, 2 from a
    point t in [0, 1)."""
    def near(d):
        return ((a + 2) * d - (a + 3)) * d * d + 1

    def far(d):
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def axis_weights(mode, size, out, align_corners, ratio=None):
    """The (out, size) matrix that interpolates one axis; `ratio` the input elements per
    output element (size / out, or 1 / scale_factor where one is given, as MindSpore's)."""
    ratio = size / out if ratio is None else ratio
    weights = np.zeros((out, size))
    if mode == "area":
        for i, (start, stop) in enumerate(adaptive_bins(size, out)):
            weights[i, start:stop] = 1.0 / (stop - start)
        return weights
    for i in range(out):
        if mode in ("nearest", "nearest-exact"):
            shift = 0.5 if mode == "nearest-exact" else 0.0
            weights[i, min(int(math.floor((i + shift) * ratio)), size - 1)] = 1.0
            continue
        if align_corners or (mode == "linear" and out == 1):    # (MindSpore's 1-D linear
            source = i * (size - 1) / (out - 1) if out > 1 else 0.0     # to one: the first)
        else:
            source = (i + 0.5) * ratio - 0.5
        if mode == "bicubic" and align_corners:     # taps past an edge take the edge's value
            base = math.floor(source)
            point = round((source - base) * CUBIC_TABLE) / CUBIC_TABLE
            for offset, weight in zip(range(-1, 3), _cubic(point, CUBIC_A)):
                weights[i, min(max(base + offset, 0), size - 1)] += weight
        elif mode == "bicubic":     # MindSpore's half-pixel cubic: a = -0.5, the taps past an
            base = math.floor(source)   # edge left out and the others' weights rescaled
            point = round((source - base) * CUBIC_TABLE) / CUBIC_TABLE
            taps = [(base + offset, weight) for offset, weight in
                    zip(range(-1, 3), _cubic(point, CUBIC_HALF_PIXEL_A))
                    if 0 <= base + offset < size]
            total = sum(weight for _, weight in taps)
            for index, weight in taps:
                weights[i, index] += weight / total
        else:
            source = max(source, 0.0)
            low = min(int(math.floor(source)), size - 1)
            high, frac = min(low + 1, size - 1), source - low
            weights[i, low] += 1.0 - frac
            weights[i, high] += frac
    return weights


def _along(x, axis, weights):
    """`x` with axis `axis` mapped through `weights` (out, in)."""
    moved = list(range(x.ndim))
    moved.remove(axis)
    order = moved + [axis]      # (the axis last, then back to its place)
    if is_torch(x):
        import torch
        matrix = torch.as_tensor(weights.T, dtype=x.dtype, device=x.device)
        out = x.permute(order) @ matrix
        return out.permute(tuple(range(axis)) + (x.ndim - 1,) + tuple(range(axis, x.ndim - 1)))
    matrix = K.as_tensor(weights.T.astype(x.dtype))
    out = x.transpose(tuple(order)) @ matrix
    return out.transpose(tuple(range(axis)) + (x.ndim - 1,) + tuple(range(axis, x.ndim - 1)))


class Upsample(Cell):
    """Resizes the spatial axes of (N, C, ...) to `size` (or by `scale_factor`, 'area' mode)."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        if mode not in RANKS:
            raise ValueError(f"For 'interpolate', 'mode' must be one of {sorted(RANKS)}, but "
                             f"got {mode!r}")
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def _output_size(self, x):
        spatial = tuple(x.shape[2:])
        if (self.size is None) == (self.scale_factor is None):
            raise ValueError("For 'interpolate', only one of 'size' or 'scale_factor' should be "
                             "defined")
        if self.scale_factor is not None:
            if self.mode != "area" and x.ndim != 5:
                raise ValueError(f"For 'interpolate', 'scale_factor' option cannot currently be "
                                 f"set with the mode = {self.mode} and dim = {x.ndim}D.")
            scales = self.scale_factor if isinstance(self.scale_factor, (tuple, list)) else \
                (self.scale_factor,) * len(spatial)
            return tuple(int(math.floor(n * s)) for n, s in zip(spatial, scales))
        sizes = self.size if isinstance(self.size, (tuple, list)) else (self.size,) * len(spatial)
        if len(sizes) != len(spatial):
            raise ValueError(f"For 'interpolate', 'size' must have {len(spatial)} elements, but "
                             f"got {self.size!r}")
        return tuple(sizes)

    def construct(self, x):
        if x.ndim not in RANKS[self.mode]:
            raise ValueError(f"For 'interpolate', {self.mode} only support "
                             f"'{list(RANKS[self.mode])}'D, but got {x.ndim}D")
        if self.align_corners is not None and self.mode in ("nearest", "nearest-exact",
                                                            "area"):
            raise ValueError(f"For 'interpolate', 'align_corners' option cannot currently be "
                             f"set with the mode = {self.mode}, and dim = {x.ndim}D")
        sizes = self._output_size(x)
        ratios = [None] * len(sizes)
        if self.scale_factor is not None and not self.recompute_scale_factor:
            scales = self.scale_factor if isinstance(self.scale_factor, (tuple, list)) else \
                (self.scale_factor,) * len(sizes)
            ratios = [1.0 / scale for scale in scales]
        if self.mode == "area" and x.ndim == 3 and (x.shape[2] < sizes[0] or
                                                     x.shape[2] % sizes[0]):
            raise ValueError(f"For adaptive_avg_pool1d input's last dimension must be greater "
                             f"or equal to output size {sizes[0]}, and divisible by it, but "
                             f"got {x.shape[2]}.")
        out = x if is_torch(x) else K.as_tensor(x)
        for axis, (size, target, ratio) in enumerate(zip(x.shape[2:], sizes, ratios), start=2):
            if size != target or self.mode == "bicubic" or ratio is not None:
                out = _along(out, axis, axis_weights(self.mode, size, target,
                                                     bool(self.align_corners), ratio))
        return out
