"""training.mint.optim (AdamW, Adam, SGD) against torch.optim's values (MindSpore 2.10
documents torch's rules as its own; its CPU build cannot run them: AdamW's kernel is
unregistered, Adam and SGD leave the weights unchanged), on numpy-backend Parameters and on
the torch backend (torch gradients: the bound torch tensors updated in place); argument checks
and state names measured in MindSpore 2.10."""
import numpy as np
import pytest

import training
from tests.training.both_backends import backend  # noqa: F401
from training import mint

torch = pytest.importorskip("torch")

W = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32)
B = np.array([0.1, -0.2], np.float32)
GRADS = [(np.array([[0.3, -0.6, 0.9], [0.05, -1.2, 0.4]], np.float32),
          np.array([0.7, -0.1], np.float32)),
         (np.array([[-0.2, 0.4, 0.1], [0.8, 0.3, -0.5]], np.float32),
          np.array([-0.3, 0.6], np.float32)),
         (np.array([[0.0, 1.0, -0.4], [0.2, -0.9, 0.6]], np.float32),
          np.array([0.25, 0.5], np.float32))]

CONFIGS = [
    ("AdamW", {"lr": 0.1}),
    ("AdamW", {"lr": 0.05, "betas": (0.8, 0.9), "weight_decay": 0.1, "amsgrad": True}),
    ("AdamW", {"lr": 0.1, "maximize": True, "eps": 1e-3}),
    ("Adam", {"lr": 0.1}),
    ("Adam", {"lr": 0.1, "weight_decay": 0.2, "amsgrad": True, "maximize": True}),
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.3, "weight_decay": 0.05}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "maximize": True}),
]


def torch_values(name, options, groups):
    """torch.optim's parameters after the GRADS steps (the second group at lr 0.01)."""
    w, b = torch.tensor(W, requires_grad=True), torch.tensor(B, requires_grad=True)
    params = [{"params": [w]}, {"params": [b], "lr": 0.01}] if groups else [w, b]
    optimizer = getattr(torch.optim, name)(params, **options)
    for gw, gb in GRADS:
        w.grad, b.grad = torch.tensor(gw), torch.tensor(gb)
        optimizer.step()
    return w.detach().numpy(), b.detach().numpy()


@pytest.mark.parametrize("groups", [False, True])
@pytest.mark.parametrize("name, options", CONFIGS)
def test_steps_as_torch_optim(backend, name, options, groups):  # noqa: F811
    w = training.Parameter(training.Tensor(W.copy()), name="w")
    b = training.Parameter(training.Tensor(B.copy()), name="b")
    params = [{"params": [w]}, {"params": [b], "lr": 0.01}] if groups else [w, b]
    optimizer = getattr(mint.optim, name)(params, **options)
    bound = None
    if backend == "torch":
        from training.backends.torch_cells import param
        bound = [param(w), param(b)]
    for gw, gb in GRADS:
        grads = (torch.tensor(gw), torch.tensor(gb)) if backend == "torch" else (
            training.Tensor(gw), training.Tensor(gb))
        optimizer(grads)
    expected_w, expected_b = torch_values(name, options, groups)
    np.testing.assert_allclose(w.asnumpy(), expected_w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b.asnumpy(), expected_b, rtol=1e-5, atol=1e-6)
    if bound:       # updated in place: the tensors the layers compute with
        np.testing.assert_allclose(bound[0].detach().numpy(), expected_w, rtol=1e-5, atol=1e-6)
    step = optimizer.step_t if name == "SGD" else optimizer.state_step
    assert int(np.asarray(step.asnumpy()).reshape(-1)[0]) == len(GRADS)


def test_state_names_shapes_and_types_as_mindspore():
    w = training.Parameter(training.Tensor(W.copy()), name="weight")
    b = training.Parameter(training.Tensor(B.copy()), name="bias")
    adam = mint.optim.AdamW([w, b], amsgrad=True)
    # MindSpore 2.10: exp_avg.weight ... state_step Float32 (1,); max_exp_avg_sq in the group
    assert [(p.name, p.shape, str(p.asnumpy().dtype)) for p in adam.get_parameters()] == [
        ("exp_avg.weight", (2, 3), "float32"), ("exp_avg.bias", (2,), "float32"),
        ("exp_avg_sq.weight", (2, 3), "float32"), ("exp_avg_sq.bias", (2,), "float32"),
        ("state_step", (1,), "float32")]
    assert [p.name for p in adam.param_groups[0]["max_exp_avg_sq"]] == [
        "max_exp_avg_sq.weight", "max_exp_avg_sq.bias"]
    sgd = mint.optim.SGD([w, b], lr=0.1)
    assert [(p.name, p.shape, str(p.asnumpy().dtype)) for p in sgd.get_parameters()] == [
        ("momentum_buf.weight", (2, 3), "float32"), ("momentum_buf.bias", (2,), "float32"),
        ("step_t", (), "int32")]


@pytest.mark.parametrize("make, error, words", [      # MindSpore 2.10's, measured
    (lambda p: mint.optim.Adam(p, lr=1), TypeError, "'lr' should be 'float'"),
    (lambda p: mint.optim.AdamW(p, weight_decay=0), TypeError, "'weight_decay'"),
    (lambda p: mint.optim.Adam(p, betas=[0.9, 0.99]), TypeError, "'betas' should be 'tuple'"),
    (lambda p: mint.optim.Adam(p, eps=0), TypeError, "'eps'"),
    (lambda p: mint.optim.Adam(p, amsgrad=1), TypeError, "'amsgrad' should be 'bool'"),
    (lambda p: mint.optim.Adam(p, lr=-0.1), ValueError, "Invalid learning rate: -0.1"),
    (lambda p: mint.optim.Adam(p, betas=(1.0, 0.9)), ValueError, "index 0: 1.0"),
    (lambda p: mint.optim.SGD(p, lr=0.1, maximize=1), TypeError, "'maximize'"),
    (lambda p: mint.optim.SGD(p, lr=0.1, momentum=-0.5), ValueError, "momentum value"),
    (lambda p: mint.optim.SGD(p, lr=0.1, nesterov=True), ValueError, "'nesterov' is true"),
    (lambda p: mint.optim.SGD([], lr=0.1), ValueError, "must not be empty"),
])
def test_argument_checks_as_mindspore(make, error, words):
    w = training.Parameter(training.Tensor(W.copy()), name="w")
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        make([w])
    assert mint.optim.SGD([w], lr=1, weight_decay=1).param_groups[0]["lr"] == 1   # ints: SGD


def test_dir_holds_the_optimizers_only():
    assert dir(mint.optim) == ["Adam", "AdamW", "SGD"]
