"""A small ResNet in the model zoo's style: residual blocks of Conv2d/BatchNorm2d with
ops.Add, a ReduceMean head, Momentum over parameter groups (no weight decay on BatchNorm) and
a cosine learning-rate list from nn.dynamic_lr."""
import mindspore as ms
import mindspore.dataset as ds
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import Model
from mindspore.train.callback import LossMonitor

from synthetic_data import image_classes


def _conv3x3(in_channel, out_channel, stride=1):
    return nn.Conv2d(in_channel, out_channel, kernel_size=3, stride=stride, padding=0,
                     pad_mode='same', weight_init='he_normal')


def _bn(channel):
    return nn.BatchNorm2d(channel, eps=1e-4, momentum=0.9, gamma_init=1, beta_init=0,
                          moving_mean_init=0, moving_var_init=1)


class ResidualBlock(nn.Cell):
    def __init__(self, in_channel, out_channel, stride=1):
        super(ResidualBlock, self).__init__()
        self.conv1 = _conv3x3(in_channel, out_channel, stride=stride)
        self.bn1 = _bn(out_channel)
        self.conv2 = _conv3x3(out_channel, out_channel)
        self.bn2 = _bn(out_channel)
        self.relu = nn.ReLU()
        self.down_sample = stride != 1 or in_channel != out_channel
        if self.down_sample:
            self.down_sample_layer = nn.SequentialCell([
                nn.Conv2d(in_channel, out_channel, 1, stride=stride, weight_init='he_normal'),
                _bn(out_channel)])
        self.add = ops.Add()

    def construct(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.down_sample:
            identity = self.down_sample_layer(identity)
        return self.relu(self.add(out, identity))


class ResNetTiny(nn.Cell):
    def __init__(self, num_classes):
        super(ResNetTiny, self).__init__()
        self.conv1 = _conv3x3(3, 8)
        self.bn1 = _bn(8)
        self.relu = ops.ReLU()
        self.layer1 = ResidualBlock(8, 8)
        self.layer2 = ResidualBlock(8, 16, stride=2)
        self.mean = ops.ReduceMean(keep_dims=True)
        self.flatten = nn.Flatten()
        self.end_point = nn.Dense(16, num_classes, has_bias=True)

    def construct(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.layer2(self.layer1(x))
        out = self.mean(x, (2, 3))
        return self.end_point(self.flatten(out))


if __name__ == "__main__":
    ms.set_seed(1)
    ds.config.set_seed(1)
    images, labels = image_classes(n=352, classes=4, size=16, channels=3)
    train = ds.NumpySlicesDataset((images[:320], labels[:320]), ["image", "label"]).batch(16)
    test = ds.NumpySlicesDataset((images[320:], labels[320:]), ["image", "label"]).batch(16)
    net = ResNetTiny(4)
    decayed, no_decay = [], []
    for param in net.trainable_params():
        (no_decay if 'beta' in param.name or 'gamma' in param.name or 'bias' in param.name
         else decayed).append(param)
    group_params = [{'params': decayed, 'weight_decay': 1e-4}, {'params': no_decay},
                    {'order_params': net.trainable_params()}]
    steps = train.get_dataset_size()
    lr = nn.cosine_decay_lr(0.0, 0.1, total_step=steps * 6, step_per_epoch=steps, decay_epoch=6)
    opt = nn.Momentum(group_params, ms.Tensor(lr), 0.9)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
    model = Model(net, loss_fn=loss, optimizer=opt, metrics={'acc'})
    model.train(6, train, callbacks=[LossMonitor(6)])
    result = model.eval(test)
    print("result:", result)
    assert result['acc'] > 0.9, result
