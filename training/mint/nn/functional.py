"""`mindspore.mint.nn.functional`: torch-style functional layers (activations, linear and
convolution, normalizations, pooling, losses, padding and resizing), computed by training.ops
and the training.nn cells' kernels on both backends."""
import numpy as np

from training import nn as _nn
from training.backends.dispatch import is_torch, torch_kernels
from training.backends.numpy import conv as _numpy_conv
from training.backends.numpy import functional as _numpy_functional
from training.mint._core import (HALF_SINGLE, SIGNED, cast, dtype_of, float_only, new_tensor,
                                 one_dim, public_names, shape_of, supported, type_name)
from training.mint.array_ops import flatten  # noqa: F401
from training.mint.math import sigmoid, tanh  # noqa: F401
from training.mint.reductions import norm as _norm
from training.ops import functional as ops
from training.tensor import Tensor as _Tensor

silu = ops.silu
softplus = ops.softplus
softshrink = ops.softshrink
hardshrink = ops.hardshrink
relu6 = ops.relu6
mse_loss = ops.mse_loss
l1_loss = ops.l1_loss
soft_margin_loss = ops.soft_margin_loss
cosine_embedding_loss = ops.cosine_embedding_loss
cross_entropy = ops.cross_entropy


def _in_integers(function, input):  # noqa: A002
    """function(input); a torch integer tensor computed in float64 and truncated back to its
    type, as MindSpore 2.10's integer kernels (measured: hardswish of int32 2 is 1), where
    training.ops' torch path gives float32 or torch refuses integers."""
    if is_torch(input) and dtype_of(input).kind in "iu":
        return function(input.double()).to(input.dtype)
    return function(input)


def relu(input):  # noqa: A002
    if is_torch(input) and dtype_of(input) == np.bool_:    # (torch has no bool relu)
        return input.clone()
    return ops.relu(input)


def hardsigmoid(input):  # noqa: A002
    return _in_integers(ops.hardsigmoid, supported(input, "HSigmoid", SIGNED))


def hardswish(input):  # noqa: A002
    return _in_integers(ops.hardswish, supported(input, "HSwish", SIGNED))


def binary_cross_entropy(input, target, weight=None, reduction="mean"):  # noqa: A002
    supported(input, "BinaryCrossEntropy", HALF_SINGLE)
    if dtype_of(target) != dtype_of(input):
        raise TypeError(f"For primitive[BinaryCrossEntropy], the input and target should have "
                        f"same type, but got: {type_name(dtype_of(input))} and "
                        f"{type_name(dtype_of(target))}.")
    return ops.binary_cross_entropy(input, target, weight, reduction)


def gelu(input, approximate="none"):  # noqa: A002
    if approximate not in ("none", "tanh"):
        raise ValueError(f"For 'gelu', 'approximate' must be 'none' or 'tanh', but got "
                         f"{approximate!r}")
    return ops.gelu(input, approximate)


def elu(input, alpha=1.0, inplace=False):  # noqa: A002
    """x where x > 0, else alpha * (exp(x) - 1), any alpha (torch's; ops.elu takes 1.0 only,
    as MindSpore's ops)."""
    if alpha == 1.0:
        return ops.elu(input, alpha)
    float_only(input, "EluExt")
    return ops.where(ops.greater(input, 0), input,
                     ops.mul(ops.expm1(ops.minimum(input, 0)), float(alpha)))


def leaky_relu(input, negative_slope=0.01):  # noqa: A002
    return ops.leaky_relu(float_only(input, "LeakyReLUExt"), negative_slope)


def selu(input):  # noqa: A002
    return ops.selu(supported(input, "SeLUExt", HALF_SINGLE))


def mish(input):  # noqa: A002
    return ops.mish(supported(input, "MishExt", HALF_SINGLE))


def logsigmoid(input):  # noqa: A002
    return ops.logsigmoid(supported(input, "LogSigmoid", HALF_SINGLE))


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):  # noqa: A002
    return ops.hardtanh(input, min_val, max_val)


def threshold(input, threshold, value, inplace=False):  # noqa: A002
    return ops.threshold(input, threshold, value)


def glu(input, dim=-1):  # noqa: A002
    if not -len(shape_of(input)) <= dim < len(shape_of(input)):    # (MindSpore 2.10's type)
        raise IndexError(f"For GLU, dimension should be in range of [{-len(shape_of(input))}, "
                         f"{len(shape_of(input)) - 1}], but got {dim}.")
    return ops.glu(input, dim)


def prelu(input, weight):  # noqa: A002
    supported(input, "PReLU", HALF_SINGLE)
    supported(weight, "PReLU", HALF_SINGLE, "weight")
    weight = cast(weight, dtype_of(input))
    shape = [1] * len(shape_of(input))
    if len(shape) > 1:
        shape[1] = -1
    slope = ops.reshape(weight, tuple(shape)) if shape_of(weight)[0] > 1 else weight
    return ops.where(ops.greater(input, 0), input, ops.mul(input, slope))


def softmax(input, dim=None, dtype=None):  # noqa: A002
    x = float_only(input if dtype is None else cast(input, dtype), "Softmax")
    return ops.softmax(x, -1 if dim is None else one_dim(dim, len(shape_of(x)), "softmax"))


def log_softmax(input, dim=None, *, dtype=None):  # noqa: A002
    x = float_only(input if dtype is None else cast(input, dtype), "LogSoftmax")
    return ops.log_softmax(x, -1 if dim is None else one_dim(dim, len(shape_of(x)),
                                                              "log_softmax"))


def dropout(input, p=0.5, training=True, inplace=False):  # noqa: A002
    if not 0 <= p <= 1:
        raise ValueError(f"For 'dropout', 'p' must be in [0, 1], but got {p}")
    if not training or p == 0:
        return input
    if p == 1:
        return ops.mul(input, 0)
    if is_torch(input):
        return torch_kernels().dropout(input, 1.0 - p)
    from training.common.seed import rng
    return _numpy_functional.dropout(input, 1.0 - p, rng())


def dropout2d(input, p=0.5, training=True, inplace=False):  # noqa: A002
    """Whole channels zeroed; outside training the input, whatever its rank (mint's)."""
    if not training:
        return input
    layer = _nn.Dropout2d(p)
    layer.set_train(training)
    return layer(input)


def linear(input, weight, bias=None):  # noqa: A002
    out = ops.matmul(input, ops.transpose(weight, (1, 0)))
    return out if bias is None else ops.add(out, bias)


def _pair(value, n=2):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    """padding a number, a pair, 'valid' or 'same' (torch's)."""
    stride, dilation = _pair(stride), _pair(dilation)
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(f"For 'conv2d', 'padding' must be 'same', 'valid' or numbers, but "
                             f"got {padding!r}")
        mode, pads = padding, 0
    else:
        top, left = _pair(padding)
        mode, pads = "pad", (top, top, left, left)
    kernel = torch_kernels().conv2d if is_torch(input) else _numpy_conv.conv2d
    return kernel(input, weight, bias, stride, mode, pads, dilation, groups)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    padding = padding if isinstance(padding, str) else (0, _pair(padding, 1)[0])
    out = conv2d(ops.expand_dims(input, 2), ops.expand_dims(weight, 2), bias, (1, _pair(
        stride, 1)[0]), padding, (1, _pair(dilation, 1)[0]), groups)
    return ops.squeeze(out, 2)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0,  # noqa: A002
                     groups=1, dilation=1):
    top, left = _pair(padding)
    pads = (top, top, left, left)
    kernel = torch_kernels().conv_transpose2d if is_torch(input) else \
        _numpy_conv.conv_transpose2d
    return kernel(input, weight, bias, _pair(stride), pads, _pair(dilation),
                  _pair(output_padding), groups)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):  # noqa: A002
    shape = tuple(normalized_shape) if isinstance(normalized_shape, (tuple, list)) else \
        (normalized_shape,)
    if tuple(shape_of(input)[len(shape_of(input)) - len(shape):]) != shape:
        raise ValueError(f"For 'layer_norm', the input's last dimensions {shape_of(input)} "
                         f"must be normalized_shape {shape}")
    axes = tuple(range(len(shape_of(input)) - len(shape), len(shape_of(input))))
    x = input if dtype_of(input) != np.float16 else cast(input, np.float32)
    mean = ops.mean(x, axes, True)
    centred = ops.sub(x, mean)
    out = ops.mul(centred, ops.rsqrt(ops.add(ops.mean(ops.square(centred), axes, True), eps)))
    if weight is not None:
        out = ops.mul(out, weight)
    if bias is not None:
        out = ops.add(out, bias)
    return cast(out, dtype_of(input))


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):  # noqa: A002
    """The shapes checked before the types (MindSpore 2.10's order: ValueError first)."""
    shape = shape_of(input)
    if shape[1] % num_groups:
        raise ValueError(f"For 'group_norm', the channels ({shape[1]}) must be divisible by "
                         f"num_groups ({num_groups})")
    if any(given is not None and tuple(shape_of(given)) != (shape[1],) for given in (weight,
                                                                                   bias)):
        raise ValueError(f"For GroupNorm, shape of weight and bias should be equal to the "
                         f"input's channel dimension: {shape[1]}")
    float_only(input, "GroupNorm")
    for given in (weight, bias):
        if given is not None and dtype_of(given) != dtype_of(input):     # (measured)
            raise TypeError(f"For GroupNorm. input arguments' types must be the same, but got "
                            f"input's type: {type_name(dtype_of(input))}, weight's type: "
                            f"{type_name(dtype_of(given))}")
    grouped = ops.reshape(input, (shape[0], num_groups, -1))
    mean = ops.mean(grouped, 2, True)
    centred = ops.sub(grouped, mean)
    out = ops.reshape(ops.mul(centred, ops.rsqrt(ops.add(ops.mean(ops.square(centred), 2, True),
                                                         eps))), shape)
    channel = (1, shape[1]) + (1,) * (len(shape) - 2)
    if weight is not None:
        out = ops.mul(out, ops.reshape(weight, channel))
    if bias is not None:
        out = ops.add(out, ops.reshape(bias, channel))
    return out


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,  # noqa: A002
               momentum=0.1, eps=1e-05):
    """torch's momentum (the batch statistic's weight; MindSpore's nn weighs the old value)."""
    if is_torch(input):
        return torch_kernels().batch_norm(input, weight, bias, running_mean, running_var, eps,
                                          1.0 - momentum, training)
    if running_mean is None:        # batch statistics only: statistics to throw away
        channels = (shape_of(input)[1],)
        running_mean, running_var = _Tensor(np.zeros(channels)), _Tensor(np.ones(channels))
        training = True
    return _numpy_functional.batch_norm(input, weight, bias, running_mean, running_var, eps,
                                        1.0 - momentum, training)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,  # noqa: A002
              scale_grad_by_freq=False):
    from training.mint.array_ops import index_select
    flat = ops.reshape(input, (-1,))
    rows = index_select(weight, 0, flat)
    return ops.reshape(rows, tuple(shape_of(input)) + (shape_of(weight)[1],))


def one_hot(tensor, num_classes=-1):
    from training.mint._core import host_array
    classes = int(host_array(tensor).max()) + 1 if num_classes == -1 else num_classes
    return cast(ops.one_hot(tensor, classes, 1, 0), np.int64)


def normalize(input, p=2.0, dim=1, eps=1e-12):  # noqa: A002
    return ops.div(input, ops.clamp(_norm(input, p, dim, True), eps))


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):  # noqa: A002
    float_only(input, "NLLLoss")
    supported(target, "NLLLoss", (np.int16, np.int32, np.int64), "target")
    return ops.nll_loss(input, target, weight, ignore_index, reduction)


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):  # noqa: A002
    return ops.smooth_l1_loss(float_only(input, "SmoothL1Loss"),
                              float_only(target, "SmoothL1Loss"), beta, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean",  # noqa: A002
                                     pos_weight=None):
    supported(input, "BCEWithLogitsLoss", HALF_SINGLE)
    supported(target, "BCEWithLogitsLoss", HALF_SINGLE, "target")
    return ops.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


def kl_div(input, target, reduction="mean", log_target=False):  # noqa: A002
    """target * (log target - input), summed per reduction ('batchmean' divides by N)."""
    if log_target:
        terms = ops.mul(ops.exp(target), ops.sub(target, input))
    else:
        terms = ops.sub(ops.xlogy(target, target), ops.mul(target, input))
    if reduction == "none":
        return terms
    if reduction == "sum":
        return ops.sum(terms)
    if reduction == "batchmean":
        return ops.div(ops.sum(terms), shape_of(input)[0])
    if reduction == "mean":
        return ops.mean(terms)
    raise ValueError(f"For 'kl_div', 'reduction' must be 'none', 'sum', 'mean' or "
                     f"'batchmean', but got {reduction!r}")


def pad(input, pad, mode="constant", value=None):  # noqa: A002
    return ops.pad(input, tuple(pad), mode, value)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,  # noqa: A002
               count_include_pad=True, divisor_override=None):
    return _nn.AvgPool2d(kernel_size, kernel_size if stride is None else stride, "pad", padding,
                         ceil_mode, count_include_pad, divisor_override)(input)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,  # noqa: A002
               count_include_pad=True):
    return _nn.AvgPool1d(kernel_size, kernel_size if stride is None else stride, "pad", padding,
                         ceil_mode, count_include_pad)(input)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,  # noqa: A002
               return_indices=False):
    return _nn.MaxPool2d(kernel_size, kernel_size if stride is None else stride, "pad", padding,
                         dilation, return_indices, ceil_mode)(input)


def adaptive_avg_pool1d(input, output_size):  # noqa: A002
    return _nn.AdaptiveAvgPool1d(output_size)(input)


def adaptive_avg_pool2d(input, output_size):  # noqa: A002
    return _nn.AdaptiveAvgPool2d(output_size)(input)


def adaptive_avg_pool3d(input, output_size):  # noqa: A002
    return _nn.AdaptiveAvgPool3d(output_size)(input)


def adaptive_max_pool1d(input, output_size, return_indices=False):  # noqa: A002
    return _nn.AdaptiveMaxPool1d(output_size)(input)


def adaptive_max_pool2d(input, output_size, return_indices=False):  # noqa: A002
    float_only(input, "AdaptiveMaxPool2D")      # (MindSpore 2.10: TypeError for integers)
    return _nn.AdaptiveMaxPool2d(output_size, return_indices)(input)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,  # noqa: A002
                recompute_scale_factor=None):
    """scale_factor gives the size floor(input size * scale) (torch's), for every mode;
    float and uint8 inputs (MindSpore 2.10: TypeError for other integers and bool)."""
    supported(input, "Upsample", (np.uint8, np.float16, np.float32, np.float64))
    if size is None and scale_factor is not None:
        spatial = shape_of(input)[2:]
        scales = _pair(scale_factor, len(spatial))
        size = tuple(int(np.floor(n * s)) for n, s in zip(spatial, scales))
        size = size[0] if len(size) == 1 else size
    return _nn.Upsample(size, None, mode, align_corners)(input)


upsample = interpolate


def pixel_shuffle(input, upscale_factor):  # noqa: A002
    return _nn.PixelShuffle(upscale_factor)(input)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002
    """(N, C * kh * kw, L) columns, torch's layout."""
    kh, kw = _pair(kernel_size)
    n, c = shape_of(input)[:2]
    eye = new_tensor(np.eye(c * kh * kw, dtype=dtype_of(input)).reshape(c * kh * kw, c, kh, kw),
                     input)       # (on the input's backend and device)
    out = conv2d(input, eye, None, stride, padding, dilation)
    return ops.reshape(out, (n, c * kh * kw, -1))


__all__ = public_names(globals(), ("is_torch", "torch_kernels"))


def __dir__():
    return __all__
