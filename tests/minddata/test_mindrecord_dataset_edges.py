"""MindDataset edge cases: empty files, pickling, worker counts, repeated ids, closing."""
import json
import pickle

import numpy as np
import pytest

import minddata as ds
from minddata.sources.mindrecord_dataset import MindRecordSource


def _files(shared_fixtures, case):
    root = shared_fixtures / "mindrecord" / case
    manifest = json.loads((root / "manifest.json").read_text())
    return [str(root / f) for f in manifest["files"]]


def _write(path, rows, shard_num=1):
    from mindrecord import FileWriter
    writer = FileWriter(str(path), shard_num=shard_num, overwrite=True)
    writer.add_schema({"label": {"type": "int32"}, "data": {"type": "bytes"}}, "edges")
    if rows:
        writer.write_raw_data(rows)
    writer.commit()


def test_empty_file_is_an_empty_dataset(tmp_path):
    _write(tmp_path / "e.mindrecord", [])
    data = ds.MindDataset(str(tmp_path / "e.mindrecord"))
    assert data.get_col_names() == ["data", "label"]
    assert data.get_dataset_size() == 0
    assert list(data.create_tuple_iterator(num_epochs=1, output_numpy=True)) == []


def test_written_multi_shard_set_sharded_and_shuffled(tmp_path):
    rows = [{"label": i, "data": bytes([i % 256]) * (i % 7)} for i in range(50)]
    _write(tmp_path / "m.mindrecord", rows, shard_num=4)
    ds.config.set_seed(2)
    seen = []
    for k in range(5):
        data = ds.MindDataset(str(tmp_path / "m.mindrecord0"), num_shards=5, shard_id=k)
        for data_col, label in data.create_tuple_iterator(num_epochs=1, output_numpy=True):
            # |S<n>, shape (1,); an empty value is |S1 b"" (one 0 byte), as MindSpore gives it
            assert data_col.tobytes() == (bytes([int(label) % 256]) * (int(label) % 7) or b"\0")
            seen.append(int(label))
    assert sorted(seen) == list(range(50))


def test_pickled_dataset_iterates(shared_fixtures):
    data = ds.MindDataset(_files(shared_fixtures, "c_multi_blob"), shuffle=False)
    clone = pickle.loads(pickle.dumps(data))
    a = [r for r in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    b = [r for r in clone.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    assert len(a) == len(b) > 0
    for ra, rb in zip(a, b):
        assert all(np.array_equal(x, y) for x, y in zip(ra, rb))


@pytest.mark.parametrize("workers", [1, 2])
def test_same_rows_for_any_worker_count(shared_fixtures, workers):
    ds.config.set_seed(9)
    data = ds.MindDataset(_files(shared_fixtures, "e_pages"), num_parallel_workers=workers)
    got = [int(r[0]) for r in data.create_tuple_iterator(columns=["idx"], num_epochs=1,
                                                         output_numpy=True)]
    ds.config.set_seed(9)
    ref = ds.MindDataset(_files(shared_fixtures, "e_pages"), num_parallel_workers=1)
    want = [int(r[0]) for r in ref.create_tuple_iterator(columns=["idx"], num_epochs=1,
                                                         output_numpy=True)]
    assert got == want


def test_source_repeated_and_padded_ids(shared_fixtures):
    src = MindRecordSource(_files(shared_fixtures, "f_multi_shard"), ["id"], {"id": 99}, 2)
    try:
        assert len(src) == 13
        rows = src.read_rows(np.array([12, 0, 11, 0]))
        assert [int(r[0]) for r in rows] == [99, int(rows[1][0]), 99, int(rows[1][0])]
        assert src.file_row_ranges()[-1] == (11, 13)
        assert "padded_sample" in src.provenance(12)
        assert "f_multi_shard.mindrecord0 row 0" in src.provenance(0)
        with pytest.raises(IndexError, match="row id 13"):
            src.read_rows([13])
    finally:
        src.close()
        src.close()  # closing twice is allowed


def test_padded_value_must_fit_schema(shared_fixtures):
    with pytest.raises(RuntimeError, match=r"padded_sample\['id'\]"):
        MindRecordSource(_files(shared_fixtures, "f_multi_shard"), ["id"], {"id": "x"}, 1)
