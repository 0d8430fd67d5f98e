"""`training.nn`: cells, layers, losses, optimizers and wrappers, as `mindspore.nn`."""
from training.nn.cell import Cell  # noqa: F401
from training.nn.layers import (AvgPool2d, BatchNorm1d, BatchNorm2d, CellList, Conv2d,  # noqa: F401
                                Dense, Dropout, Flatten, GELU, LeakyReLU, MaxPool2d, ReLU,
                                SequentialCell, Sigmoid, Softmax, Tanh)
from training.nn.loss import (CrossEntropyLoss, L1Loss, LossBase, MSELoss,  # noqa: F401
                              SoftmaxCrossEntropyWithLogits)
from training.nn.optim import SGD, Adam, Momentum, Optimizer  # noqa: F401
from training.nn.wrappers import TrainOneStepCell, WithEvalCell, WithLossCell  # noqa: F401
from training.nn import loss, metrics  # noqa: F401
from training.nn.metrics import *  # noqa: F401,F403  (nn.Accuracy, nn.Loss, nn.F1, ... as in MindSpore)


def __getattr__(name):
    from training.compat.names import missing_attribute
    raise missing_attribute("mindspore.nn", name)
