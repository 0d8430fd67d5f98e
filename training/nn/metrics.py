"""`mindspore.nn.metrics`: the metrics (training.metrics), which MindSpore 2.x still exports
under `nn` (`nn.Accuracy`, `nn.Loss`, `nn.F1`, ...)."""
from training.metrics import *  # noqa: F401,F403
from training.metrics import __all__  # noqa: F401
