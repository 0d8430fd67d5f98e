"""Behaviours checked by MindSpore's own dataset tests in files no earlier pass looked at
(test_HWC2CHW, test_five_crop, test_ten_crop, test_random_resize, test_get_image_size,
test_get_image_num_channels, test_flat_map, ...); every expected value here was measured in
MindSpore 2.10."""
import numpy as np
import pytest

import minddata as ds
from minddata import vision


def _images():
    rng = np.random.RandomState(0)
    return [rng.randint(0, 255, (40 + 3 * i, 30 + 5 * i, 3)).astype(np.uint8) for i in range(2)]


def _image_source():
    images = _images()
    return ds.GeneratorDataset(lambda: ((im,) for im in images), ["image"], shuffle=False)


def test_map_column_count_mismatch_says_both_counts():
    # measured in MindSpore 2.10: RuntimeError "... Invalid columns, the number of columns
    # returned in 'map' operations should match the number of 'output_columns', but got the
    # number of columns returned in 'map' operations: 5, the number of 'output_columns': 1."
    d = _image_source().map([vision.ToPIL(), vision.FiveCrop(10)], ["image"])
    with pytest.raises(RuntimeError) as info:
        next(d.create_tuple_iterator(num_epochs=1, output_numpy=True))
    assert ("Invalid columns, the number of columns returned in 'map' operations should match "
            "the number of 'output_columns', but got the number of columns returned in 'map' "
            "operations: 5, the number of 'output_columns': 1.") in str(info.value)


def test_five_crop_with_five_output_columns():
    # measured in MindSpore 2.10: five (10, 10, 3) uint8 columns
    d = _image_source().map([vision.ToPIL(), vision.FiveCrop(10)], ["image"],
                            ["a", "b", "c", "d", "e"])
    assert d.output_types() == [np.dtype("uint8")] * 5
    row = next(d.create_tuple_iterator(num_epochs=1, output_numpy=True))
    assert [x.shape for x in row] == [(10, 10, 3)] * 5
