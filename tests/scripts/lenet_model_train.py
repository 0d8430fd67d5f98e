"""LeNet-5 as the model zoo writes it: Normal(0.02) weights, Model.train with LossMonitor,
TimeMonitor and ModelCheckpoint, then Model.eval."""
import os
import sys
import tempfile

import mindspore as ms
import mindspore.dataset as ds
import mindspore.nn as nn
from mindspore import Model, context
from mindspore.common.initializer import Normal
from mindspore.train.callback import CheckpointConfig, LossMonitor, ModelCheckpoint, TimeMonitor
from mindspore.nn.metrics import Accuracy

from synthetic_data import image_classes


class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1):
        super(LeNet5, self).__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode='valid')
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid')
        self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
        self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
        self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


def create_dataset(images, labels, batch_size=32):
    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=True)
    return data.batch(batch_size, drop_remainder=True)


if __name__ == "__main__":
    context.set_context(mode=context.GRAPH_MODE, device_target="CPU")
    ms.set_seed(14)
    ds.config.set_seed(14)
    images, labels = image_classes(n=384, classes=4, size=32)
    train = create_dataset(images[:320], labels[:320])
    test = create_dataset(images[320:], labels[320:])
    net = LeNet5(num_class=4)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    model = Model(net, loss, opt, metrics={"Accuracy": Accuracy()})
    ckpt_dir = tempfile.mkdtemp()
    config = CheckpointConfig(save_checkpoint_steps=10, keep_checkpoint_max=2)
    ckpoint = ModelCheckpoint(prefix="checkpoint_lenet", directory=ckpt_dir, config=config)
    model.train(6, train, callbacks=[ckpoint, LossMonitor(10), TimeMonitor()],
                dataset_sink_mode=False)
    acc = model.eval(test, dataset_sink_mode=False)
    print("============== Accuracy:{} ==============".format(acc))
    assert acc["Accuracy"] > 0.9, acc
    assert any(f.endswith(".ckpt") for f in os.listdir(ckpt_dir))
    sys.exit(0)
