"""Choosing a backend: `set_backend` / `get_backend` for training.nn cells, and the backend that
runs a given network object.

A torch.nn.Module always runs on the torch backend. A training.nn Cell runs on the backend
that `get_backend()` names: the one set with `set_backend("numpy" | "torch")`, else the one the
environment variable TRAINING_BACKEND names (so an unchanged script can be run on either), else
torch when it is installed (on the device that device_target names: "GPU" -> CUDA, "Ascend" ->
torch_npu, "CPU" -> torch's CPU kernels), numpy otherwise. `set_backend("numpy")` keeps cells on
the built-in numpy backend (its own tape; no torch import)."""
import importlib.util
import os

BACKENDS = ("numpy", "torch")
_choice = []  # the backend set with set_backend, if any


def set_backend(backend):
    """Run training.nn cells on `backend`: "numpy" or "torch" (None: follow the context again)."""
    if backend is not None and backend not in BACKENDS:
        raise ValueError(f"For 'set_backend', 'backend' must be one of {BACKENDS} or None, but "
                         f"got {backend!r}")
    if backend == "torch" and not _torch_installed():
        raise RuntimeError("set_backend('torch') needs PyTorch: install it with `pip install "
                           "torch` (or this project's [torch] extra)")
    _choice[:] = [backend] if backend is not None else []


def get_backend():
    """The backend training.nn cells run on now: "numpy" or "torch"."""
    if _choice:
        return _choice[0]
    chosen = os.environ.get("TRAINING_BACKEND")
    if chosen:
        if chosen not in BACKENDS:
            raise ValueError(f"TRAINING_BACKEND must be one of {BACKENDS}, but got {chosen!r}")
        return chosen
    return "torch" if _torch_installed() else "numpy"


def _torch_installed():
    return importlib.util.find_spec("torch") is not None


def is_torch_module(obj):
    return any(c.__module__.startswith("torch.nn") and c.__name__ == "Module"
               for c in type(obj).__mro__)


def select_backend(network):
    """The backend that runs `network`: a training.nn.Cell on get_backend()'s, a torch Module
    on torch."""
    from training.nn.cell import Cell
    if isinstance(network, Cell):
        if get_backend() == "torch":
            from training.backends.torch_cells import CellTorchBackend
            return CellTorchBackend()
        from training.backends.numpy_backend import NumpyBackend
        return NumpyBackend()
    if is_torch_module(network):
        from training.backends.torch_backend import TorchBackend
        return TorchBackend()
    raise TypeError(f"The network must be a training.nn.Cell or a torch.nn.Module, but got "
                    f"{type(network).__name__}")
