"""3-D convolution (NCDHW) on the numpy backend, with gradients: the windows of the padded
input (training.backends.numpy.pooling.windows) contracted with the weight per group."""
import numpy as np

from training.backends.numpy.conv import refuse_mixed_types
from training.backends.numpy.pooling import crop, pad, scatter, windows
from training.tensor import Tensor, needs_grad


def conv_nd(x, weight, bias, stride, pads, dilation, group):
    """Convolution of Tensor `x` (N, C, *spatial) with `weight` (O, C / group, *kernel);
    `pads` [(before, after)] per spatial axis."""
    refuse_mixed_types(x, weight, "Conv3D")
    xd, wd = x.data, weight.data
    kernel = wd.shape[2:]
    xp = pad(xd, pads)
    win = windows(xp, kernel, stride, dilation)     # (N, C, *out, *kernel)
    n, c = xd.shape[:2]
    o, cg = wd.shape[:2]
    out_shape = win.shape[2:2 + len(kernel)]
    grouped_win = win.reshape((n, group, cg) + win.shape[2:])
    grouped_w = wd.reshape((group, o // group, cg) + tuple(kernel))
    # letters: n batch, g group, c channel in, o channel out, then spatial and kernel axes
    spatial, taps = "defhij"[:len(kernel)], "klmpqr"[:len(kernel)]
    rule = f"ngc{spatial}{taps},goc{taps}->ngo{spatial}"
    out = np.einsum(rule, grouped_win, grouped_w, optimize=True).reshape((n, o) + out_shape)
    if bias is not None:
        out = out + bias.data.reshape((1, o) + (1,) * len(kernel))
    x_needs_grad = needs_grad(x)

    def backward(grad):
        grouped_grad = grad.reshape((n, group, o // group) + out_shape)
        dw = np.einsum(f"ngc{spatial}{taps},ngo{spatial}->goc{taps}", grouped_win,
                       grouped_grad, optimize=True).reshape(wd.shape)
        dx = None
        if x_needs_grad:
            dwin = np.einsum(f"ngo{spatial},goc{taps}->ngc{spatial}{taps}", grouped_grad,
                             grouped_w, optimize=True).reshape(win.shape)
            dx = crop(scatter(dwin, xp.shape, kernel, stride, dilation), pads).astype(
                xd.dtype, copy=False)
        db = grad.sum(axis=(0,) + tuple(range(2, grad.ndim))) if bias is not None else None
        return dx, dw.astype(wd.dtype, copy=False), db
    return Tensor.from_op(np.ascontiguousarray(out, dtype=xd.dtype), (x, weight, bias),
                          backward)


def torch_conv_nd(x, weight, bias, stride, pads, dilation, group):
    import torch.nn.functional as F

    from training.backends.torch_cells import param
    flat = [value for pair in reversed(pads) for value in pair]
    if any(flat):
        x = F.pad(x, flat)
    conv = getattr(F, f"conv{len(pads)}d")
    return conv(x, param(weight), None if bias is None else param(bias), stride, 0, dilation,
                group)


def conv_transpose_nd(x, weight, bias, stride, pads, dilation, extra, group):
    """Transposed convolution (the adjoint of conv_nd) of Tensor `x` (N, Cin, *spatial) with
    `weight` (Cin, Cout / group, *kernel): each input element scatters weight * value into its
    output window; the full result, grown by `extra` elements at the end of each axis, loses
    `pads` [(before, after)] per axis."""
    refuse_mixed_types(x, weight, "Conv3DTranspose")
    xd, wd = x.data, weight.data
    n, cin = xd.shape[:2]
    kernel, sizes = wd.shape[2:], xd.shape[2:]
    per_group = wd.shape[1]
    cout = per_group * group
    full = (n, cout) + tuple((i - 1) * s + (k - 1) * d + 1 + e for i, k, s, d, e in
                             zip(sizes, kernel, stride, dilation, extra))
    grouped_x = xd.reshape((n, group, cin // group) + sizes)
    grouped_w = wd.reshape((group, cin // group, per_group) + tuple(kernel))
    spatial, taps = "defhij"[:len(kernel)], "klmpqr"[:len(kernel)]
    cols = np.einsum(f"ngc{spatial},gco{taps}->ngo{spatial}{taps}", grouped_x, grouped_w,
                     optimize=True).reshape((n, cout) + sizes + tuple(kernel))
    out = crop(scatter(cols, full, kernel, stride, dilation), pads)
    if bias is not None:
        out = out + bias.data.reshape((1, cout) + (1,) * len(kernel))

    def backward(grad):
        padded = np.zeros(full, dtype=grad.dtype)
        padded[(slice(None), slice(None)) + tuple(slice(b, f - a) for (b, a), f in
                                                  zip(pads, full[2:]))] = grad
        win = windows(padded, kernel, stride, dilation)
        win = win[(slice(None), slice(None)) + tuple(slice(0, i) for i in sizes)].reshape(
            (n, group, per_group) + sizes + tuple(kernel))
        dx = np.einsum(f"ngo{spatial}{taps},gco{taps}->ngc{spatial}", win, grouped_w,
                       optimize=True).reshape(xd.shape)
        dw = np.einsum(f"ngc{spatial},ngo{spatial}{taps}->gco{taps}", grouped_x, win,
                       optimize=True).reshape(wd.shape)
        db = grad.sum(axis=(0,) + tuple(range(2, grad.ndim))) if bias is not None else None
        return dx.astype(xd.dtype, copy=False), dw.astype(wd.dtype, copy=False), db
    return Tensor.from_op(np.ascontiguousarray(out, dtype=xd.dtype), (x, weight, bias),
                          backward)


def torch_conv_transpose_nd(x, weight, bias, stride, pads, dilation, extra, group):
    """conv_transpose_nd on torch tensors: torch's transposed convolution without padding,
    grown by `extra` zeros, then cropped by `pads`."""
    import torch.nn.functional as F

    from training.backends.torch_cells import param
    conv = getattr(F, f"conv_transpose{len(pads)}d")
    out = conv(x, param(weight), None, stride, 0, 0, group, dilation)
    grow = [value for e in reversed(extra) for value in (0, e)]
    if any(grow):
        out = F.pad(out, grow)
    out = out[(slice(None), slice(None)) + tuple(slice(b, out.shape[2 + i] - a) for i, (b, a)
                                                 in enumerate(pads))]
    if bias is not None:
        out = out + param(bias).reshape((1, -1) + (1,) * len(pads))
    return out
