"""MindDataset against every MindRecord fixture written by MindSpore 2.10 (rows, order, dtypes)."""
import base64
import json
import math

import numpy as np
import pytest

import minddata as ds

CASES = ["a_scalars", "b_arrays", "c_multi_blob", "d_no_blob", "e_pages", "e2_raw_shift",
         "f_multi_shard", "g_index_fields", "h_edge_values", "i_jpeg"]


def load_case(shared_fixtures, case):
    root = shared_fixtures / "mindrecord" / case
    manifest = json.loads((root / "manifest.json").read_text())
    return [str(root / f) for f in manifest["files"]], manifest


def assert_value_matches(value, expected, where):
    """One dataset value against the manifest's encoding of the value MindSpore wrote/read."""
    kind = expected["kind"]
    assert isinstance(value, np.ndarray), where
    if kind == "bytes":
        # MindSpore's representation: |S<n> of shape (1,); an empty value is |S1 b"" (one 0 byte)
        assert value.dtype.kind == "S" and value.shape == (1,), where
        assert value.tobytes() == (base64.b64decode(expected["base64"]) or b"\0"), where
    elif kind == "string":
        assert value.shape == () and value.dtype.kind == "U", where
        assert str(value) == expected["value"], where
    elif kind == "scalar":
        assert value.shape == () and value.dtype == np.dtype(expected["dtype"]), where
        _assert_number(value.item(), expected["value"], where)
    else:       # an empty array field too: served as stored (MindSpore 2.10 gives a 0-d value)
        assert value.dtype == np.dtype(expected["dtype"]), where
        assert list(value.shape) == expected["shape"], where
        for got, want in zip(value.reshape(-1).tolist(), expected["data"]):
            _assert_number(got, want, where)


def _assert_number(got, want, where):
    if isinstance(want, str):           # "nan", "inf", "-inf"
        want = float(want)
    if isinstance(want, float) and math.isnan(want):
        assert math.isnan(got), where
    else:
        assert got == want, where


@pytest.mark.parametrize("case", CASES)
def test_fixture_rows_in_order(shared_fixtures, case):
    files, manifest = load_case(shared_fixtures, case)
    data = ds.MindDataset(files, shuffle=False)
    expected_rows = manifest["rows"]
    assert data.get_col_names() == sorted(manifest["schema_input"])
    assert data.get_dataset_size() == len(expected_rows)
    got = list(data.create_dict_iterator(num_epochs=1, output_numpy=True))
    assert len(got) == len(expected_rows)
    for i, (row, expected) in enumerate(zip(got, expected_rows)):
        assert list(row) == sorted(expected), f"{case} row {i}"
        for name, want in expected.items():
            assert_value_matches(row[name], want, f"{case} row {i} column {name}")


def test_one_file_of_a_set_reads_the_whole_set(shared_fixtures):
    files, manifest = load_case(shared_fixtures, "f_multi_shard")
    data = ds.MindDataset(files[1], shuffle=False)
    ids = [int(r[0]) for r in data.create_tuple_iterator(columns=["id"], num_epochs=1,
                                                          output_numpy=True)]
    assert ids == [r["id"]["value"] for r in manifest["rows"]]


def test_list_order_is_read_order(shared_fixtures):
    files, manifest = load_case(shared_fixtures, "f_multi_shard")
    data = ds.MindDataset([files[2], files[0]], shuffle=False)
    names = [str(row["name"]) for row in data.create_dict_iterator(num_epochs=1, output_numpy=True)]
    shard_of = manifest["row_shard"]
    expected = [r["name"]["value"] for k in (2, 0) for r, s in zip(manifest["rows"], shard_of) if s == k]
    assert names == expected


def test_columns_list_projects_in_given_order(shared_fixtures):
    files, manifest = load_case(shared_fixtures, "a_scalars")
    data = ds.MindDataset(files, columns_list=["s", "i32"], shuffle=False)
    assert data.get_col_names() == ["s", "i32"]
    row = next(iter(data.create_tuple_iterator(num_epochs=1, output_numpy=True)))
    assert len(row) == 2
    assert str(row[0]) == manifest["rows"][0]["s"]["value"]


def test_num_samples_limits_rows(shared_fixtures):
    files, _ = load_case(shared_fixtures, "e_pages")
    data = ds.MindDataset(files, shuffle=False, num_samples=7)
    assert data.get_dataset_size() == 7
    assert len(list(data.create_tuple_iterator(num_epochs=1, output_numpy=True))) == 7


def test_iterates_in_two_pipelines_and_epochs(shared_fixtures):
    files, manifest = load_case(shared_fixtures, "d_no_blob")
    data = ds.MindDataset(files, shuffle=False)
    it1 = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    it2 = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    n = len(manifest["rows"])
    assert len(list(it2)) == n
    assert len([r for r in it1]) == n
