"""The rows ``batch(drop_remainder=True)`` drops are mapped all the same, as in MindSpore 2.10,
whose map runs on every row before its batch op drops the last ones: an error in one of them
ends the epoch with that error, on every path a ``Batch(Map(Source))`` chain may take (the
general nodes, the native batches on C++ threads, the batches built in worker processes).
Found by tools/zoo_pipelines_vs_mindspore.py: a map whose output_columns named one column fewer
than its function returned served no batch and no error where 3 rows met a batch of 4 dropping
its remainder (MindSpore: RuntimeError); a broken JPEG among the dropped rows of an
ImageFolderDataset was skipped (MindSpore: RuntimeError)."""
import io

import numpy as np
import pytest
from PIL import Image

import minddata as ds
import minddata.vision as vision


def two_columns(x):
    return x, x


def fails_on_four(x):
    if int(x) == 4:
        raise ValueError("row 4 is bad")
    return x


def grows(x):
    return np.zeros((int(x) + 1,), np.float32)


def rows(data):
    return [batch["x"].tolist() for batch in data.create_dict_iterator(output_numpy=True,
                                                                        num_epochs=1)]


@pytest.mark.parametrize("processes", [False, True])
def test_a_map_error_in_the_dropped_rows_raises(processes):
    # every row dropped: MindSpore 2.10 raises the map's output_columns error
    data = ds.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False).map(
        two_columns, ["x"], ["a"], python_multiprocessing=processes, num_parallel_workers=2)
    with pytest.raises(RuntimeError, match="output_columns"):
        rows(data.batch(4, drop_remainder=True))
    # the one failing row is in the dropped remainder
    data = ds.NumpySlicesDataset({"x": np.arange(5)}, shuffle=False).map(
        fails_on_four, ["x"], python_multiprocessing=processes, num_parallel_workers=2)
    with pytest.raises(RuntimeError, match="row 4 is bad"):
        rows(data.batch(4, drop_remainder=True))


@pytest.mark.parametrize("processes", [False, True])
def test_dropped_rows_are_not_batched(processes):
    # a dropped row of another shape is no batch error (MindSpore 2.10 serves the full batch)
    data = ds.NumpySlicesDataset({"x": np.array([0, 0, 0, 0, 3])}, shuffle=False).map(
        grows, ["x"], python_multiprocessing=processes, num_parallel_workers=2)
    assert rows(data.batch(4, drop_remainder=True)) == [[[0.0]] * 4]


@pytest.mark.parametrize("processes", [False, True])
def test_a_broken_image_in_the_dropped_rows_raises(tmp_path, processes):
    (tmp_path / "c").mkdir()
    for i in range(5):
        buffer = io.BytesIO()
        Image.fromarray(np.full((8, 8, 3), i * 20, np.uint8)).save(buffer, "JPEG")
        (tmp_path / "c" / f"{i}.jpg").write_bytes(buffer.getvalue()[:40] if i == 4
                                                  else buffer.getvalue())
    data = ds.ImageFolderDataset(str(tmp_path), shuffle=False).map(
        [vision.Decode(), vision.Resize((4, 4))], "image", python_multiprocessing=processes,
        num_parallel_workers=2)
    with pytest.raises(RuntimeError):
        list(data.batch(4, drop_remainder=True).create_dict_iterator(num_epochs=1))
    served = list(data.batch(4, drop_remainder=True).take(1).create_dict_iterator(
        num_epochs=1, output_numpy=True))
    assert served[0]["image"].shape == (4, 4, 4, 3)
