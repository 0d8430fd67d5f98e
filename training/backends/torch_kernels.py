"""Torch kernels of the `training.nn` layers: the same arithmetic as the numpy kernels
(training.backends.numpy), on torch tensors, with the layers' Parameters bound to torch
(training.backends.torch_cells). Gradients come from torch's autograd.

Padding follows MindSpore's pad modes as the numpy kernels compute them (`pads_for`): where the
padding is symmetric it goes to torch's kernel, otherwise (pad_mode 'same' with an even
overhang) the input is padded first, with the extra row/column at the bottom/right."""
import contextlib

import torch
import torch.nn.functional as F

from training.backends.numpy.conv import pads_for
from training.backends.torch_cells import param


@contextlib.contextmanager
def out_of_range_as_value_error(message):
    """torch's IndexError for an index out of range (raised on the CPU; checking the values
    before the kernel would wait for the device) as the numpy backend's ValueError."""
    try:
        yield
    except IndexError as error:
        raise ValueError(f"{message} ({error})") from error


def _split_pads(pads):
    """(padding for torch's kernel, explicit (left, right, top, bottom) pad or None)."""
    top, bottom, left, right = pads
    if top == bottom and left == right:
        return (top, left), None
    return (0, 0), (left, right, top, bottom)


def conv2d(x, weight, bias, stride, pad_mode, padding, dilation, group):
    w = param(weight)
    pads = pads_for(pad_mode, padding, tuple(x.shape[2:]), tuple(w.shape[2:]), stride, dilation)
    inner, outer = _split_pads(pads)
    if outer is not None:
        x = F.pad(x, outer)
    return F.conv2d(x, w, param(bias), stride, inner, dilation, group)


def conv_transpose2d(x, weight, bias, stride, pads, dilation, output_padding, group=1):
    """The adjoint of conv2d, then `pads` (top, bottom, left, right) cropped and
    `output_padding` rows/columns added at the bottom/right (as the numpy kernel)."""
    out = F.conv_transpose2d(x, param(weight), param(bias), stride, 0, output_padding, group,
                             dilation)
    top, bottom, left, right = pads
    return out[:, :, top:out.shape[2] - bottom, left:out.shape[3] - right]


def _symmetric(pad_mode, padding):
    """A pooling layer's (H, W) padding ('pad' mode's pair) as torch's pooling takes it."""
    return tuple(padding) if pad_mode == "pad" else (0, 0)


def max_pool2d(x, kernel, stride, pad_mode, padding, dilation=(1, 1), ceil_mode=False,
               return_indices=False):
    if pad_mode != "same":  # 'pad' and 'valid' are torch's own rule (symmetric padding)
        return F.max_pool2d(x, kernel, stride, _symmetric(pad_mode, padding), dilation,
                            ceil_mode, return_indices)
    top, bottom, left, right = pads_for(pad_mode, padding, tuple(x.shape[2:]), kernel, stride,
                                        (1, 1))
    if any((top, bottom, left, right)):
        x = F.pad(x, (left, right, top, bottom), value=float("-inf"))
    return F.max_pool2d(x, kernel, stride)


def avg_pool2d(x, kernel, stride, pad_mode, padding, count_include_pad=True, ceil_mode=False,
               divisor_override=None):
    if pad_mode != "same":  # 'pad' and 'valid' are torch's own rule (symmetric padding)
        return F.avg_pool2d(x, kernel, stride, _symmetric(pad_mode, padding), ceil_mode,
                            count_include_pad, divisor_override)
    pads = pads_for(pad_mode, padding, tuple(x.shape[2:]), kernel, stride, (1, 1))
    top, bottom, left, right = pads
    out = F.avg_pool2d(F.pad(x, (left, right, top, bottom)), kernel, stride,
                       divisor_override=divisor_override)
    if divisor_override or not any(pads) or (ceil_mode and count_include_pad):
        return out
    # divide by the number of real (unpadded) elements under each window
    ones = torch.ones((1, 1) + tuple(x.shape[2:]), dtype=x.dtype, device=x.device)
    return out / F.avg_pool2d(F.pad(ones, (left, right, top, bottom)), kernel, stride)


def dense(x, weight, bias):
    return F.linear(x, param(weight), param(bias))


def batch_norm(x, gamma, beta, moving_mean, moving_var, eps, momentum, training):
    """MindSpore's momentum weighs the old moving value; torch's weighs the batch statistic.
    Both update the moving variance with the unbiased batch variance."""
    return F.batch_norm(x, param(moving_mean), param(moving_var), param(gamma), param(beta),
                        training, 1.0 - momentum, eps)


def layer_norm(x, gamma, beta, first, eps):
    """Normalized over the axes from `first` on; gamma and beta broadcast from the right."""
    var, mean = torch.var_mean(x, tuple(range(first, x.ndim)), correction=0, keepdim=True)
    return (x - mean) * torch.rsqrt(var + eps) * param(gamma) + param(beta)


def group_norm(x, groups, gamma, beta, eps):
    return F.group_norm(x, groups, param(gamma), param(beta), eps)


def dropout(x, keep_prob):
    return F.dropout(x, 1.0 - keep_prob, True)


def softmax_cross_entropy(logits, labels, sparse, reduction):
    if sparse:
        if labels.ndim != 1 or labels.shape[0] != logits.shape[0]:
            raise ValueError(f"For 'SoftmaxCrossEntropyWithLogits', labels must be "
                             f"{logits.shape[0]} class indices, but got shape "
                             f"{tuple(labels.shape)}")
        with out_of_range_as_value_error(f"For 'SoftmaxCrossEntropyWithLogits', class indices "
                                         f"must be in [0, {logits.shape[-1]})"):
            return F.cross_entropy(logits, labels.long(), reduction=reduction)
    if labels.shape != logits.shape:
        raise ValueError(f"For 'SoftmaxCrossEntropyWithLogits', dense labels must have the "
                         f"logits' shape {tuple(logits.shape)}, but got {tuple(labels.shape)}")
    per_sample = -(labels.to(logits.dtype) * F.log_softmax(logits, -1)).sum(-1)
    if reduction == "mean":
        return per_sample.mean()
    return per_sample.sum() if reduction == "sum" else per_sample


def cross_entropy(logits, labels, weight, ignore_index, reduction, label_smoothing):
    """torch's cross_entropy has MindSpore 2.x's CrossEntropyLoss semantics (class indices or
    probabilities, weights, ignore_index, label smoothing, the weighted mean)."""
    labels = as_torch(labels, logits)
    if labels.shape != logits.shape:
        labels = labels.long()
    else:   # probabilities: ignore_index does not apply (MindSpore 2.10; torch would refuse it)
        labels, ignore_index = labels.to(logits.dtype), -100
    weight = None if weight is None else torch.as_tensor(weight, dtype=logits.dtype,
                                                         device=logits.device)
    with out_of_range_as_value_error(f"For 'CrossEntropyLoss', class indices must be in "
                                     f"[0, {logits.shape[-1]}) or ignore_index"):
        return F.cross_entropy(logits, labels, weight, ignore_index=ignore_index,
                               reduction=reduction, label_smoothing=label_smoothing)


def as_torch(value, like):
    """`value` (a torch tensor, array or number) as a torch tensor on `like`'s device."""
    if isinstance(value, torch.Tensor):
        return value
    data = getattr(value, "data", value)
    return torch.as_tensor(data, device=like.device)
