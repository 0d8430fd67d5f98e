"""Helpers for the converter tests (small generated inputs); no tests here."""
import gzip
import os
import pickle
import struct

import cv2
import numpy as np

from mindrecord import ShardReader


def jpeg_bytes(seed, h=24, w=32):
    rng = np.random.default_rng(seed)
    img = rng.integers(0, 255, size=(h, w, 3), dtype=np.uint8)
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    return buf.tobytes()


def make_image_folder(root, classes=("cat", "dog", "eel"), per_class=3, ext=".jpg"):
    """root/<class>/img_<i>.jpg; returns {relative path: (label, bytes)}."""
    expected = {}
    for label, cls in enumerate(sorted(classes)):
        os.makedirs(os.path.join(root, cls), exist_ok=True)
        for i in range(per_class):
            data = jpeg_bytes(label * 100 + i)
            name = f"img_{i}{ext}"
            with open(os.path.join(root, cls, name), "wb") as f:
                f.write(data)
            expected[f"{cls}/{name}"] = (label, data)
    return expected


def read_rows(first_file):
    """All rows of a MindRecord dataset as plain Python values, in global order."""
    with ShardReader(first_file) as reader:
        cols = reader.read_rows(list(range(reader.num_rows)))
        blob_names = [c for c in reader.column_names if reader.schema[c]["type"] == "bytes"]
        # bytes exactly as stored (the dataset representation, |S<n>, cannot tell b"" from b"\0")
        blobs = list(reader.iter_python_rows(blob_names)) if blob_names else []
    rows = []
    for i in range(len(next(iter(cols.values())))):
        row = {}
        for name, values in cols.items():
            v = values[i]
            if name in blob_names:
                row[name] = blobs[i][name]
            elif getattr(v, "ndim", 1) == 0:
                row[name] = v.item()
            else:
                row[name] = np.array(v)
        rows.append(row)
    return rows


def cifar_images(n, seed=0):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 255, size=(n, 32, 32, 3), dtype=np.uint8)


def write_cifar_batch(path, images, **labels):
    data = images.transpose(0, 3, 1, 2).reshape(len(images), -1)
    batch = {b"data": data}
    for key, values in labels.items():
        batch[key.encode()] = [int(v) for v in values]
    # Protocol 3 names numpy's reconstructor as text: spell it as numpy 1.x did, as the real
    # CIFAR files (and MindSpore's restricted unpickler) expect.
    blob = pickle.dumps(batch, protocol=3).replace(b"numpy._core.multiarray",
                                                   b"numpy.core.multiarray")
    with open(path, "wb") as f:
        f.write(blob)


def make_cifar10(root, n_train=(5, 4), n_test=3, label_max=10):
    """data_batch_1.., test_batch; returns (train images, labels, test images, labels)."""
    os.makedirs(root, exist_ok=True)
    imgs, labels = [], []
    for k, n in enumerate(n_train, 1):
        im = cifar_images(n, seed=k)
        lb = [(k * 7 + i) % label_max for i in range(n)]
        write_cifar_batch(os.path.join(root, f"data_batch_{k}"), im, labels=lb)
        imgs.append(im)
        labels += lb
    tim = cifar_images(n_test, seed=99)
    tlb = [i % label_max for i in range(n_test)]
    write_cifar_batch(os.path.join(root, "test_batch"), tim, labels=tlb)
    return np.concatenate(imgs), labels, tim, tlb


def make_mnist(root, n_train=6, n_test=4, gz=True):
    os.makedirs(root, exist_ok=True)
    out = {}
    for split, n in (("train", n_train), ("t10k", n_test)):
        rng = np.random.default_rng(n)
        images = rng.integers(0, 255, size=(n, 28, 28), dtype=np.uint8)
        labels = (np.arange(n) % 10).astype(np.uint8)
        opener = gzip.open if gz else open
        suffix = ".gz" if gz else ""
        with opener(os.path.join(root, f"{split}-images-idx3-ubyte{suffix}"), "wb") as f:
            f.write(struct.pack(">IIII", 2051, n, 28, 28) + images.tobytes())
        with opener(os.path.join(root, f"{split}-labels-idx1-ubyte{suffix}"), "wb") as f:
            f.write(struct.pack(">II", 2049, n) + labels.tobytes())
        out[split] = (images, labels)
    return out


def decode(data, flags=cv2.IMREAD_UNCHANGED):
    return cv2.imdecode(np.frombuffer(data, np.uint8), flags)
