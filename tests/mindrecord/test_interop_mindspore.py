"""Interoperability with real MindSpore: files we write are read by MindSpore's FileReader and
MindDataset, and files MindSpore writes are read by ours. Skipped when mindspore is absent."""
import math

import numpy as np
import pytest

ms_mindrecord = pytest.importorskip("mindspore.mindrecord")
ms_dataset = pytest.importorskip("mindspore.dataset")

from mindrecord import FileReader, ShardReader  # noqa: E402

pytestmark = pytest.mark.mindspore

SCHEMA = {"label": {"type": "int32"}, "big": {"type": "int64"}, "score": {"type": "float64"},
          "name": {"type": "string"}, "data": {"type": "bytes"},
          "vec": {"type": "int64", "shape": [-1]}, "mat": {"type": "float32", "shape": [2, 2]}}


def rows(n=7):
    return [{"label": i - 3, "big": (1 << 40) + i, "score": i / 4, "name": "név%d" % i,
             "data": bytes([i]) * (i + 1), "vec": np.arange(i, dtype=np.int64) * -1000,
             "mat": np.full((2, 2), i / 2, np.float32)} for i in range(n)]


def same(name, got, want):
    if isinstance(want, np.ndarray):
        return np.array_equal(np.asarray(got).reshape(want.shape), want)
    if isinstance(want, float):
        return math.isclose(float(got), want)   # MindSpore's FileReader turns 1.0 into 1
    if isinstance(want, bytes):
        return bytes(got) == want
    return got == want


def write_ours(path, shard_num=1):
    from mindrecord import FileWriter
    w = FileWriter(path, shard_num=shard_num, overwrite=True)
    w.add_schema(SCHEMA, "interop")
    w.add_index(["label", "name"])
    w.write_raw_data(rows())
    w.commit()


def write_theirs(path, shard_num=1):
    w = ms_mindrecord.FileWriter(path, shard_num=shard_num, overwrite=True)
    w.add_schema(SCHEMA, "interop")
    w.add_index(["label", "name"])
    w.write_raw_data(rows())
    w.commit()


@pytest.mark.parametrize("shard_num", [1, 3])
def test_mindspore_reads_our_files(tmp_path, shard_num):
    pytest.importorskip("mindrecord.writer")
    path = str(tmp_path / "ours.mindrecord")
    write_ours(path, shard_num)
    first = path if shard_num == 1 else path + "0"
    reader = ms_mindrecord.FileReader(first)
    got = sorted(reader.get_next(), key=lambda r: r["label"])
    reader.close()
    assert len(got) == 7
    for g, w in zip(got, rows()):
        for name in SCHEMA:
            assert same(name, g[name], w[name]), name
    labels = [int(x["label"]) for x in ms_dataset.MindDataset(first, shuffle=False)
              .create_dict_iterator(output_numpy=True, num_epochs=1)]
    assert sorted(labels) == list(range(-3, 4))


@pytest.mark.parametrize("shard_num", [1, 3])
def test_we_read_mindspore_files(tmp_path, shard_num):
    path = str(tmp_path / "theirs.mindrecord")
    write_theirs(path, shard_num)
    first = path if shard_num == 1 else path + "0"
    with FileReader(first) as reader:
        got = sorted(reader.get_next(), key=lambda r: r["label"])
    assert len(got) == 7
    for g, w in zip(got, rows()):
        for name in SCHEMA:
            assert same(name, g[name], w[name]), name
    with ShardReader(first) as reader:
        labels = sorted(int(v) for v in reader.read_rows(np.arange(7), ["label"])["label"])
    assert labels == list(range(-3, 4))
