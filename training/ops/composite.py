"""`mindspore.ops.composite` (imported as C in model code): the gradient operations."""
from training.ops.autodiff import GradOperation, grad, value_and_grad  # noqa: F401


def __getattr__(name):
    from training.compat.names import missing_attribute
    raise missing_attribute("mindspore.ops.composite", name)
