"""add_schema validation: MindSpore's exception types and detail texts (format spec section 3)."""
import pytest

from mindrecord import FileWriter, MRMAddSchemaError, MRMBuildSchemaError, MRMInvalidSchemaError
from mindrecord import ParamTypeError
from mindrecord.schema import (blob_fields, compresses_int_arrays, default_index_fields,
                               raw_fields, shape_accepts, validate_schema)

PREFIX = "[MRMInvalidSchemaError]: Schema format is error. Detail: "


@pytest.mark.parametrize("content, detail", [
    ({}, "Schema content is empty."),
    (None, "Schema content is empty."),
    ([("a", {"type": "int32"})], "Schema content should be dict."),
    ({"a-b": {"type": "int32"}}, "Field 'a-b' should be composed of '0-9' or 'a-z' or 'A-Z' or '_'."),
    ({"a\n": {"type": "int32"}}, "Field 'a\n' should be composed of '0-9' or 'a-z' or 'A-Z' or '_'."),
    ({"a": "int32"}, "Field 'a' should be dict."),
    ({"a": {}}, "Field 'a' should be dict."),
    ({"a": {"type": "int16"}}, "Field 'a' contain illegal attribute 'int16'."),
    ({"a": {"type": "string", "shape": [-1]}}, "Field 'a' contain illegal attribute 'string'."),
    ({"a": {"type": "bytes", "shape": [-1]}}, "Field 'a' contain illegal attribute 'bytes'."),
    ({"a": {"type": "int32", "shape": -1}}, "Field 'a' contain illegal attribute '-1'."),
    ({"a": {"type": "int32", "x": 1}}, "Field '{'type': 'int32', 'x': 1}' contains illegal attributes."),
    ({"a": {"shape": [1]}}, "Field '{'shape': [1]}' contains illegal attributes."),
    ({"a": {"type": "int32", "shape": [1], "x": 2}},
     "Field '{'type': 'int32', 'shape': [1], 'x': 2}' contains illegal attributes."),
])
def test_invalid_schema_messages(content, detail):
    with pytest.raises(MRMInvalidSchemaError) as info:
        validate_schema(content)
    assert str(info.value) == PREFIX + detail


def test_first_error_in_field_order_wins():
    with pytest.raises(MRMInvalidSchemaError, match="Field 'b' should be dict"):
        validate_schema({"a": {"type": "int32"}, "b": 3, "c-d": {"type": "int32"}})


@pytest.mark.parametrize("shape, text", [
    ([0], "should be -1 or greater than 0 but got: 0."),
    ([2, -3], "should be -1 or greater than 0 but got: -3."),
    ([-1, -1], "only 1 variable dimension(-1) allowed in 'shape' value but got: [-1,-1]."),
    ([1.5], "should be -1 or greater than 0 but got: 1.5."),
])
def test_bad_shapes_raise_build_schema_error(shape, text):
    with pytest.raises(MRMBuildSchemaError) as info:
        validate_schema({"a": {"type": "int32", "shape": shape}})
    assert str(info.value).startswith("[MRMBuildSchemaError]: Failed to build schema.")
    assert text in str(info.value)


def test_normalised_schema_is_sorted_with_shape_before_type():
    got = validate_schema({"z": {"type": "bytes"}, "a": {"type": "float32", "shape": [2, -1]}})
    assert list(got) == ["a", "z"]
    assert list(got["a"]) == ["shape", "type"]


def test_field_roles():
    schema = validate_schema({"label": {"type": "int32"}, "img": {"type": "bytes"},
                              "ids": {"type": "int64", "shape": [-1]}, "f": {"type": "float64"},
                              "v": {"type": "float32", "shape": [3]}, "s": {"type": "string"}})
    assert blob_fields(schema) == ["ids", "img", "v"]
    assert raw_fields(schema) == ["f", "label", "s"]
    assert default_index_fields(schema) == ["f", "label", "s"]
    assert compresses_int_arrays(schema)
    assert not compresses_int_arrays(validate_schema({"v": {"type": "float32", "shape": [-1]},
                                                      "n": {"type": "int64"}}))


@pytest.mark.parametrize("shape, size, ok", [
    ([-1], 0, True), ([-1], 7, True), ([2, -1], 6, True), ([2, -1], 5, False),
    ([2, 3], 6, True), ([2, 3], 5, False), ([], 1, True), ([], 2, False),
])
def test_shape_accepts(shape, size, ok):
    assert shape_accepts(shape, size) is ok


def test_add_schema_twice_is_refused(tmp_path):
    writer = FileWriter(str(tmp_path / "x.mindrecord"))
    assert writer.add_schema({"a": {"type": "int32"}}) == 0
    with pytest.raises(MRMAddSchemaError, match=r"^\[MRMAddSchemaError\]: Failed to add schema"):
        writer.add_schema({"a": {"type": "int32"}})


def test_desc_must_be_str(tmp_path):
    writer = FileWriter(str(tmp_path / "x.mindrecord"))
    with pytest.raises(ParamTypeError, match="'desc' expect str type"):
        writer.add_schema({"a": {"type": "int32"}}, desc=5)
