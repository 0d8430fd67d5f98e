"""Conv2dBnAct and DenseBnAct: a convolution (or Dense), then optionally a batch normalization
and an activation, as MindSpore 2.10's (children conv/dense, batchnorm, activation, so the
parameters are conv.weight, batchnorm.gamma, ...)."""
from training.nn.cell import Cell
from training.nn.layers.activation import LeakyReLU
from training.nn.layers.basic import Dense, _activation
from training.nn.layers.conv import Conv2d
from training.nn.layers.normalization import BatchNorm1d, BatchNorm2d


class _BnAct(Cell):
    def add_bn_act(self, has_bn, batch_norm, activation, alpha, after_fake):
        self.has_bn = self.check_bool("has_bn", has_bn)
        self.after_fake = self.check_bool("after_fake", after_fake)
        self.has_act = activation is not None
        if has_bn:
            self.batchnorm = batch_norm
        if activation == "leakyrelu":
            self.activation = LeakyReLU(alpha)
        elif callable(activation) and not isinstance(activation, Cell):
            self.activation = activation    # (a primitive)
        else:
            self.activation = _activation(activation, self.cls_name)

    def finish(self, x):
        if self.has_bn:
            x = self.batchnorm(x)
        return self.activation(x) if self.has_act else x


class Conv2dBnAct(_BnAct):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init="normal",
                 bias_init="zeros", has_bn=False, momentum=0.997, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                           dilation, group, has_bias, weight_init, bias_init)
        self.add_bn_act(has_bn, BatchNorm2d(out_channels, eps, momentum) if has_bn else None,
                        activation, alpha, after_fake)

    def construct(self, x):
        return self.finish(self.conv(x))


class DenseBnAct(_BnAct):
    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros",
                 has_bias=True, has_bn=False, momentum=0.9, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.add_bn_act(has_bn, BatchNorm1d(out_channels, eps, momentum) if has_bn else None,
                        activation, alpha, after_fake)

    def construct(self, x):
        return self.finish(self.dense(x))
