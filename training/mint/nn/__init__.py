"""`mindspore.mint.nn`: torch-style layers (Linear, Conv2d, LayerNorm, BatchNorm2d,
Embedding, activations, pooling, padding, losses) with MindSpore 2.10's parameter names; Cell
is training.nn.Cell. `mindspore.mint.nn.functional` is the module `functional`."""
from training.mint.nn import functional  # noqa: F401
from training.mint.nn.cells import *  # noqa: F401,F403
from training.mint.nn.layers import *  # noqa: F401,F403
from training.nn.cell import Cell  # noqa: F401

del cells, layers  # noqa: F821 (the submodules: dir() holds mint.nn's names only)


def __getattr__(name):
    from training.compat.names import missing_attribute
    raise missing_attribute("mindspore.mint.nn", name)
