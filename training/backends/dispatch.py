"""How a `training.nn` layer picks its kernel: a torch tensor input runs the torch kernel
(training.backends.torch_kernels), anything else the numpy kernel. torch is imported only when a
torch tensor arrives, so the numpy backend runs without it."""


def is_torch(value):
    """Whether `value` is a torch tensor (or a subclass: Parameter, compile-time fakes)."""
    return type(value).__module__.startswith("torch")


def torch_kernels():
    from training.backends import torch_kernels as kernels
    return kernels
