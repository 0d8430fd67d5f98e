"""The activation primitives of `mindspore.ops` (ops.Elu()(x), ops.CeLU(alpha)(x), ...): each
keeps its construction arguments and calls the function of training.ops.activations. (A module
apart from activations.py: the functions are imported by functional.py, these by
operations.py, whose Primitive they extend.)"""
from training.ops import activations as A
from training.ops.operations import Primitive


class _Activation(Primitive):
    """A primitive of one input; `arguments` names its construction arguments, passed to the
    function after the input."""
    arguments, defaults = (), {}

    def __init__(self, *values, **named):
        super().__init__()
        given = dict(self.defaults, **dict(zip(self.arguments, values)), **named)
        for name, value in given.items():
            setattr(self, name, value)

    def __call__(self, x):
        return type(self).function(x, *(getattr(self, name) for name in self.arguments))


def _primitive(name, function, **defaults):
    return type(name, (_Activation,), {"function": staticmethod(function),
                                       "arguments": tuple(defaults), "defaults": defaults,
                                       "__doc__": f"ops.{name}: {function.__doc__}"})


Elu = _primitive("Elu", A.elu, alpha=1.0)
CeLU = _primitive("CeLU", A.celu, alpha=1.0)
SeLU = _primitive("SeLU", A.selu)
Mish = _primitive("Mish", A.mish)
Softplus = _primitive("Softplus", A.softplus)
Softsign = _primitive("Softsign", A.softsign)
FastGeLU = _primitive("FastGeLU", A.fast_gelu)
GeLU = _primitive("GeLU", lambda x: A.gelu(x, "tanh"))     # (the tanh approximation)
HSwish = _primitive("HSwish", A.hardswish)
HSigmoid = _primitive("HSigmoid", A.hardsigmoid)
ReLU6 = _primitive("ReLU6", A.relu6)
HShrink = _primitive("HShrink", A.hardshrink, lambd=0.5)
SoftShrink = _primitive("SoftShrink", A.softshrink, lambd=0.5)
GLU = _primitive("GLU", A.glu, axis=-1)

__all__ = ["CeLU", "Elu", "FastGeLU", "GLU", "GeLU", "HSigmoid", "HSwish", "HShrink", "Mish",
           "ReLU6", "SeLU", "SoftShrink", "Softplus", "Softsign"]
