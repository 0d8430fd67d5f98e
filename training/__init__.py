"""Training executor in the style of MindSpore: `Model`, `nn`, callbacks, metrics, checkpoints,
a sink executor and two compute backends (numpy built in, torch optional).

A MindSpore script ports by changing imports:
    import training as ms
    from training import nn, Model
or runs unchanged with `python -m training.compat script.py` (see training.compat).
"""
from training.tensor import Parameter, Tensor, no_grad  # noqa: F401
from training.common import dtype  # noqa: F401
from training.common.dtype import (bool_, float16, float32, float64, int8, int16, int32,  # noqa: F401
                                   int64, uint8, uint16, uint32, uint64, complex64, complex128)
from training.common.seed import (Generator, default_generator, get_rng_state,  # noqa: F401
                                  get_seed, initial_seed, manual_seed, seed, set_rng_state,
                                  set_seed)
from training.common.device import (get_current_device, run_check, set_deterministic,  # noqa: F401
                                    set_device, set_recursion_limit)
from training.common.tensors import from_numpy, is_tensor  # noqa: F401
from training.common.dtype import (dtype_to_nptype, dtype_to_pytype,  # noqa: F401
                                   get_py_obj_dtype, pytype_to_dtype)
from training import context, ops  # noqa: F401
from training import log as _log
from training.context import (GRAPH_MODE, PYNATIVE_MODE, get_context, set_context,  # noqa: F401
                              set_auto_parallel_context, get_auto_parallel_context)
from training.checkpoint import (count_params, load_checkpoint, load_param_into_net,  # noqa: F401
                                 save_checkpoint)
from training.model import Model  # noqa: F401
from training.backends.base import get_backend, set_backend  # noqa: F401
from training.context import ParallelMode, reset_auto_parallel_context  # noqa: F401
from training import amp, common, communication, nn, train  # noqa: F401
from training.common.initializer import initializer  # noqa: F401
from training.common.api import jit, jit_class, ms_class, ms_function, mutable  # noqa: F401
from training.ops.autodiff import grad, value_and_grad  # noqa: F401
from training.tensor import ParameterTuple  # noqa: F401
# MindSpore 2.x exports mindspore.train's names at the top level (mindspore.LossMonitor, ...).
from training.train import *  # noqa: F401,F403

_log.get_logger()  # handlers and level from GLOG_v / GLOG_logtostderr / GLOG_log_dir


# MindSpore's dtype aliases (last: float, int and bool shadow Python's in this module)
from training.common.dtype import (byte, cdouble, cfloat, double, float_, half, int_,  # noqa
                                   intc, intp, long, number, short, single, string, ubyte,
                                   uint, uintc, uintp, ushort, float, int, bool)  # noqa: A004


def __getattr__(name):
    if name in dtype.NOT_HELD:
        raise dtype.not_held(name)
    from training.compat.names import missing_attribute
    raise missing_attribute("mindspore", name)
