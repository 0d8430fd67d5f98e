"""MindSpore 2.x functional training with mindspore.amp's DynamicLossScaler: scale the loss in
the forward function, unscale the gradients, update only when all_finite, adjust the scale."""
import numpy as np

import mindspore as ms
from mindspore import amp, nn, ops

from synthetic_data import vectors

if __name__ == "__main__":
    ms.set_seed(11)
    x, y = vectors(n=256, dim=8, classes=3, seed=7)
    model = nn.SequentialCell([nn.Dense(8, 32), nn.ReLU(), nn.Dense(32, 3)])
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.Adam(model.trainable_params(), 0.01)
    loss_scaler = amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=20)

    def forward_fn(data, label):
        loss = loss_fn(model(data), label)
        return loss_scaler.scale(loss)

    grad_fn = ms.value_and_grad(forward_fn, None, model.trainable_params())

    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        loss = loss_scaler.unscale(loss)
        is_finite = amp.all_finite(grads)
        if is_finite:
            grads = loss_scaler.unscale(grads)
            optimizer(grads)
        loss_scaler.adjust(is_finite)
        return loss

    for epoch in range(6):
        for i in range(0, 256, 32):
            loss = train_step(ms.Tensor(x[i:i + 32]), ms.Tensor(y[i:i + 32]))
        print(f"epoch {epoch}: loss {float(loss.asnumpy()):.4f}")
    accuracy = (ops.argmax(model(ms.Tensor(x)), 1).asnumpy() == y).mean()
    print("accuracy:", accuracy, "scale:", loss_scaler.scale_value)
    assert accuracy > 0.9 and float(loss_scaler.scale_value.asnumpy()) == 2 ** 12
