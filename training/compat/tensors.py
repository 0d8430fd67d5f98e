"""The Tensors a MindSpore script's dataset iterators hand out under the import hook.

MindSpore's iterators give ``mindspore.Tensor`` objects, and scripts (MindSpore's own tests
among them) check ``isinstance(item, mindspore.Tensor)`` or pass the item to the network. Here
``mindspore.Tensor`` is ``training.Tensor``, and the iterators give ``minddata.Tensor`` (the
data side imports nothing of training). ``Tensor`` here is both: a ``training.Tensor`` whose
``data`` is the data side's array, so training code computes with it as with any constant
tensor (its methods come first: arithmetic with a network's output must record gradients),
and a ``minddata.Tensor`` for what training's lacks (iteration, numpy ufuncs, ``all()``, ...)
and for printing as MindSpore does. The hook makes minddata serve it once
``mindspore.dataset`` is imported (``serve``) and stops at ``uninstall`` (``unserve``). It is
named ``Tensor``, as what MindSpore's iterators give is.
"""
from minddata import tensor as data_tensor
from training import tensor as training_tensor


class Tensor(training_tensor.Tensor, data_tensor.Tensor):
    """A training.Tensor (mindspore.Tensor under the hook) that is also a minddata.Tensor."""

    __repr__ = data_tensor.Tensor.__repr__
    __str__ = data_tensor.Tensor.__str__

    # A constant, as training.Tensor's __init__ would make it (its __init__ is not run).
    requires_grad = False
    _backward = None

    @property
    def data(self):
        return self._array


def serve():
    data_tensor.serve_tensors_as(Tensor)


def unserve():
    data_tensor.serve_tensors_as(data_tensor.Tensor)
