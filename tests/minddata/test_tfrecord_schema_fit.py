"""TFRecordDataset: values that do not fit their schema column raise, as in MindSpore 2.10
(found by tools/tfrecord_vs_mindspore.py; the expectations are MindSpore 2.10's measured
behaviour, run with the same files: it raises in each case below, where this package served
the rows)."""
import gzip
import json

import numpy as np
import pytest

import minddata as ds
from mindrecord import protowire
from mindrecord.tools.tfrecord import frame_record, write_tfrecord


def _rows(data):
    return [row[0] for row in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]


def _schema(name, de_type, shape=None):
    schema = ds.Schema()
    schema.add_column(name, de_type, shape)
    return schema


def _len_field(number, payload):
    return protowire.len_prefix(number, len(payload)) + payload


def _empty_feature_file(path, kind):
    """One record whose feature "f" is an empty list of ``kind`` (1 bytes, 2 float, 3 int64)."""
    entry = _len_field(1, b"f") + _len_field(2, _len_field(kind, b""))
    path.write_bytes(frame_record(_len_field(1, _len_field(1, entry))))
    return str(path)


@pytest.mark.parametrize("de_type", ["int8", "bytes"])
def test_bytes_list_read_as_int8_or_bytes_raises(tmp_path, de_type):
    # MindSpore 2.10: "The data type loaded from the example for feature name: f does not
    # match the predefined type in schema, the actual type: string, but the predefined type:
    # int8" (schema object and schema file alike); int8 rows were served here.
    write_tfrecord(str(tmp_path / "a.tfrecord"), [{"f": [b"ab", b"c"]}])
    schema = ds.Schema()        # MindSpore's add_column refuses "bytes", from_json takes it
    schema.from_json({"columns": [{"name": "f", "type": de_type, "shape": [-1]}]})
    data = ds.TFRecordDataset(str(tmp_path / "a.tfrecord"), schema=schema, shuffle=False)
    with pytest.raises(RuntimeError, match="should be uint8 or string, but got " + de_type):
        _rows(data)


def test_bytes_list_as_uint8_and_string_still_read(tmp_path):
    write_tfrecord(str(tmp_path / "a.tfrecord"), [{"f": [b"xyz"]}])
    path = str(tmp_path / "a.tfrecord")
    (value,) = _rows(ds.TFRecordDataset(path, schema=_schema("f", "uint8"), shuffle=False))
    assert value.dtype == np.uint8 and value.tolist() == [120, 121, 122]
    (text,) = _rows(ds.TFRecordDataset(path, schema=_schema("f", "string"), shuffle=False))
    assert text.tolist() == ["xyz"]


@pytest.mark.parametrize("kind, de_type", [(3, "int64"), (3, "int32"), (2, "float32"),
                                           (1, "uint8"), (1, "string")])
@pytest.mark.parametrize("shape", [[-1], [1, -1]])
def test_empty_list_in_a_shape_with_an_unknown_dimension_raises(tmp_path, kind, de_type, shape):
    # MindSpore 2.10: "Requested shape has an invalid element count! Number elements: 0,
    # number elements of shape: 1"; arrays of shape (0,) / (1, 0) were served here.
    path = _empty_feature_file(tmp_path / "a.tfrecord", kind)
    data = ds.TFRecordDataset(path, schema=_schema("f", de_type, shape), shuffle=False)
    with pytest.raises(RuntimeError, match="Number elements: 0"):
        _rows(data)


@pytest.mark.parametrize("kind, dtype", [(3, np.int64), (2, np.float32), (1, np.uint8)])
def test_empty_list_without_a_shape_is_an_empty_array(tmp_path, kind, dtype):
    # MindSpore 2.10 serves these as arrays of shape (0,) too.
    path = _empty_feature_file(tmp_path / "a.tfrecord", kind)
    schema = _schema("f", np.dtype(dtype).name)
    (value,) = _rows(ds.TFRecordDataset(path, schema=schema, shuffle=False))
    assert value.dtype == dtype and value.shape == (0,)


@pytest.mark.parametrize("schema_rows", [None, 4])
def test_compressed_files_fewer_than_shards_raise_with_shard_equal_rows(tmp_path, schema_rows):
    # MindSpore 2.10, one GZIP file read as 2 shards with shard_equal_rows=True and no
    # num_samples: RuntimeError "When compression_type is provided, number of dataset files
    # cannot be less than num_shards"; here the rows were split and served.
    raw = tmp_path / "raw.tfrecord"
    write_tfrecord(str(raw), [{"id": [i]} for i in range(4)])
    path = tmp_path / "a.tfrecord.gz"
    path.write_bytes(gzip.compress(raw.read_bytes()))
    schema = None
    if schema_rows:
        schema = str(tmp_path / "schema.json")
        with open(schema, "w") as f:
            json.dump({"numRows": schema_rows, "columns": {"id": {"type": "int64",
                                                                  "rank": 1}}}, f)
    with pytest.raises(RuntimeError, match="cannot be less than num_shards"):
        ds.TFRecordDataset(str(path), schema=schema, compression_type="GZIP", num_shards=2,
                           shard_id=0, shard_equal_rows=True, shuffle=False)
    with pytest.raises(ValueError, match="cannot be less than num_shards"):
        ds.TFRecordDataset(str(path), compression_type="GZIP", num_shards=2, shard_id=0,
                           shard_equal_rows=True, num_samples=1)
    # plain files: the rows are split
    data = ds.TFRecordDataset(str(raw), num_shards=2, shard_id=0, shard_equal_rows=True,
                              shuffle=False)
    assert data.get_dataset_size() == 2


def test_first_record_without_features_raises(tmp_path):
    # MindSpore 2.10: get_col_names raises "GetColumnNames: column_name_id map can not be
    # empty." for files whose first record is an Example with no features; here rows of no
    # columns were served.
    path = tmp_path / "a.tfrecord"
    entry = _len_field(1, b"f") + _len_field(2, _len_field(3, _len_field(1, b"\x01")))
    path.write_bytes(frame_record(b"") + frame_record(_len_field(1, _len_field(1, entry))))
    data = ds.TFRecordDataset(str(path), shuffle=False)
    with pytest.raises(RuntimeError, match="holds no features"):
        data.get_col_names()
    with pytest.raises(RuntimeError, match="holds no features"):
        _rows(data)


def test_add_column_refuses_bytes_as_mindspore_does():
    # MindSpore 2.10: Schema().add_column("a", "bytes") raises TypeError "Unknown column
    # type."; from_json takes the type (and a TFRecord column of it then raises when read).
    schema = ds.Schema()
    with pytest.raises(TypeError, match="Unknown column type"):
        schema.add_column("a", "bytes")
    assert schema.to_json() == ds.Schema().to_json()
    schema.from_json({"columns": [{"name": "a", "type": "bytes"}]})
    assert "bytes" in schema.to_json()


@pytest.mark.parametrize("shape", [[0], [1, 0]])
def test_empty_list_in_a_shaped_string_column_raises(tmp_path, shape):
    # MindSpore 2.10: "Requested shape has an invalid element count! Number elements: 0,
    # number elements of shape: 0" for an empty bytes_list read as string with shape [0] or
    # [1, 0]; empty str arrays were served here.
    path = _empty_feature_file(tmp_path / "a.tfrecord", 1)
    data = ds.TFRecordDataset(path, schema=_schema("f", "string", shape), shuffle=False)
    with pytest.raises(RuntimeError, match="Number elements: 0"):
        _rows(data)


def test_several_bytes_values_are_laid_end_to_end(tmp_path):
    # MindSpore 2.10 with a schema (object or file): b"ab", b"c" as uint8 -> [97, 98, 99], and
    # a shape [2] column refuses b"\x00", b"" ("Column shape of f defined in schema does not
    # match the shape actually load"); here the values were padded with zeros to the longest
    # ([97, 98, 99, 0]), which made the second fit.
    write_tfrecord(str(tmp_path / "a.tfrecord"), [{"f": [b"ab", b"c"]}])
    write_tfrecord(str(tmp_path / "b.tfrecord"), [{"f": [b"\x00", b""]}])
    for source in (None, _schema("f", "uint8")):
        (value,) = _rows(ds.TFRecordDataset(str(tmp_path / "a.tfrecord"), schema=source,
                                            shuffle=False))
        assert value.dtype == np.uint8 and value.tolist() == [97, 98, 99]
    data = ds.TFRecordDataset(str(tmp_path / "b.tfrecord"), schema=_schema("f", "uint8", [2]),
                              shuffle=False)
    with pytest.raises(RuntimeError, match="1 elements but its schema shape"):
        _rows(data)
    # the shape applies to the bytes: [-1, 3] is one item of 3 (MindSpore 2.10 the same);
    # b"a" in a [-1, 4] column raises there ("Number elements: 1, number elements of shape:
    # 4"), where it used to be padded to 4 bytes here
    (shaped,) = _rows(ds.TFRecordDataset(str(tmp_path / "a.tfrecord"),
                                         schema=_schema("f", "uint8", [-1, 3]), shuffle=False))
    assert shaped.tolist() == [[97, 98, 99]]
    write_tfrecord(str(tmp_path / "c.tfrecord"), [{"f": [b"a"]}])
    data = ds.TFRecordDataset(str(tmp_path / "c.tfrecord"), schema=_schema("f", "uint8", [-1, 4]),
                              shuffle=False)
    with pytest.raises(RuntimeError, match="do not fill its shape"):
        _rows(data)
