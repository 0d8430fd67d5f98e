"""Synthetic stand-ins for the data sets the corpus scripts would download (MNIST, CIFAR-10,
text): small, deterministic and learnable, so a script's accuracy check means something."""
import numpy as np


def image_classes(n=256, classes=4, size=16, channels=1, seed=0, dtype=np.float32):
    """(images NCHW, labels int32): class k has a bright square at its own place, plus noise."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, classes, n).astype(np.int32)
    images = rng.normal(0.0, 0.3, (n, channels, size, size))
    cell = size // 4
    for i, k in enumerate(labels):
        r, c = divmod(int(k) % 16, 4)
        images[i, :, r * cell:(r + 1) * cell, c * cell:(c + 1) * cell] += 2.0
    return images.astype(dtype), labels


def hwc_uint8_images(n=128, classes=3, size=20, seed=0):
    """(uint8 HWC images, int labels) as an image folder decoder would give them."""
    images, labels = image_classes(n, classes, size, 3, seed)
    scaled = np.clip((images + 1.0) * 60.0, 0, 255).astype(np.uint8)
    return scaled.transpose(0, 2, 3, 1).copy(), labels


def vectors(n=256, dim=8, classes=2, seed=0):
    """(features float32, labels int32) separable by a random linear map."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, dim)).astype(np.float32)
    w = rng.standard_normal((dim, classes))
    return x, (x @ w).argmax(axis=1).astype(np.int32)


def token_sequences(n=256, length=12, vocab=50, seed=0):
    """(token ids int32, labels int32): label 1 when token 7 occurs in the sequence."""
    rng = np.random.default_rng(seed)
    ids = rng.integers(8, vocab, (n, length)).astype(np.int32)
    labels = rng.integers(0, 2, n).astype(np.int32)
    positions = rng.integers(0, length, n)
    ids[labels == 1, positions[labels == 1]] = 7
    return ids, labels
