"""Parameter groups of the optimizers as MindSpore 2.10 has them: per-group 'lr' (fixed, a rate
per step, a schedule), 'weight_decay' (a float or a schedule Cell), 'grad_centralization' and
'order_params'; the learning-rate Parameters' names ('learning_rate_group_<i>'), get_lr() and
get_lr_parameter(), and MindSpore's errors. Values measured in MindSpore 2.10 on the same
parameters and gradients; on the numpy backend and on torch tensors."""
import numpy as np
import pytest

from tests.training.both_backends import as_input, backend  # noqa: F401 (fixture)
from training import Parameter, Tensor, nn


def param(name, shape=(2, 3), salt=0.0):
    values = np.sin(np.arange(int(np.prod(shape))) * 1.3 + salt).reshape(shape)
    return Parameter(Tensor(values.astype(np.float32)), name=name)


def gradient(shape, step):
    return np.cos(np.arange(int(np.prod(shape))) * 0.7 + step).reshape(shape).astype(np.float32)


def run(optimizer, backend, steps=2):
    for index in range(steps):
        optimizer(tuple(as_input(backend, gradient(p.shape, index))
                        for p in optimizer.parameters))


def values(*params):
    return [np.array(p.asnumpy()).ravel() for p in params]     # (copies)


def lr_parameters(optimizer):
    return {name: tuple(p.shape) for name, p in optimizer.parameters_dict().items()
            if name.startswith("learning_rate")}


def test_fixed_group_rates_weight_decay_and_order(backend):
    a, b, c = param("a"), param("b.gamma", salt=1), param("c", (3,), 2)
    optimizer = nn.Momentum([{"params": [a], "lr": 0.05, "weight_decay": 0.01},
                             {"params": [b]}, {"params": [c], "lr": 0.2},
                             {"order_params": [c, b, a]}], 0.1, 0.9)
    assert [p.name for p in optimizer.parameters] == ["c", "b.gamma", "a"]
    assert optimizer.is_group and optimizer.is_group_lr and not optimizer.dynamic_lr
    assert lr_parameters(optimizer) == {"learning_rate": (), "learning_rate_group_0": (),
                                        "learning_rate_group_2": ()}
    assert [p.name for p in optimizer.get_lr()] == ["learning_rate_group_2", "learning_rate",
                                                    "learning_rate_group_0"]
    run(optimizer, backend)
    got = values(c, b, a)
    np.testing.assert_allclose(got[0], [0.42123696, -0.4226168, -0.9107998], rtol=1e-5)
    np.testing.assert_allclose(got[1][:4], [0.5974407, 0.6132696, -0.40107483, -0.78661835],
                               rtol=1e-5)
    np.testing.assert_allclose(got[2][:4], [-0.12199011, 0.8959626, 0.5354811, -0.5888645],
                               rtol=1e-5)
    assert optimizer.parameters_dict()["learning_rate_group_2"].asnumpy() == np.float32(0.2)
    assert "moments.a" in optimizer.parameters_dict()


def test_a_group_rate_per_step_beside_the_fixed_rate(backend):
    a, b, c = param("a"), param("b.gamma", salt=1), param("c", (3,), 2)
    optimizer = nn.Momentum([{"params": [a], "lr": [0.05, 0.04, 0.03]}, {"params": [b, c]}],
                            0.1, 0.9)
    assert optimizer.dynamic_lr
    assert lr_parameters(optimizer) == {"learning_rate_group_0": (3,), "learning_rate": ()}
    # the fixed rate among dynamic ones is lr + 1 - 1 in float32, as MindSpore's
    assert [float(r.asnumpy()) for r in optimizer.get_lr()] == \
        [0.05000000074505806, 0.10000002384185791, 0.10000002384185791]
    assert optimizer.get_lr_parameter(a).name == "learning_rate_group_0"
    assert [p.name for p in optimizer.get_lr_parameter([b, c])] == ["learning_rate"] * 2
    run(optimizer, backend)
    got = values(a, b, c)
    np.testing.assert_allclose(got[0][:4], [-0.10761209, 0.90293556, 0.53037995, -0.60438395],
                               rtol=1e-5)
    np.testing.assert_allclose(got[1][:4], [0.59744066, 0.61326957, -0.4010748, -0.78661835],
                               rtol=1e-5)
    np.testing.assert_allclose(got[2], [0.6652671, -0.29018128, -0.95224535], rtol=1e-5)
    assert float(optimizer.get_lr()[0].asnumpy()) == np.float32(0.03)


def test_a_group_schedule_and_a_group_tensor_of_rates(backend):
    a, b = param("a"), param("b.gamma", salt=1)
    schedule = nn.ExponentialDecayLR(0.1, 0.9, 2)
    optimizer = nn.Momentum([{"params": [a], "lr": schedule},
                             {"params": [b], "lr": Tensor(np.float32([0.3, 0.2, 0.1]))}],
                            [0.1, 0.2, 0.3], 0.9)
    # the optimizer's own rates serve no group: no 'learning_rate' Parameter, as MindSpore's
    assert lr_parameters(optimizer) == {"learning_rate_group_1": (3,)}
    assert optimizer.get_lr_parameter(a) is schedule
    run(optimizer, backend)
    got = values(a, b)
    np.testing.assert_allclose(got[0][:4], [-0.23663905, 0.8339939, 0.5539479, -0.49939075],
                               rtol=1e-5)
    np.testing.assert_allclose(got[1][:4], [0.2534105, 0.40434983, -0.3766259, -0.5402994],
                               rtol=1e-5)
    np.testing.assert_allclose([float(r.asnumpy()) for r in optimizer.get_lr()], [0.09, 0.1],
                               rtol=1e-6)


# (optimizer, its arguments, the groups, a and b after two steps: MindSpore 2.10's)
FIXED = lambda a, b: [{"params": [a], "lr": 0.05}, {"params": [b]}]           # noqa: E731
PER_STEP = lambda a, b: [{"params": [a], "lr": [0.05, 0.04, 0.03]}, {"params": [b]}]  # noqa
DECAY = lambda a, b: [{"params": [a], "weight_decay": 0.01}, {"params": [b]}]  # noqa: E731
MEASURED = [
    ("SGD", {}, PER_STEP, [-0.07161209, 0.9304699], [0.6874407, 0.68210536]),
    ("Adam", {}, FIXED, [-0.09716545, 0.88670504], [0.83952767, 0.74416816]),
    ("Adam", {}, PER_STEP, [-0.08773235, 0.8920757], [0.83952755, 0.74416804]),
    ("AdamWeightDecay", {}, FIXED, [-0.3585404, 0.6913385], [0.83430016, 0.74026084]),
    ("AdamWeightDecay", {}, DECAY, [-0.00717078, 0.95809454], [0.83430016, 0.74026084]),
    ("RMSProp", {}, FIXED, [-0.07802553, 0.93142647], [0.68541986, 0.68144166]),
    ("Adagrad", {}, PER_STEP, [-0.06599158, 0.9235048], [0.84005946, 0.74493486]),
    ("AdaMax", {}, FIXED, [-0.08794063, 0.8942878], [0.83971214, 0.7443198]),
    ("Adadelta", {}, PER_STEP, [-2.4664178e-04, 9.6343136e-01], [0.83609545, 0.7433248]),
    ("Rprop", {}, FIXED, [-0.11, 0.9135582], [0.6214709, 0.64570516]),
    ("ASGD", {}, FIXED, [-0.07701477, 0.9317488], [0.68742526, 0.68209124]),
    ("ProximalAdagrad", {}, FIXED, [-0.07057119, 0.92504305], [0.8400596, 0.7449349]),
    ("LazyAdam", {}, PER_STEP, [-0.08773235, 0.8920757], [0.83952755, 0.74416804]),
    ("AdamOffload", {}, FIXED, [-0.09716545, 0.88670516], [0.83952767, 0.74416816]),
    ("FTRL", {}, DECAY, [-0.00141142, 0.598539], [0.58634645, 0.46001223]),
    ("AdaFactor", {}, FIXED, [-0.00213265, 0.9625325], None),     # (the relative step)
]


@pytest.mark.parametrize("name, kwargs, groups, want_a, want_b", MEASURED)
def test_each_optimizer_with_groups_as_mindspore(name, kwargs, groups, want_a, want_b, backend):
    a, b = param("a"), param("b", (3,), 1)
    optimizer = getattr(nn, name)(groups(a, b), **kwargs)
    run(optimizer, backend)
    got_a, got_b = values(a, b)
    np.testing.assert_allclose(got_a[:2], want_a, rtol=1e-5, atol=1e-7)
    if want_b is not None:
        np.testing.assert_allclose(got_b[:2], want_b, rtol=1e-5, atol=1e-7)


def test_a_weight_decay_schedule_in_a_group(backend):
    a, b = param("a"), param("b", salt=1)
    optimizer = nn.Momentum([{"params": [a], "weight_decay": nn.ExponentialDecayLR(0.1, 0.5, 1)},
                             {"params": [b], "weight_decay": 0.01}], 0.1, 0.9)
    run(optimizer, backend, steps=3)
    got_a, got_b = values(a, b)
    np.testing.assert_allclose(got_a[:4], [-0.33048394, 0.8347045, 0.6862063, -0.2778182],
                               rtol=1e-5)
    np.testing.assert_allclose(got_b[:4], [0.50514555, 0.6494185, -0.24932566, -0.5931061],
                               rtol=1e-5)


def test_gradient_centralization_takes_second_dimensions_of_16(backend):
    """MindSpore 2.10 centralizes a gradient of 2+ dimensions whose second is a multiple of
    16 (its CPU has no kernel for it: the formula, g - mean over the other dimensions); others,
    as a (4, 3, 2, 2) conv weight's, stay (measured)."""
    weights = [param("conv.weight", (2, 16, 1, 1)), param("fc.weight", (4, 3, 2, 2))]
    before = values(*weights)
    optimizer = nn.SGD([{"params": weights, "grad_centralization": True}], 1.0)
    run(optimizer, backend, steps=1)
    moved = [start - now for start, now in zip(before, values(*weights))]
    g = gradient((2, 16, 1, 1), 0)
    np.testing.assert_allclose(moved[0], (g - g.mean(axis=(1, 2, 3), keepdims=True)).ravel(),
                               atol=1e-6)
    np.testing.assert_allclose(moved[1], gradient((4, 3, 2, 2), 0).ravel(), atol=1e-6)


def test_adamweightdecay_does_not_centralize(backend):
    weight = param("w", (2, 16))
    optimizer = nn.AdamWeightDecay([{"params": [weight], "grad_centralization": True}], 0.1)
    run(optimizer, backend, steps=1)
    np.testing.assert_allclose(values(weight)[0][:4], [-0.3162199, 0.64734137, 0.19933031,
                                                       -0.37155607], rtol=1e-5)


@pytest.mark.parametrize("make, error, words", [
    (lambda a, b: nn.Momentum([{"params": [a], "lr": [0.1, 0.2]},
                               {"params": [b], "lr": [0.1, 0.2, 0.3]}], 0.1, 0.9),
     ValueError, "must be the same size as the argument 'learning_rate'"),
    (lambda a, b: nn.Momentum([{"params": [a], "lr": [0.1, 0.2]}], [0.1, 0.2, 0.3], 0.9),
     ValueError, "same size"),
    (lambda a, b: nn.Momentum([{"params": [a], "foo": 1}], 0.1, 0.9), KeyError, "foo"),
    (lambda a, b: nn.Momentum([{"params": [a]}, {"order_params": [a], "lr": 0.1}], 0.1, 0.9),
     ValueError, "should only include the 'order_params' key"),
    (lambda a, b: nn.Momentum([{"params": [a]}, {"params": [a]}], 0.1, 0.9),
     RuntimeError, "already exists"),
    (lambda a, b: nn.Momentum([{"params": [a]}, {"params": [b]}, {"order_params": [a]}],
                              0.1, 0.9), ValueError, "length of order parameters"),
    (lambda a, b: nn.Momentum([{"params": [a]}, {"params": [b]}, {"order_params": [a, a]}],
                              0.1, 0.9), ValueError, "'b.gamma' is not in list"),
    (lambda a, b: nn.Momentum([{"params": [a], "lr": -0.1}], 0.1, 0.9),
     ValueError, "'learning rate' must be float and must >= 0"),
    (lambda a, b: nn.Momentum([{"params": [a], "lr": Tensor(np.ones((2, 2), np.float32))}],
                              0.1, 0.9), ValueError, "should be 0 or 1, but got 2"),
    (lambda a, b: nn.Momentum([{"params": [a], "grad_centralization": 1}], 0.1, 0.9),
     TypeError, "must be bool type"),
    (lambda a, b: nn.Momentum([{"params": [a], "weight_decay": -1.0}], 0.1, 0.9),
     ValueError, "'weight_decay' must be float and must >= 0"),
    (lambda a, b: nn.Momentum([{"params": [a], "weight_decay": "x"}], 0.1, 0.9),
     TypeError, "must be int, float or Cell"),
    (lambda a, b: nn.Momentum([{"params": []}], 0.1, 0.9), ValueError, "must not be empty"),
    (lambda a, b: nn.Momentum([{"params": [1]}], 0.1, 0.9), TypeError, "at index 0"),
    (lambda a, b: nn.Momentum([{"params": [a]}, b], 0.1, 0.9),
     TypeError, "must be 'Parameter' or 'dict'"),
    (lambda a, b: nn.FTRL([{"params": [a], "lr": 0.1}]), ValueError,
     "group learning rate True"),
    (lambda a, b: nn.SGD([{"params": [a], "weight_decay": nn.ExponentialDecayLR(0.1, 0.5, 1)}]),
     TypeError, "dynamic weight decay is currently not supported"),
    (lambda a, b: nn.AdaFactor([{"params": [a], "lr": 0.05}], learning_rate=0.1,
                               relative_step=False), ValueError, "relative_step"),
    (lambda a, b: nn.Adam([a], beta1=1), TypeError,
     "the type of 'beta1' should be 'float', but got type 'int'"),
    (lambda a, b: nn.Adam([a], eps=0), TypeError, "'eps' should be 'float'"),
    (lambda a, b: nn.AdamWeightDecay([a], beta2=np.float32(0.9)), TypeError, "'float32'"),
    (lambda a, b: nn.AdamWeightDecay([a], beta1=1.0), ValueError,
     "'beta1' must be in range of (0.0, 1.0)"),
    (lambda a, b: nn.LARS(nn.Momentum([{"params": [a], "lr": [0.1, 0.2]}], 0.1, 0.9),
                          use_clip=True), ValueError, "cannot both be true"),
])
def test_errors_as_mindspore(make, error, words):
    with pytest.raises(error) as caught:
        make(param("a"), param("b.gamma", salt=1))
    assert words in str(caught.value)


def test_get_lr_parameter_refuses_other_parameters():
    a, b = param("a"), param("b")
    optimizer = nn.Momentum([a], 0.1, 0.9)
    assert optimizer.get_lr_parameter(a).name == "learning_rate" and not optimizer.is_group
    with pytest.raises(ValueError, match="is not in optimizer"):
        optimizer.get_lr_parameter(b)
    with pytest.raises(TypeError, match="'Parameter' or 'list'"):
        optimizer.get_lr_parameter("a")


def test_a_per_step_list_without_groups_is_held_whole():
    optimizer = nn.Momentum([param("a")], [0.1, 0.2, 0.3], 0.9)
    assert lr_parameters(optimizer) == {"learning_rate": (3,)}
    scheduled = nn.Momentum([param("a")], nn.ExponentialDecayLR(0.1, 0.9, 2), 0.9)
    assert lr_parameters(scheduled) == {}
