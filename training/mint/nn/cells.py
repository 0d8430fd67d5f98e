"""mint.nn's layers without parameters: activations, dropout, shapes, pooling, padding,
resizing and losses, each calling mint.nn.functional (or the training.nn cell that computes it)
with torch's argument names."""
from training import nn as _nn
from training.mint.nn import functional as F
from training.nn.cell import Cell

Flatten = _nn.Flatten
Identity = _nn.Identity
PixelShuffle = _nn.PixelShuffle
ZeroPad2d = _nn.ZeroPad2d
ConstantPad1d, ConstantPad2d, ConstantPad3d = _nn.ConstantPad1d, _nn.ConstantPad2d, \
    _nn.ConstantPad3d
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = _nn.ReflectionPad1d, \
    _nn.ReflectionPad2d, _nn.ReflectionPad3d
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = _nn.ReplicationPad1d, \
    _nn.ReplicationPad2d, _nn.ReplicationPad3d
AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d = _nn.AdaptiveAvgPool1d, \
    _nn.AdaptiveAvgPool2d, _nn.AdaptiveAvgPool3d
AdaptiveMaxPool1d = _nn.AdaptiveMaxPool1d


class ZeroPad1d(_nn.ConstantPad1d):
    """Pads the last axis with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)


class ZeroPad3d(_nn.ConstantPad3d):
    """Pads the last three axes with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)


class _Function(Cell):
    """A layer that calls one functional with fixed keyword arguments."""
    function = None

    def __init__(self, **options):
        super().__init__()
        self.options = options

    def construct(self, input):  # noqa: A002
        return type(self).function(input, **self.options)


def _layer(name, function, *keywords):
    """A _Function subclass whose __init__ takes `keywords` (name, default) positionally."""
    def __init__(self, *args, **kwargs):
        options = dict(keywords)
        options.update(zip([k for k, _ in keywords], args))
        options.update({k: v for k, v in kwargs.items() if k != "inplace"})
        _Function.__init__(self, **{k: v for k, v in options.items() if k != "inplace"})
    return type(name, (_Function,), {"function": staticmethod(function), "__init__": __init__})


ReLU = _layer("ReLU", F.relu)
ReLU6 = _layer("ReLU6", F.relu6, ("inplace", False))
Sigmoid = _layer("Sigmoid", F.sigmoid)
Tanh = _layer("Tanh", F.tanh)
SiLU = _layer("SiLU", F.silu, ("inplace", False))
SELU = _layer("SELU", F.selu)
Mish = _layer("Mish", F.mish)
GELU = _layer("GELU", F.gelu, ("approximate", "none"))
ELU = _layer("ELU", F.elu, ("alpha", 1.0), ("inplace", False))
Hardtanh = _layer("Hardtanh", F.hardtanh, ("min_val", -1.0), ("max_val", 1.0),
                  ("inplace", False))
Hardswish = _layer("Hardswish", F.hardswish)
Hardsigmoid = _layer("Hardsigmoid", F.hardsigmoid)
Hardshrink = _layer("Hardshrink", F.hardshrink, ("lambd", 0.5))
Softshrink = _layer("Softshrink", F.softshrink, ("lambd", 0.5))
LogSigmoid = _layer("LogSigmoid", F.logsigmoid)
Threshold = _layer("Threshold", F.threshold, ("threshold", None), ("value", None),
                   ("inplace", False))
GLU = _layer("GLU", F.glu, ("dim", -1))
Softmax = _layer("Softmax", F.softmax, ("dim", None))
LogSoftmax = _layer("LogSoftmax", F.log_softmax, ("dim", None))
AvgPool1d = _layer("AvgPool1d", F.avg_pool1d, ("kernel_size", 1), ("stride", None),
                   ("padding", 0), ("ceil_mode", False), ("count_include_pad", True))
AvgPool2d = _layer("AvgPool2d", F.avg_pool2d, ("kernel_size", 1), ("stride", None),
                   ("padding", 0), ("ceil_mode", False), ("count_include_pad", True),
                   ("divisor_override", None))
MaxPool2d = _layer("MaxPool2d", F.max_pool2d, ("kernel_size", 1), ("stride", None),
                   ("padding", 0), ("dilation", 1), ("return_indices", False),
                   ("ceil_mode", False))
UpsamplingNearest2d = _layer("UpsamplingNearest2d", F.interpolate, ("size", None),
                             ("scale_factor", None), ("mode", "nearest"))
UpsamplingBilinear2d = _layer("UpsamplingBilinear2d", F.interpolate, ("size", None),
                              ("scale_factor", None), ("mode", "bilinear"),
                              ("align_corners", True))
Unfold = _layer("Unfold", F.unfold, ("kernel_size", 1), ("dilation", 1), ("padding", 0),
                ("stride", 1))


class Dropout(Cell):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not 0 <= p <= 1:
            raise ValueError(f"For 'Dropout', 'p' must be in [0, 1], but got {p}")
        self.p = p

    def construct(self, input):  # noqa: A002
        return F.dropout(input, self.p, self.training)


class AdaptiveMaxPool2d(Cell):
    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self, input):  # noqa: A002
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class Upsample(Cell):
    """F.interpolate's size floor(input size * scale_factor), in every mode (torch's; nn's
    Upsample refuses scale_factor for 'nearest')."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.options = (size, scale_factor, mode, align_corners)

    def construct(self, input):  # noqa: A002
        return F.interpolate(input, *self.options)


class Dropout2d(Dropout):
    def construct(self, input):  # noqa: A002
        return F.dropout2d(input, self.p, self.training)


class _Loss(Cell):
    """A loss layer: the functional with the layer's options; the target second."""
    function = None

    def __init__(self, **options):
        super().__init__()
        self.options = options

    def construct(self, input, target):  # noqa: A002
        return type(self).function(input, target, **self.options)


def _loss(name, function, *keywords):
    def __init__(self, *args, **kwargs):
        options = dict(keywords)
        options.update(zip([k for k, _ in keywords], args))
        options.update(kwargs)
        _Loss.__init__(self, **options)
    return type(name, (_Loss,), {"function": staticmethod(function), "__init__": __init__})


L1Loss = _loss("L1Loss", F.l1_loss, ("reduction", "mean"))
MSELoss = _loss("MSELoss", F.mse_loss, ("reduction", "mean"))
SmoothL1Loss = _loss("SmoothL1Loss", F.smooth_l1_loss, ("reduction", "mean"), ("beta", 1.0))
BCELoss = _loss("BCELoss", F.binary_cross_entropy, ("weight", None), ("reduction", "mean"))
BCEWithLogitsLoss = _loss("BCEWithLogitsLoss", F.binary_cross_entropy_with_logits,
                          ("weight", None), ("reduction", "mean"), ("pos_weight", None))
CrossEntropyLoss = _loss("CrossEntropyLoss", F.cross_entropy, ("weight", None),
                         ("ignore_index", -100), ("reduction", "mean"),
                         ("label_smoothing", 0.0))
NLLLoss = _loss("NLLLoss", F.nll_loss, ("weight", None), ("ignore_index", -100),
                ("reduction", "mean"))
KLDivLoss = _loss("KLDivLoss", F.kl_div, ("reduction", "mean"), ("log_target", False))
SoftMarginLoss = _loss("SoftMarginLoss", F.soft_margin_loss, ("reduction", "mean"))


class CosineEmbeddingLoss(Cell):
    """1 - cos(input1, input2) where target is 1, max(0, cos - margin) where it is -1."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__()
        self.margin, self.reduction = margin, reduction

    def construct(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, self.margin, self.reduction)


__all__ = ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
           "AdaptiveMaxPool2d", "AvgPool1d", "AvgPool2d", "BCELoss", "BCEWithLogitsLoss",
           "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "CosineEmbeddingLoss",
           "CrossEntropyLoss", "Dropout", "Dropout2d", "ELU", "Flatten", "GELU", "GLU",
           "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "Identity", "KLDivLoss",
           "L1Loss", "LogSigmoid", "LogSoftmax", "MSELoss", "MaxPool2d", "Mish", "NLLLoss",
           "PixelShuffle", "ReLU", "ReLU6", "ReflectionPad1d", "ReflectionPad2d",
           "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "SELU",
           "SiLU", "Sigmoid", "SmoothL1Loss", "SoftMarginLoss", "Softmax", "Softshrink", "Tanh",
           "Threshold", "Unfold", "Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d",
           "ZeroPad1d", "ZeroPad2d", "ZeroPad3d"]
