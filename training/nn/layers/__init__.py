"""Layers of the numpy backend, one family per module."""
from training.nn.layers.activation import GELU, LeakyReLU, ReLU, Sigmoid, Softmax, Tanh  # noqa: F401
from training.nn.layers.basic import Dense, Dropout, Flatten  # noqa: F401
from training.nn.layers.container import CellList, SequentialCell  # noqa: F401
from training.nn.layers.conv import Conv2d  # noqa: F401
from training.nn.layers.normalization import BatchNorm1d, BatchNorm2d  # noqa: F401
from training.nn.layers.pooling import AvgPool2d, MaxPool2d  # noqa: F401
