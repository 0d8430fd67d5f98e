"""`training.nn`: cells, layers, losses, optimizers and wrappers, as `mindspore.nn`."""
from training.nn.cell import Cell  # noqa: F401
from training.nn.layers import *  # noqa: F401,F403
from training.nn.loss import *  # noqa: F401,F403  (every loss cell: training.nn.loss's __all__)
from training.nn.optim import (SGD, Adagrad, Adam, AdamWeightDecay, Momentum,  # noqa: F401
                               Optimizer, RMSProp)
from training.nn.optim import (ASGD, FTRL, LARS, AdaFactor, AdaMax, Adadelta,  # noqa: F401
                               AdamOffload, Lamb, LazyAdam, ProximalAdagrad, Rprop)
from training.nn.wrappers import TrainOneStepCell, WithEvalCell, WithLossCell  # noqa: F401
from training.nn.loss_scale import (DynamicLossScaleUpdateCell,  # noqa: F401
                                    FixedLossScaleUpdateCell, TrainOneStepWithLossScaleCell)
from training.nn import dynamic_lr, learning_rate_schedule, loss, metrics  # noqa: F401
from training.nn.dynamic_lr import (cosine_decay_lr, exponential_decay_lr,  # noqa: F401
                                    inverse_decay_lr, natural_exp_decay_lr,
                                    piecewise_constant_lr, polynomial_decay_lr, warmup_lr)
from training.nn.learning_rate_schedule import (CosineDecayLR, ExponentialDecayLR,  # noqa: F401
                                                InverseDecayLR, LearningRateSchedule,
                                                NaturalExpDecayLR, PolynomialDecayLR, WarmUpLR)
from training.nn.metrics import *  # noqa: F401,F403  (nn.Accuracy, nn.Loss, nn.F1, ... as in MindSpore)


def __getattr__(name):
    from training.compat.names import missing_attribute
    raise missing_attribute("mindspore.nn", name)
