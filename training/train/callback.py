"""`mindspore.train.callback`: the callbacks (implemented in training.callbacks)."""
from training.callbacks import *  # noqa: F401,F403
from training.callbacks import __all__  # noqa: F401
