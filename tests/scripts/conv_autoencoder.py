"""A convolutional autoencoder (the generator half of a GAN / U-Net decoder): Conv2d down,
Conv2dTranspose up, GroupNorm, ReLU6 / Sigmoid, MSELoss, RMSProp, with a custom WithLossCell."""
import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.nn as nn
from mindspore import Tensor

from synthetic_data import image_classes


class AutoEncoder(nn.Cell):
    def __init__(self):
        super(AutoEncoder, self).__init__()
        self.encoder = nn.SequentialCell([
            nn.Conv2d(1, 8, 3, stride=2, pad_mode="same", has_bias=True), nn.GroupNorm(2, 8),
            nn.ReLU6()])
        self.decoder = nn.SequentialCell([
            nn.Conv2dTranspose(8, 8, 4, stride=2, pad_mode="same", has_bias=True), nn.ReLU(),
            nn.Conv2d(8, 1, 3, pad_mode="same", has_bias=True), nn.Sigmoid()])

    def construct(self, x):
        return self.decoder(self.encoder(x))


class ReconstructionLoss(nn.Cell):
    def __init__(self, network):
        super(ReconstructionLoss, self).__init__(auto_prefix=False)
        self.network = network
        self.loss = nn.MSELoss()

    def construct(self, image):
        return self.loss(self.network(image), image)


if __name__ == "__main__":
    ms.set_seed(10)
    ds.config.set_seed(10)
    images, _ = image_classes(n=128, classes=4, size=16)
    images = (images - images.min()) / (images.max() - images.min())
    data = ds.NumpySlicesDataset({"image": images}, shuffle=True).batch(16)
    net = AutoEncoder()
    loss_net = ReconstructionLoss(net)
    train_net = nn.TrainOneStepCell(loss_net, nn.RMSProp(net.trainable_params(),
                                                         learning_rate=0.01))
    train_net.set_train()
    first = None
    for epoch in range(8):
        losses = [float(train_net(batch["image"]).asnumpy())
                  for batch in data.create_dict_iterator()]
        first = first if first is not None else np.mean(losses)
        print(f"epoch {epoch}: reconstruction loss {np.mean(losses):.5f}")
    assert np.mean(losses) < 0.75 * first, (first, np.mean(losses))
    assert net(Tensor(images[:2])).shape == (2, 1, 16, 16)
