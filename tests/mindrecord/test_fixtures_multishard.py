"""Multi-shard fixture: set discovery from any one member, list order, provenance."""
import os

import numpy as np
import pytest

from mindrecord import FileReader, ShardReader

from .test_fixtures_read import assert_dataset_value, assert_python_value, load_case


@pytest.fixture()
def multi(shared_fixtures):
    d, manifest = load_case(shared_fixtures, "f_multi_shard")
    return d, manifest, [str(d / f) for f in manifest["files"]]


@pytest.mark.parametrize("member", [0, 1, 2])
def test_any_member_opens_the_whole_set_in_shard_order(multi, member):
    d, manifest, files = multi
    with ShardReader(files[member]) as reader:
        assert reader.files == [os.path.abspath(f) for f in files]
        assert reader.shard_row_counts == manifest["rows_per_shard"]
        got = reader.read_rows(list(range(reader.num_rows)), columns=["id"])
    assert [int(v) for v in got["id"]] == [r["id"]["value"] for r in manifest["rows"]]


def test_list_reads_exactly_those_files_in_list_order(multi):
    d, manifest, files = multi
    order = [2, 0]
    with FileReader([files[i] for i in order]) as reader:
        rows = list(reader.get_next())
    want = [r for s in order for r, shard in zip(manifest["rows"], manifest["row_shard"])
            if shard == s]
    assert len(rows) == len(want)
    for i, (got, w) in enumerate(zip(rows, want)):
        for name, enc in w.items():
            assert_python_value(got[name], enc, (i, name))


def test_read_rows_across_shards_in_any_order(multi):
    d, manifest, files = multi
    rng = np.random.default_rng(0)
    ids = rng.permutation(len(manifest["rows"]))
    ids = np.concatenate([ids, ids[:3]])  # repeats are allowed
    with ShardReader(files[0]) as reader:
        got = reader.read_rows(ids)
    for pos, i in enumerate(ids):
        for name, enc in manifest["rows"][i].items():
            assert_dataset_value(got[name][pos], enc, (int(i), name))


def test_provenance_and_file_ranges(multi):
    d, manifest, files = multi
    counts = manifest["rows_per_shard"]
    with ShardReader(files[0]) as reader:
        assert reader.file_row_ranges() == [(sum(counts[:k]), sum(counts[:k + 1]))
                                            for k in range(3)]
        last = reader.num_rows - 1
        assert reader.row_provenance(0) == (os.path.abspath(files[0]), 0)
        assert reader.row_provenance(last) == (os.path.abspath(files[2]), counts[2] - 1)
        assert reader.row_provenance(counts[0]) == (os.path.abspath(files[1]), 0)
