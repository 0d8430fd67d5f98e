"""Choosing a backend for a network object."""


def is_torch_module(obj):
    return any(c.__module__.startswith("torch.nn") and c.__name__ == "Module"
               for c in type(obj).__mro__)


def select_backend(network):
    """The backend that runs `network`: numpy for a training.nn.Cell, torch for a torch Module."""
    from training.nn.cell import Cell
    if isinstance(network, Cell):
        from training.backends.numpy_backend import NumpyBackend
        return NumpyBackend()
    if is_torch_module(network):
        from training.backends.torch_backend import TorchBackend
        return TorchBackend()
    raise TypeError(f"The network must be a training.nn.Cell (numpy backend) or a torch.nn.Module "
                    f"(torch backend), but got {type(network).__name__}")
