"""Activation functions of `mindspore.ops` (ops.elu, ops.silu, ... ops.glu), MindSpore 2.10's
names, arguments and checks. A torch tensor goes to torch (autograd and devices as usual); a
numpy-backend Tensor (or an array) gets the function and its derivative here, in the input's
float dtype. The primitive forms (ops.Elu, ops.CeLU, ...) are in activation_primitives.py; the
nn layers (nn.ELU, ...) call these functions."""
import numpy as np

from training.backends.dispatch import is_torch
from training.backends.numpy import functional as NF
from training.ops import array_kernels as K
from training.tensor import as_array

SELU_SCALE, SELU_ALPHA = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717
FAST_GELU_SLOPE = 1.702


def _torch_f():
    import torch.nn.functional as TF  # lazily: only torch inputs need it
    return TF


FLOATS = ("float16", "float32", "float64")
HALF_AND_SINGLE = ("float16", "float32")     # (MindSpore's CPU kernels of some activations)


def _floating(x, prim, allowed=FLOATS):
    """MindSpore's TypeError for an input dtype the activation's kernel lacks."""
    name = str(x.dtype).split(".")[-1]
    if name not in allowed:
        kinds = ", ".join(f"Tensor[{kind.capitalize()}]" for kind in allowed)
        raise TypeError(f"For primitive[{prim}], the input argument[input_x] must be a type of "
                        f"{{{kinds}}}, but got Tensor[{name.capitalize()}].")
    return x


def _check_number(value, name, prim, types=(int, float)):
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        raise TypeError(f"For '{prim}', the type of '{name}' should be one of "
                        f"'{[t.__name__ for t in types]}', but got type "
                        f"'{type(value).__name__}'.")
    return value


def elementwise(x, forward, derivative):
    """forward(a) with d out / d a = derivative(a, out), in the input's dtype."""
    x = K.as_tensor(x)
    dtype = x.dtype

    def typed(function):
        return lambda *arrays: np.asarray(function(*arrays)).astype(dtype, copy=False)
    return K.unary(x, typed(forward), typed(derivative))


def _sigmoid(a):
    return 0.5 * (1.0 + np.tanh(0.5 * a))      # (no overflow for large |a|)


def _softplus(a):
    return np.logaddexp(0.0, a)


# --- the exponential family ------------------------------------------------------------------
def _check_elu_alpha(alpha):
    if not isinstance(alpha, float):
        raise TypeError(f"For 'Elu', 'alpha' must be a float, but got "
                        f"{type(alpha).__name__} (MindSpore: 'Failed calling Elu')")
    if alpha != 1.0:
        raise ValueError(f"For 'Elu', 'alpha' must be 1.0 (the only value MindSpore 2.10 "
                         f"takes), but got {alpha}")


def elu(input_x, alpha=1.0):
    """x where x > 0, else alpha * (exp(x) - 1)."""
    _check_elu_alpha(alpha)
    _floating(input_x, "Elu")
    if is_torch(input_x):
        return _torch_f().elu(input_x, alpha)
    return elementwise(input_x, lambda a: np.where(a > 0, a, alpha * np.expm1(np.minimum(a, 0))),
                       lambda a, out: np.where(a > 0, 1.0, out + alpha))


def celu(x, alpha=1.0):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    if not isinstance(alpha, float):
        raise TypeError(f"For 'CeLU', 'alpha' must be a float, but got {type(alpha).__name__}")
    if alpha == 0:
        raise ValueError("For primitive[CeLU], the alpha must be not equal to 0 , but got 0.")
    _floating(x, "CeLU")
    if is_torch(x):
        return _torch_f().celu(x, alpha)
    return elementwise(
        x, lambda a: np.maximum(a, 0) + np.minimum(alpha * np.expm1(a / alpha), 0),
        lambda a, out: np.where(a > 0, 1.0, np.exp(np.minimum(a / alpha, 80))))


def selu(input_x):
    """scale * (x where x >= 0, else alpha * (exp(x) - 1)) with SeLU's fixed scale and alpha."""
    if str(input_x.dtype).split(".")[-1] not in FLOATS:    # MindSpore's integer SeLU:
        # scale * x truncated, 0 below zero
        positive = input_x * (input_x > 0)
        return (positive * SELU_SCALE).to(input_x.dtype) if is_torch(input_x) else \
            K.as_tensor(np.trunc(as_array(positive) * SELU_SCALE).astype(input_x.dtype))
    if is_torch(input_x):     # (torch's selu takes the gradient below zero at 0)
        negative = SELU_ALPHA * input_x.clamp(max=0).expm1()
        return SELU_SCALE * input_x.where(input_x >= 0, negative)
    return elementwise(
        input_x, lambda a: SELU_SCALE * np.where(a >= 0, a, SELU_ALPHA * np.expm1(np.minimum(a, 0))),
        lambda a, out: np.where(a >= 0, SELU_SCALE, out + SELU_SCALE * SELU_ALPHA))


def silu(input):  # noqa: A002  (MindSpore's argument name)
    """x * sigmoid(x)."""
    _floating(input, "Sigmoid")
    if is_torch(input):
        return _torch_f().silu(input)
    return elementwise(input, lambda a: a * _sigmoid(a),
                       lambda a, out: _sigmoid(a) * (1 + a * (1 - _sigmoid(a))))


def mish(x):
    """x * tanh(softplus(x))."""
    _floating(x, "Mish")
    if is_torch(x):
        return _torch_f().mish(x)

    def derivative(a, out):
        t = np.tanh(_softplus(a))
        return t + a * (1 - t * t) * _sigmoid(a)
    return elementwise(x, lambda a: a * np.tanh(_softplus(a)), derivative)


def softplus(input, beta=1, threshold=20):  # noqa: A002
    """log(1 + exp(beta * x)) / beta, or x where beta * x > threshold."""
    _floating(input, "Softplus")
    if is_torch(input):
        return _torch_f().softplus(input, beta, threshold)
    forward = lambda a: np.where(beta * a > threshold, a, _softplus(beta * a) / beta)  # noqa
    if input.dtype != np.float16:
        return elementwise(input, forward, lambda a, out: np.where(
            beta * a > threshold, 1.0, _sigmoid(beta * a)))
    # float16: g / (1 + exp(-x)) in float32, rounded once, as MindSpore's SoftplusGrad kernel
    # (measured on every float16 value: 4 of 63k differ by an ulp, its own exp's; g times a
    # float16 sigmoid gave 2011 more than two ulps off, -12.61 for -12.59 at x -2.525)
    x = K.as_tensor(input)
    wide = x.data.astype(np.float32)
    return K.unary(x, lambda a: forward(wide).astype(np.float16), None, gradient=lambda g: (
        np.where(beta * wide > threshold, g, g / (1 + np.exp(-beta * wide))).astype(np.float16),))


def logsigmoid(x):
    """log(sigmoid(x)) = -softplus(-x)."""
    _floating(x, "Exp")
    if is_torch(x):
        return _torch_f().logsigmoid(x)
    return elementwise(x, lambda a: -_softplus(-a), lambda a, out: _sigmoid(-a))


def softsign(x):
    """x / (1 + |x|)."""
    _floating(x, "Softsign")
    if is_torch(x):
        return _torch_f().softsign(x)
    return elementwise(x, lambda a: a / (1 + np.abs(a)), lambda a, out: 1 / (1 + np.abs(a)) ** 2)


def tanhshrink(input):  # noqa: A002
    """x - tanh(x) (an integer input gives float32, as MindSpore's)."""
    if str(input.dtype).split(".")[-1] not in FLOATS:
        from training.ops.functional import cast
        input = cast(input, np.float32)
    if is_torch(input):
        return input - input.tanh()
    return elementwise(input, lambda a: a - np.tanh(a), lambda a, out: np.tanh(a) ** 2)


# --- GELU and its approximations -------------------------------------------------------------
def _erf(z):
    """erf to 1.5e-7 (Abramowitz and Stegun 7.1.26): below float32's resolution."""
    t = 1.0 / (1.0 + 0.3275911 * np.abs(z))
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027
                                                                          + t * 1.061405429))))
    return np.sign(z) * (1.0 - poly * np.exp(-z * z))


def _gelu_tanh(a):
    inner = np.sqrt(2 / np.pi) * (a + 0.044715 * a ** 3)
    return 0.5 * a * (1 + np.tanh(inner))


def _gelu_tanh_derivative(a, out):
    inner = np.sqrt(2 / np.pi) * (a + 0.044715 * a ** 3)
    t = np.tanh(inner)
    return 0.5 * (1 + t) + 0.5 * a * (1 - t * t) * np.sqrt(2 / np.pi) * (1 + 3 * 0.044715 * a * a)


def gelu(input, approximate="none"):  # noqa: A002
    """x * Phi(x): the exact erf form ('none') or the tanh approximation ('tanh')."""
    if approximate not in ("none", "tanh"):
        raise ValueError("For ops.gelu, approximate value should be either 'none' or 'tanh'.")
    _floating(input, "Exp")
    if is_torch(input):
        return _torch_f().gelu(input, approximate=approximate)
    if approximate == "tanh":
        return elementwise(input, _gelu_tanh, _gelu_tanh_derivative)
    return elementwise(
        input, lambda a: a * 0.5 * (1 + _erf(a / np.sqrt(2.0))),
        lambda a, out: 0.5 * (1 + _erf(a / np.sqrt(2.0))) + a * np.exp(-0.5 * a * a)
        / np.sqrt(2 * np.pi))


def fast_gelu(x):
    """x * sigmoid(1.702 x) (MindSpore's x / (1 + exp(-1.702|x|)) * exp(0.851 (x - |x|)))."""
    _floating(x, "FastGeLU", HALF_AND_SINGLE)
    if is_torch(x):
        return x * (FAST_GELU_SLOPE * x).sigmoid()

    def derivative(a, out):
        s = _sigmoid(FAST_GELU_SLOPE * a)
        return s + FAST_GELU_SLOPE * a * s * (1 - s)
    return elementwise(x, lambda a: a * _sigmoid(FAST_GELU_SLOPE * a), derivative)


# --- piecewise linear ------------------------------------------------------------------------
def hardswish(input):  # noqa: A002
    """x * ReLU6(x + 3) / 6; its derivative x / 3 + 0.5 on [-3, 3] (torch's and MindSpore's)."""
    if is_torch(input):     # (torch's own hardswish has other derivatives at -3 and 3)
        return input * (input + 3).clamp(0, 6) / 6
    return elementwise(input, lambda a: a * np.clip(a + 3, 0, 6) / 6,
                       lambda a, out: np.where(a < -3, 0.0, np.where(a <= 3, a / 3 + 0.5, 1.0)))


def hardsigmoid(input):  # noqa: A002
    """ReLU6(x + 3) / 6."""
    if is_torch(input):
        return _torch_f().hardsigmoid(input)
    return elementwise(input, lambda a: np.clip(a + 3, 0, 6) / 6,
                       lambda a, out: ((a > -3) & (a < 3)) / 6.0)


def relu6(x):
    """min(max(x, 0), 6)."""
    _floating(x, "ReLU6", HALF_AND_SINGLE)
    if is_torch(x):
        return _torch_f().relu6(x)
    return elementwise(x, lambda a: np.clip(a, 0, 6), lambda a, out: (a > 0) & (a < 6))


def leaky_relu(input, alpha=0.2):  # noqa: A002
    """x where x > 0, else alpha * x."""
    if is_torch(input):
        return input.where(input > 0, input * alpha)
    return elementwise(input, lambda a: np.where(a > 0, a, a * alpha),
                       lambda a, out: np.where(a > 0, 1.0, alpha))


def hardtanh(input, min_val=-1.0, max_val=1.0):  # noqa: A002
    """x clipped to [min_val, max_val]; at a bound its gradient is halved (MindSpore's and
    torch's maximum/minimum split a tie)."""
    if is_torch(input):
        import torch
        low = torch.full_like(input, min_val)
        return torch.minimum(torch.maximum(input, low), torch.full_like(input, max_val))
    return elementwise(input, lambda a: np.clip(a, min_val, max_val),
                       lambda a, out: np.where((a > min_val) & (a < max_val), 1.0,
                                               np.where((a == min_val) | (a == max_val), 0.5,
                                                        0.0)))


def hardshrink(input, lambd=0.5):  # noqa: A002
    """x where |x| > lambd, else 0."""
    _check_number(lambd, "lambd", "HShrink", (bool, int, float))
    _floating(input, "HShrink", HALF_AND_SINGLE)
    if is_torch(input):
        return input.where(input.abs() > lambd, input.new_zeros(()))
    return elementwise(input, lambda a: np.where(np.abs(a) > lambd, a, 0),
                       lambda a, out: np.abs(a) > lambd)


def softshrink(input, lambd=0.5):  # noqa: A002
    """x - lambd above lambd, x + lambd below -lambd, else 0."""
    _check_number(lambd, "lambd", "SoftShrink")
    if lambd < 0:
        raise RuntimeError(f"For 'SoftShrink', the values for lambd should be greater or equal "
                           f"to 0, but found to be [{lambd}].")
    _floating(input, "SoftShrink", HALF_AND_SINGLE)
    if is_torch(input):
        return _torch_f().softshrink(input, lambd)
    return elementwise(input, lambda a: np.where(a > lambd, a - lambd,
                                                 np.where(a < -lambd, a + lambd, 0)),
                       lambda a, out: np.abs(a) > lambd)


def threshold(input, thr, value):  # noqa: A002
    """x where x > thr, else value."""
    _check_number(thr, "thr", "threshold")
    _check_number(value, "value", "threshold")
    if is_torch(input):
        return _torch_f().threshold(input, thr, value)
    return elementwise(input, lambda a: np.where(a > thr, a, value), lambda a, out: a > thr)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3):  # noqa: A002
    """x where x >= 0, else alpha * x with alpha drawn from U(lower, upper) for each element at
    every call, in training and in evaluation alike (as MindSpore 2.10). The numpy backend
    draws from training.nn.initializer's generator (seeded by training.set_seed), the torch
    backend from torch's."""
    check_rrelu_bounds(lower, upper)
    if is_torch(input):
        import torch
        slope = torch.empty(input.shape, device=input.device).uniform_(lower, upper)
        # (an integer input takes the slopes truncated to its dtype, as MindSpore's)
        return input.where(input >= 0, input * slope.to(input.dtype))
    from training.nn import initializer
    x = K.as_tensor(input)
    slope = initializer.rng().uniform(lower, upper, x.shape).astype(x.dtype)
    return elementwise(x, lambda a: np.where(a >= 0, a, a * slope),
                       lambda a, out: np.where(a >= 0, 1.0, slope))


def check_rrelu_bounds(lower, upper):
    for name, value in (("lower", lower), ("upper", upper)):
        _check_number(value, name, "RReLU")
    if upper < lower:
        raise ValueError(f"For RReLU, the value of 'upper' must be greater than or equal to "
                         f"'lower', but got upper: {upper}, lower: {lower}. ")


# --- over an axis ----------------------------------------------------------------------------
def _check_axis(axis, prim):
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"For '{prim}', the type of 'axis' should be int, but got "
                        f"{type(axis).__name__}.")


def check_softmax_axes(axes, ndim):
    """A tuple axis of Softmax as MindSpore's primitive checks it: one axis at least, each an
    int in [-ndim, ndim) (ValueError)."""
    if not axes:
        raise ValueError("For primitive[Softmax], the length of axis must be greater than or "
                         "equal to 1, but got 0.")
    for each in axes:
        _check_axis(each, "Softmax")
        if not -max(ndim, 1) <= each < max(ndim, 1):
            raise ValueError(f"For primitive[Softmax], the axis must be in "
                             f"[{-max(ndim, 1)},{max(ndim, 1)}), but got {each}.")


def check_log_softmax_axis(axis, ndim):
    """LogSoftmax's axis: one int (MindSpore 2.10 raises TypeError for a tuple or list, even of
    one axis, where Softmax takes a tuple) in [-ndim, ndim) (ValueError)."""
    _check_axis(axis, "LogSoftmax")
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(f"For primitive[LogSoftmax], the axis must be in "
                         f"[{-max(ndim, 1)},{max(ndim, 1)}), but got {axis}.")


def softmin(x, axis=-1, *, dtype=None):
    """softmax(-x) over `axis` (an int or a tuple of one: MindSpore's CPU kernel refuses a
    longer tuple, after checking each axis is in range); with `dtype` the input is cast
    first."""
    if isinstance(axis, (tuple, list)):
        check_softmax_axes(axis, len(x.shape))
        if len(axis) != 1:
            raise RuntimeError("For Softmax, the parameter 'axis' only support int type on CPU, "
                               "but got tuple.")
        axis = axis[0]
    _check_axis(axis, "Softmax")
    if dtype is not None:
        from training.ops.functional import cast
        x = cast(x, dtype)
    _floating(x, "Softmax")
    if is_torch(x):
        return (-x).softmax(axis)
    return NF.softmax(-K.as_tensor(x), axis)


def glu(x, axis=-1):
    """a * sigmoid(b), a and b the first and second halves of `x` along `axis`."""
    _check_axis(axis, "Split")
    size = x.shape[axis]
    if size % 2:
        raise ValueError(f"For 'Split', x_shape[{axis % len(x.shape)}] must be divisible by "
                         f"output_num = 2, but got {size}")
    _floating(x, "Sigmoid")
    if is_torch(x):
        return _torch_f().glu(x, axis)
    first, second = K.split(K.as_tensor(x), 2, axis % len(x.shape))
    return first * NF.sigmoid(second)


def softmax2d(x):
    """Softmax over the channels (axis -3) of (C, H, W) or (N, C, H, W)."""
    if len(x.shape) not in (3, 4):
        raise ValueError(f"For 'Softmax2d', the in_shape must have 3 or 4 dims, but got "
                         f"{len(x.shape)}.")
    _floating(x, "Softmax")
    return x.softmax(-3) if is_torch(x) else NF.softmax(K.as_tensor(x), -3)


__all__ = ["celu", "elu", "fast_gelu", "gelu", "glu", "hardshrink", "hardsigmoid", "hardswish",
           "hardtanh", "leaky_relu", "logsigmoid", "mish", "relu6", "rrelu", "selu", "silu",
           "softmin", "softplus", "softshrink", "softsign", "tanhshrink", "threshold"]
