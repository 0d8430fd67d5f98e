"""mint.nn's layers with parameters: Linear, Conv1d/2d, ConvTranspose2d, LayerNorm,
BatchNorm1d/2d/3d, GroupNorm, Embedding, PReLU. Parameter names, shapes and initial values
are MindSpore 2.10's (measured: weight/bias; BatchNorm's running_mean, running_var and an int64
num_batches_tracked), so checkpoints interchange."""

import numpy as np

from training import nn as _nn
from training.mint._core import np_dtype
from training.mint.nn import functional as F
from training.nn.cell import Cell
from training.tensor import Parameter, Tensor


def _positive(value, name, layer):
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"For '{layer}', '{name}' must be a positive int, but got {value!r}")


class Linear(_nn.Dense):
    """x @ weight.T + bias; weight (out_features, in_features), both initialized
    uniform(-1/sqrt(in_features), 1/sqrt(in_features)) as MindSpore's and torch's."""

    def __init__(self, in_features, out_features, bias=True, weight_init=None, bias_init=None,
                 dtype=None):
        super().__init__(in_features, out_features, weight_init, bias_init, bias,
                         dtype=np_dtype(dtype) or np.float32)
        self.in_features, self.out_features = in_features, out_features


def _conv_padding(padding, padding_mode, layer, n):
    if padding_mode != "zeros":
        raise NotImplementedError(f"For '{layer}', padding_mode {padding_mode!r} is not "
                                  f"provided (only 'zeros')")
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(f"For '{layer}', 'padding' must be 'same', 'valid' or ints, but "
                             f"got {padding!r}")
        return padding, 0
    pairs = tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * n
    return "pad", tuple(p for p in pairs for _ in range(2))


class Conv2d(_nn.Conv2d):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", dtype=None):
        mode, pads = _conv_padding(padding, padding_mode, "Conv2d", 2)
        super().__init__(in_channels, out_channels, kernel_size, stride, mode, pads, dilation,
                         groups, bias, dtype=np_dtype(dtype) or np.float32)


class Conv1d(Cell):
    """weight (out_channels, in_channels / groups, kernel_size), as MindSpore's mint (not nn's
    4-D weight); weight and bias uniform within 1/sqrt(fan_in)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", dtype=None):
        super().__init__()
        _conv_padding(padding, padding_mode, "Conv1d", 1)
        for value, name in ((in_channels, "in_channels"), (out_channels, "out_channels"),
                            (groups, "groups")):
            _positive(value, name, "Conv1d")
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"For 'Conv1d', 'in_channels' ({in_channels}) and 'out_channels' "
                             f"({out_channels}) must be divisible by 'groups' ({groups})")
        size = kernel_size[0] if isinstance(kernel_size, (tuple, list)) else kernel_size
        bound = 1 / np.sqrt(in_channels // groups * size)
        kind = np_dtype(dtype) or np.float32
        from training.common.seed import rng
        self.weight = Parameter(Tensor(rng().uniform(-bound, bound, (
            out_channels, in_channels // groups, size)).astype(kind)), name="weight")
        self.bias = Parameter(Tensor(rng().uniform(-bound, bound, (out_channels,)).astype(
            kind)), name="bias") if bias else None
        self.options = (stride, padding, dilation, groups)

    def construct(self, input):  # noqa: A002
        return F.conv1d(input, self.weight, self.bias, *self.options)


class ConvTranspose2d(_nn.Conv2dTranspose):
    """output_padding adds rows and columns the kernel reaches (torch's, mint's), not nn's
    zeros."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 dtype=None):
        mode, pads = _conv_padding(padding, padding_mode, "ConvTranspose2d", 2)
        super().__init__(in_channels, out_channels, kernel_size, stride, mode, pads,
                         output_padding, dilation, groups, bias,
                         dtype=np_dtype(dtype) or np.float32)
        self.options = (stride, padding, output_padding, groups, dilation)

    def construct(self, input):  # noqa: A002
        return F.conv_transpose2d(input, self.weight, self.bias, *self.options)


def _ones(shape, dtype):
    return Tensor(np.ones(shape, np_dtype(dtype) or np.float32))


def _zeros(shape, dtype):
    return Tensor(np.zeros(shape, np_dtype(dtype) or np.float32))


class LayerNorm(Cell):
    def __init__(self, normalized_shape, eps=1e-05, elementwise_affine=True, bias=True,
                 dtype=None):
        super().__init__()
        self.normalized_shape = tuple(normalized_shape) if isinstance(
            normalized_shape, (tuple, list)) else (normalized_shape,)
        self.eps = eps
        self.weight = Parameter(_ones(self.normalized_shape, dtype), name="weight") \
            if elementwise_affine else None
        self.bias = Parameter(_zeros(self.normalized_shape, dtype), name="bias") \
            if elementwise_affine and bias else None

    def construct(self, input):  # noqa: A002
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)


class GroupNorm(Cell):
    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, dtype=None):
        super().__init__()
        _positive(num_groups, "num_groups", "GroupNorm")
        _positive(num_channels, "num_channels", "GroupNorm")
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', 'num_channels' ({num_channels}) must be "
                             f"divisible by 'num_groups' ({num_groups})")
        self.num_groups, self.num_channels, self.eps = num_groups, num_channels, eps
        # without affine still weight and bias, frozen at 1 and 0 (MindSpore 2.10's, measured)
        self.weight = Parameter(_ones((num_channels,), dtype), name="weight",
                                requires_grad=affine)
        self.bias = Parameter(_zeros((num_channels,), dtype), name="bias", requires_grad=affine)

    def construct(self, input):  # noqa: A002
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)


class _BatchNorm(Cell):
    dims = (2, 3)

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True,
                 track_running_stats=True, dtype=None):
        super().__init__()
        _positive(num_features, "num_features", self.cls_name)
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        shape = (num_features,)
        # only the Parameters affine and track_running_stats ask for (MindSpore 2.10's)
        self.weight = Parameter(_ones(shape, dtype), name="weight") if affine else None
        self.bias = Parameter(_zeros(shape, dtype), name="bias") if affine else None
        self.running_mean = self.running_var = self.num_batches_tracked = None
        if track_running_stats:
            self.running_mean = Parameter(_zeros(shape, dtype), name="running_mean",
                                          requires_grad=False)
            self.running_var = Parameter(_ones(shape, dtype), name="running_var",
                                         requires_grad=False)
            self.num_batches_tracked = Parameter(Tensor(np.zeros((), np.int64)),
                                                 name="num_batches_tracked",
                                                 requires_grad=False)

    def construct(self, input):  # noqa: A002
        if len(input.shape) not in self.dims:
            raise ValueError(f"For '{self.cls_name}', expected {' or '.join(map(str, self.dims))}"
                             f"-D input, but got {len(input.shape)}-D")
        batch_stats = self.training or not self.track_running_stats
        if self.training and self.track_running_stats:
            self.num_batches_tracked.set_data(Tensor(np.asarray(
                self.num_batches_tracked.asnumpy() + 1, np.int64)))
        return F.batch_norm(input, self.running_mean, self.running_var, self.weight,
                            self.bias, batch_stats, self.momentum, self.eps)


class BatchNorm1d(_BatchNorm):
    dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    dims = (4,)


class BatchNorm3d(_BatchNorm):
    dims = (5,)


class Embedding(Cell):
    """weight (num_embeddings, embedding_dim) from N(0, 1), the padding_idx row zero."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, dtype=None):
        super().__init__()
        _positive(num_embeddings, "num_embeddings", "Embedding")
        _positive(embedding_dim, "embedding_dim", "Embedding")
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"For 'Embedding', 'padding_idx' must be in [{-num_embeddings}, "
                             f"{num_embeddings}), but got {padding_idx}")
        from training.common.seed import rng
        table = rng().standard_normal((num_embeddings, embedding_dim)).astype(
            np_dtype(dtype) or np.float32) if _weight is None else np.asarray(
            _weight.asnumpy() if hasattr(_weight, "asnumpy") else _weight)
        if padding_idx is not None:
            table[padding_idx] = 0
        self.num_embeddings, self.embedding_dim, self.padding_idx = (
            num_embeddings, embedding_dim, padding_idx)
        self.weight = Parameter(Tensor(table), name="weight", requires_grad=not _freeze)

    def construct(self, input):  # noqa: A002
        return F.embedding(input, self.weight, self.padding_idx)


class PReLU(Cell):
    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        _positive(num_parameters, "num_parameters", "PReLU")
        self.weight = Parameter(Tensor(np.full((num_parameters,), init,
                                               np_dtype(dtype) or np.float32)), name="weight")

    def construct(self, input):  # noqa: A002
        return F.prelu(input, self.weight)


__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "Conv1d", "Conv2d", "ConvTranspose2d",
           "Embedding", "GroupNorm", "LayerNorm", "Linear", "PReLU"]
