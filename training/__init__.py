"""Training executor in the style of MindSpore: `Model`, `nn`, callbacks, metrics, checkpoints,
a sink executor and two compute backends (numpy built in, torch optional).

A MindSpore script ports by changing imports:
    import training as ms
    from training import nn, Model
"""
from training.tensor import (Parameter, Tensor, bool_, float16, float32, float64, int8,  # noqa: F401
                             int16, int32, int64, no_grad, uint8)
from training.nn.initializer import set_seed  # noqa: F401
from training import context, ops  # noqa: F401
from training import log as _log
from training.context import (GRAPH_MODE, PYNATIVE_MODE, get_context, set_context,  # noqa: F401
                              set_auto_parallel_context, get_auto_parallel_context)
from training.checkpoint import (count_params, load_checkpoint, load_param_into_net,  # noqa: F401
                                 save_checkpoint)
from training.model import Model  # noqa: F401

_log.get_logger()  # handlers and level from GLOG_v / GLOG_logtostderr / GLOG_log_dir
