"""TFRecordDataset with a schema's numRows (or num_samples) and the default Shuffle.GLOBAL
(issue 20, item 4): as in MindSpore 2.10, the first numRows rows of the (shuffled) files are
read and only they are shuffled; the dataset used to shuffle all rows first and then cut, so
numRows=1 served a random row instead of the file's first."""
import json

import numpy as np

import minddata as ds
from mindrecord.tools.tfrecord import write_tfrecord


def write(path, first, count):
    write_tfrecord(str(path), [{"id": [i]} for i in range(first, first + count)])
    return str(path)


def schema_file(tmp_path, num_rows):
    path = tmp_path / f"schema{num_rows}.json"
    path.write_text(json.dumps({"numRows": num_rows,
                                "columns": {"id": {"type": "int64", "rank": 1, "shape": [1]}}}))
    return str(path)


def ids(data):
    return [int(r["id"][0]) for r in data.create_dict_iterator(output_numpy=True, num_epochs=1)]


def test_num_rows_1_serves_the_first_row(tmp_path):
    path = write(tmp_path / "a.tfrecord", 0, 10)
    for seed in range(8):
        ds.config.set_seed(seed)
        assert ids(ds.TFRecordDataset(path, schema_file(tmp_path, 1))) == [0]


def test_the_first_rows_are_shuffled(tmp_path):
    path = write(tmp_path / "a.tfrecord", 0, 10)
    orders = set()
    for seed in range(8):
        ds.config.set_seed(seed)
        got = ids(ds.TFRecordDataset(path, schema_file(tmp_path, 3)))
        assert sorted(got) == [0, 1, 2]
        orders.add(tuple(got))
        data = ds.TFRecordDataset(path, num_samples=4).repeat(2)
        epochs = ids(data)
        assert sorted(epochs[:4]) == sorted(epochs[4:]) == [0, 1, 2, 3]
    assert len(orders) > 1
    assert ids(ds.TFRecordDataset(path, schema_file(tmp_path, 3), shuffle=False)) == [0, 1, 2]


def test_several_files_give_the_first_rows_of_a_shuffled_file_order(tmp_path):
    files = [write(tmp_path / f"{k}.tfrecord", 5 * k, 5) for k in range(3)]
    starts = set()
    for seed in range(10):
        ds.config.set_seed(seed)
        data = ds.TFRecordDataset(files, num_samples=4)
        assert data.get_dataset_size() == 4
        got = ids(data)
        first = min(got)
        assert first % 5 == 0 and sorted(got) == list(range(first, first + 4))
        starts.add(first)
        got = ids(ds.TFRecordDataset(files, num_samples=7))     # runs into the next file
        assert len(got) == 7 and len({i // 5 for i in got}) == 2
    assert len(starts) > 1


def test_per_shard_with_equal_rows(tmp_path):
    files = [write(tmp_path / f"{k}.tfrecord", 5 * k, 5) for k in range(2)]
    ds.config.set_seed(3)
    shards = [ids(ds.TFRecordDataset(files, num_samples=3, num_shards=2, shard_id=k,
                                     shard_equal_rows=True)) for k in range(2)]
    assert [len(s) for s in shards] == [3, 3]
    assert not set(shards[0]) & set(shards[1])
    assert np.all(np.isin(shards[0] + shards[1], range(10)))
