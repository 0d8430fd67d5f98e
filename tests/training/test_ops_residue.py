"""training.ops against values measured in MindSpore 2.10 (PyNative, CPU) where the ops tool
found them to differ: float16 gradients of the inverse trigonometric and hyperbolic functions,
erf, erfc and softplus in MindSpore's rounding order; MulNoNan's gradient for y where y is 0;
ops.xlogy of two bools; Softmin with a tuple axis. On both backends; float16 bit for bit on the
numpy backend (the torch backend runs torch's float16 kernels: within 1% here)."""
import numpy as np
import pytest

import training as ms
from training import nn, ops

from tests.training.both_backends import as_input, backend, values  # noqa: F401 (fixture)

H = np.float16

# (name, x, g, forward, gradient of sum(f(x) * g)), measured in MindSpore 2.10
FLOAT16 = [
    ('asin', [0.96484375, 0.97314453125, 0.136474609375], [-0.12017822265625, -5256.0, -0.00035119056701660156],
     [1.3046875, 1.3388671875, 0.1368408203125], [-0.457275390625, -22832.0, -0.00035452842712402344]),
    ('acos', [0.96484375, 0.97216796875, -0.5], [-0.12017822265625, 1.318359375, -0.40087890625],
     [0.265869140625, 0.2364501953125, 2.09375], [0.457275390625, -5.62890625, 0.462890625]),
    ('asinh', [3.78125, 4.59375, 200.0], [7436.0, -2206.0, -0.12353515625],
     [2.041015625, 2.228515625, 5.9921875], [1900.0, -469.75, -0.0006170272827148438]),
    ('acosh', [1.0078125, 5.0, 38.3125], [1.54296875, -0.003597259521484375, -5.609375],
     [0.12493896484375, 2.29296875, 4.33984375], [12.3203125, -0.0007338523864746094, -0.146240234375]),
    ('atanh', [206.25, 0.015655517578125, -0.5], [-20.765625, 3.365234375, -0.40087890625],
     [float("nan"), 0.015655517578125, -0.54931640625], [0.00048828125, 3.3671875, -0.53466796875]),
    ('erf', [2.0, 3.234375, 0.015716552734375], [1913.0, -15168.0, -801.0],
     [0.9951171875, 1.0, 0.017730712890625], [39.53125, -0.489013671875, -902.5]),
    ('erfc', [2.0, 3.19921875, 1.0869140625], [1913.0, 17536.0, -266.0],
     [0.00467681884765625, 6.079673767089844e-06, 0.124267578125], [-39.53125, -0.7109375, 92.0625]),
    ('softplus', [-2.525390625, -1.0, 25.0], [-169.875, 0.010162353515625, 0.0013494491577148438],
     [0.07696533203125, 0.313232421875, 25.0], [-12.5859375, 0.0027332305908203125, 0.0013494491577148438]),
]


@pytest.mark.parametrize("name, x, g, out, grad", FLOAT16, ids=[case[0] for case in FLOAT16])
def test_float16_gradient_in_mindspore_rounding_order(backend, name, x, g, out, grad):
    """asin's and acos's gradients are g / sqrt(1 - x^2), asinh's g / cosh(out), acosh's
    g / sinh(out), softplus's g / (1 + exp(-x)), each in float32 rounded once; atanh's
    g / (1 - x^2) and erf's g * (1.128 * exp(-x^2)) in float16 steps (we gave, e.g., asin
    -22784 for -22832, asinh 1903 for 1900, softplus -12.61 for -12.59, erf's -903 for
    -902.5); erfc is erfc itself (1 - erf gave 0.1240 for 0.1243); asin of float16 through
    float64 (0.137 for 0.1368)."""
    function = getattr(ops, name)
    x_in, g_in = as_input(backend, np.array(x, H)), as_input(backend, np.array(g, H))
    got_out = values(function(x_in))
    got_grad = values(ms.grad(lambda v: (function(v) * g_in).sum())(x_in))
    for got, expected in ((got_out, out), (got_grad, grad)):
        expected = np.asarray(expected, H)
        assert got.dtype == H
        if backend == "numpy":
            same = (got.view(np.uint16) == expected.view(np.uint16)) | (
                np.isnan(got) & np.isnan(expected))
            assert same.all(), (got, expected)
        else:
            np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64),
                                       rtol=1e-2)


def test_mul_no_nan_gradient_for_y_where_y_is_zero(backend):
    """MulNoNan's gradient for y is g * x even where y is 0 (inf for x inf), for x 0 there
    (MindSpore: [[0, 0, 9]] and [1, inf, 6]; the torch backend gave y's 0 where y is 0)."""
    x = as_input(backend, np.array([[1.0, np.inf, 2.0]], np.float32))
    y = as_input(backend, np.array([0.0, 0.0, 3.0], np.float32))
    weights = as_input(backend, np.array([1.0, 2.0, 3.0], np.float32))
    gx, gy = ms.grad(lambda a, b: (ops.MulNoNan()(a, b) * weights).sum(), (0, 1))(x, y)
    np.testing.assert_array_equal(values(gx), [[0.0, 0.0, 9.0]])
    np.testing.assert_array_equal(values(gy), [1.0, np.inf, 6.0])


def test_mul_no_nan_int_and_float16_zero(backend):
    """An int32 x beside a 0-d float16 y of 0: y's gradient is sum(g * x) (MindSpore: 15)."""
    x = as_input(backend, np.arange(6, dtype=np.int32).reshape(2, 1, 3))
    y = as_input(backend, np.array(0, H))
    weights = as_input(backend, np.ones((2, 1, 3), H))
    grad = values(ms.grad(lambda b: (ops.MulNoNan()(x, b) * weights).sum())(y))
    assert grad.dtype == H and grad == 15


def test_xlogy_of_two_bools_is_float32(backend):
    """ops.xlogy of two bool tensors (or a bool tensor and a Python bool) computes in float32,
    as MindSpore's function ([0, 0, -inf]); its primitive Xlogy refuses bools (TypeError; we
    refused both)."""
    x = as_input(backend, np.array([True, False, True]))
    y = as_input(backend, np.array([True, True, False]))
    out = values(ops.xlogy(x, y))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [0.0, 0.0, -np.inf])
    np.testing.assert_array_equal(values(ops.xlogy(x, True)), [0.0, 0.0, 0.0])
    with pytest.raises(TypeError):
        ops.Xlogy()(x, y)


def test_xlogy_takes_a_python_number_as_a_float32_tensor(backend):
    """ops.xlogy makes a Python number a float32 tensor, as MindSpore's function: of a float16
    tensor and 2.5 float32 ([1.3744361, 1.8325815]), of an int32 tensor and 2 float32
    ([0.6931472, 1.3862944]; we gave float16 and refused the int32), the float16 tensor's
    gradient float16."""
    half = as_input(backend, np.array([1.5, 2.0], H))
    out = values(ops.xlogy(half, 2.5))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [1.3744361, 1.8325815], rtol=1e-6)
    out = values(ops.xlogy(as_input(backend, np.array([1, 2], np.int32)), 2))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [0.6931472, 1.3862944], rtol=1e-6)
    assert values(ms.grad(lambda t: ops.xlogy(t, 2).sum())(half)).dtype == H


def test_softmin_tuple_axis(backend):
    """A tuple axis: each axis checked first (ValueError out of range), then one axis taken
    and more refused (MindSpore: ValueError 'the axis must be in [-1,1)' for (0, 1) of a 1-D
    input, [0.6652, 0.2447, 0.0900] for (0,), RuntimeError for (0, 1) of a 2-D input; we
    raised RuntimeError for every tuple)."""
    x = as_input(backend, np.array([1.0, 2.0, 3.0], np.float32))
    with pytest.raises(ValueError, match=r"\[-1,1\)"):
        nn.Softmin(axis=(0, 1))(x)
    np.testing.assert_allclose(values(nn.Softmin(axis=(0,))(x)),
                               [0.6652413, 0.2447282, 0.09003057], rtol=1e-5)
    with pytest.raises(RuntimeError):
        nn.Softmin(axis=(0, 1))(as_input(backend, np.ones((2, 3), np.float32)))


def test_matrix_norm_of_integers_and_float16(backend):
    """Matrix norms of integer and bool inputs, as MindSpore 2.10's ops.norm: ord 1 and -1 sum
    in int64, inf and -inf keep the type, 'fro', 'nuc', 2 and -2 are float32 (of int32
    [[-2, -1, 0], [1, 2, 3]]: 3, 3, 6, 3, 4.358899, 5.804906, 3.9396434, 1.8652623); bools
    are refused for 'fro' and inf (TypeError); float16's singular values are float32; the
    singular values of an empty matrix are a RuntimeError; a str ord of a vector norm a
    TypeError (we refused every integer matrix norm, float16's 2 and 'nuc')."""
    x = as_input(backend, (np.arange(6) - 2).astype(np.int32).reshape(2, 3))
    expected = [(1, np.int64, 3), (-1, np.int64, 3), (float("inf"), np.int32, 6),
                (float("-inf"), np.int32, 3), ("fro", np.float32, 4.358899),
                ("nuc", np.float32, 5.804906), (2, np.float32, 3.9396434),
                (-2, np.float32, 1.8652623)]
    for ord_, dtype, value in expected:
        out = values(ops.norm(x, ord_))
        assert out.dtype == dtype, ord_
        np.testing.assert_allclose(out, value, rtol=1e-5)
    flags = as_input(backend, np.array([[True, False, True], [False, True, True]]))
    out = values(ops.norm(flags, 1, dim=(1, 0)))
    assert out.dtype == np.int64 and out == 2
    for ord_ in ("fro", float("inf")):
        with pytest.raises(TypeError):
            ops.norm(flags, ord_)
    out = values(ops.norm(as_input(backend, np.array([[3, 0], [0, 4]], H)), 2))
    assert out.dtype == np.float32 and out == 4
    with pytest.raises(RuntimeError, match="Svd"):
        ops.norm(as_input(backend, np.zeros((0, 3), np.float32)), "nuc")
    with pytest.raises(TypeError, match="can not be str"):
        ops.norm(x, "fro", dim=1)


def test_softmax_tuple_axis_checked(backend):
    """nn.Softmax's tuple axis (taken, as documented) is checked as MindSpore's primitive
    checks it: () is a ValueError ('the length of axis must be greater than or equal to 1'),
    an axis out of range a ValueError ('the axis must be in [-1,1)'; we gave [1, 1, 1] for
    () on the numpy backend, numpy's AxisError and torch's IndexError)."""
    x = as_input(backend, np.array([1.0, 2.0, 3.0], np.float32))
    with pytest.raises(ValueError, match="greater than or equal to 1"):
        nn.Softmax(axis=())(x)
    with pytest.raises(ValueError, match=r"\[-1,1\)"):
        nn.Softmax(axis=(0, 1))(x)
    np.testing.assert_allclose(values(nn.Softmax(axis=(0,))(x)),
                               [0.09003057, 0.24472848, 0.66524094], rtol=1e-5)
