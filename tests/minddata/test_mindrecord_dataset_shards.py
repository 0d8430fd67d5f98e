"""MindDataset sharding (spec §10.3, checked against MindSpore's measured splits), shuffle modes
and padded samples."""
import json

import numpy as np
import pytest

import minddata as ds


def _case(shared_fixtures, case):
    root = shared_fixtures / "mindrecord" / case
    manifest = json.loads((root / "manifest.json").read_text())
    return [str(root / f) for f in manifest["files"]], manifest


def _ids(data, column):
    return [int(r[0]) for r in data.create_tuple_iterator(columns=[column], num_epochs=1,
                                                          output_numpy=True)]


@pytest.mark.parametrize("case,column", [("e_pages", "idx"), ("f_multi_shard", "id")])
def test_measured_shard_splits(shared_fixtures, case, column):
    files, manifest = _case(shared_fixtures, case)
    values = [r[column]["value"] for r in manifest["rows"]]
    for n, splits in manifest["mindataset_shard_split_row_positions"].items():
        for k, positions in enumerate(splits):
            data = ds.MindDataset(files, shuffle=False, num_shards=int(n), shard_id=k)
            assert data.get_dataset_size() == len(positions)
            assert _ids(data, column) == [values[p] for p in positions], f"{case} N={n} k={k}"


def test_shuffled_shards_partition_one_permutation(shared_fixtures):
    files, manifest = _case(shared_fixtures, "e_pages")     # 30 rows, 3 shards: no wrap
    ds.config.set_seed(7)
    parts = [_ids(ds.MindDataset(files, shuffle=True, num_shards=3, shard_id=k), "idx")
             for k in range(3)]
    assert sorted(sum(parts, [])) == list(range(30))
    assert sum(parts, []) != sorted(sum(parts, []))


def test_shuffle_global_is_seeded_permutation(shared_fixtures):
    files, _ = _case(shared_fixtures, "e_pages")
    ds.config.set_seed(3)
    first = _ids(ds.MindDataset(files), "idx")
    ds.config.set_seed(3)
    again = _ids(ds.MindDataset(files, shuffle=ds.Shuffle.GLOBAL), "idx")
    assert sorted(first) == list(range(30)) and first != list(range(30))
    assert first == again


def test_shuffle_files_keeps_rows_of_a_file_together(shared_fixtures):
    files, manifest = _case(shared_fixtures, "f_multi_shard")
    by_file = [[r["id"]["value"] for r, s in zip(manifest["rows"], manifest["row_shard"]) if s == k]
               for k in range(3)]
    seen = set()
    for seed in range(6):
        ds.config.set_seed(seed)
        got = _ids(ds.MindDataset(files, shuffle=ds.Shuffle.FILES), "id")
        blocks, i = [], 0
        while i < len(got):
            block = next(b for b in by_file if b[0] == got[i])
            assert got[i:i + len(block)] == block
            blocks.append(by_file.index(block))
            i += len(block)
        seen.add(tuple(blocks))
    assert len(seen) > 1


def test_shuffle_infile_keeps_file_order(shared_fixtures):
    files, manifest = _case(shared_fixtures, "f_multi_shard")
    counts = manifest["rows_per_shard"]
    values = [r["id"]["value"] for r in manifest["rows"]]
    ds.config.set_seed(11)
    got = _ids(ds.MindDataset(files, shuffle=ds.Shuffle.INFILE), "id")
    start = 0
    for c in counts:
        assert sorted(got[start:start + c]) == sorted(values[start:start + c])
        start += c
    assert got != values


def test_padded_sample_fills_last_shard(shared_fixtures):
    files, manifest = _case(shared_fixtures, "f_multi_shard")   # 11 rows
    padded = {"id": -1, "name": "pad", "data": b"\x00\x01"}
    rows_per_shard = []
    for k in range(4):
        data = ds.MindDataset(files, columns_list=["id", "name", "data"], shuffle=False,
                              num_shards=4, shard_id=k, padded_sample=padded, num_padded=1)
        rows = list(data.create_tuple_iterator(num_epochs=1, output_numpy=True))
        rows_per_shard.append([int(r[0]) for r in rows])
        if k == 3:
            pad_row = rows[-1]
            assert int(pad_row[0]) == -1 and pad_row[0].dtype == np.int32
            assert str(pad_row[1]) == "pad"
            assert pad_row[2].dtype == np.dtype("S2") and pad_row[2].tobytes() == b"\x00\x01"
    values = [r["id"]["value"] for r in manifest["rows"]]
    assert sorted(sum(rows_per_shard, [])) == sorted(values + [-1])
    assert [len(r) for r in rows_per_shard] == [3, 3, 3, 3]


def test_padded_sample_ndarray_bytes(shared_fixtures):
    files, _ = _case(shared_fixtures, "f_multi_shard")
    padded = {"id": 5, "data": np.array([9, 8], dtype=np.uint8)}
    data = ds.MindDataset(files, columns_list=["data", "id"], shuffle=False,
                          padded_sample=padded, num_padded=2)
    rows = list(data.create_tuple_iterator(num_epochs=1, output_numpy=True))
    assert len(rows) == 13
    assert rows[-1][0].tobytes() == b"\x09\x08" and rows[-1][0].shape == (1,)
    assert int(rows[-1][1]) == 5


def test_padded_not_divisible_is_runtime_error_when_built(shared_fixtures):
    # MindSpore's type and words; found when the dataset is built, not when iterating
    files, _ = _case(shared_fixtures, "f_multi_shard")
    with pytest.raises(RuntimeError, match="can not be divisible by the value of 'num_shards': 4"):
        ds.MindDataset(files, columns_list=["id"], num_shards=4, shard_id=0,
                       padded_sample={"id": 0}, num_padded=2)
