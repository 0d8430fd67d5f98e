"""Checkpoints as the zoo uses them: ModelCheckpoint with keep_checkpoint_max, then a new
network loading the last file with load_checkpoint / load_param_into_net, resuming with
initial_epoch, and save_checkpoint of a parameter list with append_dict."""
import os
import tempfile

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.nn as nn
from mindspore import Model, Tensor
from mindspore.train.callback import CheckpointConfig, LossMonitor, ModelCheckpoint
from mindspore.train.serialization import load_checkpoint, load_param_into_net, save_checkpoint

from synthetic_data import vectors


def make_net():
    return nn.SequentialCell([nn.Dense(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dense(16, 2)])


if __name__ == "__main__":
    ms.set_seed(3)
    ds.config.set_seed(3)
    x, y = vectors(n=192, dim=8, classes=2, seed=1)
    data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(32)
    directory = tempfile.mkdtemp()
    net = make_net()
    opt = nn.Adam(net.trainable_params(), learning_rate=0.01)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt,
                  metrics={"acc"})
    config = CheckpointConfig(save_checkpoint_steps=6, keep_checkpoint_max=2)
    model.train(3, data, callbacks=[ModelCheckpoint(prefix="resnet", directory=directory,
                                                    config=config), LossMonitor(6)])
    files = sorted(f for f in os.listdir(directory) if f.endswith(".ckpt"))
    print("checkpoints:", files)
    assert len(files) == 2, files
    param_dict = load_checkpoint(os.path.join(directory, "resnet-3_6.ckpt"))
    assert "moment1.0.weight" in param_dict or any(k.startswith("moment1") for k in param_dict)
    resumed = make_net()
    not_loaded, _ = load_param_into_net(resumed, param_dict)
    assert not not_loaded, not_loaded
    probe = Tensor(x[:8])
    resumed.set_train(False)
    net.set_train(False)
    np.testing.assert_allclose(resumed(probe).asnumpy(), net(probe).asnumpy(), rtol=1e-6)
    opt2 = nn.Adam(resumed.trainable_params(), learning_rate=0.01)
    load_param_into_net(opt2, param_dict)
    model2 = Model(resumed, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                   opt2, metrics={"acc"})
    model2.train(5, data, initial_epoch=3)
    acc = model2.eval(data)["acc"]
    print("resumed accuracy:", acc)
    assert acc > 0.9
    path = os.path.join(directory, "list.ckpt")
    save_checkpoint([{"name": p.name, "data": p} for p in resumed.trainable_params()], path,
                    append_dict={"epoch_num": 5})
    assert int(load_checkpoint(path)["epoch_num"].asnumpy()) == 5
