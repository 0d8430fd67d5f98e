"""map(cache=...) refuses random operations wherever they sit: in the list, inside Compose,
inside a fused plan."""
import numpy as np
import pytest

import minddata as ds


def _data():
    return ds.NumpySlicesDataset({"image": np.zeros((2, 8, 8, 3), np.uint8)}, shuffle=False)


def test_a_random_op_inside_compose_is_refused():
    import transforms_c.transforms as transforms
    import transforms_c.vision as vision
    compose = transforms.Compose([vision.HWC2CHW(), vision.RandomHorizontalFlip()])
    with pytest.raises(RuntimeError, match="RandomHorizontalFlip"):
        _data().map([compose], input_columns=["image"], cache=ds.DatasetCache(1))


def test_a_random_op_inside_a_fused_plan_is_refused_by_name():
    import transforms_c
    import transforms_c.vision as vision
    plan = transforms_c.compile_operations([vision.RandomVerticalFlip(), vision.HWC2CHW()])
    with pytest.raises(RuntimeError, match="RandomVerticalFlip"):
        _data().map(plan, input_columns=["image"], cache=ds.DatasetCache(1))


def test_deterministic_ops_are_accepted():
    import transforms_c.vision as vision
    data = _data().map([vision.HWC2CHW()], input_columns=["image"], cache=ds.DatasetCache(1))
    assert data.get_col_names() == ["image"]
