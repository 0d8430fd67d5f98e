"""Model code full of ops primitives (P.Concat, P.Split, P.Stack, P.Tile, P.Gather,
P.ExpandDims, P.Squeeze, P.Transpose, P.MatMul, P.Softmax, P.ReduceSum, P.Cast, P.ZerosLike):
a two-branch attention-style classifier, trained with Model."""
import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.nn as nn
from mindspore import Parameter, Tensor
from mindspore import dtype as mstype
from mindspore.common.initializer import XavierUniform, initializer
from mindspore.ops import operations as P

from synthetic_data import vectors


class MixNet(nn.Cell):
    def __init__(self, dim=8, hidden=16, classes=2):
        super(MixNet, self).__init__()
        self.split = P.Split(axis=1, output_num=2)
        self.concat = P.Concat(axis=1)
        self.stack = P.Stack(axis=1)
        self.expand = P.ExpandDims()
        self.squeeze = P.Squeeze(1)
        self.transpose = P.Transpose()
        self.matmul = P.MatMul(transpose_b=True)
        self.softmax = P.Softmax(axis=-1)
        self.reduce_sum = P.ReduceSum(keep_dims=False)
        self.tile = P.Tile()
        self.gather = P.Gather()
        self.cast = P.Cast()
        self.zeros_like = P.ZerosLike()
        self.proj = Parameter(initializer(XavierUniform(), [hidden, dim // 2], mstype.float32),
                              name="proj")
        self.query = Parameter(initializer("normal", [1, hidden], mstype.float32), name="query")
        self.order = Tensor(np.array([1, 0], np.int32))
        self.fc = nn.Dense(hidden * 2, classes)

    def construct(self, x):
        left, right = self.split(x)                               # 2 x (N, dim/2)
        branches = self.stack((self.matmul(left, self.proj),
                               self.matmul(right, self.proj)))   # (N, 2, hidden)
        branches = self.gather(branches, self.order, 1)           # swap the branches
        query = self.expand(self.tile(self.query, (x.shape[0], 1)), 1)  # (N, 1, hidden)
        scores = self.softmax(self.reduce_sum(branches * query, 2))     # (N, 2)
        weighted = branches * self.expand(scores, 2) + self.zeros_like(branches)
        flat = self.concat((weighted[:, 0], weighted[:, 1]))      # (N, 2 * hidden)
        pooled = self.squeeze(self.transpose(self.expand(flat, 2), (0, 2, 1)))
        return self.fc(self.cast(pooled, mstype.float32))


if __name__ == "__main__":
    ms.set_seed(12)
    ds.config.set_seed(12)
    x, y = vectors(n=256, dim=8, classes=2, seed=8)
    data = ds.NumpySlicesDataset((x, y), ["x", "y"]).batch(32)
    net = MixNet()
    model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     nn.Adam(net.trainable_params(), 0.02), metrics={"accuracy"})
    model.train(6, data)
    acc = model.eval(data)["accuracy"]
    print("accuracy:", acc)
    assert acc > 0.9, acc
