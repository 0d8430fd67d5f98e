"""What the layer tests that run on both backends share: the `backend` fixture (the numpy
backend, and torch where it is installed; reset after), inputs made for the backend, and the
values of an output of either."""
import importlib.util

import pytest

import training as ms

BACKENDS = ["numpy", pytest.param("torch", marks=pytest.mark.skipif(
    not importlib.util.find_spec("torch"), reason="torch is not installed"))]


@pytest.fixture(params=BACKENDS)
def backend(request):
    ms.set_backend(request.param)
    yield request.param
    ms.set_backend(None)


def as_input(backend, array):
    """`array` as the backend's input: a torch tensor, or a Tensor."""
    if backend == "torch":
        import torch
        return torch.tensor(array)
    return ms.Tensor(array)


def values(tensor):
    return tensor.asnumpy() if hasattr(tensor, "asnumpy") else tensor.detach().cpu().numpy()
