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


def test_save_scalar_bool_and_float16(tmp_path):
    # MindSpore 2.10 (measured by tools/save_vs_mindspore.py) saves 0-d bool as int32 and 0-d
    # float16 as float32; this package refused the bool (a Python bool is no int32 value).
    data = ds.NumpySlicesDataset({"flag": np.array([False, True]),
                                  "half": np.array([1.5, -2.25], np.float16)}, shuffle=False)
    path = str(tmp_path / "s.mindrecord")
    data.save(path)
    rows = list(ds.MindDataset(path, shuffle=False).create_dict_iterator(num_epochs=1,
                                                                          output_numpy=True))
    assert [(r["flag"].dtype, r["flag"].shape, int(r["flag"])) for r in rows] == [
        (np.int32, (), 0), (np.int32, (), 1)]
    assert [(r["half"].dtype, float(r["half"])) for r in rows] == [(np.float32, 1.5),
                                                                   (np.float32, -2.25)]


def test_save_refuses_as_mindspore(tmp_path):
    # MindSpore 2.10 (measured): a str array of shape (1,) is refused ("mindrecord can not
    # support multi-dimensional string tensor"), and a schema MindRecord refuses (a dimension
    # of 0) is a RuntimeError, not the writer's own error type.
    strings = ds.GeneratorDataset(lambda: iter([(np.array(["a"]),)]), ["s"], shuffle=False)
    with pytest.raises(RuntimeError, match="multi-dimensional string"):
        strings.save(str(tmp_path / "a.mindrecord"))
    empty = ds.GeneratorDataset(lambda: iter([(np.zeros((2, 0), np.int32),)]), ["e"],
                                shuffle=False)
    with pytest.raises(RuntimeError):
        empty.save(str(tmp_path / "b.mindrecord"))


def test_save_refuses_a_later_row_of_several_bytes(tmp_path):
    # MindSpore 2.10 (measured): a bytes field whose later row holds several values is a
    # RuntimeError ("multi-dimensional bytes cannot be converted"); numpy's ValueError leaked.
    rows = [(np.array(b"ab"),), (np.array([[b"xy", b"\x00b"]]),)]
    data = ds.GeneratorDataset(lambda: iter(rows), ["b"], shuffle=False)
    with pytest.raises(RuntimeError, match="multi-dimensional bytes"):
        data.save(str(tmp_path / "c.mindrecord"))


@pytest.mark.parametrize("shape", [(1, 1), (1, 1, 1)])
def test_save_refuses_one_bytes_value_of_two_or_more_dimensions(tmp_path, shape):
    # MindSpore 2.10 (measured): bytes of shape () and (1,) save (read back as (1,)), one bytes
    # value of shape (1, 1) or (1, 1, 1) (a batch of (1,) rows) is a RuntimeError; it was
    # saved here as (1,)
    value = np.full(shape, b"xy", dtype="S3")
    data = ds.GeneratorDataset(lambda: iter([(value,)]), ["b"], shuffle=False)
    with pytest.raises(RuntimeError, match="multi-dimensional bytes"):
        data.save(str(tmp_path / "d.mindrecord"))
