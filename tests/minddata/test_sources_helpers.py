"""Writers of small MNIST / CIFAR / image-folder / CSV test data, shared by the source tests.

The formats are written here from their public descriptions (idx files: big-endian header, then
bytes; CIFAR binary: fixed records of label byte(s) + 3072 planar pixels), so the tests do not
depend on the readers they check.
"""
import os
import struct

import numpy as np


def write_idx_images(path, images):
    images = np.asarray(images, dtype=np.uint8)
    n, rows, cols = images.shape[:3]
    with open(path, "wb") as f:
        f.write(struct.pack(">4I", 2051, n, rows, cols))
        f.write(images.tobytes())


def write_idx_labels(path, labels):
    labels = np.asarray(labels, dtype=np.uint8)
    with open(path, "wb") as f:
        f.write(struct.pack(">2I", 2049, len(labels)))
        f.write(labels.tobytes())


def mnist_arrays(n, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (n, 28, 28), dtype=np.uint8), rng.integers(0, 10, n).astype(np.uint8)


def make_mnist_dir(root, n_train=7, n_test=3):
    """train-* and t10k-* idx files; returns {usage: (images, labels)}."""
    os.makedirs(root, exist_ok=True)
    out = {}
    for prefix, usage, n, seed in (("train", "train", n_train, 1), ("t10k", "test", n_test, 2)):
        images, labels = mnist_arrays(n, seed)
        write_idx_images(os.path.join(root, f"{prefix}-images-idx3-ubyte"), images)
        write_idx_labels(os.path.join(root, f"{prefix}-labels-idx1-ubyte"), labels)
        out[usage] = (images, labels)
    return out


def write_cifar_file(path, images_hwc, *label_columns):
    """Records of label byte(s) then the image in planar (CHW) order."""
    images = np.asarray(images_hwc, dtype=np.uint8)
    planar = images.transpose(0, 3, 1, 2).reshape(len(images), -1)
    labels = np.stack([np.asarray(c, dtype=np.uint8) for c in label_columns], axis=1)
    with open(path, "wb") as f:
        f.write(np.concatenate([labels, planar], axis=1).tobytes())


def cifar_arrays(n, seed, n_label_columns=1, n_classes=10):
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 256, (n, 32, 32, 3), dtype=np.uint8)
    labels = [rng.integers(0, n_classes, n).astype(np.uint8) for _ in range(n_label_columns)]
    return images, labels


def make_cifar10_dir(root, per_batch=(3, 2), n_test=2):
    """data_batch_1..k.bin and test_batch.bin; returns (list of (file, images, labels))."""
    os.makedirs(root, exist_ok=True)
    files = []
    for i, n in enumerate(per_batch, start=1):
        images, (labels,) = cifar_arrays(n, 10 + i)
        write_cifar_file(os.path.join(root, f"data_batch_{i}.bin"), images, labels)
        files.append((f"data_batch_{i}.bin", images, labels))
    images, (labels,) = cifar_arrays(n_test, 99)
    write_cifar_file(os.path.join(root, "test_batch.bin"), images, labels)
    files.append(("test_batch.bin", images, labels))
    return files


def make_cifar100_dir(root, n_train=4, n_test=3):
    os.makedirs(root, exist_ok=True)
    out = {}
    for name, n, seed in (("train", n_train, 5), ("test", n_test, 6)):
        images, (coarse, fine) = cifar_arrays(n, seed, 2, 20)
        write_cifar_file(os.path.join(root, f"{name}.bin"), images, coarse, fine)
        out[name] = (images, coarse, fine)
    return out


def make_image_folder(root, layout, ext=".jpg"):
    """layout: {class_name: n_images}; writes tiny real JPEGs (encoded with OpenCV)."""
    import cv2
    rng = np.random.default_rng(3)
    written = {}
    for cls, n in layout.items():
        d = os.path.join(root, cls)
        os.makedirs(d, exist_ok=True)
        for i in range(n):
            img = rng.integers(0, 256, (6 + i, 8, 3), dtype=np.uint8)
            ok, enc = cv2.imencode(ext, img)
            assert ok
            path = os.path.join(d, f"img_{i:03d}{ext}")
            enc.tofile(path)
            written[path] = enc.reshape(-1)
    return written


def test_idx_writer_layout(tmp_path):
    images, labels = mnist_arrays(2, 0)
    write_idx_images(tmp_path / "i", images)
    write_idx_labels(tmp_path / "l", labels)
    assert (tmp_path / "i").stat().st_size == 16 + 2 * 784
    assert (tmp_path / "l").read_bytes()[:8] == struct.pack(">2I", 2049, 2)


def test_cifar_writer_is_planar(tmp_path):
    img = np.zeros((1, 32, 32, 3), np.uint8)
    img[0, 0, 0] = (1, 2, 3)
    write_cifar_file(tmp_path / "b.bin", img, [7])
    raw = (tmp_path / "b.bin").read_bytes()
    assert len(raw) == 3073 and raw[0] == 7
    assert (raw[1], raw[1 + 1024], raw[1 + 2048]) == (1, 2, 3)
