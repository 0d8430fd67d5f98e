"""A small MobileNetV2 in the model zoo's style: inverted residual blocks with depthwise
convolutions (group = channels), ReLU6, a GlobalAvgPooling cell over P.ReduceMean, and the
zoo's CrossEntropySmooth loss built from P.OneHot."""
import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.nn as nn
from mindspore import Model, Tensor
from mindspore import dtype as mstype
from mindspore.nn.loss.loss import LossBase
from mindspore.ops import operations as P
from mindspore.train.callback import LossMonitor

from synthetic_data import image_classes


class GlobalAvgPooling(nn.Cell):
    def __init__(self):
        super(GlobalAvgPooling, self).__init__()
        self.mean = P.ReduceMean(keep_dims=False)

    def construct(self, x):
        return self.mean(x, (2, 3))


class ConvBNReLU(nn.Cell):
    def __init__(self, in_planes, out_planes, kernel_size=3, stride=1, groups=1):
        super(ConvBNReLU, self).__init__()
        padding = (kernel_size - 1) // 2
        conv = nn.Conv2d(in_planes, out_planes, kernel_size, stride, pad_mode='pad',
                         padding=padding, group=groups)
        self.features = nn.SequentialCell([conv, nn.BatchNorm2d(out_planes), nn.ReLU6()])

    def construct(self, x):
        return self.features(x)


class InvertedResidual(nn.Cell):
    def __init__(self, inp, oup, stride, expand_ratio):
        super(InvertedResidual, self).__init__()
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        layers = [ConvBNReLU(inp, hidden_dim, kernel_size=1),
                  ConvBNReLU(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim),
                  nn.Conv2d(hidden_dim, oup, kernel_size=1, stride=1, has_bias=False),
                  nn.BatchNorm2d(oup)]
        self.conv = nn.SequentialCell(layers)

    def construct(self, x):
        identity = x
        x = self.conv(x)
        if self.use_res_connect:
            return P.Add()(identity, x)
        return x


class MobileNetV2Tiny(nn.Cell):
    def __init__(self, num_classes=4):
        super(MobileNetV2Tiny, self).__init__()
        self.features = nn.SequentialCell([ConvBNReLU(3, 8, stride=2),
                                           InvertedResidual(8, 8, 1, 2),
                                           InvertedResidual(8, 16, 2, 2)])
        self.head = nn.SequentialCell([GlobalAvgPooling(), nn.Dropout(p=0.1),
                                       nn.Dense(16, num_classes, has_bias=True)])

    def construct(self, x):
        return self.head(self.features(x))


class CrossEntropySmooth(LossBase):
    def __init__(self, sparse=True, reduction='mean', smooth_factor=0., num_classes=1000):
        super(CrossEntropySmooth, self).__init__()
        self.onehot = P.OneHot()
        self.sparse = sparse
        self.on_value = Tensor(1.0 - smooth_factor, mstype.float32)
        self.off_value = Tensor(1.0 * smooth_factor / (num_classes - 1), mstype.float32)
        self.ce = nn.SoftmaxCrossEntropyWithLogits(reduction=reduction)

    def construct(self, logit, label):
        if self.sparse:
            label = self.onehot(label, P.Shape()(logit)[1], self.on_value, self.off_value)
        return self.ce(logit, label)


if __name__ == "__main__":
    ms.set_seed(2)
    ds.config.set_seed(2)
    images, labels = image_classes(n=352, classes=4, size=16, channels=3)
    train = ds.NumpySlicesDataset({"image": images[:320], "label": labels[:320]}).batch(16)
    test = ds.NumpySlicesDataset({"image": images[320:], "label": labels[320:]}).batch(16)
    net = MobileNetV2Tiny(4)
    loss = CrossEntropySmooth(sparse=True, reduction="mean", smooth_factor=0.1, num_classes=4)
    opt = nn.Momentum(filter(lambda x: x.requires_grad, net.get_parameters()), 0.05, 0.9,
                      weight_decay=4e-5)
    model = Model(net, loss_fn=loss, optimizer=opt, metrics={'acc'})
    model.train(6, train, callbacks=[LossMonitor(10)], dataset_sink_mode=True)
    acc = model.eval(test)
    print("accuracy:", acc)
    assert acc['acc'] > 0.85, acc
    assert np.isfinite(net.trainable_params()[0].asnumpy()).all()
