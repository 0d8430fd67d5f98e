"""Shared pieces of the map -> batch fast-path tests: small JPEG rows and the two pipelines
compared (the fast path, and the per-row path forced by a trailing Python identity op)."""
import cv2
import numpy as np

import minddata as ds
import transforms_c.vision as V

MEAN = [123.7, 116.3, 103.5]
STD = [58.4, 57.1, 57.4]


def jpegs(n, seed=0):
    """n small JPEGs of varied sizes (1-D uint8 arrays, as MindRecord bytes columns)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        h, w = 24 + (i % 5) * 6, 30 + (i % 3) * 8
        img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        img = cv2.GaussianBlur(img, (5, 5), 0)            # JPEG-like content
        out.append(cv2.imencode(".jpg", img)[1].reshape(-1))
    return out


class JpegRows:
    """Random-access source: (jpeg bytes, label)."""

    def __init__(self, datas):
        self.datas = datas

    def __getitem__(self, i):
        return self.datas[i], np.int32(i)

    def __len__(self):
        return len(self.datas)


def train_ops():
    return [V.Decode(), V.RandomResizedCrop(16), V.RandomHorizontalFlip(),
            V.Normalize(MEAN, STD), V.HWC2CHW()]


def identity(x):
    """A plain Python op: ends the map with something that has no apply_batch, so the map
    runs row by row (same op positions, same seeds, same values)."""
    return x


def pipeline(datas, batch_size, ops=None, per_row=False, workers=2, drop=False,
             shuffle=False, batch_workers=None, **map_kw):
    ops = list(ops if ops is not None else train_ops())
    if per_row:
        ops.append(identity)
    data = ds.GeneratorDataset(JpegRows(datas), ["image", "label"], shuffle=shuffle)
    data = data.map(ops, input_columns=["image"], num_parallel_workers=workers, **map_kw)
    return data.batch(batch_size, drop_remainder=drop, num_parallel_workers=batch_workers)


def batches(dataset, num_epochs=1):
    """Every batch of num_epochs epochs, copied."""
    it = dataset.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True)
    try:
        return [[np.array(a) for a in b] for _ in range(num_epochs) for b in it]
    finally:
        it.close()


def same_batches(a, b):
    return len(a) == len(b) and all(
        len(x) == len(y) and all(u.dtype == v.dtype and np.array_equal(u, v)
                                 for u, v in zip(x, y)) for x, y in zip(a, b))
