"""Optimizers (one per module) on the `Optimizer` base."""
from training.nn.optim.adam import Adam  # noqa: F401
from training.nn.optim.momentum import Momentum  # noqa: F401
from training.nn.optim.optimizer import Optimizer  # noqa: F401
from training.nn.optim.sgd import SGD  # noqa: F401
