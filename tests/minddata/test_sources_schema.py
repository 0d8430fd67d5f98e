"""Schema: add_column, parse_columns, from_json / to_json, schema files, and their errors."""
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minddata as ds
from minddata.sources.schema import VALID_TYPES, Schema


def _columns(schema):
    return json.loads(schema.to_json())["columns"]


def test_public_name():
    assert ds.Schema is Schema


def test_add_column_without_shape_is_rank_1():
    s = Schema()
    s.add_column("label", "int64")
    assert _columns(s) == [{"name": "label", "type": "int64", "rank": 1}]


def test_add_column_with_shape_sets_rank():
    s = Schema()
    s.add_column("image", "uint8", [-1, 4, 3])
    s.add_column("id", "int32", [])
    assert _columns(s) == [{"name": "image", "type": "uint8", "shape": [-1, 4, 3], "rank": 3},
                           {"name": "id", "type": "int32", "shape": [], "rank": 0}]


def test_add_column_accepts_numpy_types():
    s = Schema()
    s.add_column("a", np.float32)
    s.add_column("b", np.dtype("uint16"))
    s.add_column("c", np.str_)
    assert [c["type"] for c in _columns(s)] == ["float32", "uint16", "string"]


def test_to_json_layout_keys_sorted_indent_2():
    s = Schema()
    s.add_column("x", "float32", [2])
    text = s.to_json()
    assert text == json.dumps({"columns": [{"name": "x", "rank": 1, "shape": [2],
                                            "type": "float32"}]}, indent=2, sort_keys=True)
    assert str(s) == text
    assert "numRows" not in text and "datasetType" not in text


@pytest.mark.parametrize("call, error, message", [
    (lambda s: s.add_column(3, "int64"), TypeError, "name"),
    (lambda s: s.add_column("", "int64"), TypeError, "non-empty string for column name"),
    (lambda s: s.add_column("a", None), TypeError, "de_type"),
    (lambda s: s.add_column("a", "int128"), TypeError, "Unknown column type: int128"),
    (lambda s: s.add_column("a", "int64", (2,)), TypeError, "shape"),
    (lambda s: s.add_column("a", "int64", [2.0]), TypeError, r"shape\[0\]"),
    (lambda s: s.add_column("a", "int64", [-1, -1]), ValueError, "more than one unknown"),
    (lambda s: s.add_column("a", "int64", [-2]), ValueError, "-1"),
])
def test_add_column_errors(call, error, message):
    s = Schema()
    with pytest.raises(error, match=message):
        call(s)
    assert _columns(s) == []


def test_add_column_twice_is_refused():
    s = Schema()
    s.add_column("a", "int64")
    with pytest.raises(ValueError, match="already"):
        s.add_column("a", "int32")


def test_parse_columns_list_keeps_order():
    s = Schema()
    s.parse_columns([{"name": "z", "type": "int8", "shape": [3, 3]},
                     {"name": "a", "type": "string"}])
    assert [(c["name"], c["rank"]) for c in _columns(s)] == [("z", 2), ("a", 0)]


def test_parse_columns_dict_is_sorted_by_name():
    # MindSpore's JSON library keeps object keys sorted, so dict columns come out by name.
    s = Schema()
    s.parse_columns({"label": {"type": "int64", "shape": [1]}, "image": {"type": "uint8"}})
    assert [c["name"] for c in _columns(s)] == ["image", "label"]


def test_parse_columns_replaces_existing():
    s = Schema()
    s.add_column("old", "int64")
    s.parse_columns([{"name": "new", "type": "int64"}])
    assert [c["name"] for c in _columns(s)] == ["new"]


def test_rank_without_shape_is_kept():
    s = Schema()
    s.parse_columns({"a": {"type": "int64", "rank": 1}, "b": {"type": "int64"}})
    assert [(c["rank"], c.get("shape")) for c in _columns(s)] == [(1, None), (0, [])]


@pytest.mark.parametrize("columns, message", [
    ([{"type": "int64"}], "name is missing"),
    ([{"name": "a"}], "type is missing"),
    ({"a": {"shape": [1]}}, "type is missing"),
    ([{"name": "a", "type": "complex"}], "unknown type"),
    ([{"name": "a", "type": "int64", "shape": [1.5]}], "shape"),
    ([{"name": "a", "type": "int64", "shpae": [1]}], "unexpected column attribute 'shpae'"),
    ([{"name": "a", "type": "int64"}, {"name": "a", "type": "int8"}], "duplicate"),
    ("a,b", "columns must be dict or list"),
])
def test_parse_columns_errors_leave_schema_unchanged(columns, message):
    s = Schema()
    s.add_column("keep", "int64")
    with pytest.raises(RuntimeError, match=message):
        s.parse_columns(columns)
    assert [c["name"] for c in _columns(s)] == ["keep"]


def test_from_json_reads_num_rows_and_dataset_type():
    s = Schema()
    s.from_json({"datasetType": "TF", "numRows": 7, "columns": {"a": {"type": "int64"}}})
    content = json.loads(s.to_json())
    assert content["numRows"] == 7 and content["datasetType"] == "TF"
    assert s.num_rows == 7 and Schema.get_num_rows(s) == 7


@pytest.mark.parametrize("content, message", [
    ({"columns": {"a": {"type": "int64"}}, "rows": 3}, "Unknown field rows"),
    ({"numRows": 3}, "columns"),
    ({"columns": []}, "Columns are missing"),
    ({"columns": {"a": {"type": "int64"}}, "numRows": -1}, "numRows"),
    ({"columns": {"a": {"type": "int64"}}, "numRows": "3"}, "numRows"),
])
def test_from_json_errors_change_nothing(content, message):
    s = Schema()
    s.add_column("keep", "int64")
    with pytest.raises(RuntimeError, match=message):
        s.from_json(content)
    assert [c["name"] for c in _columns(s)] == ["keep"] and s.num_rows == 0


def test_schema_file(tmp_path):
    path = tmp_path / "schema.json"
    path.write_text(json.dumps({"datasetType": "TF", "numRows": 4, "columns": {
        "label": {"type": "int64", "rank": 1, "shape": [1]}, "image": {"type": "uint8", "rank": 1}}}))
    s = Schema(str(path))
    assert [c["name"] for c in s.columns] == ["image", "label"]
    assert Schema.get_num_rows(str(path)) == 4


def test_schema_file_missing(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        Schema(str(tmp_path / "nope.json"))


def test_schema_file_not_json_names_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{columns: ")
    with pytest.raises(RuntimeError, match="bad.json"):
        Schema(str(path))


def test_schema_file_without_columns(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"numRows": 3}')
    with pytest.raises(RuntimeError, match='"columns" node is required'):
        Schema(str(path))


def test_schema_file_argument_type():
    with pytest.raises(TypeError, match="schema_file"):
        Schema(3)


def test_columns_property_is_a_copy():
    s = Schema()
    s.add_column("a", "int64", [2])
    s.columns[0]["shape"].append(9)
    assert _columns(s)[0]["shape"] == [2]


_column = st.fixed_dictionaries({
    "type": st.sampled_from(VALID_TYPES),
    "shape": st.lists(st.integers(0, 5), max_size=3),
})


@settings(deadline=None, max_examples=60)
@given(st.dictionaries(st.text("abcxyz_", min_size=1, max_size=6), _column, min_size=1,
                       max_size=5),
       st.integers(0, 1000))
def test_to_json_from_json_round_trip(columns, num_rows):
    s = Schema()
    s.from_json({"columns": columns, "numRows": num_rows, "datasetType": "TF"})
    again = Schema()
    again.from_json(json.loads(s.to_json()))
    assert again == s
    assert [c["name"] for c in again.columns] == sorted(columns)
    assert [c["shape"] for c in again.columns] == [columns[n]["shape"] for n in sorted(columns)]
