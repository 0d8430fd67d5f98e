"""`mindspore.common`: data types, the global seed, Tensor, Parameter and initializers."""
from training.common import dtype  # noqa: F401
from training.common.seed import get_seed, set_seed  # noqa: F401
from training.tensor import Parameter, ParameterTuple, Tensor  # noqa: F401
from training.common.api import jit, ms_function, mutable  # noqa: F401
from training.common import initializer  # noqa: F401  (the module, as in MindSpore)
