"""MindSpore 1.x quick start style: context, c_transforms pipeline on uint8 images,
mindspore.train.callback, nn.metrics.Accuracy, Model.train / eval / predict."""
import numpy as np

import mindspore.dataset as ds
import mindspore.dataset.transforms.c_transforms as C
import mindspore.dataset.vision.c_transforms as CV
import mindspore.nn as nn
from mindspore import Model, Tensor, context, set_seed
from mindspore import dtype as mstype
from mindspore.common.initializer import TruncatedNormal
from mindspore.dataset.vision import Inter
from mindspore.nn.metrics import Accuracy
from mindspore.train.callback import LossMonitor

from synthetic_data import hwc_uint8_images


def create_dataset(images, labels, batch_size=16, repeat_size=1):
    mnist_ds = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False)
    resize_op = CV.Resize((16, 16), interpolation=Inter.LINEAR)
    rescale_op = CV.Rescale(1.0 / 255.0, 0.0)
    hwc2chw_op = CV.HWC2CHW()
    type_cast_op = C.TypeCast(mstype.int32)
    mnist_ds = mnist_ds.map(operations=type_cast_op, input_columns="label")
    mnist_ds = mnist_ds.map(operations=[resize_op, rescale_op, hwc2chw_op],
                            input_columns="image")
    mnist_ds = mnist_ds.shuffle(buffer_size=64)
    mnist_ds = mnist_ds.batch(batch_size, drop_remainder=True)
    return mnist_ds.repeat(repeat_size)


def weight_variable():
    return TruncatedNormal(0.02)


class SmallNet(nn.Cell):
    def __init__(self, num_class=3):
        super(SmallNet, self).__init__()
        self.conv = nn.Conv2d(3, 8, 3, weight_init=weight_variable())
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(8 * 8 * 8, num_class, weight_init=weight_variable())
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc(self.flatten(self.pool(self.relu(self.conv(x)))))


if __name__ == "__main__":
    context.set_context(mode=context.GRAPH_MODE, device_target="CPU")
    set_seed(1)
    ds.config.set_seed(1)
    images, labels = hwc_uint8_images(n=160, classes=3, size=20)
    ds_train = create_dataset(images[:128], labels[:128])
    ds_eval = create_dataset(images[128:], labels[128:])
    network = SmallNet()
    net_loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    net_opt = nn.Momentum(network.trainable_params(), 0.05, 0.9)
    model = Model(network, net_loss, net_opt, metrics={"Accuracy": Accuracy()})
    model.train(5, ds_train, callbacks=[LossMonitor(8)], dataset_sink_mode=False)
    acc = model.eval(ds_eval, dataset_sink_mode=False)
    print("============== {} ==============".format(acc))
    assert acc["Accuracy"] > 0.9, acc
    batch = next(ds_eval.create_dict_iterator())
    output = model.predict(Tensor(batch["image"]))
    predicted = np.argmax(output.asnumpy(), axis=1)
    print(f'Predicted: "{predicted[:8]}", Actual: "{batch["label"].asnumpy()[:8]}"')
