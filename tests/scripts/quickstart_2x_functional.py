"""MindSpore 2.x quick start: a GeneratorDataset, an nn.SequentialCell network, a functional
training loop with value_and_grad and nn.CrossEntropyLoss, and a test loop."""
import numpy as np

import mindspore
from mindspore import nn
from mindspore.dataset import GeneratorDataset

from synthetic_data import image_classes


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(16 * 16, 64),
            nn.ReLU(),
            nn.Dense(64, 64),
            nn.ReLU(),
            nn.Dense(64, 4)
        )

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


class Source:
    def __init__(self, images, labels):
        self.images, self.labels = images, labels

    def __getitem__(self, index):
        return self.images[index], self.labels[index]

    def __len__(self):
        return len(self.labels)


mindspore.set_seed(15)
mindspore.dataset.config.set_seed(15)
images, labels = image_classes(n=576, classes=4, size=16)
train_dataset = GeneratorDataset(Source(images[:512], labels[:512]), ["image", "label"],
                                 shuffle=True).batch(32)
test_dataset = GeneratorDataset(Source(images[512:], labels[512:]), ["image", "label"],
                                shuffle=False).batch(32)

model = Network()
loss_fn = nn.CrossEntropyLoss()
optimizer = nn.SGD(model.trainable_params(), 1e-2)


def forward_fn(data, label):
    logits = model(data)
    loss = loss_fn(logits, label)
    return loss, logits


grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)


def train_step(data, label):
    (loss, _), grads = grad_fn(data, label)
    optimizer(grads)
    return loss


def train(model, dataset):
    size = dataset.get_dataset_size()
    model.set_train()
    for batch, (data, label) in enumerate(dataset.create_tuple_iterator()):
        loss = train_step(data, label)
        if batch % 4 == 0:
            loss, current = loss.asnumpy(), batch
            print(f"loss: {loss:>7f}  [{current:>3d}/{size:>3d}]")


def test(model, dataset, loss_fn):
    num_batches = dataset.get_dataset_size()
    model.set_train(False)
    total, test_loss, correct = 0, 0, 0
    for data, label in dataset.create_tuple_iterator():
        pred = model(data)
        total += len(data)
        test_loss += loss_fn(pred, label).asnumpy()
        correct += (pred.argmax(1) == label).asnumpy().sum()
    test_loss /= num_batches
    correct /= total
    print(f"Test: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
    return correct


epochs = 8
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train(model, train_dataset)
accuracy = test(model, test_dataset, loss_fn)
assert accuracy > 0.9, accuracy
mindspore.save_checkpoint(model, "model.ckpt")
param_dict = mindspore.load_checkpoint("model.ckpt")
param_not_load, _ = mindspore.load_param_into_net(Network(), param_dict)
assert param_not_load == [], param_not_load
print("Done!")
