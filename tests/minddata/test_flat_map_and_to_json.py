"""Dataset.flat_map and Dataset.to_json, as MindSpore 2.10 has them (measured there)."""
import numpy as np
import pytest

import minddata as ds


def test_to_json_is_serialize(tmp_path):
    data = ds.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False).batch(2)
    assert data.to_json() == ds.serialize(data)


def test_flat_map_concatenates_the_datasets_func_returns():
    data = ds.NumpySlicesDataset({"x": [[1, 2], [3, 4]]}, shuffle=False)
    out = data.flat_map(lambda x: ds.NumpySlicesDataset({"y": x}, shuffle=False))
    assert out.get_col_names() == ["y"] and out.get_dataset_size() == 4   # MindSpore 2.10's
    assert [int(r[0]) for r in out.create_tuple_iterator(output_numpy=True,
                                                         num_epochs=1)] == [1, 2, 3, 4]
    with pytest.raises(TypeError, match="func must be a function"):
        data.flat_map(3)
    with pytest.raises(TypeError, match="flat_map must return a Dataset object"):
        data.flat_map(lambda x: x)
