"""`mindspore.ops`: primitives as classes (`ops.Cast()(x, t)`, from training.ops.operations),
functions (`ops.cast(x, t)`, from training.ops.functional), the gradient API
(`ops.value_and_grad`, `ops.grad`, `ops.GradOperation`) and `ops.Print`. Both backends: numpy
Tensors record gradients, torch tensors go to torch."""
from training.ops import composite, functional, operations  # noqa: F401
from training.ops.autodiff import GradOperation, grad, value_and_grad  # noqa: F401
from training.ops.functional import *  # noqa: F401,F403
from training.ops.functional import sum, abs, pow  # noqa: F401,A004  (shadowing is MindSpore's API)
from training.ops.operations import *  # noqa: F401,F403
from training.ops.operations import Primitive  # noqa: F401
from training.ops.printing import Print, format_tensor  # noqa: F401

__all__ = [n for n in dir() if not n.startswith("_")]


def __getattr__(name):
    from training.compat.names import missing_attribute
    raise missing_attribute("mindspore.ops", name)
