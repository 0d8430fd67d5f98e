"""PaddedDataset: a list of dicts -> rows (columns in the first dict's key order, values as
GeneratorDataset converts them), no shuffle, concat to pad shards, and MindSpore's errors."""
import numpy as np
import pytest

import minddata as ds


def _rows(data):
    return list(data.create_dict_iterator(num_epochs=1, output_numpy=True))


def test_rows_columns_and_values():
    samples = [{"image": np.zeros(3, np.uint8), "label": -1},
               {"label": 7, "image": np.arange(2, dtype=np.uint8)}]
    data = ds.PaddedDataset(samples)
    assert isinstance(data, ds.GeneratorDataset)
    assert data.get_col_names() == ["image", "label"]
    assert data.get_dataset_size() == 2
    assert data.padded_samples is samples
    rows = _rows(data)
    assert rows[0]["image"].tolist() == [0, 0, 0] and rows[0]["image"].dtype == np.uint8
    assert rows[1]["image"].tolist() == [0, 1]
    assert [int(r["label"]) for r in rows] == [-1, 7]
    assert rows[0]["label"].shape == () and rows[0]["label"].dtype == np.asarray(-1).dtype


def test_order_is_kept_with_a_seed():
    samples = [{"x": np.array(i)} for i in range(8)]
    ds.config.set_seed(3)
    assert [int(r["x"]) for r in _rows(ds.PaddedDataset(samples))] == list(range(8))


def test_reads_are_copies():
    samples = [{"x": np.array([1, 2])}]

    def scribble(x):
        x[0] = 99
        return x

    data = ds.PaddedDataset(samples).map(operations=scribble, input_columns=["x"])
    assert _rows(data)[0]["x"].tolist() == [99, 2]
    assert samples[0]["x"].tolist() == [1, 2]
    assert _rows(ds.PaddedDataset(samples))[0]["x"].tolist() == [1, 2]


def test_concat_pads_a_dataset_for_even_shards():
    base = ds.NumpySlicesDataset({"image": np.ones((5, 2), np.uint8),
                                  "label": np.arange(5, dtype=np.int32)}, shuffle=False)
    pad = ds.PaddedDataset([{"image": np.zeros(2, np.uint8), "label": np.array(-1, np.int32)}])
    data = base + pad
    assert data.get_dataset_size() == 6
    labels = [int(r["label"]) for r in _rows(data)]
    assert labels == [0, 1, 2, 3, 4, -1]


def test_errors():
    with pytest.raises(ValueError, match="padded_samples cannot be empty"):
        ds.PaddedDataset([])
    with pytest.raises(ValueError, match="padded_samples cannot be empty"):
        ds.PaddedDataset(None)
    with pytest.raises(TypeError, match="padded_samples"):
        ds.PaddedDataset("abc")
    with pytest.raises(TypeError, match="padded_element"):
        ds.PaddedDataset([{"a": 1}, [1]])
    with pytest.raises(ValueError, match=r"padded_samples\[1\] has the columns"):
        ds.PaddedDataset([{"a": 1, "b": 2}, {"a": 1}])
    with pytest.raises(TypeError, match=r"padded_samples\[0\]"):
        ds.PaddedDataset([{"a": object()}])
