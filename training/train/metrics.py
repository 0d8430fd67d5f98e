"""`mindspore.train.metrics`: the metrics (implemented in training.metrics)."""
from training.metrics import *  # noqa: F401,F403
from training.metrics import __all__  # noqa: F401
