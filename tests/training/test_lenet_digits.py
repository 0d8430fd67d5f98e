"""LeNet-5 on scikit-learn's handwritten digits (8x8 upsampled to 32x32): over 95% test accuracy
with MindSpore's recipe (Momentum lr 0.01 / 0.9, batch 32, 10 epochs, 1,500 training images)."""
import cv2
import numpy as np
from sklearn.datasets import load_digits

from training import Model, nn, set_seed
from training.callbacks import LossMonitor

from tests.training.conftest import LeNet5, make_dataset


def _digits():
    digits = load_digits()
    images = digits.images.astype(np.float32) / 16.0
    images = np.stack([cv2.resize(im, (32, 32), interpolation=cv2.INTER_LINEAR) for im in images])
    labels = digits.target.astype(np.int32)
    order = np.random.default_rng(0).permutation(len(images))
    return images[order][:, None], labels[order]


def test_lenet5_reaches_95_percent_on_digits(capsys):
    set_seed(0)
    images, labels = _digits()
    train = make_dataset([images[:1500], labels[:1500]], 32, ["image", "label"])
    test = make_dataset([images[1500:], labels[1500:]], 64, ["image", "label"])
    net = LeNet5()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9),
                  metrics={"accuracy"})
    model.train(10, train, callbacks=LossMonitor(per_print_times=47), dataset_sink_mode=True)
    accuracy = model.eval(test)["accuracy"]
    assert accuracy > 0.95, capsys.readouterr().out
