"""Dataset.save writes MindRecord files MindDataset reads back."""
import numpy as np
import pytest

import minddata as ds


def test_save_round_trip(tmp_path):
    data = ds.NumpySlicesDataset({"img": np.arange(24, dtype=np.uint8).reshape(4, 6),
                                  "label": np.arange(4, dtype=np.int32),
                                  "vec": np.ones((4, 3), np.float32),
                                  "name": np.array(["a", "b", "c", "d"])}, shuffle=False)
    path = str(tmp_path / "out.mindrecord")
    data.save(path)
    back = ds.MindDataset(path, shuffle=False)
    rows = list(back.create_dict_iterator(num_epochs=1, output_numpy=True))
    assert len(rows) == 4
    # uint8 arrays are saved as int32 arrays (MindSpore 2.10's table; its files read back so)
    assert rows[2]["img"].dtype == np.int32 and rows[2]["img"].tolist() == list(range(12, 18))
    assert int(rows[3]["label"]) == 3 and rows[1]["vec"].tolist() == [1, 1, 1]
    assert str(rows[0]["name"]) == "a"


def test_save_validation(tmp_path):
    data = ds.NumpySlicesDataset([1, 2], shuffle=False)
    with pytest.raises(ValueError):
        data.save(str(tmp_path / "x.mindrecord"), file_type="tfrecord")
    with pytest.raises(ValueError):
        data.save(str(tmp_path / "x.mindrecord"), num_files=0)
    with pytest.raises(RuntimeError, match="no rows"):
        data.skip(2).save(str(tmp_path / "y.mindrecord"))
