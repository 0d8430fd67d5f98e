"""MindDataset's argument checks (MindSpore's error types and texts) and bad-file errors."""
import json
import shutil

import pytest

import minddata as ds


def _files(shared_fixtures, case):
    root = shared_fixtures / "mindrecord" / case
    manifest = json.loads((root / "manifest.json").read_text())
    return [str(root / f) for f in manifest["files"]]


def test_missing_file_value_error(tmp_path):
    with pytest.raises(ValueError, match=r"The file .*zzz.mr does not exist or permission denied!"):
        ds.MindDataset(str(tmp_path / "zzz.mr"))


def test_missing_file_in_list(shared_fixtures, tmp_path):
    files = _files(shared_fixtures, "a_scalars") + [str(tmp_path / "nope.mindrecord")]
    with pytest.raises(ValueError, match="nope.mindrecord does not exist"):
        ds.MindDataset(files)


def test_argument_types(shared_fixtures):
    f = _files(shared_fixtures, "a_scalars")
    with pytest.raises(TypeError, match="dataset_files"):
        ds.MindDataset(3)
    with pytest.raises(TypeError, match="columns_list"):
        ds.MindDataset(f, columns_list="label")
    with pytest.raises(TypeError, match="num_padded"):
        ds.MindDataset(f, columns_list=["i32"], padded_sample={"i32": 1}, num_padded="1")
    with pytest.raises(TypeError, match="shuffle"):
        ds.MindDataset(f, shuffle="yes")


def test_shard_arguments(shared_fixtures):
    f = _files(shared_fixtures, "a_scalars")
    with pytest.raises(RuntimeError, match="requires shard_id"):
        ds.MindDataset(f, num_shards=2)
    with pytest.raises(RuntimeError, match="shard_id is specified but num_shards is not"):
        ds.MindDataset(f, shard_id=0)
    with pytest.raises(ValueError, match="shard_id is not within"):
        ds.MindDataset(f, num_shards=2, shard_id=5)
    with pytest.raises(ValueError, match="num_shards is not within"):
        ds.MindDataset(f, num_shards=0, shard_id=0)


def test_padding_arguments(shared_fixtures):
    f = _files(shared_fixtures, "a_scalars")
    with pytest.raises(RuntimeError, match="requires num_padded"):
        ds.MindDataset(f, columns_list=["i32"], padded_sample={"i32": 1})
    with pytest.raises(RuntimeError, match="requires columns_list"):
        ds.MindDataset(f, padded_sample={"i32": 1}, num_padded=1)
    with pytest.raises(ValueError, match="padded_sample cannot match columns_list"):
        ds.MindDataset(f, columns_list=["i32", "s"], padded_sample={"i32": 1}, num_padded=1)
    with pytest.raises(RuntimeError, match="num_padded is specified but padded_sample is not"):
        ds.MindDataset(f, num_padded=1)
    with pytest.raises(ValueError, match="num_padded is invalid"):
        ds.MindDataset(f, columns_list=["i32"], padded_sample={"i32": 1}, num_padded=-1)


def test_sampler_conflicts(shared_fixtures):
    f = _files(shared_fixtures, "a_scalars")
    with pytest.raises(RuntimeError, match="sampler and shuffle"):
        ds.MindDataset(f, sampler=ds.SequentialSampler(), shuffle=False)
    with pytest.raises(ValueError, match="The sampler is not supported yet"):
        ds.MindDataset(f, sampler=ds.WeightedRandomSampler([0.5, 0.5]))


def test_sequential_sampler(shared_fixtures):
    f = _files(shared_fixtures, "e_pages")
    data = ds.MindDataset(f, sampler=ds.SequentialSampler(start_index=2, num_samples=3))
    got = [int(r[0]) for r in data.create_tuple_iterator(columns=["idx"], num_epochs=1,
                                                         output_numpy=True)]
    assert got == [2, 3, 4]


def test_unknown_column_at_open(shared_fixtures):
    data = ds.MindDataset(_files(shared_fixtures, "a_scalars"), columns_list=["nope"])
    with pytest.raises(RuntimeError, match="column name: nope does not exist"):
        list(data.create_tuple_iterator(num_epochs=1, output_numpy=True))


def test_not_a_mindrecord_file(tmp_path):
    bad = tmp_path / "bad.mindrecord"
    bad.write_bytes(b"\x05\x00\x00\x00\x00\x00\x00\x00hello world")
    data = ds.MindDataset(str(bad))
    with pytest.raises(RuntimeError, match="bad.mindrecord"):
        list(data.create_tuple_iterator(num_epochs=1, output_numpy=True))


def test_truncated_data_file(shared_fixtures, tmp_path):
    src = shared_fixtures / "mindrecord" / "e_pages"
    for name in ("e_pages.mindrecord", "e_pages.mindrecord.db"):
        shutil.copy(src / name, tmp_path / name)
    path = tmp_path / "e_pages.mindrecord"
    path.write_bytes(path.read_bytes()[:40000])
    data = ds.MindDataset(str(path), shuffle=False)
    with pytest.raises(RuntimeError, match="e_pages.mindrecord"):
        list(data.create_tuple_iterator(num_epochs=1, output_numpy=True))
