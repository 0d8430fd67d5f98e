"""Data and pipelines for the native batch node's tests."""
import os

import cv2
import numpy as np

import minddata as ds
import minddata.vision as vision
from mindrecord import FileWriter

MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]


def jpeg_bytes(seed, height=None, width=None, gray=False):
    rng = np.random.RandomState(seed)
    h = height or int(rng.randint(40, 90))
    w = width or int(rng.randint(40, 90))
    yy, xx = np.mgrid[0:h, 0:w]
    img = np.stack([(xx * 255 // w), (yy * 255 // h), ((xx + yy) * 3 % 256)], -1).astype(np.uint8)
    img = np.clip(img.astype(np.int16) + rng.randint(-20, 20, img.shape), 0, 255).astype(np.uint8)
    if gray:
        img = img[:, :, 0]
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return enc.tobytes()


def png_bytes(seed, height=50, width=60):
    rng = np.random.RandomState(seed)
    ok, enc = cv2.imencode(".png", rng.randint(0, 255, (height, width, 3), np.uint8))
    assert ok
    return enc.tobytes()


def write_mindrecord(path, images, shards=1):
    writer = FileWriter(path, shard_num=shards, overwrite=True)
    writer.add_schema({"image": {"type": "bytes"}, "label": {"type": "int32"}}, "native")
    writer.write_raw_data([{"image": img, "label": i} for i, img in enumerate(images)])
    writer.commit()
    return path if shards == 1 else path + "0"


def write_image_folder(root, images):
    for i, img in enumerate(images):
        folder = os.path.join(root, f"class{i % 3}")
        os.makedirs(folder, exist_ok=True)
        ext = ".png" if img[:4] == b"\x89PNG" else ".jpg"
        with open(os.path.join(folder, f"img{i:04d}{ext}"), "wb") as f:
            f.write(img)
    return root


def train_ops(size=32):
    return [vision.Decode(), vision.RandomResizedCrop(size), vision.RandomHorizontalFlip(),
            vision.Normalize(MEAN, STD), vision.HWC2CHW()]


def eval_ops(size=32):
    return [vision.Decode(), vision.Resize((size + 8, size + 8)), vision.CenterCrop(size),
            vision.Normalize(MEAN, STD), vision.HWC2CHW()]


def collect(dataset, num_epochs=1, native=True, **iter_args):
    """Every batch of `num_epochs` epochs, copied, with native batches on or off."""
    previous = ds.config.get_native_batches()
    ds.config.set_native_batches(native)
    try:
        it = dataset.create_tuple_iterator(output_numpy=True, num_epochs=num_epochs, **iter_args)
        out = []
        # One epoch per for loop; a resumed iterator has the epochs after its state's left (a
        # loop past them is MindSpore's "beyond the specified number of epochs" error).
        state = iter_args.get("state")
        for _ in range(num_epochs - (state["epoch"] if state else 0)):
            out.extend([np.array(c) for c in batch] for batch in it)
        return out
    finally:
        ds.config.set_native_batches(previous)


def plan_of(dataset, native=True):
    previous = ds.config.get_native_batches()
    ds.config.set_native_batches(native)
    try:
        return dataset.plan()
    finally:
        ds.config.set_native_batches(previous)


def assert_same_batches(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert len(x) == len(y)
        for u, v in zip(x, y):
            assert u.dtype == v.dtype and u.shape == v.shape
            np.testing.assert_array_equal(u, v)
