"""Behaviours of ds.Schema and of string and bytes columns through pipelines that MindSpore's own
dataset tests check, each as measured in MindSpore 2.10."""
import numpy as np
import pytest

import minddata as ds


def _rows(dataset):
    return [r[0] for r in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True)]


def test_concat_takes_strings_of_different_widths():
    # measured in MindSpore 2.10: <U1 rows then <U3 rows concatenate (a str column is a str
    # column whatever its longest value); it raised a type mismatch before
    a = ds.GeneratorDataset(lambda: iter([(np.array(["a"]),)]), ["u"], shuffle=False)
    b = ds.GeneratorDataset(lambda: iter([(np.array(["bbb"]),)]), ["u"], shuffle=False)
    assert [r.tolist() for r in _rows(a + b)] == [["a"], ["bbb"]]


def test_concat_still_refuses_str_with_bytes():
    # measured in MindSpore 2.10: "... should be the same, but got: string and bytes."
    a = ds.GeneratorDataset(lambda: iter([(np.array(["a"]),)]), ["u"], shuffle=False)
    b = ds.GeneratorDataset(lambda: iter([(np.array([b"b"]),)]), ["u"], shuffle=False)
    with pytest.raises(RuntimeError, match="should be the same, but got: string and bytes"):
        _rows(a + b)


def test_schema_path_must_be_a_string():
    # measured in MindSpore 2.10: TypeError "path: 1 is not string"
    with pytest.raises(TypeError, match="path: 1 is not string"):
        ds.Schema(1)


def test_schema_parse_columns_needs_names_and_types():
    # measured in MindSpore 2.10: RuntimeError "Column's name is missing" / "Column's type is
    # missing"; columns neither a dict nor a list: "columns must be dict or list, ..."
    with pytest.raises(RuntimeError, match="Column's name is missing"):
        ds.Schema().parse_columns([{"type": "int8", "shape": [3, 3]}])
    with pytest.raises(RuntimeError, match="Column's type is missing"):
        ds.Schema().parse_columns([{"name": "x", "shape": [3, 3]}])
    with pytest.raises(RuntimeError, match="columns must be dict or list"):
        ds.Schema().parse_columns("abc")


def test_schema_from_json_refuses_unknown_fields_and_negative_rows():
    # measured in MindSpore 2.10
    with pytest.raises(RuntimeError, match="Unknown field foo"):
        ds.Schema().from_json({"columns": {"a": {"type": "int8"}}, "foo": 1})
    with pytest.raises(RuntimeError, match='"columns" node is required in the schema json JSON'):
        ds.Schema().from_json({"numRows": 2})
    with pytest.raises(RuntimeError, match="numRows must be greater than or equal to 0"):
        ds.Schema().from_json({"columns": {"a": {"type": "int8"}}, "numRows": -1})


def test_schema_add_column_takes_type_names_and_mindspore_types():
    # measured in MindSpore 2.10: "string", mstype.string, mstype.int32 columns; an unknown
    # name is TypeError "Unknown column type"
    from minddata import mstype
    schema = ds.Schema()
    schema.add_column("line", "string", [])
    schema.add_column("words", mstype.string, [-1, 2])
    schema.add_column("label", mstype.int32)
    assert [(c["name"], c["type"], c.get("shape")) for c in schema.columns] == [
        ("line", "string", []), ("words", "string", [-1, 2]), ("label", "int32", None)]
    with pytest.raises(TypeError, match="Unknown column type"):
        schema.add_column("x", "Int32")


def test_a_tensor_dtype_finds_its_mstype_key():
    # measured in MindSpore 2.10: {mstype.int32: 1}.get(tensor.dtype) == 1 (the training
    # package's mstype names are numpy's scalar types)
    from training.common import dtype as mstype
    tensor = next(iter(ds.NumpySlicesDataset([np.array([1, 2], np.int32)], shuffle=False)))[0]
    assert {mstype.int32: 1}.get(tensor.dtype) == 1
    assert {mstype.float32: 1}.get(tensor.dtype) is None


def test_output_types_of_string_columns_have_no_width():
    # measured in MindSpore 2.10: dtype('<U') and dtype('S') (np.str_, np.bytes_), whatever the
    # first row holds
    data = ds.GeneratorDataset(lambda: iter([(np.array(["abc"]), np.array([b"xy"]), np.array([1]))]),
                               ["u", "s", "i"])
    assert data.output_types() == [np.dtype(np.str_), np.dtype(np.bytes_), np.dtype(np.int64)]


def test_text_to_str_and_to_bytes():
    # measured in MindSpore 2.10 (mindspore.dataset.text): element-wise decode/encode; not an
    # array: TypeError from to_str, ValueError from to_bytes, both "input should be a NumPy array."
    from minddata.text import to_bytes, to_str
    out = to_str(np.array([b"ab", b"c"]))
    assert out.dtype == np.dtype("<U2") and out.tolist() == ["ab", "c"]
    assert to_str(np.array([b"\xe4\xbb\x8a"])).tolist() == ["今"]
    assert to_bytes(np.array(["ab", "c"])).tolist() == [b"ab", b"c"]
    with pytest.raises(TypeError, match="input should be a NumPy array."):
        to_str([b"a"])
    with pytest.raises(ValueError, match="input should be a NumPy array."):
        to_bytes(["a"])


def test_text_transforms_say_they_are_not_provided():
    import minddata.text as text
    with pytest.raises(ImportError, match="text.JiebaTokenizer .* is not provided by this "
                                          "project"):
        from minddata.text import JiebaTokenizer  # noqa: F401
    assert not hasattr(text, "foo")
