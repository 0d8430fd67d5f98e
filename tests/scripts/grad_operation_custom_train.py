"""A 1.x custom training cell, as many zoo networks write one: ops.GradOperation with
get_by_list and sens_param, ops.Fill / DType / Shape for the sensitivity, ops.depend."""
import mindspore as ms
import mindspore.dataset as ds
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import ParameterTuple
from mindspore.ops import composite as C
from mindspore.ops import functional as F
from mindspore.ops import operations as P

from synthetic_data import vectors


class TrainOneStepCellCustom(nn.Cell):
    def __init__(self, network, optimizer, sens=1.0):
        super(TrainOneStepCellCustom, self).__init__(auto_prefix=False)
        self.network = network
        self.network.set_grad()
        self.weights = ParameterTuple(network.trainable_params())
        self.optimizer = optimizer
        self.grad = C.GradOperation(get_by_list=True, sens_param=True)
        self.sens = sens

    def construct(self, *inputs):
        loss = self.network(*inputs)
        sens = P.Fill()(P.DType()(loss), P.Shape()(loss), self.sens)
        grads = self.grad(self.network, self.weights)(*inputs, sens)
        return F.depend(loss, self.optimizer(grads))


class NetWithLoss(nn.Cell):
    def __init__(self, backbone):
        super(NetWithLoss, self).__init__()
        self.backbone = backbone
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, x, label):
        return self.loss(self.backbone(x), label)


if __name__ == "__main__":
    ms.set_seed(6)
    ds.config.set_seed(6)
    x, y = vectors(n=256, dim=8, classes=3, seed=4)
    data = ds.NumpySlicesDataset((x, y), column_names=["x", "y"]).batch(32)
    backbone = nn.SequentialCell([nn.Dense(8, 32), nn.Tanh(), nn.Dense(32, 3)])
    train_net = TrainOneStepCellCustom(NetWithLoss(backbone),
                                       nn.Momentum(backbone.trainable_params(), 0.1, 0.9))
    model = ms.Model(train_net)
    model.train(8, data)
    logits = backbone(ms.Tensor(x))
    accuracy = (ops.Argmax(axis=1)(logits).asnumpy() == y).mean()
    print("accuracy:", accuracy)
    assert accuracy > 0.9
