"""Mixed precision and loss scaling on a CUDA device (skipped without one): float16 autocast
with GradScaler for O2, a half network for O3, a fixed scale skipping overflowing steps, and
value_and_grad over CUDA tensors."""
import numpy as np
import pytest

import training as ms
from training import Model, amp

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


class Batches:
    """The two methods Model needs from a dataset; every pass over the iterator is an epoch."""

    def __init__(self, n=256, batch=32, seed=0):
        rng = np.random.default_rng(seed)
        x = rng.standard_normal((n, 16)).astype(np.float32)
        y = (x[:, 0] + x[:, 1] > 0).astype(np.int64)
        self.batches = [(x[i:i + batch], y[i:i + batch]) for i in range(0, n, batch)]

    def get_dataset_size(self):
        return len(self.batches)

    def create_tuple_iterator(self, num_epochs=-1, output_numpy=True):
        return self

    def __iter__(self):
        return iter(self.batches)


@pytest.fixture(autouse=True)
def _gpu_context():
    ms.set_context(device_target="GPU", device_id=0)
    yield
    ms.set_context(device_target="CPU")


def _net():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.ReLU(), torch.nn.Linear(64, 2))


def test_o2_runs_float16_autocast_with_dynamic_loss_scale():
    net = _net()
    seen = []
    net[0].register_forward_hook(lambda m, i, o: seen.append((o.dtype, o.device.type)))
    model = Model(net, torch.nn.CrossEntropyLoss(), torch.optim.SGD(net.parameters(), 0.2),
                  metrics={"accuracy"}, amp_level="O2")
    assert model.train_network.amp.scaler is not None  # MindSpore's O2 default on GPU
    model.train(6, Batches())
    assert seen[0] == (torch.float16, "cuda")
    assert next(net.parameters()).dtype == torch.float32  # master weights stay float32
    assert model.eval(Batches(seed=1))["accuracy"] > 0.9
    assert model.predict(Batches().batches[0][0]).dtype == torch.float16


def test_auto_is_o2_on_cuda():
    net = _net()
    model = Model(net, torch.nn.CrossEntropyLoss(), torch.optim.SGD(net.parameters(), 0.2),
                  amp_level="auto")
    assert model.train_network.amp.level == "O2" and model.train_network.amp.scaler is not None


def test_o3_runs_a_half_network():
    net = _net()
    model = Model(net, torch.nn.CrossEntropyLoss(), torch.optim.SGD(net.parameters(), 0.2),
                  metrics={"accuracy"}, amp_level="O3")
    model.train(6, Batches())
    assert next(net.parameters()).dtype == torch.float16
    assert model.eval(Batches(seed=1))["accuracy"] > 0.9


def test_fixed_loss_scale_skips_overflowing_steps_on_cuda():
    net = _net()
    before = [p.detach().clone() for p in net.parameters()]
    manager = amp.FixedLossScaleManager(1e38, drop_overflow_update=True)
    Model(net, torch.nn.CrossEntropyLoss(), torch.optim.SGD(net.parameters(), 0.2),
          amp_level="O1", loss_scale_manager=manager).train(1, Batches())
    for p, b in zip(net.parameters(), before):  # float16 gradients overflow at this scale
        torch.testing.assert_close(p.detach().cpu(), b)


def test_value_and_grad_over_cuda_tensors():
    net = _net().cuda()
    params = list(net.parameters())
    x = torch.randn(8, 16, device="cuda")
    y = torch.randint(0, 2, (8,), device="cuda")
    loss_fn = torch.nn.CrossEntropyLoss()
    (loss, logits), grads = ms.value_and_grad(lambda a, b: (loss_fn(net(a), b), net(a)), None,
                                              params, has_aux=True)(x, y)
    assert grads[0].device.type == "cuda" and not loss.requires_grad
    net.zero_grad()
    loss_fn(net(x), y).backward()
    for p, g in zip(params, grads):
        torch.testing.assert_close(p.grad, g)
