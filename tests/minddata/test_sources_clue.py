"""CLUEDataset: the columns of each task and usage (alphabetical), value types from the JSON
values, nested WSC keys, file order, shuffles, shards, num_samples and errors."""
import json

import numpy as np
import pytest

import minddata as ds

COLUMNS = {
    ("AFQMC", "train"): ["label", "sentence1", "sentence2"],
    ("AFQMC", "test"): ["id", "sentence1", "sentence2"],
    ("AFQMC", "eval"): ["label", "sentence1", "sentence2"],
    ("CMNLI", "train"): ["label", "sentence1", "sentence2"],
    ("CMNLI", "test"): ["id", "sentence1", "sentence2"],
    ("TNEWS", "train"): ["keywords", "label", "label_desc", "sentence"],
    ("TNEWS", "test"): ["id", "keywords", "sentence"],
    ("TNEWS", "eval"): ["keywords", "label", "label_desc", "sentence"],
    ("IFLYTEK", "train"): ["label", "label_des", "sentence"],
    ("IFLYTEK", "test"): ["id", "sentence"],
    ("CSL", "train"): ["abst", "id", "keyword", "label"],
    ("CSL", "test"): ["abst", "id", "keyword"],
    ("WSC", "train"): ["idx", "label", "span1_index", "span1_text", "span2_index",
                       "span2_text", "text"],
    ("WSC", "test"): ["idx", "span1_index", "span1_text", "span2_index", "span2_text", "text"],
}

RECORD = {"sentence1": "s1", "sentence2": "s2", "label": "1", "id": 0, "sentence": "s",
          "keywords": "k", "label_desc": "news", "label_des": "app", "abst": "a",
          "keyword": ["x", "y"], "idx": 3, "text": "t",
          "target": {"span1_index": 1, "span2_index": 4, "span1_text": "p", "span2_text": "q"}}


def _write(path, records):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                    encoding="utf-8")
    return str(path)


def _rows(data):
    return list(data.create_dict_iterator(num_epochs=1, output_numpy=True))


@pytest.mark.parametrize("task,usage", sorted(COLUMNS))
def test_columns_of_each_task_and_usage(tmp_path, task, usage):
    f = _write(tmp_path / "d.json", [RECORD, RECORD])
    data = ds.CLUEDataset(f, task=task, usage=usage, shuffle=False)
    assert data.get_col_names() == COLUMNS[(task, usage)]
    rows = _rows(data)
    assert len(rows) == 2 and list(rows[0]) == COLUMNS[(task, usage)]


def test_value_types_follow_the_json_values(tmp_path):
    f = _write(tmp_path / "wsc.json", [
        {"target": {"span1_index": 0, "span2_index": -2, "span1_text": "\u5e8a",
                    "span2_text": "it"}, "idx": 7, "label": "true", "text": "\u8fd9"}])
    row = _rows(ds.CLUEDataset(f, task="WSC", usage="train", shuffle=False))[0]
    assert row["span1_index"].dtype == np.uint32 and row["span1_index"] == 0
    assert row["span2_index"].dtype == np.int32 and row["span2_index"] == -2
    assert row["idx"].dtype == np.uint32 and row["idx"].shape == ()
    assert row["span1_text"].dtype.kind == "U" and str(row["span1_text"]) == "\u5e8a"
    assert str(row["label"]) == "true" and str(row["text"]) == "\u8fd9"

    f = _write(tmp_path / "csl.json", [{"id": 1, "abst": "x", "keyword": ["k1", "k2"],
                                        "label": 0.5}, {"id": 2, "abst": "y", "keyword": [],
                                                        "label": "0"}])
    first, second = _rows(ds.CLUEDataset(f, task="CSL", usage="train", shuffle=False))
    assert first["keyword"].tolist() == ["k1", "k2"] and first["keyword"].dtype.kind == "U"
    assert first["label"].dtype == np.float32 and first["label"] == 0.5
    assert second["keyword"].shape == (0,) and str(second["label"]) == "0"


def test_files_sorted_blank_lines_skipped_and_rows_in_order(tmp_path):
    b = _write(tmp_path / "b.json", [dict(RECORD, sentence1="b0")])
    (tmp_path / "a.json").write_text(
        json.dumps(dict(RECORD, sentence1="a0")) + "\n\n" + json.dumps(dict(RECORD, sentence1="a1"))
        + "\r\n", encoding="utf-8")
    data = ds.CLUEDataset([b, str(tmp_path / "a.json")], shuffle=False)
    assert data.get_dataset_size() == 3
    assert [str(r["sentence1"]) for r in _rows(data)] == ["a0", "a1", "b0"]


def _numbered(tmp_path, n, files=2):
    per = n // files
    for k in range(files):
        _write(tmp_path / f"f{k}.json", [dict(RECORD, id=k * per + i) for i in range(per)])
    return str(tmp_path / "*.json")


def _ids(data):
    return [int(r["id"]) for r in _rows(data)]


def test_shuffles_seeded_files_and_global(tmp_path):
    pattern = _numbered(tmp_path, 8)
    ds.config.set_seed(4)
    first = _ids(ds.CLUEDataset(pattern, usage="test"))
    ds.config.set_seed(4)
    assert _ids(ds.CLUEDataset(pattern, usage="test", num_parallel_workers=2)) == first
    assert sorted(first) == list(range(8))
    orders = set()
    for seed in range(8):
        ds.config.set_seed(seed)
        ids = _ids(ds.CLUEDataset(pattern, usage="test", shuffle=ds.Shuffle.FILES))
        assert ids in ([0, 1, 2, 3, 4, 5, 6, 7], [4, 5, 6, 7, 0, 1, 2, 3])
        orders.add(tuple(ids))
    assert len(orders) == 2


def test_shards_disjoint_and_complete_and_num_samples(tmp_path):
    pattern = _numbered(tmp_path, 9, files=3)
    for shuffle in (False, True):
        ds.config.set_seed(2)
        shards = [_ids(ds.CLUEDataset(pattern, usage="test", shuffle=shuffle, num_shards=3,
                                      shard_id=k)) for k in range(3)]
        assert sorted(sum(shards, [])) == list(range(9))
        assert all(len(s) == 3 for s in shards)
    assert _ids(ds.CLUEDataset(pattern, usage="test", shuffle=False, num_samples=4)) == [0, 1, 2, 3]
    for seed in range(5):
        ds.config.set_seed(seed)
        ids = _ids(ds.CLUEDataset(pattern, usage="test", num_samples=3))
        assert sorted(ids) in ([0, 1, 2], [3, 4, 5], [6, 7, 8])   # one shuffled file's rows


def test_argument_errors(tmp_path):
    f = _write(tmp_path / "d.json", [RECORD])
    with pytest.raises(ValueError, match="The following patterns did not match any files"):
        ds.CLUEDataset(str(tmp_path / "nope.json"))
    with pytest.raises(ValueError, match="Input dataset_files can not be empty"):
        ds.CLUEDataset("")
    with pytest.raises(ValueError, match="task should be 'AFQMC', 'TNEWS', 'IFLYTEK', 'CMNLI', "
                                         "'WSC' or 'CSL'"):
        ds.CLUEDataset(f, task="afqmc")
    with pytest.raises(ValueError, match="usage should be 'train', 'test' or 'eval'"):
        ds.CLUEDataset(f, usage="all")
    with pytest.raises(ValueError, match="shard_id"):
        ds.CLUEDataset(f, num_shards=2, shard_id=5)


def test_data_errors_name_the_file_line_and_key(tmp_path):
    f = _write(tmp_path / "d.json", [RECORD, {"sentence1": "x", "sentence2": "y"}])
    with pytest.raises(RuntimeError, match=r"failed to find key: label.*d.json, line 2"):
        _rows(ds.CLUEDataset(f, shuffle=False))
    (tmp_path / "bad.json").write_text(json.dumps(RECORD) + "\n{oops\n")
    with pytest.raises(RuntimeError, match=r"Invalid json, failed to parse .*bad.json, line 2"):
        ds.CLUEDataset(str(tmp_path / "bad.json")).get_dataset_size()
    _write(tmp_path / "null.json", [dict(RECORD, label=None)])
    with pytest.raises(RuntimeError, match="key label in .*null.json, line 1 is null"):
        _rows(ds.CLUEDataset(str(tmp_path / "null.json")))
    (tmp_path / "empty.json").write_text("\n\n")
    assert ds.CLUEDataset(str(tmp_path / "empty.json")).get_dataset_size() == 0   # MindSpore 2.10
    with pytest.raises(RuntimeError, match="can't read the data file"):
        _rows(ds.CLUEDataset(str(tmp_path / "empty.json")))


# --- found by tools/text_sources_vs_mindspore.py against MindSpore 2.10 (measured there)


def test_a_bom_before_a_line_is_skipped(tmp_path):
    # MindSpore 2.10 reads a BOM before the first line's object, and before any other line's
    line = json.dumps({"sentence1": "a", "sentence2": "b", "label": "1"}).encode()
    path = tmp_path / "a.json"
    path.write_bytes(b"\xef\xbb\xbf" + line + b"\n\xef\xbb\xbf" + line + b"\n")
    data = ds.CLUEDataset(str(path), task="AFQMC", usage="train", shuffle=False)
    assert [{k: str(v) for k, v in row.items()} for row in _rows(data)] == \
        [{"label": "1", "sentence1": "a", "sentence2": "b"}] * 2


@pytest.mark.parametrize("value", ['"a\\ud800"', '["x", "\\udc00"]'])
def test_a_lone_surrogate_escape_is_an_error(tmp_path, value):
    # MindSpore 2.10 raises RuntimeError; json.loads alone gives a str no encoding can write
    path = tmp_path / "a.json"
    path.write_text('{"sentence1": "a", "sentence2": %s, "label": "1"}\n' % value)
    data = ds.CLUEDataset(str(path), task="AFQMC", usage="train", shuffle=False)
    with pytest.raises(RuntimeError, match="surrogate"):
        _rows(data)


def test_numbers_as_mindspore_types_them(tmp_path):
    # MindSpore 2.10 (measured): -0 is an int32 0 (written with a minus), 0 a uint32 0, -0.0 a
    # float32 -0.0; 1e309 fails ("number overflow parsing '1e309'"), where json.loads gave inf,
    # and so do NaN and Infinity, which are no JSON, even under a key no column reads
    path = tmp_path / "a.json"
    path.write_text('{"sentence1": -0, "sentence2": -0.0, "label": 0}\n')
    row = _rows(ds.CLUEDataset(str(path), task="AFQMC", usage="train", shuffle=False))[0]
    assert row["sentence1"].dtype == np.int32 and row["label"].dtype == np.uint32
    assert row["sentence2"].dtype == np.float32 and np.signbit(row["sentence2"])
    for extra in ('"label": 1e309', '"label": "1", "other": -1e309', '"label": "1", "x": NaN',
                  '"label": Infinity'):
        path.write_text('{"sentence1": "a", "sentence2": "b", %s}\n' % extra)
        with pytest.raises(RuntimeError, match="Invalid json"):
            _rows(ds.CLUEDataset(str(path), task="AFQMC", usage="train", shuffle=False))
