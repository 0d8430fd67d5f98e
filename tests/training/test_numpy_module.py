"""training.numpy (mindspore.numpy) on both backends: result types, values and errors as
measured in MindSpore 2.10, and gradients through its functions."""
import numpy as np
import pytest

import training
import training.numpy as mnp
from training import ops

from tests.training.both_backends import BACKENDS, values


def _array(data, dtype):
    """Python floats as float32, as MindSpore's Tensor makes them."""
    array = np.asarray(data, dtype)
    return array.astype(np.float32) if dtype is None and array.dtype == np.float64 else array


@pytest.fixture(params=BACKENDS)
def make(request):
    """The tensor maker of the backend: numpy-backend Tensors or torch tensors."""
    training.set_backend(request.param)
    try:
        if request.param == "numpy":
            yield lambda data, dtype=None: training.Tensor(_array(data, dtype))
        else:
            torch = __import__("torch")
            yield lambda data, dtype=None: torch.tensor(_array(data, dtype))
    finally:
        training.set_backend(None)


def check(out, dtype, expected):
    got = values(out)
    assert got.dtype == np.dtype(dtype), (got.dtype, dtype)
    np.testing.assert_allclose(got.astype(np.float64), np.asarray(expected, np.float64),
                               rtol=1e-6, atol=1e-6)


def test_creation_types_as_mindspore():
    check(mnp.array(1.0), np.float32, 1.0)
    check(mnp.array([1, 2]), np.int32, [1, 2])
    check(mnp.array([1, 2.5]), np.float32, [1, 2.5])
    check(mnp.full((2,), 3), np.int32, [3, 3])
    check(mnp.full((2,), True), np.bool_, [True, True])
    check(mnp.zeros((2, 3)), np.float32, np.zeros((2, 3)))
    check(mnp.arange(5), np.int32, range(5))
    check(mnp.arange(0, 2, 0.5), np.float32, [0, 0.5, 1, 1.5])
    check(mnp.linspace(0, 1, 5), np.float32, [0, 0.25, 0.5, 0.75, 1])
    check(mnp.linspace(0, 10, 5, dtype=mnp.int32), np.int32, [0, 2, 5, 7, 10])
    check(mnp.logspace(0, 2, 3), np.float32, [1, 10, 100])
    check(mnp.tri(2, 3, 1, mnp.int32), np.int32, [[1, 1, 0], [1, 1, 1]])
    check(mnp.eye(2, 3, 1, mnp.int32), np.int32, [[0, 1, 0], [0, 0, 1]])
    out, step = mnp.linspace(0, 1, 5, retstep=True)
    check(step, np.float32, 0.25)
    with pytest.raises(ValueError):
        mnp.zeros(-1)
    with pytest.raises(TypeError):
        mnp.zeros(2.0)
    with pytest.raises(ValueError):
        mnp.arange(5, 0)


def test_math_types_as_mindspore(make):
    i32, f32 = make([1, 2, 3], np.int32), make([1.0, 2.0, 3.0], np.float32)
    flags = make([True, False, True])
    check(mnp.add(i32, f32), np.float32, [2, 4, 6])
    check(mnp.add(i32, 1.5), np.float32, [2.5, 3.5, 4.5])
    check(mnp.add(i32, [1, 2, 3]), np.int32, [2, 4, 6])
    check(mnp.add(1, 2), np.int32, 3)
    check(mnp.divide(i32, i32), np.float32, [1, 1, 1])
    check(mnp.true_divide(i32, 2), np.float32, [0.5, 1, 1.5])
    check(mnp.floor_divide(i32, 2), np.int32, [0, 1, 1])
    check(mnp.power(i32, -1), np.int32, [1, 0, 0])
    check(mnp.sqrt(i32), np.float32, np.sqrt([1, 2, 3]))
    check(mnp.sin(i32), np.float32, np.sin([1, 2, 3]))
    check(mnp.sin(flags), np.float16, np.sin(np.float16([1, 0, 1])))
    check(mnp.ceil(make([1.5], np.float64)), np.float32, [2])
    check(mnp.sign(i32), np.float32, [1, 1, 1])
    check(mnp.square(i32), np.int32, [1, 4, 9])
    check(mnp.clip(i32, 1.5, 2), np.int32, [1, 2, 2])
    check(mnp.where(flags, 1, 0), np.int32, [1, 0, 1])
    check(mnp.where(flags, i32, f32), np.float32, [1, 2, 3])
    check(mnp.isclose(f32, f32), np.bool_, [True] * 3)
    check(mnp.logical_and(i32, i32), np.bool_, [True] * 3)
    for refused in (lambda: mnp.exp(i32), lambda: mnp.log(i32), lambda: mnp.negative(flags),
                    lambda: mnp.add(flags, flags), lambda: mnp.minimum(flags, flags)):
        with pytest.raises(TypeError):
            refused()


def test_reductions_as_mindspore(make):
    i32 = make([1, 2, 3], np.int32)
    check(mnp.sum(i32), np.int64, 6)
    check(mnp.sum(i32, dtype=mnp.float32), np.float32, 6)
    check(mnp.mean(i32), np.int32, 2)
    check(mnp.std(i32), np.float32, 0.8164966)
    check(mnp.var(make([1.0, 2.0, 3.0]), ddof=1), np.float32, 1.0)
    check(mnp.amax(i32), np.int32, 3)
    check(mnp.argmax(make([1.0, 2.0, 3.0])), np.int64, 2)
    check(mnp.argmin(make([1.0, 2.0, 3.0])), np.int32, 0)
    check(mnp.cumsum(make([True, False, True])), np.int32, [1, 1, 2])
    check(mnp.cumprod(i32), np.int32, [1, 2, 6])
    check(mnp.sum(make(np.ones((2, 3), np.float32)), 1, keepdims=True), np.float32, [[3], [3]])
    with pytest.raises(ValueError):
        mnp.sum(make([1.0, 2.0]), axis=3)
    with pytest.raises(TypeError):
        mnp.sum(make([1.0, 2.0]), axis=1.0)
    with pytest.raises(RuntimeError):
        mnp.mean(make([True]))


def test_shapes_and_indexing_as_mindspore(make):
    x = make(np.arange(6, dtype=np.float32).reshape(2, 3))
    check(mnp.rot90(x), np.float32, [[2, 5], [1, 4], [0, 3]])
    check(mnp.roll(x, 1, 1), np.float32, [[2, 0, 1], [5, 3, 4]])
    check(mnp.diagonal(x, 1), np.float32, [1, 5])
    check(mnp.take(x, mnp.array([0, 7])), np.float32, [0, 5])        # clipped
    check(mnp.take_along_axis(x, mnp.array([[0], [2]]), 1), np.float32, [[0], [5]])
    check(mnp.pad(x, ((1, 0), (0, 2)), mode="edge")[0], np.float32, [0, 1, 2, 2, 2])
    check(mnp.diff(x), np.float32, np.ones((2, 2)))
    check(mnp.squeeze(x, 0), np.float32, np.arange(6).reshape(2, 3))  # kept, as MindSpore's
    check(mnp.concatenate((make([1, 2], np.int32), make([3.0], np.float32))), np.float32,
          [1, 2, 3])
    assert [values(p).shape for p in mnp.split(x, [1, 2], 1)] == [(2, 1)] * 3
    assert [values(p).shape for p in mnp.array_split(mnp.ones(5), 3)] == [(2,), (2,), (1,)]
    check(mnp.choose(mnp.array([0, 1, 1]), (mnp.ones(3), mnp.zeros(3))), np.float32, [1, 0, 0])
    check(mnp.select([mnp.array([True, False, True])], [mnp.ones(3, mnp.int32)], 2.5),
          np.int32, [1, 2, 1])
    with pytest.raises(NotImplementedError):
        mnp.take(x, mnp.array([0]), mode="raise")
    with pytest.raises(ValueError):
        mnp.split(mnp.ones(6), 4)
    with pytest.raises(ValueError):
        mnp.transpose(x, (0, 0))


def test_products_as_mindspore(make):
    x = make(np.arange(6, dtype=np.float32).reshape(2, 3))
    i32 = make([1, 2, 3], np.int32)
    check(mnp.dot(i32, i32), np.int32, 14)
    check(mnp.kron(i32, i32), np.int32, [1, 2, 3, 2, 4, 6, 3, 6, 9])
    check(mnp.trace(make(np.ones((2, 3), np.int32))), np.int64, 2)
    check(mnp.tensordot(x, x, ((1,), (1,))), np.float32, [[5, 14], [14, 50]])
    check(mnp.inner(x, x), np.float32, [[5, 14], [14, 50]])
    check(mnp.multi_dot([x, mnp.transpose(x), x]), np.float32, [[42, 61, 80], [150, 214, 278]])
    check(mnp.cross(make([1.0, 1.0, 1.0]), make([0.0, 1.0, 2.0])), np.float32, [1, -2, 1])
    check(mnp.matrix_power(make(np.ones((2, 2), np.float32)), 3), np.float32, [[4, 4], [4, 4]])
    check(mnp.norm(x), np.float32, 7.4161983)
    check(mnp.norm(x, axis=1), np.float32, [2.236068, 7.071068])
    with pytest.raises(TypeError):
        mnp.matmul(make(np.ones((2, 2), np.int32)), make(np.ones((2, 2), np.float32)))


def test_gradients_flow_through_the_functions(make):
    x = make(np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32))
    grad = ops.grad(lambda t: mnp.sum(mnp.sin(t) * mnp.flip(t, 1)))(x)
    data = values(x)
    expected = np.cos(data) * data[:, ::-1] + np.sin(data)[:, ::-1]
    np.testing.assert_allclose(values(grad), expected, rtol=1e-5)
    grad = ops.grad(lambda t: mnp.mean(mnp.square(mnp.take(t, mnp.array([0, 0, 4])))))(x)
    np.testing.assert_allclose(values(grad).ravel(), [2 * 0.5 * 2 / 3, 0, 0, 0,
                                                      2 * 0.25 / 3, 0], rtol=1e-5)


def test_mindspore_numpy_maps_to_it():
    from training.compat.names import not_provided, target_of
    assert target_of("mindspore.numpy") == "training.numpy"
    assert not_provided("mindspore.numpy") is None
    assert mnp.pi == np.pi and mnp.float32 is training.float32


def test_polynomials_and_convolutions_as_mindspore(make):
    f, i = make([1.5, -2.0, 3.0]), make([3, -4, 6], np.int32)
    half = make([1.0, 0.5])
    check(mnp.convolve(f, half), np.float32, [1.5, -1.25, 2, 1.5])
    check(mnp.convolve(f, half, "same"), np.float32, [1.5, -1.25, 2])
    check(mnp.convolve(i, make([1, 2], np.int32)), np.int32, [3, 2, -2, 12])
    check(mnp.correlate(f, half), np.float32, [0.5, -0.5])
    check(mnp.correlate(f, half, "full"), np.float32, [0.75, 0.5, -0.5, 3])
    check(mnp.polyval(i, make([2], np.int32)), np.float32, [10])
    check(mnp.polymul(f, make([1.0, 2.0])), np.float32, [1.5, 1, -1, 6])
    check(mnp.polyder(i), np.int32, [6, -4])
    check(mnp.polyint(i), np.float32, [1, -2, 6, 0])
    check(mnp.trapz(f, dx=0.5), np.float32, 0.125)
    check(mnp.gradient(f), np.float32, [-3.5, 0.75, 5])
    check(mnp.unwrap(make([0.0, 3.5, 7.0])), np.float32, [0, -2.783185, -5.56637])


def test_statistics_sets_and_grids_as_mindspore(make):
    f2 = make([[1.0, 2.0, 4.0], [2.0, 1.0, 0.0]])
    check(mnp.cov(f2), np.float32, [[2.3333333, -1.5], [-1.5, 1]])
    check(mnp.corrcoef(f2), np.float32, [[1, -0.98198056], [-0.98198056, 1]])
    check(mnp.bincount(mnp.array([0, 1, 1, 3])), np.float32, [1, 2, 0, 1])
    check(mnp.digitize(make([1.5, -2.0, 3.0]), mnp.array([0.0, 2.0])), np.int32, [1, 0, 2])
    check(mnp.interp(mnp.array([0.5, 2.5]), mnp.array([0.0, 1, 2]), mnp.array([0.0, 10, 20])),
          np.float32, [5, 20])
    counts, edges = mnp.histogram(make([1.5, -2.0, 3.0]), 2)
    check(counts, np.float32, [1, 2])
    check(edges, np.float32, [-2, 0.5, 3])
    check(mnp.intersect1d(mnp.array([3, 1, 2]), mnp.array([2, 3, 5])), np.int32, [2, 3])
    check(mnp.setdiff1d(mnp.array([3, 1, 2, 1]), mnp.array([2])), np.int32, [1, 3])
    check(mnp.copysign(mnp.array([3, -4, 6]), mnp.array([1.5, -2.0, 3.0])), np.int32,
          [3, -4, 6])
    check(mnp.lcm(mnp.array([3, -4, 6]), mnp.array([6, 6, 4])), np.int32, [6, 12, 12])
    check(mnp.mgrid[0:2, 0:3], np.int32, np.mgrid[0:2, 0:3])
    check(mnp.mgrid[0:1:3j], np.float32, [0, 0.5, 1])
    check(mnp.hanning(4), np.float32, [0, 0.75, 0.75, 0])
    check(mnp.piecewise(make([1.5, -2.0, 3.0]), [make([False, True, False]),
                                                 make([True, False, True])], [-1, 1]),
          np.int32, [1, -1, 1])
    assert values(mnp.randint(0, 5, (2,))).dtype == np.int32
    assert values(mnp.rand(2, 3)).shape == (2, 3)


def test_gradients_of_the_numerics(make):
    x = make([0.5, -1.0, 2.0])
    grad = ops.grad(lambda t: mnp.sum(mnp.convolve(t, mnp.array([1.0, 2.0]))))(x)
    np.testing.assert_allclose(values(grad), [3, 3, 3])
    grad = ops.grad(lambda t: mnp.polyval(t, mnp.array(2.0)))(x)
    np.testing.assert_allclose(values(grad), [4, 2, 1])
