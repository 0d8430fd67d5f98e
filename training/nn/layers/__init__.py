"""Layers of the numpy backend, one family per module."""
from training.nn.layers.activation import (GELU, HSigmoid, HSwish, LeakyReLU, LogSoftmax,  # noqa: F401
                                           PReLU, ReLU, ReLU6, Sigmoid, Softmax, Tanh)
from training.nn.layers.activation import (CELU, ELU, GLU, FastGelu, Hardtanh, HShrink,  # noqa: F401
                                           LogSigmoid, Mish, RReLU, SeLU, SiLU, Softmax2d, Softmin,
                                           SoftShrink, Softsign, Tanhshrink, Threshold)
from training.nn.layers.basic import (Dense, Dropout, Flatten, Identity, Pad,  # noqa: F401
                                   get_activation)
from training.nn.layers.container import CellDict, CellList, SequentialCell  # noqa: F401
from training.nn.layers.conv import Conv1d, Conv1dTranspose, Conv2d, Conv2dTranspose  # noqa: F401,E501
from training.nn.layers.conv import Conv3d  # noqa: F401
from training.nn.layers.conv_transpose3d import Conv3dTranspose  # noqa: F401
from training.nn.layers.embedding import Embedding  # noqa: F401
from training.nn.layers.embedding_lookup import EmbeddingLookup  # noqa: F401
from training.nn.layers.norm_clip import ClipByNorm  # noqa: F401
from training.nn.layers.time_distributed import TimeDistributed  # noqa: F401
from training.nn.layers.unfold import Unfold  # noqa: F401
from training.nn.layers.image import (MSSSIM, PSNR, SSIM, CentralCrop,  # noqa: F401
                                      ImageGradients)
from training.nn.layers.normalization import (BatchNorm1d, BatchNorm2d, GroupNorm,  # noqa: F401
                                              LayerNorm)
from training.nn.layers.normalization import (BatchNorm3d, InstanceNorm1d,  # noqa: F401
                                              InstanceNorm2d, InstanceNorm3d)
from training.nn.layers.pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d  # noqa: F401
from training.nn.layers.pooling_nd import (AvgPool1d, AvgPool3d, LPPool1d, LPPool2d,  # noqa: F401
                                           MaxPool1d, MaxPool3d)
from training.nn.layers.adaptive_pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool3d,  # noqa: F401
                                                 AdaptiveMaxPool1d, AdaptiveMaxPool2d,
                                                 AdaptiveMaxPool3d)
from training.nn.layers.padding import (ConstantPad1d, ConstantPad2d, ConstantPad3d,  # noqa: F401
                                        ReflectionPad1d, ReflectionPad2d, ReflectionPad3d,
                                        ReplicationPad1d, ReplicationPad2d, ReplicationPad3d,
                                        ZeroPad2d)
from training.nn.layers.rearrange import (ChannelShuffle, PixelShuffle,  # noqa: F401
                                          PixelUnshuffle, Roll, Tril, Triu, Unflatten)
from training.nn.layers.dropout import Dropout1d, Dropout2d, Dropout3d  # noqa: F401
from training.nn.layers.upsampling import Upsample  # noqa: F401
from training.nn.layers.math_cells import MatMul, Norm, OneHot, Range  # noqa: F401
from training.nn.layers.combined import Conv2dBnAct, DenseBnAct  # noqa: F401
from training.nn.layers.rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNCell  # noqa: F401
from training.nn.layers.transformer import (MultiheadAttention, Transformer,  # noqa: F401
                                          TransformerDecoder, TransformerDecoderLayer,
                                          TransformerEncoder, TransformerEncoderLayer)
