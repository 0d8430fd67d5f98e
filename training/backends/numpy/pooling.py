"""Max and average pooling over any number of spatial axes (the last ones of (N, C, ...)), with
gradients: MaxPool1d/3d and AvgPool1d/3d on the numpy backend (training.backends.torch_pooling
has the torch side). MindSpore's pad modes: 'valid' (none), 'same'
(output = ceil(size / stride), the odd element of padding after), 'pad' (`padding` before and
after each axis); `ceil_mode` adds, after each axis, what a last window started inside the
input (or its leading padding) reaches past it."""
import itertools

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from training.backends.numpy.conv import window_sums
from training.tensor import Tensor


def pool_pads(pad_mode, padding, size, kernel, stride, dilation, ceil_mode=False):
    """[(before, after)] per spatial axis; `padding` one int per axis ('pad' mode)."""
    pads = []
    for n, k, s, d, p in zip(size, kernel, stride, dilation, padding):
        if pad_mode == "valid":
            before = after = 0
        elif pad_mode == "pad":
            before = after = p
        else:
            total = max((-(-n // s) - 1) * s + (k - 1) * d + 1 - n, 0)
            before, after = total // 2, total - total // 2
        if ceil_mode and pad_mode != "same":
            span = n + before + after - (k - 1) * d - 1
            out = -(-span // s) + 1
            if (out - 1) * s >= n + before:
                out -= 1
            after += max((out - 1) * s + (k - 1) * d + 1 - (n + before + after), 0)
        pads.append((before, after))
    return pads


def windows(xp, kernel, stride, dilation):
    """View (N, C, *out, *kernel) of the windows of a padded array."""
    axes = tuple(range(2, xp.ndim))
    spans = tuple((k - 1) * d + 1 for k, d in zip(kernel, dilation))
    win = sliding_window_view(xp, spans, axis=axes)
    return win[(slice(None), slice(None)) + tuple(slice(None, None, s) for s in stride)
               + tuple(slice(None, None, d) for d in dilation)]


def scatter(grad_windows, padded_shape, kernel, stride, dilation):
    """The adjoint of windows: (N, C, *out, *kernel) window gradients added into a padded
    array."""
    out = np.zeros(padded_shape, dtype=grad_windows.dtype)
    sizes = grad_windows.shape[2:2 + len(kernel)]
    for offset in itertools.product(*(range(k) for k in kernel)):
        target = tuple(slice(o * d, o * d + s * (n - 1) + 1, s) for o, d, s, n in
                       zip(offset, dilation, stride, sizes))
        out[(slice(None), slice(None)) + target] += grad_windows[(Ellipsis,) + offset]
    return out


def pad(xd, pads, value=0.0):
    if not any(before or after for before, after in pads):
        return xd
    return np.pad(xd, ((0, 0), (0, 0)) + tuple(pads), constant_values=value)


def crop(xp, pads):
    return xp[(slice(None), slice(None)) + tuple(slice(b, n - a) for (b, a), n in
                                                 zip(pads, xp.shape[2:]))]


def max_pool(x, kernel, stride, pad_mode, padding, dilation, ceil_mode=False,
             return_indices=False):
    """Max over each window of Tensor `x` (N, C, *spatial); with `return_indices` also each
    maximum's flat position in its input's spatial volume (int64)."""
    xd = x.data
    pads = pool_pads(pad_mode, padding, xd.shape[2:], kernel, stride, dilation, ceil_mode)
    xp = pad(xd, pads, -np.inf)
    win = windows(xp, kernel, stride, dilation)
    out_shape = win.shape[:-len(kernel)]
    flat = win.reshape(out_shape + (-1,))
    idx = flat.argmax(axis=-1)
    out = np.take_along_axis(flat, idx[..., None], axis=-1)[..., 0]

    def backward(grad):
        gw = np.zeros(out_shape + (flat.shape[-1],), dtype=xd.dtype)
        np.put_along_axis(gw, idx[..., None], grad[..., None], axis=-1)
        return (crop(scatter(gw.reshape(out_shape + tuple(kernel)), xp.shape, kernel, stride,
                               dilation), pads),)
    result = Tensor.from_op(out, (x,), backward)
    if not return_indices:
        return result
    offsets = np.unravel_index(idx, kernel)
    position = np.zeros(idx.shape, np.int64)
    for axis, (offset, (before, _), s, d, n) in enumerate(zip(offsets, pads, stride, dilation,
                                                             xd.shape[2:])):
        start = np.arange(out_shape[2 + axis]) * s - before
        start = start.reshape((-1,) + (1,) * (len(kernel) - axis - 1))
        position = position * n + start + offset * d
    return result, Tensor(position, dtype=np.int64)


def counts_padding(pad_mode, count_include_pad, ceil_mode, same_counts_padding):
    """Whether the padding under a window counts (MindSpore 2.10: with `count_include_pad`, the
    explicit padding of 'pad' mode; that of 'same' with `ceil_mode`, or always where
    `same_counts_padding`, AvgPool3d's)."""
    return count_include_pad and (pad_mode == "pad" or pad_mode == "same" and (
        ceil_mode or same_counts_padding))


def avg_pool(x, kernel, stride, pad_mode, padding, count_include_pad=True, ceil_mode=False,
             divisor_override=None, same_counts_padding=False):
    """Mean over each window: divided by `divisor_override` when given, else by the window's
    elements inside the input and the padding that counts (counts_padding); the elements
    `ceil_mode` adds never count."""
    xd = x.data
    size, ones_kernel = xd.shape[2:], (1,) * len(kernel)
    pads = pool_pads(pad_mode, padding, size, kernel, stride, ones_kernel, ceil_mode)
    xp = pad(xd, pads)
    win = windows(xp, kernel, stride, ones_kernel)
    window_axes = tuple(range(-len(kernel), 0))
    counted = [(0, 0)] * len(kernel)
    if counts_padding(pad_mode, count_include_pad, ceil_mode, same_counts_padding):
        counted = pool_pads(pad_mode, padding, size, kernel, stride, ones_kernel)
    if divisor_override:
        counts = np.asarray(divisor_override, dtype=xd.dtype)
    elif counted != pads:   # ones over the input and the padding that counts, zeros past it
        ones = np.ones((1, 1) + tuple(n + b + a for n, (b, a) in zip(size, counted)), xd.dtype)
        uncounted = [(b - cb, a - ca) for (b, a), (cb, ca) in zip(pads, counted)]
        counts = windows(pad(ones, uncounted), kernel, stride, ones_kernel).sum(
            axis=window_axes)
    else:
        counts = np.asarray(np.prod(kernel), dtype=xd.dtype)
    out = window_sums(win, window_axes) / counts

    def backward(grad):
        per = (grad / counts).reshape(grad.shape + ones_kernel)
        gw = np.broadcast_to(per, grad.shape + tuple(kernel))
        return (crop(scatter(gw, xp.shape, kernel, stride, ones_kernel), pads),)
    return Tensor.from_op(out.astype(xd.dtype, copy=False), (x,), backward)


def adaptive_bins(size, out):
    """[(start, stop)] of `out` bins over `size` elements: bin i spans
    [floor(i * size / out), ceil((i + 1) * size / out)) (MindSpore's and torch's)."""
    return [((i * size) // out, -(-((i + 1) * size) // out)) for i in range(out)]


def adaptive_pool(x, output_size, maximum):
    """Mean (or, with `maximum`, max and its flat position in the input's spatial volume) of
    each bin of Tensor `x` (N, C, *spatial); gives (output, positions or None)."""
    xd = x.data
    spatial = xd.shape[2:]
    bins = [adaptive_bins(n, o) for n, o in zip(spatial, output_size)]
    lead = xd.shape[:2]
    out = np.empty(lead + tuple(output_size), xd.dtype)
    positions = np.empty(out.shape, np.int64) if maximum else None
    flat_index = np.arange(int(np.prod(spatial))).reshape(spatial)
    cells = list(itertools.product(*(range(o) for o in output_size)))
    regions = [tuple(slice(*bins[axis][i]) for axis, i in enumerate(cell)) for cell in cells]
    for cell, region in zip(cells, regions):
        values = xd[(Ellipsis,) + region].reshape(lead + (-1,))
        if maximum:
            which = values.argmax(axis=-1)
            out[(Ellipsis,) + cell] = np.take_along_axis(values, which[..., None], -1)[..., 0]
            positions[(Ellipsis,) + cell] = flat_index[region].ravel()[which]
        else:
            out[(Ellipsis,) + cell] = values.mean(axis=-1)

    def backward(grad):
        dx = np.zeros_like(xd)
        if maximum:
            flat = dx.reshape(lead + (-1,))
            rows = np.indices(lead).reshape(2, -1)
            for cell in cells:
                np.add.at(flat, (rows[0], rows[1], positions[(Ellipsis,) + cell].ravel()),
                          grad[(Ellipsis,) + cell].ravel())
            return (dx,)
        for cell, region in zip(cells, regions):
            count = int(np.prod([s.stop - s.start for s in region]))
            dx[(Ellipsis,) + region] += (grad[(Ellipsis,) + cell] / count)[
                (Ellipsis,) + (None,) * len(spatial)]
        return (dx,)
    result = Tensor.from_op(out, (x,), backward)
    return result, (Tensor(positions, dtype=np.int64) if maximum else None)
