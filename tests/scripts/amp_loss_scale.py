"""Loss scaling as the zoo configures it: Model with a FixedLossScaleManager (the optimizer
given the same loss_scale), and a custom loop around nn.TrainOneStepWithLossScaleCell with a
DynamicLossScaleManager's update cell."""
import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.nn as nn
from mindspore import FixedLossScaleManager, Model
from mindspore.train.loss_scale_manager import DynamicLossScaleManager

from synthetic_data import vectors

if __name__ == "__main__":
    ms.set_seed(5)
    ds.config.set_seed(5)
    x, y = vectors(n=256, dim=8, classes=2, seed=3)
    data = ds.NumpySlicesDataset((x, y), column_names=["x", "y"]).batch(32)
    loss_scale = 1024.0
    net = nn.SequentialCell([nn.Dense(8, 16), nn.ReLU(), nn.Dense(16, 2)])
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9, loss_scale=loss_scale)
    manager = FixedLossScaleManager(loss_scale, drop_overflow_update=False)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt,
                  metrics={"acc"}, amp_level="O0", loss_scale_manager=manager)
    model.train(4, data)
    acc = model.eval(data)["acc"]
    print("fixed loss scale accuracy:", acc)
    assert acc > 0.9

    net2 = nn.SequentialCell([nn.Dense(8, 16), nn.ReLU(), nn.Dense(16, 2)])
    net_with_loss = nn.WithLossCell(net2, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                           reduction="mean"))
    dynamic = DynamicLossScaleManager(init_loss_scale=2 ** 12, scale_factor=2, scale_window=8)
    train_net = nn.TrainOneStepWithLossScaleCell(net_with_loss,
                                                 nn.Adam(net2.trainable_params(), 0.01),
                                                 scale_sense=dynamic.get_update_cell())
    train_net.set_train()
    for epoch in range(4):
        for features, labels in data.create_tuple_iterator():
            loss, overflow, scale = train_net(features, labels)
    print("final loss", loss, "scale", scale)
    assert float(scale.asnumpy()) > 2 ** 12  # grew after overflow-free windows
    predictions = net2(ms.Tensor(x)).asnumpy().argmax(1)
    assert (predictions == y).mean() > 0.9
