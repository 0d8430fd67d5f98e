"""The ops inside the dataset engine's map: fused plans, seeds, errors with provenance."""
import numpy as np
import pytest

import minddata as ds
import minddata.vision as vision
from minddata import config

from tests.transforms_c.tc_samples import sample_jpeg

MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]


def _jpeg_dataset(count=12):
    images = [sample_jpeg(100 + 4 * (i % 4), 120 + 6 * (i % 3), i % 2) for i in range(count)]
    labels = list(range(count))
    return ds.GeneratorDataset(lambda: ((img, np.int32(l)) for img, l in zip(images, labels)),
                               column_names=["image", "label"], shuffle=False)


def _train_ops():
    return [vision.Decode(), vision.RandomResizedCrop(32), vision.RandomHorizontalFlip(),
            vision.Normalize(MEAN, STD), vision.HWC2CHW()]


def _collect(dataset):
    return [row[0] for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def test_train_pipeline_batches():
    data = _jpeg_dataset().map(_train_ops(), input_columns=["image"],
                               num_parallel_workers=2).batch(4)
    batches = _collect(data)
    assert [b.shape for b in batches] == [(4, 3, 32, 32)] * 3
    assert all(b.dtype == np.float32 for b in batches)


def test_seeded_pipeline_repeats_for_any_worker_count():
    old = config.get_seed()
    try:
        config.set_seed(77)
        one = _collect(_jpeg_dataset().map(_train_ops(), input_columns=["image"],
                                           num_parallel_workers=1))
        config.set_seed(77)
        two = _collect(_jpeg_dataset().map(_train_ops(), input_columns=["image"],
                                           num_parallel_workers=2))
    finally:
        config.set_seed(old)
    assert len(one) == 12
    for a, b in zip(one, two):
        assert np.array_equal(a, b)


def test_eval_pipeline_in_map_equals_eager_ops():
    ops = [vision.Decode(), vision.Resize(40), vision.CenterCrop(32), vision.Normalize(MEAN, STD),
           vision.HWC2CHW()]
    out = _collect(_jpeg_dataset(4).map(ops, input_columns=["image"]))
    for i, row in enumerate(out):
        img = sample_jpeg(100 + 4 * (i % 4), 120 + 6 * (i % 3), i % 2)
        for op in ops:
            img = op(img)
        np.testing.assert_allclose(row, img, atol=1e-5, rtol=0)


def test_corrupt_image_error_surfaces_from_map():
    good = sample_jpeg()
    rows = [good, np.frombuffer(b"garbage bytes, not an image", np.uint8)]
    data = ds.GeneratorDataset(lambda: ((r,) for r in rows), column_names=["image"],
                               shuffle=False).map(_train_ops(), input_columns=["image"],
                                                  num_parallel_workers=2)
    with pytest.raises(Exception, match="not a decodable image"):
        _collect(data)


def test_py_transforms_in_map():
    from minddata.transforms import py_transforms as PT
    from minddata.vision import py_transforms as P
    op = PT.Compose([P.Decode(), P.RandomResizedCrop(24), P.ToTensor()])
    out = _collect(_jpeg_dataset(4).map([op], input_columns=["image"]))
    assert [o.shape for o in out] == [(3, 24, 24)] * 4
