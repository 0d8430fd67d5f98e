"""What the training differential tools found against MindSpore 2.10 (values measured there):
the pooling layers' flag checks, MultiLabelSoftMarginLoss's broadcast target, bools in Minimum
and RealDiv, RealDiv's int64 division by zero, clamp's and clip_by_value's result types. Both
backends."""
import numpy as np
import pytest

import training as ms
from training import nn, ops
from tests.training.both_backends import as_input, backend, values  # noqa: F401  (fixture)

X1 = np.linspace(-1, 1, 12, dtype=np.float32).reshape(1, 2, 6)
X2 = np.linspace(-1, 1, 72, dtype=np.float32).reshape(1, 2, 6, 6)
X3 = np.linspace(-1, 1, 432, dtype=np.float32).reshape(1, 2, 6, 6, 6)


@pytest.mark.parametrize("name, x, kwargs, shape", [
    # MindSpore checks the flags where it hands them to its 3-D primitives only: 0 and None
    # are False on its plain MaxPool/AvgPool, 1 True
    ("MaxPool1d", X1, {"pad_mode": "valid", "ceil_mode": 0}, (1, 2, 2)),
    ("MaxPool2d", X2, {"pad_mode": "same", "ceil_mode": None}, (1, 2, 3, 3)),
    ("AvgPool1d", X1, {"pad_mode": "valid", "count_include_pad": 1}, (1, 2, 2)),
    ("AvgPool2d", X2, {"pad_mode": "same", "ceil_mode": 0, "count_include_pad": 1},
     (1, 2, 3, 3)),
    ("MaxPool3d", X3, {"pad_mode": "pad", "ceil_mode": 1}, (1, 2, 3, 3, 3)),
    ("MaxPool3d", X3, {"pad_mode": "valid", "ceil_mode": None}, (1, 2, 2, 2, 2)),
])
def test_pooling_flags_taken_where_mindspore_takes_them(backend, name, x, kwargs, shape):
    out = getattr(nn, name)(3, 2, **kwargs)(as_input(backend, x))
    assert values(out).shape == shape


@pytest.mark.parametrize("name, kwargs", [
    ("MaxPool1d", {"pad_mode": "pad", "ceil_mode": 0}),
    ("MaxPool2d", {"pad_mode": "pad", "ceil_mode": None}),
    ("MaxPool3d", {"pad_mode": "pad", "dilation": 2, "ceil_mode": 1}),
    ("MaxPool3d", {"pad_mode": "pad", "return_indices": True, "ceil_mode": 0}),
    ("AvgPool1d", {"pad_mode": "pad", "count_include_pad": 1}),
    ("AvgPool1d", {"pad_mode": "valid", "count_include_pad": 0}),
    ("AvgPool2d", {"pad_mode": "valid", "divisor_override": 2, "ceil_mode": 0}),
    ("AvgPool3d", {"pad_mode": "valid", "ceil_mode": 0}),
])
def test_pooling_flags_refused_where_mindspore_checks_them(name, kwargs):
    with pytest.raises(TypeError, match="bool"):
        getattr(nn, name)(3, 2, **kwargs)


@pytest.mark.parametrize("name", ["MaxPool1d", "MaxPool2d", "MaxPool3d"])
def test_max_pool_tuple_dilation_of_ones_wants_pad_mode(name):
    dims = int(name[-2])
    with pytest.raises(ValueError):     # (MindSpore tests dilation != 1)
        getattr(nn, name)(3, 2, "valid", dilation=(1,) * dims)


# input [[0.5, -1.0]]; MindSpore 2.10's unreduced loss and the gradient of its sum
MULTILABEL = [
    ((1, 2, 2), "none", [0.9741, 1.3133], [0.6225, -0.7311]),
    ((1, 2, 2), "mean", 1.1437, [0.3112, -0.3655]),
    ((3, 1, 2), "none", [0.487, 0.6566] * 3, [0.9337, -1.0966]),
    ((3, 1, 2), "mean", 0.5718, [0.1556, -0.1828]),
    ((1, 2, 1), "none", [0.7241, 0.8133], [0.1225, -0.2311]),
    ((2, 1), "none", [0.6437, 0.8937], [0.1225, -0.2311]),
]


@pytest.mark.parametrize("target_shape, reduction, expected, grad", MULTILABEL)
def test_multilabel_soft_margin_sums_over_the_inputs_last_axis(backend, target_shape,
                                                               reduction, expected, grad):
    x = as_input(backend, np.array([[0.5, -1.0]], np.float32))
    target = as_input(backend, (np.arange(np.prod(target_shape)) % 2).reshape(
        target_shape).astype(np.float32))
    loss = nn.MultiLabelSoftMarginLoss(reduction=reduction)
    np.testing.assert_allclose(values(loss(x, target)).ravel(), np.ravel(expected), atol=1e-4)
    gradient = ms.grad(lambda v: loss(v, target).sum())(x)
    np.testing.assert_allclose(values(gradient).ravel(), grad, atol=1e-4)


@pytest.mark.parametrize("op", ["Minimum", "RealDiv"])
def test_bool_results_refused(backend, op):
    b = as_input(backend, np.array([True, False, True]))
    with pytest.raises(TypeError):
        getattr(ops, op)()(b, b)
    with pytest.raises(TypeError):
        getattr(ops, op)()(True, b)
    if op == "Minimum":
        with pytest.raises(TypeError):
            ops.minimum(b, True)
    mixed = getattr(ops, op)()(b, as_input(backend, np.array([1, 0, 2], np.int32)))
    assert values(mixed).dtype == np.int32      # (bool with int32: int32, as before)


def test_real_div_int64_by_zero_is_the_largest_int64(backend):
    zero = as_input(backend, np.array([0, 0, 1], np.int64))
    out = values(ops.RealDiv()(as_input(backend, np.array([1, -1, 7], np.int64)), zero))
    np.testing.assert_array_equal(out, [np.iinfo(np.int64).max, np.iinfo(np.int64).min, 7])


@pytest.mark.parametrize("x_type, bound_type, expected_type, expected", [
    (np.float16, np.float32, np.float32, [-0.5, 0.19995117, 0.7]),
    (np.float32, np.float64, np.float64, [-0.5, 0.2, 0.7]),
    (np.int32, np.float16, np.float16, [-0.5, 0.0, 0.7]),
    (np.int32, np.int64, np.int64, [0, 0, 0]),
    (np.float16, np.int32, np.float16, [0, 0, 0]),
])
def test_clamp_gives_the_type_of_input_and_tensor_bounds(backend, x_type, bound_type,
                                                         expected_type, expected):
    x = as_input(backend, np.array([-1.5, 0.2, 2.5]).astype(x_type))
    low, high = (as_input(backend, np.array(v).astype(bound_type)) for v in (-0.5, 0.7))
    out = values(ops.clamp(x, low, high))
    assert out.dtype == expected_type
    np.testing.assert_allclose(out, expected, rtol=1e-3)


@pytest.mark.parametrize("low, high, expected", [
    (-0.5, None, [0, 0, 2]), (None, 0.7, [-1, 0, 0]), (-0.5, 0.7, [0, 0, 0]),
    ("tensor", 0.7, [0, 0, 0])])
def test_clip_by_value_takes_bounds_in_the_inputs_type(backend, low, high, expected):
    x = as_input(backend, np.array([-1.5, 0.2, 2.5]).astype(np.int32))
    if low == "tensor":
        low = as_input(backend, np.array(-0.5, np.float32))
    out = values(ops.clip_by_value(x, low, high))
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("size, filter_size, levels, error", [
    # MindSpore 2.10's graph checks each scale's 2x2 pooling before its filter's window
    ((6, 8), 2, 3, RuntimeError), ((3, 3), 2, 2, RuntimeError), ((1, 9), 2, 1, RuntimeError),
    ((6, 8), 11, 3, ValueError), ((12, 12), 7, 3, ValueError), ((4, 4), 3, 2, ValueError)])
def test_msssim_too_small_images_raise_mindspores_first_error(size, filter_size, levels, error):
    x = ms.Tensor(np.ones((1, 1) + size, np.float32))
    with pytest.raises(error):
        nn.MSSSIM(filter_size=filter_size, power_factors=(0.3,) * levels)(x, x)


A = np.array([[3.0, -4.0], [1.0, 2.0]], np.float32)


@pytest.mark.parametrize("max_norm, norm_type, expected", [
    (1.0, 2.0, [[0.54772, -0.7303], [0.18257, 0.36515]]),
    (10.0, 2.0, A), (1.0, float("inf"), [[0.75, -1.0], [0.25, 0.5]]),
    (-1.0, 2.0, [[-0.54772, 0.7303], [-0.18257, -0.36515]]),
    (1.0, 1, A / 10)])      # (the L1 norm, 10: MindSpore's signed sum gives 2, documented)
def test_ops_clip_by_norm(backend, max_norm, norm_type, expected):
    out = ops.clip_by_norm(as_input(backend, A), max_norm, norm_type)
    np.testing.assert_allclose(values(out), expected, atol=1e-5)


def test_ops_clip_by_norm_of_a_list_and_its_gradient(backend):
    b = np.array([1.0, -2.0], np.float32)
    first, second = ops.clip_by_norm([as_input(backend, A), as_input(backend, b)], 1.0)
    np.testing.assert_allclose(values(first), [[0.50709, -0.67612], [0.16903, 0.33806]],
                               atol=1e-5)
    np.testing.assert_allclose(values(second), [0.16903, -0.33806], atol=1e-5)
    gradient = ms.grad(lambda v: ops.clip_by_norm(v, 1.0).sum())(as_input(backend, A))
    np.testing.assert_allclose(values(gradient), [[0.14606, 0.23126], [0.1704, 0.15823]],
                               atol=1e-5)
    half = ops.clip_by_norm(as_input(backend, np.array(5.0, np.float16)), 1.0, 1)
    assert values(half).dtype == np.float16 and float(values(half)) == 1.0
    assert values(ops.clip_by_norm(as_input(backend, np.array([3, 4], np.int32)),
                                   1.0)).dtype == np.float32


def test_ops_clip_by_norm_errors():
    with pytest.raises(RuntimeError):
        ops.clip_by_norm(ms.Tensor(np.array([np.inf, 4.0], np.float32)), 1.0,
                         error_if_nonfinite=True)
    with pytest.raises(TypeError):
        ops.clip_by_norm([ms.Tensor(np.ones(1, np.float16)), ms.Tensor(np.ones(1, np.float32))],
                         1.0)
    with pytest.raises(ValueError):
        ops.clip_by_norm([], 1.0)
    with pytest.raises(TypeError):
        ops.clip_by_norm(ms.Tensor(A), "1")


X = np.arange(2 * 2 * 4 * 5, dtype=np.float32).reshape(2, 2, 4, 5)


@pytest.mark.parametrize("args, kwargs, shape, first", [
    ((2,), {}, (2, 8, 12), [0, 1, 2, 3, 5, 6, 7, 8]),
    (((2, 3),), {"dilation": (1, 2), "padding": (1, 0), "stride": (2, 1)}, (2, 12, 3),
     [0, 5, 15, 0, 7, 17, 0, 9]),
    ((3,), {"padding": 1, "stride": 2}, (2, 18, 6), [0, 0, 0, 0, 6, 8, 0, 0]),
    (([2, 2],), {}, (2, 8, 12), [0, 1, 2, 3, 5, 6, 7, 8])])
def test_ops_unfold(backend, args, kwargs, shape, first):
    out = values(ops.unfold(as_input(backend, X), *args, **kwargs))
    assert out.shape == shape
    np.testing.assert_array_equal(out.ravel()[:8], first)


def test_ops_unfold_gradient_counts_each_blocks_elements(backend):
    gradient = ms.grad(lambda v: (ops.unfold(v, 2) * 1.5).sum())(as_input(backend, X))
    np.testing.assert_array_equal(values(gradient).ravel()[:8], [1.5, 3, 3, 3, 1.5, 3, 6, 6])


@pytest.mark.parametrize("args, kwargs, error", [
    ((2,), {"padding": -1}, ValueError), ((0,), {}, ValueError), ((2.0,), {}, TypeError),
    (((2, 2, 2),), {}, ValueError), ((2,), {"stride": 0}, ValueError),
    ((2,), {"padding": (1, 1, 1, 1)}, ValueError), ((6,), {}, ValueError)])
def test_ops_unfold_refuses_what_mindspore_refuses(args, kwargs, error):
    with pytest.raises(error):
        ops.unfold(ms.Tensor(X), *args, **kwargs)
    with pytest.raises(ValueError):
        ops.unfold(ms.Tensor(np.ones((2, 4, 5), np.float32)), 2)


@pytest.mark.parametrize("name", ["PixelShuffle", "PixelUnshuffle"])
def test_pixel_shuffle_factor_errors_as_mindspores(name):
    for factor, error in ((2.0, TypeError), (True, TypeError), ("2", TypeError), (0, ValueError)):
        with pytest.raises(error):
            getattr(nn, name)(factor)
