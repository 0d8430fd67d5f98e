"""Optimizers (one per module) on the `Optimizer` base."""
from training.nn.optim.adadelta import Adadelta  # noqa: F401
from training.nn.optim.adagrad import Adagrad  # noqa: F401
from training.nn.optim.adam import Adam  # noqa: F401
from training.nn.optim.adam_weight_decay import AdamWeightDecay  # noqa: F401
from training.nn.optim.adamax import AdaMax  # noqa: F401
from training.nn.optim.adafactor import AdaFactor  # noqa: F401
from training.nn.optim.asgd import ASGD  # noqa: F401
from training.nn.optim.ftrl import FTRL  # noqa: F401
from training.nn.optim.lamb import Lamb  # noqa: F401
from training.nn.optim.lars import LARS  # noqa: F401
from training.nn.optim.lazy_adam import AdamOffload, LazyAdam  # noqa: F401
from training.nn.optim.momentum import Momentum  # noqa: F401
from training.nn.optim.optimizer import Optimizer  # noqa: F401
from training.nn.optim.proximal_adagrad import ProximalAdagrad  # noqa: F401
from training.nn.optim.rmsprop import RMSProp  # noqa: F401
from training.nn.optim.rprop import Rprop  # noqa: F401
from training.nn.optim.sgd import SGD  # noqa: F401
