"""`mindspore.train` as a package: `Model`, the callbacks, the metrics and checkpoint functions,
with MindSpore's submodules `callback`, `serialization`, `model` and `metrics`.
`from mindspore.train.callback import LossMonitor` ports as
`from training.train.callback import LossMonitor`."""
from training.train import callback, loss_scale_manager, metrics, model, serialization  # noqa: F401
from training.train.loss_scale_manager import (DynamicLossScaleManager,  # noqa: F401
                                               FixedLossScaleManager, LossScaleManager)
from training.train.callback import *  # noqa: F401,F403
from training.train.metrics import *  # noqa: F401,F403
from training.train.model import Model  # noqa: F401
from training.train.serialization import (count_params, load_checkpoint,  # noqa: F401
                                          load_param_into_net, save_checkpoint)

# The names `from training.train import *` (and so the top-level `training`) exports: not the
# submodules, whose names (metrics, model) would shadow training.metrics and training.model.
__all__ = (callback.__all__ + metrics.__all__ + loss_scale_manager.__all__
           + ["Model", "count_params", "load_checkpoint", "load_param_into_net", "save_checkpoint"])
