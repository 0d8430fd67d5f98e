"""File sources release their file handles and memory maps when the pipeline stops."""
import gc

import numpy as np
import psutil

import minddata as ds


def _open_paths(prefix):
    proc = psutil.Process()
    files = {f.path for f in proc.open_files()}
    maps = {m.path for m in proc.memory_maps(grouped=True)}
    return {p for p in files | maps if p.startswith(prefix)}


def test_mindrecord_handles_released_after_break(tmp_path):
    path = str(tmp_path / "rows.mindrecord")
    ds.NumpySlicesDataset({"x": np.arange(200, dtype=np.int64)}, shuffle=False).save(path)
    data = ds.MindDataset(path, num_parallel_workers=2).map(lambda x: x + 1, "x",
                                                           num_parallel_workers=2)
    it = data.create_tuple_iterator(num_epochs=1)
    next(it)
    assert _open_paths(str(tmp_path))       # the reader holds the file open while running
    it.close()
    assert not _open_paths(str(tmp_path))
    it = data.create_tuple_iterator(num_epochs=1)
    next(it)
    del it
    gc.collect()
    assert not _open_paths(str(tmp_path))


def test_apply_and_class_indexing():
    d = ds.NumpySlicesDataset([1, 2, 3], shuffle=False)
    assert d.apply(lambda x: x.take(2)).get_dataset_size() == 2
    assert d.get_class_indexing() == {}
