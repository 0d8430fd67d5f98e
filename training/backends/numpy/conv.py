"""2-D convolution and pooling on NCHW arrays (im2col + one BLAS matmul), with gradients.

Padding follows MindSpore's pad modes: 'valid' (none), 'same' (output = ceil(in / stride), extra
padding at the bottom/right), 'pad' (explicit (top, bottom, left, right))."""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from training.tensor import Tensor, needs_grad


def _pair(value, name):
    if isinstance(value, int):
        return value, value
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return tuple(value)
    raise TypeError(f"'{name}' must be an int or a tuple of two ints, but got {value!r}")


def pads_for(pad_mode, padding, size, kernel, stride, dilation):
    """(top, bottom, left, right) padding for an input of spatial `size` (H, W)."""
    if pad_mode == "valid":
        return 0, 0, 0, 0
    if pad_mode == "pad":
        if isinstance(padding, int):
            return padding, padding, padding, padding
        return tuple(padding) if len(padding) == 4 else (padding[0], padding[0], padding[1], padding[1])
    pads = []
    for n, k, s, d in zip(size, kernel, stride, dilation):
        out = -(-n // s)
        total = max((out - 1) * s + (k - 1) * d + 1 - n, 0)
        pads += [total // 2, total - total // 2]
    return tuple(pads)


def _windows(xp, kernel, stride, dilation):
    """View (N, C, OH, OW, kh, kw) of the windows of a padded NCHW array."""
    kh, kw = kernel
    dh, dw = dilation
    win = sliding_window_view(xp, ((kh - 1) * dh + 1, (kw - 1) * dw + 1), axis=(2, 3))
    return win[:, :, ::stride[0], ::stride[1], ::dh, ::dw]


def _scatter_windows(grad_windows, padded_shape, kernel, stride, dilation):
    """Adjoint of _windows: add (N, C, OH, OW, kh, kw) window gradients into a padded array."""
    out = np.zeros(padded_shape, dtype=grad_windows.dtype)
    oh, ow = grad_windows.shape[2:4]
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            r0, c0 = i * dilation[0], j * dilation[1]
            out[:, :, r0:r0 + stride[0] * (oh - 1) + 1:stride[0],
                c0:c0 + stride[1] * (ow - 1) + 1:stride[1]] += grad_windows[:, :, :, :, i, j]
    return out


def _pad(x, pads, value=0.0):
    top, bottom, left, right = pads
    if not any(pads):
        return x
    return np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)), constant_values=value)


def _crop(xp, pads):
    top, bottom, left, right = pads
    h, w = xp.shape[2:]
    return xp[:, :, top:h - bottom, left:w - right]


def refuse_mixed_types(x, weight, primitive):
    """MindSpore 2.10's TypeError for a float16 input against float32 weights or the reverse
    (measured on Conv1d/2d/3d and Conv1d/2d/3dTranspose; computing on in float32 would hide
    that the network is not float16)."""
    from training.backends.numpy.functional import refuse_mixed_float16
    refuse_mixed_float16(x, weight, primitive, f"For primitive[{primitive}], the input type "
                                               f"must be same.")


def conv2d(x, weight, bias, stride, pad_mode, padding, dilation, group):
    """Convolution of Tensor `x` (N, C, H, W) with `weight` (O, C/group, kh, kw)."""
    refuse_mixed_types(x, weight, "Conv2D")
    xd, wd = x.data, weight.data
    n, c = xd.shape[:2]
    o, cg, kh, kw = wd.shape
    pads = pads_for(pad_mode, padding, xd.shape[2:], (kh, kw), stride, dilation)
    xp = _pad(xd, pads)
    win = _windows(xp, (kh, kw), stride, dilation)
    oh, ow = win.shape[2:4]
    og = o // group
    cols_by_group, outs = [], []
    for g in range(group):
        # im2col: one (N*OH*OW, C/group*kh*kw) matrix, then a single matmul per group.
        cols = win[:, g * cg:(g + 1) * cg].transpose(0, 2, 3, 1, 4, 5).reshape(n * oh * ow, -1)
        wmat = wd[g * og:(g + 1) * og].reshape(og, -1)
        cols_by_group.append(cols)
        outs.append(cols @ wmat.T)
    out = np.concatenate(outs, axis=1) if group > 1 else outs[0]
    if bias is not None:
        out = out + bias.data
    result = out.reshape(n, oh, ow, o).transpose(0, 3, 1, 2)
    x_needs_grad = needs_grad(x)

    def backward(grad):
        g2 = grad.transpose(0, 2, 3, 1).reshape(-1, o)
        dw = np.empty_like(wd)
        # The network's input needs no gradient: skip the (large) input-gradient pass.
        dwin = np.empty((n, oh, ow, c, kh, kw), dtype=xd.dtype) if x_needs_grad else None
        for g in range(group):
            gg = g2[:, g * og:(g + 1) * og]
            dw[g * og:(g + 1) * og] = (gg.T @ cols_by_group[g]).reshape(og, cg, kh, kw)
            if dwin is not None:
                dwin[:, :, :, g * cg:(g + 1) * cg] = (gg @ wd[g * og:(g + 1) * og].reshape(og, -1)
                                                      ).reshape(n, oh, ow, cg, kh, kw)
        dx = _crop(_scatter_windows(dwin.transpose(0, 3, 1, 2, 4, 5), xp.shape, (kh, kw), stride,
                                    dilation), pads) if dwin is not None else None
        db = g2.sum(axis=0) if bias is not None else None
        return dx, dw, db
    return Tensor.from_op(np.ascontiguousarray(result), (x, weight, bias), backward)


def pool_pads(pad_mode, padding, size, kernel, stride, dilation, ceil_mode):
    """(top, bottom, left, right) padding of a pooling window: the pad mode's, plus, with
    `ceil_mode`, the rows/columns at the bottom/right that a last window started inside the
    input (or its top/left padding) reaches past it (torch's and MindSpore's rule)."""
    pads = list(pads_for(pad_mode, padding, size, kernel, stride, dilation))
    if ceil_mode and pad_mode != "same":
        for axis, (n, k, s, d) in enumerate(zip(size, kernel, stride, dilation)):
            before, after = pads[2 * axis], pads[2 * axis + 1]
            span = n + before + after - (k - 1) * d - 1
            out = -(-span // s) + 1
            if (out - 1) * s >= n + before:
                out -= 1
            pads[2 * axis + 1] += max((out - 1) * s + (k - 1) * d + 1 - (n + before + after), 0)
    return tuple(pads)


def max_pool2d(x, kernel, stride, pad_mode, padding, dilation=(1, 1), ceil_mode=False,
               return_indices=False):
    """Max over each window; with `return_indices` also each maximum's position as a flat
    index into its input plane (H * W), int64, as torch and MindSpore give it."""
    xd = x.data
    pads = pool_pads(pad_mode, padding, xd.shape[2:], kernel, stride, dilation, ceil_mode)
    xp = _pad(xd, pads, value=-np.inf)
    n, c = xd.shape[:2]
    if not any(pads) and kernel == stride and dilation == (1, 1) and not return_indices \
            and xd.shape[2] % kernel[0] == 0 and xd.shape[3] % kernel[1] == 0:
        # Non-overlapping windows that tile the input: one gather into (..., kh*kw) windows,
        # argmax once; the backward pass scatters through a one-hot of that argmax (ties go to
        # the first maximum, as an argmax does).
        oh, ow = xd.shape[2] // kernel[0], xd.shape[3] // kernel[1]
        kk = kernel[0] * kernel[1]
        win = xd.reshape(n, c, oh, kernel[0], ow, kernel[1]).transpose(0, 1, 2, 4, 3, 5) \
            .reshape(n, c, oh, ow, kk)
        idx = win.argmax(axis=-1)
        out = np.take_along_axis(win, idx[..., None], axis=-1)[..., 0]

        def backward_tiled(grad):
            onehot = (idx[..., None] == np.arange(kk)) * grad[..., None]
            dx = onehot.reshape(n, c, oh, ow, kernel[0], kernel[1]).transpose(0, 1, 2, 4, 3, 5)
            return (dx.reshape(xd.shape).astype(xd.dtype, copy=False),)
        return Tensor.from_op(out, (x,), backward_tiled)
    win = _windows(xp, kernel, stride, dilation)
    oh, ow = win.shape[2:4]
    flat = win.reshape(n, c, oh, ow, -1)
    idx = flat.argmax(axis=-1)
    out = np.take_along_axis(flat, idx[..., None], axis=-1)[..., 0]

    def backward(grad):
        gw = np.zeros((n, c, oh, ow, kernel[0] * kernel[1]), dtype=xd.dtype)
        np.put_along_axis(gw, idx[..., None], grad[..., None], axis=-1)
        dxp = _scatter_windows(gw.reshape(n, c, oh, ow, *kernel), xp.shape, kernel, stride,
                               dilation)
        return (_crop(dxp, pads),)
    result = Tensor.from_op(out, (x,), backward)
    if not return_indices:
        return result
    rows = (np.arange(oh) * stride[0] - pads[0])[:, None] + (idx // kernel[1]) * dilation[0]
    cols = (np.arange(ow) * stride[1] - pads[2])[None, :] + (idx % kernel[1]) * dilation[1]
    return result, Tensor(rows * xd.shape[3] + cols, dtype=np.int64)


def window_sums(win, axes):
    """Sums of pooling windows over `axes`; float16 in float32, as MindSpore's AvgPool (in
    float16 the windows of 40000 + 40000 overflowed)."""
    return win.sum(axis=axes, dtype=np.float32 if win.dtype == np.float16 else None)


def avg_pool2d(x, kernel, stride, pad_mode, padding, count_include_pad=True, ceil_mode=False,
               divisor_override=None):
    """Mean over each window: divided by `divisor_override` when given, else by the window's
    elements inside the input and its padding (`count_include_pad`: the explicit padding in
    'pad' mode, the padding of 'same' with `ceil_mode` too, as MindSpore 2.10 counts them) or
    inside the input only; rows/columns `ceil_mode` adds are never counted."""
    xd = x.data
    pads = pool_pads(pad_mode, padding, xd.shape[2:], kernel, stride, (1, 1), ceil_mode)
    xp = _pad(xd, pads)
    win = _windows(xp, kernel, stride, (1, 1))
    oh, ow = win.shape[2:4]
    counted = (0, 0, 0, 0)      # the padding under a window that counts
    if count_include_pad and (pad_mode == "pad" or (pad_mode == "same" and ceil_mode)):
        counted = pads_for(pad_mode, padding, xd.shape[2:], kernel, stride, (1, 1))
    if divisor_override:
        counts = np.asarray(divisor_override, dtype=xd.dtype)
    elif counted != pads:   # ones over the input and the padding that counts, zeros past it
        top, bottom, left, right = counted
        ones = np.ones((1, 1, xd.shape[2] + top + bottom, xd.shape[3] + left + right), xd.dtype)
        uncounted = tuple(p - q for p, q in zip(pads, counted))
        counts = _windows(_pad(ones, uncounted), kernel, stride, (1, 1)).sum(axis=(-1, -2))
    else:
        counts = np.asarray(kernel[0] * kernel[1], dtype=xd.dtype)
    out = window_sums(win, (-1, -2)) / counts

    def backward(grad):
        per = (grad / counts)[..., None, None]
        gw = np.broadcast_to(per, grad.shape + tuple(kernel))
        return (_crop(_scatter_windows(gw, xp.shape, kernel, stride, (1, 1)), pads),)
    return Tensor.from_op(out.astype(xd.dtype, copy=False), (x,), backward)


def conv_transpose2d(x, weight, bias, stride, pads, dilation, output_padding, group=1):
    """Transposed convolution (the adjoint of conv2d) of `x` (N, Cin, H, W) with `weight`
    (Cin, Cout / group, kh, kw): every input pixel scatters weight * value into its output
    window (input channels of group g into output channels of group g); `pads` (top, bottom,
    left, right) are then cropped from the full result, and `output_padding` rows/columns are
    added at the bottom/right."""
    refuse_mixed_types(x, weight, "Conv2DTranspose")
    xd, wd = x.data, weight.data
    n, cin, h, w = xd.shape
    _, cout_per_group, kh, kw = wd.shape
    cout = cout_per_group * group
    full = (n, cout, (h - 1) * stride[0] + (kh - 1) * dilation[0] + 1 + output_padding[0],
            (w - 1) * stride[1] + (kw - 1) * dilation[1] + 1 + output_padding[1])
    grouped_x = xd.reshape(n, group, cin // group, h, w)
    grouped_w = wd.reshape(group, cin // group, cout_per_group, kh, kw)
    cols = np.einsum("ngchw,gcokl->ngohwkl", grouped_x, grouped_w, optimize=True).reshape(
        n, cout, h, w, kh, kw)
    out = _crop(_scatter_windows(cols, full, (kh, kw), stride, dilation), pads)
    if bias is not None:
        out = out + bias.data.reshape(1, -1, 1, 1)

    def backward(grad):
        top, bottom, left, right = pads
        padded = np.zeros(full, dtype=grad.dtype)
        padded[:, :, top:full[2] - bottom, left:full[3] - right] = grad
        win = _windows(padded, (kh, kw), stride, dilation)[:, :, :h, :w].reshape(
            n, group, cout_per_group, h, w, kh, kw)
        dx = np.einsum("ngohwkl,gcokl->ngchw", win, grouped_w, optimize=True).reshape(xd.shape)
        dw = np.einsum("ngchw,ngohwkl->gcokl", grouped_x, win, optimize=True).reshape(wd.shape)
        db = grad.sum(axis=(0, 2, 3)) if bias is not None else None
        return dx.astype(xd.dtype, copy=False), dw.astype(wd.dtype, copy=False), db
    return Tensor.from_op(np.ascontiguousarray(out, dtype=xd.dtype), (x, weight, bias), backward)
