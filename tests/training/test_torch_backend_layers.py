"""Every ported training.nn layer and loss gives, on torch tensors, the numpy backend's output,
input gradient and parameter gradients (float32 tolerance), on the same Parameters; BatchNorm's
moving statistics move the same way."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from training import Tensor, nn, set_seed  # noqa: E402
from training.tensor import grad_of  # noqa: E402

RNG = np.random.default_rng(0)


@pytest.fixture(autouse=True)
def _numpy_backend():
    """Tensor calls take the numpy kernels, torch tensor calls the torch kernels, whatever
    TRAINING_BACKEND says."""
    from training import set_backend
    set_backend("numpy")
    yield
    set_backend(None)


def _x(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _state(cell):
    return {name: p.data.copy() for name, p in cell.parameters_and_names()}


def _restore(cell, state):
    for name, p in cell.parameters_and_names():
        p.set_data(state[name])


def _numpy_run(cell, inputs, weight):
    tensors = [Tensor(a) for a in inputs]
    tensors[0].requires_grad = inputs[0].dtype.kind == "f"
    out = cell(*tensors)
    wrt = ([tensors[0]] if tensors[0].requires_grad else []) + cell.trainable_params()
    grads = grad_of((out * Tensor(weight)).sum(), wrt) if out.ndim else grad_of(out * 1.5, wrt)
    return out.asnumpy(), grads


def _torch_run(cell, inputs, weight):
    tensors = [torch.from_numpy(a.copy()) for a in inputs]
    tensors[0].requires_grad_(inputs[0].dtype.kind == "f")
    out = cell(*tensors)
    from training.backends.torch_cells import param
    wrt = ([tensors[0]] if tensors[0].requires_grad else []) + \
        [param(p) for p in cell.trainable_params()]
    target = (out * torch.from_numpy(weight)).sum() if out.ndim else out * 1.5
    grads = torch.autograd.grad(target, wrt, allow_unused=True)
    return out.detach().numpy(), [np.zeros(w.shape, np.float32) if g is None else g.numpy()
                                  for g, w in zip(grads, wrt)]


def check_same(cell, *inputs, train=False, atol=1e-5, rtol=1e-4):
    """Forward and backward of `cell` on both backends agree; returns the torch output."""
    cell.set_train(train)
    before = _state(cell)
    # One weight for the output, drawn once the output shape is known.
    probe = cell(*[Tensor(a) for a in inputs])
    _restore(cell, before)
    weight = _x(*probe.shape) if probe.ndim else np.float32(1.0)
    out_np, grads_np = _numpy_run(cell, inputs, weight)
    after_np = _state(cell)
    _restore(cell, before)
    out_t, grads_t = _torch_run(cell, inputs, weight)
    np.testing.assert_allclose(out_t, out_np, atol=atol, rtol=rtol)
    assert len(grads_t) == len(grads_np)
    for g_t, g_np in zip(grads_t, grads_np):
        np.testing.assert_allclose(g_t, g_np, atol=atol * 10, rtol=rtol * 10)
    for name, value in _state(cell).items():
        np.testing.assert_allclose(value, after_np[name], atol=atol, rtol=rtol, err_msg=name)
    return out_t


CONVS = [
    lambda: nn.Conv2d(3, 4, 3),  # 'same'
    lambda: nn.Conv2d(3, 4, 3, stride=2, has_bias=True),  # 'same' with an uneven overhang
    lambda: nn.Conv2d(3, 4, 4, stride=2),  # 'same', padding at the bottom/right only
    lambda: nn.Conv2d(3, 4, (3, 5), pad_mode="valid", has_bias=True),
    lambda: nn.Conv2d(3, 6, 3, pad_mode="pad", padding=1, group=3),
    lambda: nn.Conv2d(3, 4, 3, pad_mode="pad", padding=(1, 2, 0, 1), dilation=2),
    lambda: nn.Conv2dTranspose(3, 4, 3, stride=2, has_bias=True),
    lambda: nn.Conv2dTranspose(3, 4, 3, pad_mode="valid"),
    lambda: nn.Conv2dTranspose(3, 4, 4, stride=2, pad_mode="pad", padding=1),
]


@pytest.mark.parametrize("make", CONVS)
def test_convolutions(make):
    set_seed(1)
    check_same(make(), _x(2, 3, 9, 10))


def test_conv1d():
    set_seed(1)
    check_same(nn.Conv1d(3, 5, 3, has_bias=True), _x(2, 3, 11))
    check_same(nn.Conv1d(3, 5, 3, pad_mode="pad", padding=2, stride=2), _x(2, 3, 11))


@pytest.mark.parametrize("train", [True, False])
def test_batch_norm_2d_and_1d(train):
    set_seed(1)
    bn = nn.BatchNorm2d(3, momentum=0.8)
    bn.moving_mean.set_data(_x(3))
    bn.moving_variance.set_data(np.abs(_x(3)) + 0.5)
    bn.gamma.set_data(_x(3))
    check_same(bn, _x(4, 3, 5, 5) * 2 + 1, train=train)
    check_same(nn.BatchNorm1d(6), _x(8, 6), train=train)
    check_same(nn.BatchNorm1d(6, use_batch_statistics=True), _x(8, 6, 3), train=False)


def test_batch_norm_moving_statistics_update_in_training():
    bn = nn.BatchNorm2d(3)
    bn.set_train(True)
    bn(torch.from_numpy(_x(4, 3, 5, 5) + 3))
    assert np.all(bn.moving_mean.data > 0.2)  # 0.1 of a batch mean near 3


def test_normalizations():
    set_seed(1)
    ln = nn.LayerNorm((4, 5), begin_norm_axis=-2, begin_params_axis=-2)
    ln.gamma.set_data(_x(4, 5))
    check_same(ln, _x(3, 4, 5))
    check_same(nn.LayerNorm((5,), begin_norm_axis=1, begin_params_axis=-1), _x(3, 4, 5))
    gn = nn.GroupNorm(2, 6)
    gn.beta.set_data(_x(6))
    check_same(gn, _x(2, 6, 3, 3))


ACTIVATIONS = [nn.ReLU, nn.ReLU6, nn.Sigmoid, nn.Tanh, nn.Softmax, nn.LogSoftmax, nn.HSwish,
               nn.HSigmoid, nn.GELU, lambda: nn.GELU(False), lambda: nn.LeakyReLU(0.1), lambda: nn.Softmax(axis=1),
               lambda: nn.PReLU(), lambda: nn.PReLU(4, w=0.1)]


@pytest.mark.parametrize("make", ACTIVATIONS)
def test_activations(make):
    x = _x(2, 4, 3, 3) * 4
    x[0, 0, 0, :] = [0.0, 6.0, -3.0]  # the kinks of relu, relu6, hard-swish
    check_same(make(), x)


POOLS = [
    lambda: nn.MaxPool2d(2, 2),
    lambda: nn.MaxPool2d(3, 2, pad_mode="same"),
    lambda: nn.MaxPool2d(3, 1, pad_mode="valid"),
    lambda: nn.AvgPool2d(2, 2),
    lambda: nn.AvgPool2d(3, 2, pad_mode="same"),
    lambda: nn.AvgPool2d(3, 2, pad_mode="pad", padding=1),
    lambda: nn.AvgPool2d(3, 2, pad_mode="pad", padding=1, count_include_pad=False),
    lambda: nn.AdaptiveAvgPool2d(1),
    lambda: nn.AdaptiveAvgPool2d((2, 3)),
]


@pytest.mark.parametrize("make", POOLS)
def test_pooling(make):
    check_same(make(), _x(2, 3, 8, 7))


def test_dense_flatten_containers():
    set_seed(1)
    check_same(nn.Dense(5, 3), _x(4, 5))
    check_same(nn.Dense(5, 3, has_bias=False, activation="tanh"), _x(2, 4, 5))
    check_same(nn.Flatten(), _x(2, 3, 4))
    seq = nn.SequentialCell([nn.Conv2d(2, 3, 3, has_bias=True), nn.BatchNorm2d(3), nn.ReLU(),
                             nn.MaxPool2d(2, 2), nn.Flatten(), nn.Dense(3 * 4 * 4, 5)])
    check_same(seq, _x(2, 2, 8, 8), train=True)

    class Blocks(nn.Cell):
        def __init__(self):
            super().__init__()
            self.blocks = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])

        def construct(self, x):
            for block in self.blocks:
                x = x + block(x)  # user arithmetic on whichever tensors arrive
            return x
    check_same(Blocks(), _x(3, 4))


@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_pad(mode):
    check_same(nn.Pad(((0, 0), (1, 2), (2, 1)), mode), _x(2, 4, 5))


def test_embedding():
    set_seed(1)
    ids = RNG.integers(0, 7, (3, 4)).astype(np.int32)
    emb = nn.Embedding(7, 5)
    out = emb(torch.from_numpy(ids)).detach().numpy()
    np.testing.assert_array_equal(out, emb(Tensor(ids)).asnumpy())


def test_dropout():
    drop = nn.Dropout(p=0.25)
    x = torch.ones(20000)
    drop.set_train(False)
    assert drop(x) is x
    drop.set_train(True)
    out = drop(x)
    kept = out != 0
    assert 0.7 < float(kept.float().mean()) < 0.8
    assert torch.allclose(out[kept], torch.tensor(1 / 0.75))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_losses(reduction):
    logits = _x(6, 4)
    labels = RNG.integers(0, 4, 6).astype(np.int32)
    dense = np.eye(4, dtype=np.float32)[labels] * 0.9 + 0.025
    check_same(nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction=reduction), logits, labels)
    check_same(nn.SoftmaxCrossEntropyWithLogits(reduction=reduction), logits, dense)
    check_same(nn.MSELoss(reduction), logits, dense)
    check_same(nn.L1Loss(reduction), logits, dense)
    check_same(nn.CrossEntropyLoss(reduction=reduction, label_smoothing=0.1,
                                   weight=np.array([1, 2, 1, 0.5], np.float32)), logits, labels)


def test_sparse_labels_of_the_wrong_shape_are_named():
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
    with pytest.raises(ValueError, match="labels must be 6 class indices"):
        loss(torch.zeros(6, 4), torch.zeros(6, 2, dtype=torch.long))


def test_parameters_are_shared_with_the_numpy_view():
    """A bound parameter's numpy data is the torch tensor's memory on the CPU; set_data writes
    through, so checkpoints and numpy code see the torch value."""
    dense = nn.Dense(3, 2)
    from training.backends.torch_cells import param
    weight = param(dense.weight)
    with torch.no_grad():
        weight.add_(1.0)
    np.testing.assert_array_equal(dense.weight.data, weight.detach().numpy())
    dense.weight.set_data(np.zeros((2, 3), np.float32))
    assert float(weight.detach().abs().sum()) == 0.0
    dense.weight.requires_grad = False  # freezing after binding
    assert not weight.requires_grad
    assert all(p is not dense.weight for p in dense.trainable_params())
    with pytest.raises(ValueError, match="shape"):
        dense.weight.set_data(np.zeros((4, 3), np.float32))


def test_user_cells_with_their_own_parameters_and_constants():
    """A construct mixing the input with its own Parameter and a constant Tensor, on either
    side of the operator, through ops and torch operators alike."""
    from training import Parameter, ops

    class Mixed(nn.Cell):
        def __init__(self):
            super().__init__()
            self.proj = Parameter(_x(4, 3), name="proj")
            self.scale = Parameter(_x(3), name="scale")
            self.offset = Tensor(_x(3))
            self.query = Parameter(_x(1, 3), name="query")
            self.frozen = Parameter(_x(3), name="frozen", requires_grad=False)
            self.matmul = ops.MatMul()
            self.tile = ops.Tile()

        def construct(self, x):
            y = self.matmul(x, self.proj) * self.scale
            y = y + self.tile(self.query, (x.shape[0], 1)) * self.frozen  # ops on own weights
            y = y * self.proj.T.sum(axis=1) if isinstance(y, Tensor) else \
                y * self.proj.T.sum(1)  # methods: the numpy Tensor's or torch's names
            return self.scale * y + self.offset - (self.offset * y)
    cell = Mixed()
    check_same(cell, _x(5, 4))
    assert len(cell.trainable_params()) == 3  # each one's gradient was compared
