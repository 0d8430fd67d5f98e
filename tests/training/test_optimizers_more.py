"""The optimizers MindSpore 2.10 has besides SGD/Momentum/Adam/AdamWeightDecay/RMSProp/Adagrad:
values after three steps measured in MindSpore 2.10 (the same parameters and gradients), state
names and shapes as MindSpore's (checkpoints interchange), argument errors of MindSpore's
types; on the numpy backend and on torch tensors."""
import numpy as np
import pytest

import training
from training import Parameter, Tensor, nn

WEIGHT = np.array([[0.5, -1.5, 2.0], [1.0, 0.25, -0.75]], np.float32)
GAMMA = np.array([0.1, -0.2, 0.3], np.float32)
GRADIENTS = [
    (np.array([[0.2, -0.4, 0.1], [-0.3, 0.5, 0.05]], np.float32),
     np.array([0.3, 0.1, -0.2], np.float32)),
    (np.array([[0.1, 0.3, -0.2], [-0.1, 0.4, 0.2]], np.float32),
     np.array([-0.1, 0.2, -0.3], np.float32)),
    (np.array([[-0.2, 0.1, 0.3], [0.2, -0.5, 0.1]], np.float32),
     np.array([0.2, -0.1, 0.1], np.float32))]

# (arguments, weight and gamma after the three steps in MindSpore 2.10)
MEASURED = {
    "AdaMax": (dict(learning_rate=0.1, weight_decay=0.01),
               [[0.31451, -1.389548, 1.891922], [1.176763, 0.040697, -0.970555]],
               [-0.073361, -0.40605, 0.525088]),
    "Adadelta": (dict(learning_rate=0.5, rho=0.8, epsilon=1e-3),
                 [[0.480916, -1.509733, 1.962268], [1.021208, 0.221122, -0.832927]],
                 [0.052383, -0.242959, 0.355839]),
    "Rprop": (dict(learning_rate=0.05, etas=(0.4, 1.3), step_sizes=(0.01, 0.2)),
              [[0.385, -1.47, 1.93], [1.115, 0.135, -0.9495]], [0.03, -0.315, 0.415]),
    "ASGD": (dict(learning_rate=0.1, lambd=0.01, alpha=0.5, t0=1.0),
             [[0.488537, -1.495532, 1.974029], [1.01695, 0.209361, -0.782703]],
             [0.059765, -0.219361, 0.339026]),
    "FTRL": (dict(learning_rate=0.1, l2=0.1, lr_power=-0.3, weight_decay=0.01),
             [[0.027433, -0.370437, 0.043271], [0.193767, 0.015108, -0.063578]],
             [-0.044881, -0.040801, 0.091652]),
    "ProximalAdagrad": (dict(learning_rate=0.1, l1=0.01, l2=0.1),
                        [[0.427533, -1.408868, 1.808833], [0.97669, 0.156639, -0.772613]],
                        [0.004346, -0.229523, 0.36402]),
    "LazyAdam": (dict(learning_rate=0.1, use_nesterov=True, loss_scale=2.0),
                 [[0.225451, -1.364352, 1.827393], [1.278218, -0.054858, -1.20013]],
                 [-0.190923, -0.555144, 0.675058]),
}

# AdaFactor after the first two steps in MindSpore 2.10
ADAFACTOR = [
    (dict(), [[0.497347, -1.498816, 1.998532], [1.002845, 0.246815, -0.752534]],
     [0.099692, -0.200672, 0.300658]),
    (dict(beta1=0.0), [[0.482655, -1.498422, 1.999999], [1.017672, 0.228286, -0.769505]],
     [0.098874, -0.204792, 0.304646]),
    # (the loss scale changes nothing: MindSpore's AdaFactor never unscales)
    (dict(weight_decay=0.1, loss_scale=4.0),
     [[0.496187, -1.49533, 1.993884], [1.000518, 0.246237, -0.750789]],
     [0.099649, -0.200586, 0.300528]),
    (dict(learning_rate=0.1, relative_step=False, scale_parameter=False),
     [[0.477201, -1.489832, 1.987392], [1.024446, 0.222628, -0.771781]],
     [0.08576, -0.231109, 0.330434]),
    (dict(learning_rate=[0.1, 0.2], relative_step=False),
     [[0.471, -1.498357, 2.00155], [1.029396, 0.213553, -0.783084]],
     [0.09052, -0.243217, 0.341867]),
]

# every state's name and shape in MindSpore 2.10 (for the parameters fc.weight (2, 3) and
# bn.gamma (3,)), besides learning_rate and global_step
STATES = {
    "AdaMax": {"beta1_power": (1,), "moment1.fc.weight": (2, 3), "moment1.bn.gamma": (3,),
               "moment2.fc.weight": (2, 3), "moment2.bn.gamma": (3,)},
    "Adadelta": {"accum.fc.weight": (2, 3), "accum.bn.gamma": (3,),
                 "accum_update.fc.weight": (2, 3), "accum_update.bn.gamma": (3,)},
    "Lamb": {"lamb_m.fc.weight": (2, 3), "lamb_m.bn.gamma": (3,), "lamb_v.fc.weight": (2, 3),
             "lamb_v.bn.gamma": (3,)},
    "Rprop": {"prev.fc.weight": (2, 3), "prev.bn.gamma": (3,), "step_size.fc.weight": (2, 3),
              "step_size.bn.gamma": (3,)},
    "ASGD": {"mu_fc.weight": (), "mu_bn.gamma": (), "eta_fc.weight": (), "eta_bn.gamma": (),
             "ax_.fc.weight": (2, 3), "ax_.bn.gamma": (3,)},
    "FTRL": {"moments.fc.weight": (2, 3), "moments.bn.gamma": (3,), "linear.fc.weight": (2, 3),
             "linear.bn.gamma": (3,)},
    "ProximalAdagrad": {"accum.fc.weight": (2, 3), "accum.bn.gamma": (3,)},
    "LazyAdam": {"beta1_power": (1,), "beta2_power": (1,), "moment1.fc.weight": (2, 3),
                 "moment1.bn.gamma": (3,), "moment2.fc.weight": (2, 3),
                 "moment2.bn.gamma": (3,)},
}
STATES["AdamOffload"] = STATES["LazyAdam"]
STATES["AdaFactor"] = {
    "exp_avg.fc.weight": (2, 3), "exp_avg.bn.gamma": (3,), "exp_avg_sq_row_fc.weight": (2,),
    "exp_avg_sq_row_bn.gamma": (1,), "exp_avg_sq_col_fc.weight": (3,),
    "exp_avg_sq_col_bn.gamma": (1,), "exp_avg_sq_fc.weight": (1,), "exp_avg_sq_bn.gamma": (3,),
    "afactor_step": (1,)}


@pytest.fixture(params=["numpy", "torch"])
def backend(request):
    if request.param == "torch":
        pytest.importorskip("torch")
    training.set_backend(request.param)
    yield request.param
    training.set_backend(None)


def parameters():
    return [Parameter(Tensor(WEIGHT.copy()), name="fc.weight"),
            Parameter(Tensor(GAMMA.copy()), name="bn.gamma")]


def step(optimizer, backend, gradients):
    if backend == "torch":
        import torch
        optimizer(tuple(torch.tensor(g) for g in gradients))
    else:
        optimizer(tuple(Tensor(g) for g in gradients))


@pytest.mark.parametrize("name", sorted(MEASURED))
def test_three_steps_as_mindspore(name, backend):
    kwargs, weight, gamma = MEASURED[name]
    params = parameters()
    optimizer = getattr(nn, name)(params, **kwargs)
    for gradients in GRADIENTS:
        step(optimizer, backend, gradients)
    np.testing.assert_allclose(params[0].asnumpy(), weight, atol=2e-6)
    np.testing.assert_allclose(params[1].asnumpy(), gamma, atol=2e-6)
    assert int(optimizer.global_step.asnumpy()[0]) == 3


@pytest.mark.parametrize("kwargs, weight, gamma", ADAFACTOR)
def test_adafactor_two_steps_as_mindspore(kwargs, weight, gamma, backend):
    params = parameters()
    optimizer = nn.AdaFactor(params, **kwargs)
    for gradients in GRADIENTS[:2]:
        step(optimizer, backend, gradients)
    np.testing.assert_allclose(params[0].asnumpy(), weight, atol=2e-6)
    np.testing.assert_allclose(params[1].asnumpy(), gamma, atol=2e-6)


@pytest.mark.parametrize("name", sorted(STATES))
def test_state_names_and_shapes_as_mindspore(name):
    kwargs = {"learning_rate": 0.1} if name == "Lamb" else {}
    optimizer = getattr(nn, name)(parameters(), **kwargs)
    states = {key: tuple(p.shape) for key, p in optimizer.parameters_and_names()
              if key not in ("learning_rate", "global_step")}
    assert states == STATES[name]


def test_ftrl_l1_shrinks_by_the_sign_of_linear(backend):
    """FTRL(l1 > 0): param = (sign(linear) * l1 - linear) / (accum^-p / lr + 2 * l2) where
    |linear| > l1, else 0 (MindSpore's CPU kernel takes +l1 for a negative linear too)."""
    params = parameters()
    optimizer = nn.FTRL(params, learning_rate=0.1, l1=0.05, l2=0.1)
    step(optimizer, backend, GRADIENTS[0])
    linear = optimizer.linear[0].asnumpy().astype(np.float64)
    accum = optimizer.moments[0].asnumpy().astype(np.float64)
    quadratic = np.sqrt(accum) / 0.1 + 0.2
    expected = np.where(np.abs(linear) > 0.05, (np.sign(linear) * 0.05 - linear) / quadratic, 0)
    np.testing.assert_allclose(params[0].asnumpy(), expected, atol=1e-6)


def test_lamb_follows_its_trust_ratio(backend):
    """Lamb (no MindSpore CPU kernel to measure): one step against its formula in float64."""
    params = parameters()
    optimizer = nn.Lamb(params, learning_rate=0.1, weight_decay=0.01)
    step(optimizer, backend, GRADIENTS[0])
    for param, start, grad, decay in zip(params, (WEIGHT, GAMMA), GRADIENTS[0], (0.01, 0.0)):
        g, w = grad.astype(np.float64), start.astype(np.float64)
        m_hat = (0.1 * g) / (1 - 0.9)
        v_hat = (0.001 * g * g) / (1 - 0.999)
        update = m_hat / (np.sqrt(v_hat) + 1e-6) + decay * w
        ratio = np.linalg.norm(w) / np.linalg.norm(update)
        np.testing.assert_allclose(param.asnumpy(), w - 0.1 * ratio * update, atol=1e-5)


def test_lars_scales_the_wrapped_optimizers_gradients(backend):
    """LARS (no MindSpore CPU kernel): g' = (g + wd*w) * coefficient * ||w|| /
    (||g|| + wd*||w|| + eps) for the parameters lars_filter keeps, then the wrapped optimizer's
    step without its own decay; a bias gets g unchanged."""
    weight = Parameter(Tensor(WEIGHT.copy()), name="fc.weight")
    bias = Parameter(Tensor(GAMMA.copy()), name="fc.bias")
    optimizer = nn.LARS(nn.SGD([weight, bias], learning_rate=1.0, weight_decay=0.1),
                        coefficient=0.01)
    step(optimizer, backend, GRADIENTS[0])
    g, w = GRADIENTS[0][0].astype(np.float64), WEIGHT.astype(np.float64)
    ratio = 0.01 * np.linalg.norm(w) / (np.linalg.norm(g) + 0.1 * np.linalg.norm(w) + 1e-5)
    np.testing.assert_allclose(weight.asnumpy(), w - (g + 0.1 * w) * ratio, atol=1e-6)
    np.testing.assert_allclose(bias.asnumpy(), GAMMA - GRADIENTS[0][1], atol=1e-6)
    names = {key for key, _ in optimizer.parameters_and_names()}
    assert {"fake_param", "global_step"} <= names
    assert optimizer.global_step is optimizer.opt.global_step


@pytest.mark.parametrize("make, error", [
    (lambda p: nn.AdaMax(p, beta1=1), TypeError),
    (lambda p: nn.AdaMax(p, beta1=1.0), ValueError),
    (lambda p: nn.Adadelta(p, rho=1.5), ValueError),
    (lambda p: nn.Rprop(p, etas=[0.5, 1.2]), TypeError),
    (lambda p: nn.Rprop(p, etas=(0.5, 1.0)), ValueError),
    (lambda p: nn.Rprop(p, step_sizes=(1.0, 0.5)), ValueError),
    (lambda p: nn.Rprop(p, loss_scale=2.0), TypeError),
    (lambda p: nn.ASGD(p, t0=5), TypeError),
    (lambda p: nn.FTRL(p, learning_rate=[0.1, 0.2]), ValueError),
    (lambda p: nn.FTRL(p, learning_rate=1), TypeError),
    (lambda p: nn.FTRL(p, lr_power=0.5), ValueError),
    (lambda p: nn.ProximalAdagrad(p, l1=-1.0), ValueError),
    (lambda p: nn.LazyAdam(p, weight_decay=0), TypeError),
    (lambda p: nn.Lamb(p), TypeError),
    (lambda p: nn.LARS(nn.Momentum(p, 0.1, 0.9), epsilon=1), TypeError),
    (lambda p: nn.AdaFactor(p, learning_rate=0.1), ValueError),     # with relative_step
    (lambda p: nn.AdaFactor(p, relative_step=False), ValueError),   # and no rate
    (lambda p: nn.AdaFactor(p, eps=(1e-30,)), ValueError),
    (lambda p: nn.AdaFactor(p, decay_rate=1.0), ValueError),
    (lambda p: nn.AdaFactor(p, scale_parameter=1, beta1=-0.5), TypeError),
])
def test_argument_errors_as_mindspore(make, error):
    """Each measured in MindSpore 2.10."""
    with pytest.raises(error):
        make(parameters())


def test_accepted_as_mindspore():
    nn.Adadelta(parameters(), rho=1.0)              # [0, 1] closed
    nn.AdamOffload(parameters(), weight_decay=0)    # (LazyAdam refuses an int)
