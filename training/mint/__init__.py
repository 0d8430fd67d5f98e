"""`mindspore.mint` (MindSpore 2.x's torch-like API): functions with torch's argument names
(`input`, `dim`, `keepdim`, `dtype`) and MindSpore 2.10's result types and checks, on both
backends (numpy-backend Tensors record gradients; torch tensors go to torch), built on
training.ops. The modules by area: math (element-wise), reductions, array_ops (joining,
indexing, sorting), creation (and random sampling), products; mint.nn, mint.nn.functional,
mint.optim, mint.linalg, mint.special."""
from training.mint import _core, array_ops, creation, math, products, reductions
from training.tensor import Tensor  # noqa: F401


def _public(module):
    """The module's functions, without what it imports to build them."""
    helpers = set(vars(_core)) | {"np", "ops", "collections", "ValuesIndices"}
    return {name: value for name, value in vars(module).items()
            if not name.startswith("_") and name not in helpers and callable(value)}


for _module in (math, reductions, array_ops, creation, products):
    globals().update(_public(_module))

from training.mint import linalg, nn, optim, special  # noqa: E402,F401


def softmax(input, dim, *, dtype=None):  # noqa: A002
    return nn.functional.softmax(input, dim, dtype=dtype)


__all__ = sorted(n for n in globals() if not n.startswith("_") and n not in (
    "array_ops", "creation", "math", "products", "reductions"))


def __dir__():
    return __all__


def __getattr__(name):
    from training.compat.names import missing_attribute
    raise missing_attribute("mindspore.mint", name)
