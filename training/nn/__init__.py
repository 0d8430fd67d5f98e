"""`training.nn`: cells, layers, losses, optimizers and wrappers, as `mindspore.nn`."""
from training.nn.cell import Cell  # noqa: F401
from training.nn.layers import *  # noqa: F401,F403
from training.nn.loss import (CrossEntropyLoss, L1Loss, LossBase, MSELoss,  # noqa: F401
                              SoftmaxCrossEntropyWithLogits)
from training.nn.optim import SGD, Adam, Momentum, Optimizer  # noqa: F401
from training.nn.wrappers import TrainOneStepCell, WithEvalCell, WithLossCell  # noqa: F401
from training.nn import loss, metrics  # noqa: F401
from training.nn.metrics import *  # noqa: F401,F403  (nn.Accuracy, nn.Loss, nn.F1, ... as in MindSpore)


def __getattr__(name):
    from training.compat.names import missing_attribute
    raise missing_attribute("mindspore.nn", name)
