"""The ops calls of test_ops_math.py and test_ops_arrays.py, written against a library's `ops`
and `Tensor` (this package's, or MindSpore 2.10's to measure the expected values): each yields
(label, result) and, for the gradient checks, (label + " grad", gradients of sum(result *
WEIGHTS)) with respect to the float inputs."""
import numpy as np

X = np.array([[-1.5, 0.25, 2.0], [0.5, -0.75, 3.0]], np.float32)
Y = np.array([2.0, -0.5, 1.5], np.float32)
WEIGHTS = np.cos(np.arange(6) * 0.71).reshape(2, 3).astype(np.float32)

UNARY = ["ceil", "floor", "round", "sign", "sin", "atan", "erf", "expm1", "log1p", "rsqrt",
         "reciprocal", "sqrt", "exp"]
BINARY = ["atan2", "floor_div", "floor_mod", "fmod", "xlogy", "maximum"]


def math_calls(ops, T, grad):
    x, y = T(X), T(Y)

    def gradient(f, *inputs):
        positions = tuple(range(len(inputs))) if len(inputs) > 1 else 0
        return grad(lambda *t: (f(*t) * T(WEIGHTS)).sum(), positions)(*inputs)
    for name in UNARY:
        f = getattr(ops, name)
        yield name, f(x)
        yield name + " grad", gradient(f, x)
    for name in BINARY:
        f = getattr(ops, name)
        yield name, f(x, y)
        yield name + " grad", gradient(f, x, y)
    yield "sqrt_int", ops.sqrt(T(np.array([1, 4, 2], np.int32)))
    yield "add_i32_f16", ops.add(T(np.array([1, 2], np.int32)), T(np.array([0.5, 1], np.float16)))
    yield "floor_div_int", ops.floor_div(T(np.array([7, -7, 3], np.int32)), 2)
    yield "clamp", ops.clamp(x, -0.5, 2.0)
    yield "clamp grad", gradient(lambda t: ops.clamp(t, -0.5, 2.0), x)
    yield "lerp", ops.lerp(x, T(np.ones((2, 3), np.float32)), 0.25)
    yield "addcdiv", ops.addcdiv(x, x, T(np.full((2, 3), 2.0, np.float32)), value=0.5)
    yield "prod", ops.prod(x, 1)
    yield "prod grad", gradient(lambda t: ops.prod(t, 1, keep_dims=True) * T(np.ones((2, 3),
                                                                                   np.float32)), x)
    yield "prod_int", ops.prod(T(np.array([[1, 2], [3, 4]], np.int32)), 1)
    yield "cumsum", ops.cumsum(x, 1)
    yield "CumSum_ex_rev", ops.CumSum(True, True)(x, 1)
    yield "cumsum grad", gradient(lambda t: ops.cumsum(t, 1), x)
    yield "cumprod", ops.cumprod(x, 1)
    yield "cumprod grad", gradient(lambda t: ops.cumprod(t, 1), x)
    yield "sort", ops.sort(x, 1, True)
    yield "topk", ops.topk(x, 2)
    yield "argmin", ops.argmin(x, 1)
    yield "max", ops.max(x, 1, True)
    yield "ArgMaxWithValue", ops.ArgMaxWithValue(1)(x)
    yield "norm", ops.norm(x)
    yield "norm_inf", ops.norm(x, float("inf"))
    yield "norm_1_dim", ops.norm(x, 1, dim=1)
    yield "norm_nuc", ops.norm(x, "nuc")
    yield "norm grad", gradient(lambda t: ops.norm(t) * T(np.ones((2, 3), np.float32)), x)
    yield "L2Normalize", ops.L2Normalize(1)(x)
    yield "count_nonzero", ops.count_nonzero(T(np.array([[0, 1, 2], [0, 0, 3]], np.int32)), 1)
    yield "any", ops.any(T(np.array([[0, 1], [0, 0]], np.bool_)), 1)
    yield "all", ops.ReduceAll(True)(T(np.array([[1, 1], [0, 1]], np.bool_)), 0)


def array_calls(ops, T, grad):
    x, y = T(X), T(Y)
    index = T(np.array([[2, 0], [1, 1]], np.int32))

    def gradient(f, *inputs):
        positions = tuple(range(len(inputs))) if len(inputs) > 1 else 0
        return grad(lambda *t: (f(*t) * T(WEIGHTS)).sum(), positions)(*inputs)
    yield "gather_d", ops.gather_d(x, 1, index)
    yield "gather_d grad", gradient(lambda t: ops.tile(ops.gather_d(t, 1, index), (1, 2))[:, :3],
                                    x)
    yield "gather_nd", ops.gather_nd(x, T(np.array([[1, 2], [0, 0]], np.int32)))
    yield "scatter_nd", ops.scatter_nd(T(np.array([[1], [0], [1]], np.int32)),
                                       T(np.array([1., 2., 3.], np.float32)), (3,))
    yield "tensor_scatter_update", ops.tensor_scatter_update(
        x, T(np.array([[0, 1]], np.int32)), T(np.array([9.], np.float32)))
    yield "tensor_scatter_add", ops.tensor_scatter_add(x, T(np.array([[1], [1]], np.int32)),
                                                       T(np.ones((2, 3), np.float32)))
    yield "broadcast_to", ops.broadcast_to(y, (2, 3))
    yield "tril", ops.tril(x)
    yield "triu", ops.triu(x, 1)
    yield "diag", ops.diag(y)
    yield "flip", ops.flip(x, (1,))
    yield "pad", ops.pad(x, (1, 2), value=-1.0)
    yield "pad_reflect", ops.pad(T(np.arange(6, dtype=np.float32).reshape(1, 2, 3)), (2, 1),
                                 mode="reflect")
    yield "pad grad", gradient(lambda t: ops.pad(t, (1, 2), mode="constant")[:, 1:4], x)
    yield "MirrorPad", ops.MirrorPad("SYMMETRIC")(x, T(np.array([[1, 0], [0, 2]], np.int32)))
    yield "slice", ops.slice(x, (0, 1), (2, 2))
    yield "strided_slice", ops.strided_slice(x, (0, 0), (2, 3), (1, 2))
    yield "masked_fill", ops.masked_fill(x, T(np.array([True, False, True])), 0.5)
    yield "masked_select", ops.masked_select(x, T(X > 0))
    yield "unstack", ops.unstack(x, 1)
    yield "meshgrid", ops.meshgrid(y, T(np.array([1., 2.], np.float32)))
    yield "eye", ops.eye(2, 3)
    yield "arange", ops.arange(0, 2, 0.5)
    yield "arange_int", ops.arange(5)
    yield "linspace", ops.linspace(0., 1., 5)
    yield "BiasAdd", ops.BiasAdd()(T(np.zeros((2, 3, 1, 1), np.float32)), y)
    yield "chunk", ops.chunk(T(np.arange(5, dtype=np.float32)), 2)
    yield "narrow", ops.narrow(x, 1, 1, 2)
    yield "size", ops.size(x)
    yield "rank", ops.rank(x)


def flattened(label, value):
    """[(label, dtype name, shape, values)] of a result (tuples of tensors item by item)."""
    if isinstance(value, (tuple, list)):
        return [row for i, item in enumerate(value) for row in flattened(f"{label}[{i}]", item)]
    if isinstance(value, int):
        return [(label, "int", (), value)]
    array = value.asnumpy() if hasattr(value, "asnumpy") else value.detach().cpu().numpy()
    return [(label, str(array.dtype), tuple(array.shape), array.tolist())]
