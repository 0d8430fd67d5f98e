"""Optimizers (one per module) on the `Optimizer` base."""
from training.nn.optim.adagrad import Adagrad  # noqa: F401
from training.nn.optim.adam import Adam  # noqa: F401
from training.nn.optim.adam_weight_decay import AdamWeightDecay  # noqa: F401
from training.nn.optim.momentum import Momentum  # noqa: F401
from training.nn.optim.optimizer import Optimizer  # noqa: F401
from training.nn.optim.rmsprop import RMSProp  # noqa: F401
from training.nn.optim.sgd import SGD  # noqa: F401
