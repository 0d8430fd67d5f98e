"""`mindspore.ops.operations` (imported as P in model code): primitives as classes, configured
at construction and applied by calling, `ops.Cast()(x, mstype.float16)`. Each delegates to the
function of training.ops.functional, so both backends work."""
import numpy as np

from training.ops import functional as F
from training.ops.elementwise import real_div
from training.ops.printing import Print  # noqa: F401


class Primitive:
    """Base of the primitive classes (MindSpore's `Primitive`/`PrimitiveWithInfer`)."""

    def __init__(self, name=None):
        self.name = name or type(self).__name__

    def __repr__(self):
        return f"Prim[{self.name}]"

    def add_prim_attr(self, name, value):
        setattr(self, name, value)
        return self

    def shard(self, in_strategy=None, out_strategy=None):
        return self  # a parallel strategy: data parallelism needs none


def _check_axis(value, prim):
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise TypeError(f"For '{prim}', 'axis' must be an int, but got {value!r}")


class Cast(Primitive):
    def __call__(self, input_x, type_dst):
        return F.cast(input_x, type_dst)


class Reshape(Primitive):
    def __call__(self, input_x, input_shape):
        return F.reshape(input_x, input_shape)


class Flatten(Primitive):
    """(N, ...) -> (N, product of the other dimensions), as MindSpore's primitive: a 1-D input
    of N gives (N, 1), an empty dimension stays (0, 3); a 0-D input is refused."""

    def __call__(self, input_x):
        shape = tuple(input_x.shape)
        if not shape:
            raise RuntimeError("For 'Flatten', unsupported input shape dimension. "
                               "The shape should not be empty.")
        return F.reshape(input_x, (shape[0], int(np.prod(shape[1:], dtype=np.int64))))


class Shape(Primitive):
    def __call__(self, input_x):
        return F.shape(input_x)


class Transpose(Primitive):
    def __call__(self, input_x, input_perm):
        return F.transpose(input_x, input_perm)


class ExpandDims(Primitive):
    def __call__(self, input_x, axis):
        return F.expand_dims(input_x, axis)


class Squeeze(Primitive):
    def __init__(self, axis=()):
        super().__init__()
        self.axis = (axis,) if isinstance(axis, int) else tuple(axis)

    def __call__(self, input_x):
        return F.squeeze(input_x, self.axis)


class Tile(Primitive):
    def __call__(self, input_x, multiples):
        return F.tile(input_x, multiples)


class Concat(Primitive):
    def __init__(self, axis=0):
        super().__init__()
        _check_axis(axis, "Concat")
        self.axis = axis

    def __call__(self, input_x):
        return F.concat(input_x, self.axis)


class Stack(Primitive):
    def __init__(self, axis=0):
        super().__init__()
        _check_axis(axis, "Stack")
        self.axis = axis

    def __call__(self, input_x):
        return F.stack(input_x, self.axis)


class Split(Primitive):
    """`output_num` equal parts along `axis`."""

    def __init__(self, axis=0, output_num=1):
        super().__init__()
        _check_axis(axis, "Split")
        if not isinstance(output_num, int) or output_num < 1:
            raise ValueError(f"For 'Split', 'output_num' must be a positive int, got {output_num!r}")
        self.axis, self.output_num = axis, output_num

    def __call__(self, input_x):
        size = input_x.shape[self.axis]
        if size % self.output_num:
            raise ValueError(f"For 'Split', the size of axis {self.axis} ({size}) must be "
                             f"divisible by output_num ({self.output_num})")
        return F.split(input_x, size // self.output_num, self.axis)


class Gather(Primitive):
    def __call__(self, input_params, input_indices, axis, batch_dims=0):
        return F.gather(input_params, input_indices, axis, batch_dims)


class GatherV2(Gather):
    pass


class OneHot(Primitive):
    def __init__(self, axis=-1):
        super().__init__()
        _check_axis(axis, "OneHot")
        self.axis = axis

    def __call__(self, indices, depth, on_value, off_value):
        return F.one_hot(indices, depth, on_value, off_value, self.axis)


class MatMul(Primitive):
    def __init__(self, transpose_a=False, transpose_b=False):
        super().__init__()
        self.transpose_a, self.transpose_b = transpose_a, transpose_b

    def __call__(self, x, y):
        if self.transpose_a:
            x = F.transpose(x, (1, 0))
        if self.transpose_b:
            y = F.transpose(y, (1, 0))
        return F.matmul(x, y)


class BatchMatMul(MatMul):
    def __call__(self, x, y):
        perm = lambda t: tuple(range(t.ndim - 2)) + (t.ndim - 1, t.ndim - 2)  # noqa: E731
        if self.transpose_a:
            x = F.transpose(x, perm(x))
        if self.transpose_b:
            y = F.transpose(y, perm(y))
        return F.matmul(x, y)


class _Reduce(Primitive):
    function = None

    def __init__(self, keep_dims=False):
        super().__init__()
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For '{self.name}', 'keep_dims' must be a bool, got {keep_dims!r}")
        self.keep_dims = keep_dims

    def __call__(self, x, axis=()):
        return type(self).function(x, axis, self.keep_dims)


class ReduceSum(_Reduce):
    function = staticmethod(F.sum)


class ReduceMean(_Reduce):
    function = staticmethod(F.mean)


class ReduceMax(_Reduce):
    function = staticmethod(F.amax)


class ReduceMin(_Reduce):
    function = staticmethod(F.amin)


class Assign(Primitive):
    def __call__(self, variable, value):
        return F.assign(variable, value)


class Argmax(Primitive):
    def __init__(self, axis=-1, output_type=np.int32):
        super().__init__()
        _check_axis(axis, "Argmax")
        self.axis, self.output_type = axis, output_type

    def __call__(self, input_x):
        return F.cast(F.argmax(input_x, self.axis), self.output_type)


class Softmax(Primitive):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis[0] if isinstance(axis, (tuple, list)) else axis

    def __call__(self, x):
        return F.softmax(x, self.axis)


class LogSoftmax(Softmax):
    def __init__(self, axis=-1):
        Primitive.__init__(self)
        self.axis = axis        # a tuple too: refused when called, as MindSpore does

    def __call__(self, logits):
        return F.log_softmax(logits, self.axis)


class _Unary(Primitive):
    function = None

    def __call__(self, x):
        return type(self).function(x)


class Sigmoid(_Unary):
    function = staticmethod(F.sigmoid)


class ReLU(_Unary):
    function = staticmethod(F.relu)


class Tanh(_Unary):
    function = staticmethod(F.tanh)


class Exp(_Unary):
    function = staticmethod(F.exp)


class Log(_Unary):
    function = staticmethod(F.log)


class Sqrt(_Unary):
    function = staticmethod(F.sqrt)


class Square(_Unary):
    function = staticmethod(F.square)


class Abs(_Unary):
    function = staticmethod(F.abs)


class Neg(_Unary):
    function = staticmethod(F.neg)


class ZerosLike(_Unary):
    function = staticmethod(F.zeros_like)


class OnesLike(_Unary):
    function = staticmethod(F.ones_like)


class StopGradient(_Unary):
    function = staticmethod(F.stop_gradient)


class _Binary(Primitive):
    function = None

    def __call__(self, x, y):
        return type(self).function(x, y)


class Add(_Binary):
    function = staticmethod(F.add)


class Sub(_Binary):
    function = staticmethod(F.sub)


class Mul(_Binary):
    function = staticmethod(F.mul)


class RealDiv(_Binary):
    """Integers stay integers (truncated), unlike ops.div."""
    function = staticmethod(real_div)


class Div(_Binary):
    function = staticmethod(F.div)


class Pow(_Binary):
    function = staticmethod(F.pow)


class Maximum(_Binary):
    function = staticmethod(F.maximum)


class Minimum(_Binary):
    function = staticmethod(F.minimum)


class Equal(_Binary):
    function = staticmethod(F.equal)


class Greater(_Binary):
    function = staticmethod(F.greater)


class Less(_Binary):
    function = staticmethod(F.less)


class Zeros(Primitive):
    def __call__(self, size, type=None):  # noqa: A002  (MindSpore's argument name)
        return F.zeros(size, type)


class Ones(Primitive):
    def __call__(self, shape, type=None):  # noqa: A002
        return F.ones(shape, type)


class Depend(Primitive):
    def __call__(self, value, expr):
        return F.depend(value, expr)


TensorAdd = Add


class Fill(Primitive):
    def __call__(self, type, shape, value):  # noqa: A002
        return F.fill(type, shape, value)


class DType(Primitive):
    def __call__(self, input_x):
        return F.dtype(input_x)


class Select(Primitive):
    def __call__(self, cond, x, y):
        return F.select(cond, x, y)


from training.ops.activation_primitives import *  # noqa: E402,F401,F403  (ops.Elu, ...: needs Primitive)
from training.ops.loss_primitives import *  # noqa: E402,F401,F403  (ops.NLLLoss, ...: its __all__)
from training.ops.math_primitives import *  # noqa: E402,F401,F403  (ops.Ceil, ops.GatherD, ...)
from training.ops.zoo_primitives import CTCLoss, InvertPermutation  # noqa: E402,F401


def __getattr__(name):
    from training.compat.names import missing_attribute
    raise missing_attribute("mindspore.ops.operations", name)
