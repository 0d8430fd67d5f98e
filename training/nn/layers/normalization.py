"""BatchNorm1d / BatchNorm2d with MindSpore's parameter names (gamma, beta, moving_mean,
moving_variance) and momentum convention (moving = momentum * moving + (1 - momentum) * batch)."""
import numpy as np

from training.backends.dispatch import is_torch, torch_kernels
from training.backends.numpy import functional as F
from training.nn import initializer
from training.nn.cell import Cell
from training.ops import array_kernels as K
from training.tensor import Parameter, Tensor


def add_statistics_parameters(cell, channels, affine, gamma_init, beta_init, mean_init,
                              variance_init, dtype):
    """A batch or instance normalization's Parameters in MindSpore's order and names:
    moving_mean, moving_variance (never trained), gamma, beta (trained if `affine`)."""
    shape = (channels,)
    cell.moving_mean = Parameter(initializer.initialize(mean_init, shape, dtype),
                                 name="moving_mean", requires_grad=False)
    cell.moving_variance = Parameter(initializer.initialize(variance_init, shape, dtype),
                                     name="moving_variance", requires_grad=False)
    cell.gamma = Parameter(initializer.initialize(gamma_init, shape, dtype), name="gamma",
                           requires_grad=affine)
    cell.beta = Parameter(initializer.initialize(beta_init, shape, dtype), name="beta",
                          requires_grad=affine)


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
        add_statistics_parameters(self, num_features, affine, gamma_init, beta_init,
                                  moving_mean_init, moving_var_init, dtype)

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


def _in_float32(function, x, *params):
    """function(x, *params) computed in float32 for a float16 x, the output cast back to
    float16: MindSpore's LayerNorm, GroupNorm and BatchNorm kernels compute float16 so (in
    float16 the squared deviations of values past 256 overflow: every output and gradient
    came out 0). The parameters go in as float16 first, as MindSpore casts them to the input's
    type: their gradients come back rounded to float16 (measured)."""
    if K.np_dtype_of(x) != np.float16:
        return function(x, *params)
    if is_torch(x):
        from training.backends.torch_cells import param
        wide = [param(p).to(x.dtype).float() for p in params]
        return function(x.float(), *wide).to(x.dtype)
    wide = [K.cast(K.cast(p, np.float16), np.float32) for p in params]
    return K.cast(function(K.cast(x, np.float32), *wide), np.float16)


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
            return _in_float32(lambda v, gamma, beta: torch_kernels().layer_norm(
                v, gamma, beta, first, self.epsilon), x, self.gamma, self.beta)
        return _in_float32(lambda v, gamma, beta: _normalize(
            v, tuple(range(first, x.ndim)), self.epsilon) * gamma + beta, x, self.gamma,
            self.beta)

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
            return _in_float32(lambda v, gamma, beta: torch_kernels().group_norm(
                v, self.num_groups, gamma, beta, self.eps), x, self.gamma, self.beta)
        return _in_float32(self._group_norm, x, self.gamma, self.beta)

    def _group_norm(self, x, gamma, beta):
        grouped = x.reshape((x.shape[0], self.num_groups, -1))
        out = _normalize(grouped, (2,), self.eps).reshape(x.shape)
        shape = (1, self.num_channels) + (1,) * (x.ndim - 2)
        return out * gamma.reshape(shape) + beta.reshape(shape)


class BatchNorm3d(Cell):
    """Batch normalization of (N, C, D, H, W): a BatchNorm2d (child `bn2d`, so the parameters
    are bn2d.gamma ... as MindSpore names them) over (N, C, D, H * W)."""

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, dtype=np.float32):
        super().__init__()
        self.bn2d = BatchNorm2d(num_features, eps, momentum, affine, gamma_init, beta_init,
                                moving_mean_init, moving_var_init, use_batch_statistics,
                                dtype=dtype)

    def construct(self, x):
        if x.ndim != 5:
            raise ValueError(f"For 'BatchNorm3d', the in_shape must have 5 dims, but got "
                             f"{x.ndim}.")
        n, c, d, h, w = x.shape
        return self.bn2d(x.reshape((n, c, d, h * w))).reshape((n, c, d, h, w))


class _InstanceNorm(Cell):
    """Normalizes each channel of each sample over its spatial axes, then scales and shifts
    per channel; the input's statistics in training and evaluation alike (MindSpore's
    InstanceNorm). In training the moving statistics (kept for checkpoints) follow
    moving = (1 - momentum) * moving + momentum * the batch's mean of the instance statistics
    (variance unbiased): MindSpore 2.10's CPU has no InstanceNorm kernel to measure it on."""
    rank = 3

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones",
                 beta_init="zeros", dtype=np.float32):
        super().__init__()
        if not isinstance(num_features, int) or isinstance(num_features, bool) or \
                num_features <= 0:
            raise ValueError(f"For '{self.cls_name}', 'num_features' must be a positive int, "
                             f"but got {num_features!r}")
        if not isinstance(eps, float):
            raise TypeError(f"For '{self.cls_name}', the type of 'eps' should be 'float', but "
                            f"got type '{type(eps).__name__}'.")
        if isinstance(momentum, bool) or not isinstance(momentum, (int, float)) or \
                not 0 <= momentum <= 1:
            raise ValueError(f"For '{self.cls_name}', the 'momentum' must be a number in range "
                             f"[0, 1], but got {momentum}.")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        add_statistics_parameters(self, num_features, affine, gamma_init, beta_init, "zeros",
                                  "ones", dtype)

    def construct(self, x):
        if x.ndim != self.rank:
            raise ValueError(f"For '{self.cls_name}', the in_shape must have {self.rank} dims, "
                             f"but got {x.ndim}.")
        if x.shape[1] != self.num_features:
            raise ValueError(f"For primitive[InstanceNorm], the gamma shape must be equal to "
                             f"(C, ) which is {self.num_features} , but got {x.shape[1]}.")
        if str(x.dtype).split(".")[-1] not in ("float16", "float32"):
            raise TypeError(f"For primitive[InstanceNorm], the input argument[input_x] must be "
                            f"a type of {{Tensor[Float16], Tensor[Float32]}}, but got {x.dtype}.")
        axes = tuple(range(2, x.ndim))
        if self.training:
            self._update_moving(x, axes)
        return _in_float32(self._instance_norm, x, self.gamma, self.beta)

    def _instance_norm(self, x, gamma, beta):
        """(float16 in float32, as the other normalizations: MindSpore 2.10's CPU has no
        InstanceNorm kernel to measure; the output was float32 for a float16 input)."""
        axes = tuple(range(2, x.ndim))
        shape = (1, self.num_features) + (1,) * (x.ndim - 2)
        if is_torch(x):
            from training.backends.torch_cells import param
            var, mean = __import__("torch").var_mean(x, axes, correction=0, keepdim=True)
            out = (x - mean) * (var + self.eps).rsqrt()
            return out * param(gamma).reshape(shape) + param(beta).reshape(shape)
        out = _normalize(x, axes, self.eps)
        return out * gamma.reshape(shape) + beta.reshape(shape)

    def _update_moving(self, x, axes):
        values = x.detach().cpu().numpy() if is_torch(x) else x.asnumpy()
        count = int(np.prod(values.shape[2:]))
        mean = values.mean(axis=axes).mean(axis=0)
        var = (values.var(axis=axes) * count / max(count - 1, 1)).mean(axis=0)
        m = self.momentum
        for moving, batch in ((self.moving_mean, mean), (self.moving_variance, var)):
            moving.set_data(Tensor(((1 - m) * moving.asnumpy() + m * batch).astype(
                moving.asnumpy().dtype)))


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization of (N, C, L)."""


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization of (N, C, H, W)."""
    rank = 4


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization of (N, C, D, H, W)."""
    rank = 5
