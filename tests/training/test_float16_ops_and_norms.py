"""float16 normalizations, reductions and gradients near float16's limits, on both backends,
against the values MindSpore 2.10 gives (measured with ms.grad of sum(f(x) * w), PyNative on
the CPU, w = cos(0.71 * i) in float16): squares of values past 256 overflow float16, so
MindSpore's kernels compute these in float32 and round the output (and the gradients) back."""
import numpy as np
import pytest

import training as ms
from training import nn, ops

from tests.training.both_backends import as_input, backend, values  # noqa: F401 (fixture)
from tests.training.test_float16_gradients import assert_float16

H = np.float16


def weighted_gradients(function, x, params=()):
    """(output, gradient of sum(function(x) * w) for x, [gradients for params])."""
    out = function(x)
    shape = tuple(out.shape)
    w = np.cos(np.arange(int(np.prod(shape))) * 0.71).reshape(shape).astype(H)
    w = as_input("torch" if not hasattr(x, "asnumpy") else "numpy", w)
    loss = lambda v: (function(v) * w).sum()     # noqa: E731
    if params:
        gx, gp = ms.grad(loss, 0, params)(x)
        return values(out), values(gx), [values(g) for g in gp]
    return values(out), values(ms.grad(loss)(x)), []


def large(shape, backend):
    """sin-spread values of a few hundred, as float16."""
    count = int(np.prod(shape))
    return as_input(backend, (np.sin(np.arange(count) * 1.37 + 5) * 300).astype(H).reshape(shape))


def test_layer_norm_of_large_values(backend):
    """Every output and gradient was 0 on the numpy backend (the float16 variance was inf),
    and the torch backend answered in float32 with gradients 4 times off."""
    norm = nn.LayerNorm((8,))
    out, gx, (dgamma, dbeta) = weighted_gradients(norm, large((2, 8), backend),
                                                  norm.trainable_params())
    assert_float16(out.ravel()[:6], [-1.37, 0.04791, 1.276, 0.3501, -1.249, -0.9595], rtol=1e-3)
    assert_float16(gx.ravel()[:6], [0.005447, 0.003788, 0.0005493, -0.002153, -0.003431,
                                    -0.00338], rtol=1e-3)
    assert dgamma.dtype == np.float32       # rounded to float16 first, as MindSpore's
    np.testing.assert_allclose(dgamma[:4], [-1.513671875, -1.2705078125, 0.176513671875,
                                            -0.11376953125], rtol=1e-6)
    np.testing.assert_allclose(dbeta[:3], [1.82421875, 1.751953125, 0.8349609375], rtol=1e-6)


def test_group_norm_of_large_values(backend):
    norm = nn.GroupNorm(2, 4)
    out, gx, (dgamma, dbeta) = weighted_gradients(norm, large((2, 4, 2, 2), backend),
                                                  norm.trainable_params())
    assert_float16(out.ravel()[:6], [-1.369, 0.04791, 1.276, 0.3501, -1.249, -0.9595])
    assert_float16(gx.ravel()[:6], [0.005447, 0.003788, 0.0005493, -0.002153, -0.003431,
                                    -0.00338], rtol=1e-3)
    np.testing.assert_allclose(dgamma, [-2.31640625, 2.908203125, -2.220703125, 0.07025],
                               rtol=2e-3)
    np.testing.assert_allclose(dbeta, [4.1953125, -4.625, 4.63671875, -4.23046875], rtol=1e-6)


@pytest.mark.parametrize("norm, shape", [(lambda: nn.InstanceNorm1d(3), (2, 3, 8)),
                                         (lambda: nn.InstanceNorm2d(3), (2, 3, 2, 4))])
def test_instance_norm_of_large_values_stays_float16(backend, norm, shape):
    """MindSpore 2.10's CPU has no InstanceNorm kernel: the reference is float64 rounded (the
    output was float32, or 0 on the numpy backend)."""
    x = large(shape, backend)
    out, gx, _ = weighted_gradients(norm(), x)
    data = values(x).astype(np.float64)
    axes = tuple(range(2, len(shape)))
    expected = (data - data.mean(axes, keepdims=True)) / np.sqrt(
        data.var(axes, keepdims=True) + 1e-5)
    assert_float16(out.ravel(), expected.ravel(), rtol=2e-3)
    assert np.isfinite(gx).all() and np.abs(gx).max() > 1e-4


@pytest.mark.parametrize("norm, shape", [(lambda: nn.BatchNorm1d(3), (4, 3)),
                                         (lambda: nn.BatchNorm3d(3), (2, 3, 2, 2, 1))])
def test_batch_norms_of_large_values_in_training(backend, norm, shape):
    cell = norm()
    cell.set_train(True)
    x = large((2, 3, 4), backend)
    x = x.reshape(shape) if shape != (4, 3) else large(shape, backend)
    out, gx, _ = weighted_gradients(cell, x)
    expected = {(4, 3): ([-0.9624, 0.1504, 1.017, 0.7837, -1.364], None),
                (2, 3, 2, 2, 1): ([-1.387, 0.163, 1.507, 0.4934, -1.102, -0.8145],
                                  [0.00585, 0.00463, 0.00159, -0.00175, -0.00423, -0.00419])}
    picked, grads = expected[shape]
    assert_float16(out.ravel()[:len(picked)], picked, rtol=2e-3)
    if grads:
        assert_float16(gx.ravel()[:6], grads, rtol=3e-3)


@pytest.mark.parametrize("kwargs, var, var_grad, std, std_grad", [
    ({}, 52512., [125., -175., 75., -25.], 229.1, [0.2727, -0.3818, 0.1637, -0.05457]),
    ({"ddof": 1}, np.inf, [166.6, -233.2, 100., -33.31], 264.5, [0.315, -0.441, 0.189,
                                                                  -0.06305])])
def test_var_and_std_of_large_values(backend, kwargs, var, var_grad, std, std_grad):
    """The float16 sum of squared deviations was inf (var inf, std inf with zero gradients).
    MindSpore's gradient of var overflows there (inf, -inf, inf for the first three: its
    ReduceStd gradient multiplies before dividing in float16); this gives the finite one."""
    x = as_input(backend, np.array([300., -300., 200., 0.], H))
    for function, value, grad in ((ops.var, var, var_grad), (ops.std, std, std_grad)):
        out = function(x, **kwargs)
        g = ms.grad(lambda v: function(v, **kwargs).sum())(x)
        assert_float16(values(out), value, rtol=1e-3)
        assert_float16(values(g), grad, rtol=2e-3)


def test_var_over_an_axis(backend):
    x = as_input(backend, np.array([[300., -300.], [200., 0.]], H))
    assert_float16(values(ops.var(x, axis=0)), [2500., 22496.])
    assert_float16(values(ms.grad(lambda v: ops.std(v, axis=0).sum())(x)), [[0.5, -0.5],
                                                                           [-0.5, 0.5]])


def test_prod_gradient_divides_the_product(backend):
    """MindSpore's gradient is out / x (the product of the others where x is 0): 300 * 300
    overflowed float16 (inf for every element; the torch backend's product was inf)."""
    for array, out, grad in (([300., 300., 1e-3, 2.], 180.1, [0.6006, 0.6006, np.inf, 90.06]),
                             ([300., 0., 1e-3, 2.], 0., [0., 0.6, 0., 0.])):
        x = as_input(backend, np.array(array, H))
        assert_float16(values(ops.prod(x)), out)
        if backend == "numpy":      # (torch's own gradient: the product of the others)
            assert_float16(values(ms.grad(lambda v: ops.prod(v))(x)), grad)
    x = ms.Tensor(np.array([1.5, 3.3, 0.7, 2.1], np.float32))
    np.testing.assert_array_equal(ms.grad(lambda v: ops.prod(v))(x).asnumpy(), np.array(
        [4.8509994, 2.205, 10.3949995, 3.465], np.float32))


def test_div_gradient_in_mindspores_rounding_order(backend):
    """-g * (out / y): -g * out / y gave -4.8e-7 and -0.0730 (cases of a random sweep)."""
    x, y = (as_input(backend, np.array(a, H)) for a in ([-0.010765, 60000.], [-6764., 60000.]))
    g = as_input(backend, np.array([-2058., 4380.], H))
    _, gy = ms.grad(lambda a, b: (ops.div(a, b) * g).sum(), grad_position=(0, 1))(x, y)
    if backend == "numpy":      # (torch's own kernel: -g * x / (y * y))
        assert_float16(values(gy), [-0., -0.07312])
        assert np.signbit(values(gy)[0])


def test_rsqrt_gradient_in_mindspores_rounding_order(backend):
    """out cubed, times g * -0.5: at 6e4 MindSpore's gradient is -0 (we gave -6e-8)."""
    x = as_input(backend, np.array([60000., 64992., 22048.], H))
    g = as_input(backend, np.array([1., 779., -462.25], H))
    grad = values(ms.grad(lambda v: (ops.rsqrt(v) * g).sum())(x))
    if backend == "numpy":
        assert_float16(grad, [-0., -2.325e-05, 6.890e-05])
    else:                       # (torch's kernel rounds otherwise)
        np.testing.assert_allclose(grad.astype(np.float64), [0., -2.325e-05, 6.890e-05],
                                   atol=2e-5)


@pytest.mark.parametrize("call, message", [
    (lambda: nn.Dense(3, 4)(ms.Tensor(np.ones((2, 3), H))), "For 'MatMul', the type of 'x2' "
     "should be same as 'x1', but got 'x1' with type Tensor[Float16] and 'x2' with type "
     "Tensor[Float32]."),
    (lambda: nn.Dense(3, 4, dtype=ms.float16)(ms.Tensor(np.ones((2, 3), np.float32))),
     "'x1' with type Tensor[Float32] and 'x2' with type Tensor[Float16]"),
    (lambda: nn.Conv2d(3, 4, 1)(ms.Tensor(np.ones((1, 3, 2, 2), H))),
     "For primitive[Conv2D], the input type must be same."),
    (lambda: ops.matmul(ms.Tensor(np.ones((2, 3), H)), ms.Tensor(np.ones((3, 2), np.float32))),
     "For 'MatMulExt', the type of 'x2' should be same as 'x1'")])
def test_float16_against_float32_weights_is_refused(call, message):
    """MindSpore 2.10's TypeError (measured); the numpy backend computed on in float32 (the
    torch backend raises torch's RuntimeError)."""
    ms.set_backend("numpy")
    try:
        with pytest.raises(TypeError) as error:
            call()
        assert message in str(error.value)
    finally:
        ms.set_backend(None)


def test_auto_mixed_precision_levels_and_checks():
    """As MindSpore 2.10 (measured): O0 gives the network back, an unknown level or a dtype
    other than float16/bfloat16 is a ValueError, a network that is no Cell a TypeError; the
    numpy backend refuses the other levels, naming what to use."""
    from training import amp
    net = nn.Dense(3, 2)
    assert amp.auto_mixed_precision(net, "O0") is net
    with pytest.raises(ValueError, match="The amp level O4 is not supported"):
        amp.auto_mixed_precision(net, "O4")
    with pytest.raises(ValueError, match=r"mstype.bfloat16\), but got Int32"):
        amp.auto_mixed_precision(net, "O2", dtype=ms.int32)
    with pytest.raises(TypeError, match="For amp_level 'O2', the network type should be Cell"):
        amp.auto_mixed_precision(1, "O2")
    ms.set_backend("numpy")
    try:
        assert amp.auto_mixed_precision(net, "auto") is net        # O0 on the CPU
        with pytest.raises(ValueError, match="needs the torch backend.*amp_level='O0'"):
            amp.auto_mixed_precision(net, "O2")
    finally:
        ms.set_backend(None)
    assert nn.BatchNorm2d in amp.get_black_list() and nn.Dense in amp.get_white_list()


def test_auto_mixed_precision_on_the_torch_backend():
    """O2: under autocast, the output float32 (MindSpore's _OutputTo32), parameters float32;
    O3 casts a torch network."""
    torch = pytest.importorskip("torch")
    from training import amp
    ms.set_backend("torch")
    try:
        net = amp.auto_mixed_precision(nn.SequentialCell([nn.Dense(3, 2), nn.BatchNorm1d(2)]),
                                       "O2")
        out = net(torch.ones((4, 3)))
        assert out.dtype == torch.float32
        assert all(p.dtype == ms.float32 for p in net.get_parameters())
        module = amp.auto_mixed_precision(torch.nn.Linear(3, 2), "O3")
        assert module(torch.ones((4, 3))).dtype in (torch.float16, torch.bfloat16)
    finally:
        ms.set_backend(None)
