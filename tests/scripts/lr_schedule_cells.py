"""Learning-rate schedules the zoo writes as cells: a LearningRateSchedule subclass combining
WarmUpLR and PolynomialDecayLR (BERT's), given to AdamWeightDecay with parameter groups."""
import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import Tensor
from mindspore.common import dtype as mstype
from mindspore.nn.learning_rate_schedule import (LearningRateSchedule, PolynomialDecayLR,
                                                 WarmUpLR)

from synthetic_data import vectors


class BertLearningRate(LearningRateSchedule):
    def __init__(self, learning_rate, end_learning_rate, warmup_steps, decay_steps, power):
        super(BertLearningRate, self).__init__()
        self.warmup_flag = False
        if warmup_steps > 0:
            self.warmup_flag = True
            self.warmup_lr = WarmUpLR(learning_rate, warmup_steps)
        self.decay_lr = PolynomialDecayLR(learning_rate, end_learning_rate, decay_steps, power)
        self.warmup_steps = Tensor(np.array([warmup_steps]).astype(np.float32))
        self.greater = ops.Greater()
        self.cast = ops.Cast()

    def construct(self, global_step):
        decay_lr = self.decay_lr(global_step)
        if self.warmup_flag:
            is_warmup = self.cast(self.greater(self.warmup_steps, global_step), mstype.float32)
            warmup_lr = self.warmup_lr(global_step)
            return (1 - is_warmup) * decay_lr + is_warmup * warmup_lr
        return decay_lr


if __name__ == "__main__":
    ms.set_seed(4)
    ds.config.set_seed(4)
    x, y = vectors(n=256, dim=8, classes=3, seed=2)
    data = ds.NumpySlicesDataset((x, y), column_names=["x", "y"]).batch(32)
    net = nn.SequentialCell([nn.Dense(8, 32), nn.GELU(), nn.LayerNorm((32,)), nn.Dense(32, 3)])
    lr = BertLearningRate(0.02, 0.0, warmup_steps=8, decay_steps=64, power=1.0)
    rates = [lr(Tensor(np.array([s], np.int32))).asnumpy().item() for s in (0, 4, 8, 40, 64)]
    print("rates:", rates)
    assert np.allclose(rates, [0.0, 0.01, 0.02 * (1 - 8 / 64), 0.02 * (1 - 40 / 64), 0.0])
    params = net.trainable_params()
    decay_params = [p for p in params if "gamma" not in p.name and "beta" not in p.name
                    and "bias" not in p.name]
    other_params = list(filter(lambda p: "gamma" in p.name or "beta" in p.name
                               or "bias" in p.name, params))
    groups = [{"params": decay_params, "weight_decay": 0.01}, {"params": other_params,
                                                               "weight_decay": 0.0}]
    opt = nn.AdamWeightDecay(groups, learning_rate=lr, eps=1e-6)
    model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt,
                     metrics={"accuracy"})
    model.train(8, data)
    acc = model.eval(data)["accuracy"]
    print("accuracy:", acc)
    assert acc > 0.9, acc
