"""`mindspore.numpy` (imported as `mnp` in model code): numpy-like functions on tensors, with
MindSpore 2.10's names, arguments and result types. Array_like arguments (numbers, lists,
tuples, numpy arrays) become training Tensors (Python ints int32, floats float32); functions of
tensors keep their backend (numpy-backend Tensors record gradients, torch tensors go to torch),
being built on training.ops. The modules by area: creation, math, logic, reductions,
array_ops, linalg, polynomials, statistics, random, dtypes."""
from training.numpy.array_ops import *  # noqa: F401,F403
from training.numpy.creation import *  # noqa: F401,F403
from training.numpy.dtypes import *  # noqa: F401,F403
from training.numpy.linalg import *  # noqa: F401,F403
from training.numpy.logic import *  # noqa: F401,F403
from training.numpy.math import *  # noqa: F401,F403
from training.numpy.polynomials import *  # noqa: F401,F403
from training.numpy.random import *  # noqa: F401,F403
from training.numpy.math import abs, divmod, round  # noqa: F401,A004  (numpy's names)
from training.numpy.reductions import *  # noqa: F401,F403
from training.numpy.reductions import max, min, sum  # noqa: F401,A004
from training.numpy.statistics import *  # noqa: F401,F403

__all__ = [n for n in dir() if not n.startswith("_") and n not in (
    "array_ops", "creation", "dtypes", "linalg", "logic", "math", "polynomials", "random",
    "reductions", "statistics")]


def __getattr__(name):
    from training.compat.names import missing_attribute
    raise missing_attribute("mindspore.numpy", name)
