"""training.ops's element-wise math, reductions and searches on both backends: values, dtypes
and gradients as measured in MindSpore 2.10 (tests/training/ops_measured.py), type rules and
argument errors."""
import numpy as np
import pytest

import training
from training import Tensor, ops

from tests.training.ops_calls import array_calls, flattened, math_calls
from tests.training.ops_measured import MEASURED

BACKENDS = ["numpy", pytest.param("torch", marks=pytest.mark.skipif(
    not __import__("importlib").util.find_spec("torch"), reason="torch not installed"))]


@pytest.fixture(params=BACKENDS)
def make(request):
    """The tensor maker of the backend: numpy-backend Tensors or torch tensors."""
    training.set_backend(request.param)
    try:
        yield Tensor if request.param == "numpy" else __import__("torch").tensor
    finally:
        training.set_backend(None)


def check_measured(calls, make):
    seen = 0
    for label, value in calls(ops, make, ops.grad):
        for name, dtype, shape, values in flattened(label, value):
            want = MEASURED[name]
            assert (dtype, shape) == want[:2], name
            np.testing.assert_allclose(np.asarray(values, np.float64),
                                       np.asarray(want[2], np.float64), rtol=1e-5, atol=1e-6,
                                       err_msg=name)
            seen += 1
    return seen


def test_math_and_reductions_as_measured(make):
    assert check_measured(math_calls, make) == 77


def test_arrays_as_measured_in_the_arrays_module():
    """(test_ops_arrays.py runs array_calls; this keeps both call lists measured.)"""
    assert {name.split("[")[0].split(" ")[0] for name in MEASURED} >= {"gather_d", "ceil"}


@pytest.mark.parametrize("call, error", [
    (lambda T: ops.sin(T(np.array([1, 2], np.int32))), TypeError),
    (lambda T: ops.exp(T(np.array([True]))), TypeError),
    (lambda T: ops.neg(T(np.array([True]))), TypeError),
    (lambda T: ops.bitwise_and(T(np.array([1.5], np.float32)), T(np.array([1.5], np.float32))),
     TypeError),
    (lambda T: ops.logical_and(T(np.array([1], np.int32)), 2.5), TypeError),
    (lambda T: ops.lerp(T(np.ones(2)), T(np.ones(2)), 0.5), TypeError),       # float64
    (lambda T: ops.addcmul(T(np.ones(2, np.float32)), T(np.ones(2)), T(np.ones(2)), 1),
     TypeError),
    (lambda T: ops.clamp(T(np.ones(2, np.float32)), -1.0, T(np.ones(2, np.float32))),
     TypeError),
    (lambda T: ops.clamp(T(np.ones(2, np.float32))), ValueError),
    (lambda T: ops.topk(T(np.ones(3, np.float32)), 0), ValueError),
    (lambda T: ops.cumsum(T(np.float32(1)), 0), ValueError),
    (lambda T: ops.ReduceProd(keep_dims=1), TypeError),
    (lambda T: ops.LpNorm(0)(T(np.ones(2))), TypeError),
    (lambda T: ops.L2Normalize()(T(np.ones(2, np.float16)), ), None),
    (lambda T: ops.norm(T(np.ones((2, 2), np.float32)), 3), ValueError),
    (lambda T: ops.prod(T(np.ones(2, np.float32)), None, True), ValueError),
])
def test_refused_as_mindspore_refuses(make, call, error):
    if error is None:
        call(make)
        return
    with pytest.raises(error):
        call(make)


def test_type_rules(make):
    i32 = make(np.array([1, 2], np.int32))
    assert str(ops.add(i32, 2.5).dtype).endswith("float32")
    assert str(ops.floor_div(i32, make(np.array([1, 1], np.int64))).dtype).endswith("int64")
    assert str(ops.reciprocal(i32).dtype).endswith("float32")
    assert str(ops.abs(make(np.array([True]))).dtype).endswith("bool")
    assert str(ops.cumprod(i32, 0).dtype).endswith("int64")       # the primitive keeps int32
    assert str(ops.CumProd()(i32, 0).dtype).endswith("int32")
    assert str(ops.argmin(make(np.ones((2, 2), np.float32)), 1).dtype).endswith("int32")


def test_integer_division_by_zero_gives_zero(make):
    x, zero = make(np.array([5, -5], np.int32)), make(np.array([0, 0], np.int32))
    for op in (ops.floor_div, ops.floor_mod, ops.fmod):
        assert np.asarray(training.Tensor(op(x, zero)).asnumpy() if hasattr(op(x, zero), "asnumpy")
                          else op(x, zero).numpy()).tolist() == [0, 0]


def test_xlogy_is_zero_where_x_is_zero_unless_y_is_nan(make):
    out = ops.xlogy(make(np.zeros(3, np.float32)), make(np.array([0, -1, np.nan], np.float32)))
    values = out.asnumpy() if hasattr(out, "asnumpy") else out.numpy()
    assert values[:2].tolist() == [0, 0] and np.isnan(values[2])
