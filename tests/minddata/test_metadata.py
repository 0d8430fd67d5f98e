"""get_dataset_size, get_col_names, output_shapes/types, batch size, repeat count, classes."""
import numpy as np
import pytest

import minddata as ds
from .engine_helpers import numbers


def test_metadata_through_a_pipeline():
    d = ds.NumpySlicesDataset({"img": np.zeros((10, 4, 4, 3), np.uint8),
                               "label": np.arange(10, dtype=np.int32)}, shuffle=False)
    p = d.map(lambda im: im.astype(np.float32), "img").batch(4).repeat(2)
    assert p.get_dataset_size() == 6
    assert p.get_col_names() == ["img", "label"]
    assert p.output_shapes() == [[4, 4, 4, 3], [4]]
    assert p.output_types() == [np.float32, np.int32]
    assert p.get_batch_size() == 4
    assert p.get_repeat_count() == 2


@pytest.mark.parametrize("build, count", [
    (lambda d: d.repeat(2).repeat(1), 2), (lambda d: d.repeat(2).take(-1).repeat(1), 2),
    (lambda d: d.repeat(2).batch(2).repeat(1), 2), (lambda d: d.repeat().repeat(1), -1),
    (lambda d: d.repeat(3).repeat(2), 2), (lambda d: d.repeat(1), 1)])
def test_a_repeat_of_one_does_not_count(build, count):
    # measured in MindSpore 2.10 (this package gave 1 for a repeat(1) above another repeat)
    assert build(numbers(4)).get_repeat_count() == count


def test_batch_size_and_repeat_count_check_the_columns():
    # measured in MindSpore 2.10: a per_batch_map whose output_columns name a column it is not
    # given makes get_batch_size() and get_repeat_count() raise RuntimeError "Invalid
    # output_columns, columns that are not involved in 'per_batch_map' should not be in
    # output_columns" (this package returned 1 and 1)
    def batch_and_sizes(column, info):
        return column, [np.array(np.size(item), np.int32) for item in column]

    d = ds.NumpySlicesDataset({"x": np.arange(3, dtype=np.int32)}, shuffle=False)
    d = d.batch(1, per_batch_map=batch_and_sizes, input_columns=["x"],
                output_columns=["x_b", "sizes_b"])
    d = d.batch(1, per_batch_map=batch_and_sizes, input_columns=["x_b"],
                output_columns=["x_b_b", "sizes_b"])
    for metadata in (d.get_batch_size, d.get_repeat_count):
        with pytest.raises(RuntimeError, match="should not be in output_columns"):
            metadata()


def test_size_of_filter_needs_a_pass():
    assert numbers(10).filter(lambda x: x < 4, ["x"]).get_dataset_size() == 4


def test_output_shapes_of_empty_dataset_is_empty():
    # measured in MindSpore 2.10: [] (no row to read shapes or types from)
    assert numbers(2).skip(2).output_shapes() == []
    assert numbers(2).skip(2).output_types() == []


def test_num_classes_none_for_generators():
    assert numbers(2).num_classes() is None


def test_lazy_exports():
    assert ds.MindDataset.__name__ == "MindDataset"
    assert hasattr(ds.DatasetCache, "__init__")
    with pytest.raises(AttributeError):
        ds.NoSuchThing
