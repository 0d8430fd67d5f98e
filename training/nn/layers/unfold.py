"""Unfold (MindSpore 2.10's nn.Unfold, the ExtractImagePatches primitive): the patches of an
NCHW image as channels. MindSpore 2.10's CPU has no ExtractImagePatches kernel (RuntimeError,
measured), so this follows its documentation and TensorFlow's extract_image_patches, whose
NCHW form it is: output channel (row * ksize_col + col) * C + c holds input channel c at patch
offset (row, col) (dilated by rates); 'valid' keeps the patches inside the image, 'same' pads
with zeros so that there are ceil(size / stride) of them, the odd row or column of padding at
the bottom or right."""
import numpy as np

from training.nn.cell import Cell
from training.ops import functional as F


def _check_format(name, value):
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"For 'Unfold', the type of '{name}s' should be one of '['tuple', "
                        f"'list']', but got type '{type(value).__name__}'.")
    if len(value) != 4 or value[0] != 1 or value[3] != 1:
        raise ValueError(f"For 'Unfold' the format of '{name}s' must be [1, {name}_row, "
                         f"{name}_col, 1], but got {value}.")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value[1:3]) or \
            value[1] < 1 or value[2] < 1:
        raise ValueError(f"For 'Unfold' the {name}_row and {name}_col in '{name}s' must be an "
                         f"positive integer number, but got {name}_row is {value[1]}, "
                         f"{name}_col is {value[2]}")
    return int(value[1]), int(value[2])


class Unfold(Cell):
    def __init__(self, ksizes, strides, rates, padding="valid"):
        super().__init__()
        self.ksizes = _check_format("ksize", ksizes)
        self.strides = _check_format("stride", strides)
        self.rates = _check_format("rate", rates)
        if not isinstance(padding, str) or padding.lower() not in ("same", "valid"):
            raise ValueError(f"For 'ExtractImagePatches', the 'padding' must be str and must be "
                             f"in '['SAME', 'VALID']', but got {padding!r}.")
        self.padding = padding.lower()

    def construct(self, input_x):
        if input_x.ndim != 4:
            raise ValueError(f"For 'ExtractImagePatches', the dimension of 'input_x' must be "
                             f"equal to 4, but got {input_x.ndim}.")
        n, c, h, w = input_x.shape
        spans = [(k - 1) * r + 1 for k, r in zip(self.ksizes, self.rates)]
        if self.padding == "valid":
            counts = [(size - span) // s + 1 for size, span, s in zip((h, w), spans,
                                                                      self.strides)]
            pads = [(0, 0), (0, 0)]
        else:
            counts = [-(-size // s) for size, s in zip((h, w), self.strides)]
            pads = []
            for size, span, s, count in zip((h, w), spans, self.strides, counts):
                total = max((count - 1) * s + span - size, 0)
                pads.append((total // 2, total - total // 2))
        if min(counts) <= 0:
            raise ValueError(f"For 'ExtractImagePatches', the patches ({spans[0]}, {spans[1]}) "
                             f"do not fit the input of shape {tuple(input_x.shape)}")
        if any(sum(p) for p in pads):
            input_x = F.pad(input_x, pads[1] + pads[0])     # (torch's order: last axis first)
        patches = []
        for row in range(self.ksizes[0]):
            for col in range(self.ksizes[1]):
                top, left = row * self.rates[0], col * self.rates[1]
                patches.append(input_x[:, :, top:top + (counts[0] - 1) * self.strides[0] + 1:
                                       self.strides[0],
                                       left:left + (counts[1] - 1) * self.strides[1] + 1:
                                       self.strides[1]])
        return F.concat(patches, 1) if len(patches) > 1 else patches[0]

    def extend_repr(self):
        return f"ksizes={self.ksizes}, strides={self.strides}, rates={self.rates}, " \
               f"padding={self.padding}"
