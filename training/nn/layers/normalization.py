"""BatchNorm1d / BatchNorm2d with MindSpore's parameter names (gamma, beta, moving_mean,
moving_variance) and momentum convention (moving = momentum * moving + (1 - momentum) * batch)."""
import numpy as np

from training.backends.dispatch import is_torch, torch_kernels
from training.backends.numpy import functional as F
from training.nn import initializer
from training.nn.cell import Cell
from training.tensor import Parameter


class _BatchNorm(Cell):
    expected_ndim = (2,)
    expected_text = "(N, C)"

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format="NCHW", dtype=np.float32):
        super().__init__()
        if not isinstance(num_features, int) or num_features <= 0:
            raise ValueError(f"For '{self.cls_name}', 'num_features' must be a positive int, "
                             f"but got {num_features!r}")
        if not 0 <= momentum <= 1:
            raise ValueError(f"For '{self.cls_name}', 'momentum' must be in [0, 1], got {momentum}")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.use_batch_statistics = use_batch_statistics
        shape = (num_features,)
        self.moving_mean = Parameter(initializer.initialize(moving_mean_init, shape, dtype),
                                     name="moving_mean", requires_grad=False)
        self.moving_variance = Parameter(initializer.initialize(moving_var_init, shape, dtype),
                                         name="moving_variance", requires_grad=False)
        self.gamma = Parameter(initializer.initialize(gamma_init, shape, dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer.initialize(beta_init, shape, dtype), name="beta",
                              requires_grad=affine)

    def construct(self, x):
        self.check_input(x, x.ndim in self.expected_ndim and x.shape[1] == self.num_features,
                         self.expected_text.replace("C", str(self.num_features)))
        batch_stats = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        kernel = torch_kernels().batch_norm if is_torch(x) else F.batch_norm
        return kernel(x, self.gamma, self.beta, self.moving_mean, self.moving_variance,
                            self.eps, self.momentum, batch_stats)

    def extend_repr(self):
        return f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}"


class BatchNorm1d(_BatchNorm):
    expected_ndim = (2, 3)
    expected_text = "(N, C) or (N, C, L)"


class BatchNorm2d(_BatchNorm):
    expected_ndim = (4,)
    expected_text = "(N, C, H, W)"


def _normalize(x, axes, eps):
    """(x - mean) / sqrt(var + eps) over `axes`, through Tensor ops (so gradients flow)."""
    mean = x.mean(axis=axes, keep_dims=True)
    centered = x - mean
    var = (centered * centered).mean(axis=axes, keep_dims=True)
    return centered * (var + eps) ** -0.5


class LayerNorm(Cell):
    """Normalizes over the axes from `begin_norm_axis` on; gamma and beta of
    `normalized_shape` apply from `begin_params_axis` on."""

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1,
                 gamma_init="ones", beta_init="zeros", epsilon=1e-7, dtype=np.float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For 'LayerNorm', 'normalized_shape' must be a tuple or list, but got "
                            f"{type(normalized_shape).__name__}")
        self.normalized_shape = tuple(normalized_shape)
        self.begin_norm_axis, self.begin_params_axis = begin_norm_axis, begin_params_axis
        self.epsilon = epsilon
        self.gamma = Parameter(initializer.initialize(gamma_init, self.normalized_shape, dtype),
                               name="gamma")
        self.beta = Parameter(initializer.initialize(beta_init, self.normalized_shape, dtype),
                              name="beta")

    def construct(self, x):
        first = self.begin_norm_axis % x.ndim
        params_from = self.begin_params_axis % x.ndim
        self.check_input(x, x.shape[params_from:] == self.normalized_shape,
                         f"(..., {', '.join(map(str, self.normalized_shape))})")
        if is_torch(x):
            return torch_kernels().layer_norm(x, self.gamma, self.beta, first, self.epsilon)
        out = _normalize(x, tuple(range(first, x.ndim)), self.epsilon)
        return out * self.gamma + self.beta

    def extend_repr(self):
        return f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}"


class GroupNorm(Cell):
    """Normalizes each of `num_groups` channel groups over its channels and spatial axes, then
    scales and shifts per channel."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, gamma_init="ones",
                 beta_init="zeros", dtype=np.float32):
        super().__init__()
        for name, value in (("num_groups", num_groups), ("num_channels", num_channels)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"For 'GroupNorm', '{name}' must be a positive int, but got "
                                 f"{value!r}")
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', 'num_channels' ({num_channels}) must be divisible "
                             f"by 'num_groups' ({num_groups})")
        self.num_groups, self.num_channels, self.eps = num_groups, num_channels, eps
        self.gamma = Parameter(initializer.initialize(gamma_init, (num_channels,), dtype),
                               name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer.initialize(beta_init, (num_channels,), dtype),
                              name="beta", requires_grad=affine)

    def construct(self, x):
        self.check_input(x, x.ndim >= 2 and x.shape[1] == self.num_channels,
                         f"(N, {self.num_channels}, ...)")
        if is_torch(x):
            return torch_kernels().group_norm(x, self.num_groups, self.gamma, self.beta, self.eps)
        grouped = x.reshape((x.shape[0], self.num_groups, -1))
        out = _normalize(grouped, (2,), self.eps).reshape(x.shape)
        shape = (1, self.num_channels) + (1,) * (x.ndim - 2)
        return out * self.gamma.reshape(shape) + self.beta.reshape(shape)
