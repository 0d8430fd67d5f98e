"""Tensor and Parameter for the numpy backend, with a small reverse-mode autograd.

A Tensor wraps a numpy array. Operations on tensors that need a gradient record a closure that
maps the output gradient to the inputs' gradients; `grad_of(loss, params)` walks that record
backwards once. Nothing is recorded under `no_grad()` or when no input needs a gradient, so
evaluation and prediction cost no more than plain numpy.
"""
import contextlib
import threading

import numpy as np

_state = threading.local()


def is_grad_enabled():
    return getattr(_state, "grad_enabled", True)


@contextlib.contextmanager
def no_grad():
    """Operations inside record nothing for the backward pass."""
    previous = is_grad_enabled()
    _state.grad_enabled = False
    try:
        yield
    finally:
        _state.grad_enabled = previous


def _unbroadcast(grad, shape):
    """Sum a broadcast gradient back to the operand's shape."""
    if grad.shape == tuple(shape):
        return grad
    extra = grad.ndim - len(shape)
    if extra > 0:
        grad = grad.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and grad.shape[i] != 1)
    if axes:
        grad = grad.sum(axis=axes, keepdims=True)
    return grad.reshape(shape)


def needs_grad(value):
    """Whether a gradient must flow into `value` (lets kernels skip unneeded input gradients)."""
    return isinstance(value, Tensor) and (value.requires_grad or value._backward is not None)


def as_array(value):
    return value.data if isinstance(value, Tensor) else np.asarray(value)


def _operand(other, like):
    """`other` as an array for arithmetic with the array `like`. A Python scalar takes a float
    tensor's dtype (MindSpore's weak scalar typing): as a float64 array it would promote a 0-d
    float32 result (a loss, a mean) to float64."""
    if isinstance(other, (int, float)) and not isinstance(other, bool) and like.dtype.kind == "f":
        return np.asarray(other, like.dtype)
    return as_array(other)


class Tensor:
    """An n-dimensional array (`mindspore.Tensor`'s role): `asnumpy()`, `shape`, `dtype`, and
    arithmetic that records gradients when an operand requires them."""
    __array_priority__ = 100

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, requires_grad=False):
        if init is not None:
            from training.common.initializer import initializer  # lazy: it imports this module
            input_data = initializer(init, shape, dtype or np.float32).data
        data = input_data.data if isinstance(input_data, Tensor) else input_data
        if not isinstance(data, np.ndarray) and callable(getattr(data, "asnumpy", None)):
            data = data.asnumpy()  # minddata's Tensor (output_numpy=False), without a copy
        arr = np.asarray(data, dtype=dtype)
        if dtype is None and arr.dtype == np.float64 and not isinstance(data, (np.ndarray,
                                                                              np.generic)):
            arr = arr.astype(np.float32)  # Python floats become float32, as in MindSpore
        self.data = arr
        self.requires_grad = requires_grad
        self._backward = None  # (closure(grad) -> tuple of grads, parents)

    # --- array protocol -------------------------------------------------------------------
    def asnumpy(self):
        return self.data

    def numpy(self):
        return self.data

    def __array__(self, dtype=None, copy=None):
        return self.data if dtype is None else self.data.astype(dtype)

    @property
    def shape(self):
        return self.data.shape

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def ndim(self):
        return self.data.ndim

    @property
    def size(self):
        return self.data.size

    def __len__(self):
        return len(self.data)

    def item(self):
        return self.data.item()

    def __float__(self):
        return float(self.data.item())  # any one-element tensor, as MindSpore's

    def __int__(self):
        return int(self.data.item())

    def __bool__(self):
        return bool(self.data)

    def __repr__(self):
        return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=\n{self.data})"

    def astype(self, dtype):
        return Tensor(self.data.astype(dtype))

    def init_data(self, slice_index=None, shape=None, opt_shard_group=None):
        """MindSpore initializes lazily; here the data exists already."""
        return self

    def detach(self):
        return Tensor(self.data)

    @staticmethod
    def from_numpy(array):
        """A Tensor sharing the numpy array's memory (MindSpore's `Tensor.from_numpy`)."""
        if not isinstance(array, np.ndarray):
            raise TypeError(f"Expected a NumPy array, but got {type(array)}.")
        return Tensor(array)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        """A torch function or operator given Tensors or Parameters (a cell's weights and
        constants, on the torch backend) takes their torch values (torch_cells.torch_arguments)."""
        from training.backends.torch_cells import torch_arguments
        args, kwargs = torch_arguments(args, kwargs or {})
        return func(*args, **kwargs)

    # --- autograd helpers -----------------------------------------------------------------
    @staticmethod
    def from_op(data, parents, backward):
        """Result of an operation; records `backward` if any parent needs a gradient."""
        out = Tensor.__new__(Tensor)
        out.data = data
        out.requires_grad = False
        out._backward = None
        if is_grad_enabled():
            tensor_parents = tuple(p if isinstance(p, Tensor) else None for p in parents)
            if any(p is not None and (p.requires_grad or p._backward is not None)
                   for p in tensor_parents):
                out._backward = (backward, tensor_parents)
        return out

    # --- arithmetic -----------------------------------------------------------------------
    def __add__(self, other):
        a, b = self.data, _operand(other, self.data)
        return Tensor.from_op(a + b, (self, other),
                              lambda g: (_unbroadcast(g, a.shape), _unbroadcast(g, b.shape)))

    __radd__ = __add__

    def __sub__(self, other):
        a, b = self.data, _operand(other, self.data)
        return Tensor.from_op(a - b, (self, other),
                              lambda g: (_unbroadcast(g, a.shape), _unbroadcast(-g, b.shape)))

    def __rsub__(self, other):
        return Tensor(other).__sub__(self) if not isinstance(other, Tensor) else other - self

    def __mul__(self, other):
        a, b = self.data, _operand(other, self.data)
        return Tensor.from_op(a * b, (self, other),
                              lambda g: (_unbroadcast(g * b, a.shape), _unbroadcast(g * a, b.shape)))

    __rmul__ = __mul__

    def __truediv__(self, other):
        a, b = self.data, _operand(other, self.data)
        out = a / b
        if a.dtype.kind in "iub" and b.dtype.kind in "iub":
            out = out.astype(np.float32)  # MindSpore divides integers into float32, numpy float64
        # MindSpore's order, -g * (out / b): in float16 b * b overflows (b = 300) or loses
        # its precision (b = 1e-3) where the gradient itself does not
        return Tensor.from_op(out, (self, other),
                              lambda g: (_unbroadcast(g / b, a.shape),
                                         _unbroadcast(-g * (out / b), b.shape)))

    def __rtruediv__(self, other):
        return Tensor(np.asarray(other, dtype=self.dtype)) / self

    def __neg__(self):
        return Tensor.from_op(-self.data, (self,), lambda g: (-g,))

    def __pow__(self, exponent):
        if isinstance(exponent, Tensor):        # a gradient for the exponent too
            return self.pow(exponent)
        a = self.data
        return Tensor.from_op(a ** exponent, (self,),      # MindSpore's order: g last
                              lambda g: ((exponent * a ** (exponent - 1)) * g,))

    def __rpow__(self, base):
        from training.ops import functional
        return functional.pow(base, self)

    def __matmul__(self, other):
        a, b = self.data, as_array(other)

        def backward(g):
            ga = g @ np.swapaxes(b, -1, -2) if b.ndim > 1 else np.multiply.outer(g, b)
            gb = np.swapaxes(a, -1, -2) @ g if a.ndim > 1 else np.multiply.outer(a, g)
            return _unbroadcast(ga, a.shape), _unbroadcast(gb, b.shape)
        return Tensor.from_op(a @ b, (self, other), backward)

    def __getitem__(self, index):
        a = self.data

        def backward(g):
            full = np.zeros_like(a)
            np.add.at(full, index, g)
            return (full,)
        return Tensor.from_op(a[index], (self,), backward)

    # Comparisons give plain boolean tensors (no gradient).
    def __eq__(self, other):
        return Tensor(self.data == as_array(other))

    def __lt__(self, other):
        return Tensor(self.data < as_array(other))

    def __gt__(self, other):
        return Tensor(self.data > as_array(other))

    def __ne__(self, other):
        return Tensor(self.data != as_array(other))

    def __le__(self, other):
        return Tensor(self.data <= as_array(other))

    def __ge__(self, other):
        return Tensor(self.data >= as_array(other))

    __hash__ = object.__hash__

    # --- shape and reductions -------------------------------------------------------------
    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        original = self.data.shape
        return Tensor.from_op(self.data.reshape(shape), (self,), lambda g: (g.reshape(original),))

    view = reshape

    def transpose(self, *axes):
        axes = axes[0] if len(axes) == 1 and isinstance(axes[0], (tuple, list)) else axes
        axes = axes or tuple(reversed(range(self.ndim)))
        inverse = np.argsort(axes)
        return Tensor.from_op(self.data.transpose(axes), (self,), lambda g: (g.transpose(inverse),))

    @property
    def T(self):
        return self.transpose()

    def sum(self, axis=None, keepdims=False):
        a = self.data

        def backward(g):
            if axis is not None and not keepdims:
                g = np.expand_dims(g, axis)
            return (np.broadcast_to(g, a.shape).copy(),)
        # integers keep their dtype, as MindSpore's ReduceSum (numpy would widen int32 to int64)
        dtype = a.dtype if a.dtype.kind in "iu" else None
        return Tensor.from_op(np.asarray(a.sum(axis=axis, keepdims=keepdims, dtype=dtype)), (self,),
                              backward)

    def mean(self, axis=None, keep_dims=False, keepdims=None):
        keep = keepdims if keepdims is not None else keep_dims
        count = self.data.size if axis is None else np.prod(
            [self.data.shape[i] for i in np.atleast_1d(axis)])
        if self.dtype != np.float16:
            return self.sum(axis=axis, keepdims=keep) * (1.0 / count)
        # summed and divided in float32, as MindSpore's ReduceMean: the float16 sum of large
        # values would overflow before the division (mean of [6e4, 5e4] is 5.5e4)
        total = self.sum(axis=axis, keepdims=keep)
        out = np.asarray(self.data.sum(axis=axis, keepdims=keep, dtype=np.float32) / count)
        return Tensor.from_op(out.astype(np.float16), (total,),
                              lambda g: (g * np.float16(1.0 / count),))

    def exp(self):
        out = np.exp(self.data)
        return Tensor.from_op(out, (self,), lambda g: (g * out,))

    def log(self):
        a = self.data
        return Tensor.from_op(np.log(a), (self,), lambda g: (g / a,))

    def abs(self):
        a = self.data
        return Tensor.from_op(np.abs(a), (self,), lambda g: (g * np.sign(a),))

    def argmax(self, axis=-1):
        return Tensor(self.data.argmax(axis=axis))

    def argmin(self, axis=-1):
        return Tensor(self.data.argmin(axis=axis))

    def max(self, axis=None, keepdims=False):
        return self._extreme(np.max, axis, keepdims)

    def min(self, axis=None, keepdims=False):
        return self._extreme(np.min, axis, keepdims)

    def _extreme(self, reduce, axis, keepdims):
        """max / min; the gradient is shared among the elements equal to the extreme."""
        a = self.data
        kept = reduce(a, axis=axis, keepdims=True)
        mask = (a == kept).astype(a.dtype if a.dtype.kind == "f" else np.float64)
        mask /= mask.sum(axis=axis, keepdims=True)
        out = kept if keepdims else reduce(a, axis=axis)
        return Tensor.from_op(np.asarray(out), (self,), lambda g: (
            mask * (g if keepdims or axis is None else np.expand_dims(g, axis)),))

    def squeeze(self, axis=None):
        return self.reshape(np.squeeze(np.empty(self.shape, np.bool_), axis).shape)

    def expand_dims(self, axis):
        return self.reshape(np.expand_dims(np.empty(self.shape, np.bool_), axis).shape)

    def flatten(self):
        return self.reshape(-1)

    def square(self):
        return self * self

    def tolist(self):
        return self.data.tolist()

    def copy(self):
        return Tensor(self.data.copy())


def _defers_to_torch(method):
    """The operator, returning NotImplemented for a torch operand: torch's reflected operator
    then runs, and Tensor.__torch_function__ gives it this Tensor's torch value."""
    def operator(self, other):
        if type(other).__module__.startswith("torch"):
            return NotImplemented
        return method(self, other)
    operator.__name__ = method.__name__
    return operator


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
              "__rtruediv__", "__matmul__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__",
              "__ge__"):
    setattr(Tensor, _name, _defers_to_torch(getattr(Tensor, _name)))


def _ops_method(name, function=None):
    """Tensor.<name>(...) as ops.<function or name>(self, ...) (imported when called: the ops
    import this module)."""
    def method(self, *args, **kwargs):
        from training.ops import functional
        return getattr(functional, function or name)(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"ops.{function or name}(self, ...), as MindSpore's Tensor.{name}."
    return method


# MindSpore's Tensor methods that are its ops functions applied to the tensor
for _name in ("prod", "all", "any", "cumprod", "floor", "ceil", "round", "sign", "sin", "cos",
              "tanh", "sigmoid", "reciprocal", "sqrt", "rsqrt", "norm", "std", "var", "sort",
              "topk", "masked_fill", "gather_elements", "pow", "neg", "isnan", "log1p", "expm1",
              "erf", "atan2", "floor_divide", "remainder", "fmod", "maximum", "minimum", "add",
              "sub", "mul", "div", "matmul", "logsumexp", "softmax", "flip", "roll", "tril", "triu",
              "broadcast_to", "diag", "nan_to_num", "unbind", "chunk", "split", "narrow",
              "tile", "clamp", "repeat_interleave"):
    setattr(Tensor, _name, _ops_method(_name))
Tensor.clip = _ops_method("clip", "clamp")
Tensor.unsqueeze = _ops_method("unsqueeze", "expand_dims")
Tensor.numel = Tensor.nelement = _ops_method("numel", "size")
for _name, _dtype in (("float", np.float32), ("half", np.float16), ("double", np.float64),
                      ("int", np.int32), ("long", np.int64), ("bool", np.bool_)):
    setattr(Tensor, _name, (lambda dtype: lambda self: _ops_method("cast")(self, dtype))(_dtype))


def _cumsum(self, axis=None, dtype=None):
    """Over the flattened tensor for axis None."""
    from training.ops import functional
    return functional.cumsum(self.reshape(-1) if axis is None else self, axis or 0, dtype)


def _permute(self, *axis):
    axis = axis[0] if len(axis) == 1 and isinstance(axis[0], (tuple, list)) else axis
    return self.transpose(tuple(axis))


def _swapaxes(self, axis0, axis1):
    order = list(range(self.ndim))
    order[axis0], order[axis1] = order[axis1], order[axis0]
    return self.transpose(tuple(order))


def _where(self, condition, y):
    """self where condition, else y."""
    from training.ops import functional
    return functional.where(condition, self, y)


def _fill(self, value):
    """Every element set to value, in place."""
    self.data[...] = value
    return self


Tensor.cumsum, Tensor.permute, Tensor.swapaxes, Tensor.where = _cumsum, _permute, _swapaxes, \
    _where
Tensor.fill_ = _fill
Tensor.dim = lambda self: self.ndim
Tensor.ravel = lambda self: self.reshape(-1)


class Parameter(Tensor):
    """A trainable (or state) tensor with a name, as `mindspore.Parameter`.

    On the torch backend a Parameter is bound to a `torch.nn.Parameter` that then holds its
    value (training.backends.torch_cells.bind): `data` reads it back as a numpy array (on the
    CPU a view of the same memory, elsewhere a host copy) and assigning `data` copies into it,
    so checkpoints, `set_data` and numpy code see one value on either backend."""
    _torch = None  # the bound torch.nn.Parameter, or None on the numpy backend

    @property
    def data(self):
        bound = self._torch
        if bound is None:
            return self._array
        from training.backends.torch_cells import host_array  # lazy: torch only when bound
        return host_array(bound, self._dtype)

    @data.setter
    def data(self, value):
        bound = self._torch
        if bound is None:
            self._array = value = np.asarray(value)
            self._dtype = value.dtype
        else:
            from training.backends.torch_cells import copy_into
            copy_into(bound, value)

    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        self._requires_grad = value
        bound = self._torch
        if bound is not None and bound.is_floating_point():  # freezing reaches torch too
            bound.requires_grad_(bool(value))

    def __init__(self, default_input, name=None, requires_grad=True, layerwise_parallel=False,
                 parallel_optimizer=True):
        super().__init__(np.array(as_array(default_input)))
        self.name = name
        self.requires_grad = requires_grad

    def set_data(self, data):
        """Replace the value in place (same shape), keeping the object optimizers hold."""
        new = np.asarray(as_array(data))
        if new.shape != self.data.shape and new.size != self.data.size:
            raise ValueError(f"Parameter '{self.name}': cannot set data of shape {new.shape} "
                             f"into a parameter of shape {self.data.shape}")
        self.data = new.reshape(self.data.shape).astype(self.data.dtype, copy=True)
        return self

    def clone(self, prefix, init="same"):
        value = np.zeros_like(self.data) if init == "zeros" else self.data.copy()
        return Parameter(value, name=f"{prefix}.{self.name}", requires_grad=False)

    def __repr__(self):
        return f"Parameter(name={self.name}, shape={list(self.shape)}, dtype={self.dtype}, " \
               f"requires_grad={self.requires_grad})"


class ParameterTuple(tuple):
    """A tuple of Parameters (`mindspore.ParameterTuple`), as optimizers and gradient functions
    take them."""

    def __new__(cls, iterable):
        items = tuple(iterable)
        for p in items:
            if not isinstance(p, Parameter):
                raise TypeError(f"For 'ParameterTuple', every element must be a Parameter, but "
                                f"got {type(p).__name__}")
        return super().__new__(cls, items)

    def clone(self, prefix, init="same"):
        return ParameterTuple(p.clone(prefix, init) for p in self)


def grad_of(output, wrt, sens=None):
    """Gradients of `output` (a Tensor) with respect to each tensor in `wrt`.

    `sens` is the gradient fed in at the output (ones by default, MindSpore's `sens`)."""
    seed = np.ones_like(output.data) if sens is None else np.broadcast_to(
        as_array(sens), output.data.shape).astype(output.data.dtype)
    # Topological order of the recorded graph, iteratively (deep networks overflow recursion).
    order, seen, stack = [], set(), [(output, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        if node._backward is not None:
            for parent in node._backward[1]:
                if parent is not None and id(parent) not in seen:
                    stack.append((parent, False))
    grads = {id(output): seed}
    for node in reversed(order):
        g = grads.pop(id(node), None) if node._backward is not None else grads.get(id(node))
        if g is None or node._backward is None:
            continue
        backward, parents = node._backward
        for parent, pg in zip(parents, backward(g)):
            if parent is None or pg is None:
                continue
            if parent._backward is None and not parent.requires_grad:
                continue
            key = id(parent)
            grads[key] = grads[key] + pg if key in grads else pg
    return [grads.get(id(t), np.zeros_like(t.data)).astype(t.data.dtype, copy=False) for t in wrt]
