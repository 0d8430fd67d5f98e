"""TFRecord framing, tf.train.Example parsing and TFRecordToMR, all without TensorFlow."""
import os

import numpy as np
import pytest

from mindrecord import ShardReader
from mindrecord.tools import ConversionError, FixedLenFeature, TFRecordToMR
from mindrecord.tools import tfrecord
from .test_tools_helpers import jpeg_bytes, read_rows


def test_masked_crc32c_check_value():
    crc = 0xE3069283          # CRC-32C of "123456789", the standard check value
    assert tfrecord.masked_crc32c(b"123456789") == \
        (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def test_parse_hand_encoded_example_packed_and_unpacked():
    # Example{features{feature{key:"a" value{int64_list{value:[1]}}}}} written by hand.
    entry = b"\x0a\x01a" + b"\x12\x05" + b"\x1a\x03\x0a\x01\x01"
    features = b"\x0a" + bytes([len(entry)]) + entry
    example = b"\x0a" + bytes([len(features)]) + features
    assert tfrecord.parse_example(example) == {"a": ("int64", [1])}
    # Unpacked int64 values (wire type 0) and a negative one (10-byte varint).
    neg = b"\x08" + b"\xff" * 9 + b"\x01"
    ints = b"\x08\x05" + neg
    entry = b"\x0a\x01b" + b"\x12" + bytes([len(ints) + 2]) + b"\x1a" + bytes([len(ints)]) + ints
    features = b"\x0a" + bytes([len(entry)]) + entry
    example = b"\x0a" + bytes([len(features)]) + features
    assert tfrecord.parse_example(example) == {"b": ("int64", [5, -1])}


def test_encode_parse_round_trip():
    data = tfrecord.encode_example({"img": [b"\x00\xff"], "label": [-3, 2**40],
                                    "box": np.array([0.5, 1.5], np.float32)})
    parsed = tfrecord.parse_example(data)
    assert parsed["img"] == ("bytes", [b"\x00\xff"])
    assert parsed["label"] == ("int64", [-3, 2**40])
    assert parsed["box"][0] == "float" and parsed["box"][1].tolist() == [0.5, 1.5]


def _write(path, n=5):
    examples = [{"image/encoded": [jpeg_bytes(i)], "label": [i], "name": [f"n{i}"],
                 "bbox": np.array([i, i + 0.5, 1, 2], np.float32)} for i in range(n)]
    tfrecord.write_tfrecord(str(path), examples)
    return examples


FEATURES = {"image/encoded": FixedLenFeature([], "string"),
            "label": FixedLenFeature([], "int64"),
            "name": FixedLenFeature([], "string"),
            "bbox": FixedLenFeature([4], "float32")}


def test_transform_round_trip_and_schema(tmp_path):
    examples = _write(tmp_path / "d.tfrecord")
    result = TFRecordToMR(str(tmp_path / "d.tfrecord"), str(tmp_path / "d.mr"), FEATURES,
                          ["image/encoded"]).transform()
    assert result.rows == 5
    with ShardReader(str(tmp_path / "d.mr")) as reader:
        assert reader.schema == {"bbox": {"shape": [4], "type": "float32"},
                                 "image_encoded": {"type": "bytes"},
                                 "label": {"type": "int64"}, "name": {"type": "string"}}
    rows = read_rows(str(tmp_path / "d.mr"))
    for row, ex in zip(rows, examples):
        assert row["image_encoded"] == ex["image/encoded"][0]
        assert row["label"] == ex["label"][0] and row["name"] == ex["name"][0]
        np.testing.assert_array_equal(row["bbox"], ex["bbox"])


def test_corrupt_record_data_checksum(tmp_path):
    _write(tmp_path / "d.tfrecord", n=3)
    data = bytearray((tmp_path / "d.tfrecord").read_bytes())
    data[-10] ^= 0x55                                 # inside the last record's data
    (tmp_path / "d.tfrecord").write_bytes(bytes(data))
    conv = TFRecordToMR(str(tmp_path / "d.tfrecord"), str(tmp_path / "d.mr"), FEATURES,
                        ["image/encoded"])
    with pytest.raises(ConversionError, match=r"d\.tfrecord record 2: data checksum mismatch"):
        conv.transform()
    assert not os.path.exists(tmp_path / "d.mr")
    result = conv.transform(skip_bad=True)
    assert result.rows == 2 and len(result.skipped) == 1


def test_truncated_file_breaks_framing(tmp_path):
    _write(tmp_path / "d.tfrecord", n=3)
    data = (tmp_path / "d.tfrecord").read_bytes()
    (tmp_path / "d.tfrecord").write_bytes(data[:-20])
    conv = TFRecordToMR(str(tmp_path / "d.tfrecord"), str(tmp_path / "d.mr"), FEATURES,
                        ["image/encoded"])
    with pytest.raises(ConversionError, match=r"record 2 \(byte \d+\): truncated record"):
        conv.transform()
    result = conv.transform(skip_bad=True)
    assert result.rows == 2
    assert "the rest of the file is skipped" in result.skipped[0][1]


def test_feature_mismatch_is_bad_input(tmp_path):
    _write(tmp_path / "d.tfrecord", n=2)
    features = dict(FEATURES, label=FixedLenFeature([], "float32"))
    conv = TFRecordToMR(str(tmp_path / "d.tfrecord"), str(tmp_path / "d.mr"), features,
                        ["image/encoded"])
    with pytest.raises(ConversionError, match="feature 'label' holds a int64_list"):
        conv.transform()
    features = dict(FEATURES, bbox=FixedLenFeature([3], "float32"))
    with pytest.raises(ConversionError, match="'bbox' has 4 values, feature_dict expects 3"):
        TFRecordToMR(str(tmp_path / "d.tfrecord"), str(tmp_path / "d.mr"), features,
                     ["image/encoded"]).transform()


def test_missing_feature_uses_default_value(tmp_path):
    _write(tmp_path / "d.tfrecord", n=2)
    features = {"label": FixedLenFeature([], "int64"),
                "weight": FixedLenFeature([], "float32", default_value=1.0)}
    TFRecordToMR(str(tmp_path / "d.tfrecord"), str(tmp_path / "d.mr"), features).transform()
    assert read_rows(str(tmp_path / "d.mr")) == [{"label": 0, "weight": 1.0},
                                                 {"label": 1, "weight": 1.0}]


@pytest.mark.parametrize("feature_dict, bytes_fields, message", [
    (None, None, "feature_dict is None or not dict"),
    ({"a": object()}, None, "only support FixedLenFeature"),
    ({"a": FixedLenFeature([2], "string")}, None, "not supported"),
    ({"a": FixedLenFeature([2, 2], "int64")}, None, "shape"),
    ({"a": FixedLenFeature([], "complex64")}, None, "not supported"),
    ({"a": FixedLenFeature([], "string")}, ["b"], "not in feature_dict"),
    ({"a": FixedLenFeature([], "int64")}, ["a"], "scalar string"),
])
def test_argument_errors(tmp_path, feature_dict, bytes_fields, message):
    _write(tmp_path / "d.tfrecord", n=1)
    with pytest.raises(ValueError, match=message):
        TFRecordToMR(str(tmp_path / "d.tfrecord"), str(tmp_path / "d.mr"), feature_dict,
                     bytes_fields)


from hypothesis import given, settings, strategies as st  # noqa: E402

_values = st.one_of(
    st.lists(st.binary(max_size=20), min_size=1, max_size=4),
    st.lists(st.integers(-2**63, 2**63 - 1), min_size=1, max_size=4),
    st.lists(st.floats(width=32, allow_nan=False), min_size=1, max_size=4))


@settings(deadline=None, max_examples=60)
@given(st.dictionaries(st.text(min_size=1, max_size=8), _values, min_size=1, max_size=4))
def test_example_round_trip_property(features):
    parsed = tfrecord.parse_example(tfrecord.encode_example(features))
    assert set(parsed) == set(features)
    for name, values in features.items():
        kind, got = parsed[name]
        if isinstance(values[0], bytes):
            assert (kind, got) == ("bytes", values)
        elif isinstance(values[0], int):
            assert (kind, got) == ("int64", values)
        else:
            assert kind == "float" and got.tolist() == values


@settings(deadline=None, max_examples=40)
@given(st.lists(st.binary(max_size=300), max_size=6), st.integers(0, 10_000))
def test_framing_round_trip_and_any_cut_is_detected(tmp_path_factory, records, cut):
    path = str(tmp_path_factory.mktemp("f") / "r.tfrecord")
    blob = b"".join(tfrecord.frame_record(r) for r in records)
    with open(path, "wb") as f:
        f.write(blob)
    spans = tfrecord.scan_records(path)
    with open(path, "rb") as f:
        assert [bytes(tfrecord.read_record(f, path, i, o, n))
                for i, (o, n) in enumerate(spans)] == records
    if blob:
        cut = cut % len(blob)
        ends = {0}
        pos = 0
        for r in records:
            pos += 16 + len(r)
            ends.add(pos)
        with open(path, "wb") as f:
            f.write(blob[:cut])
        if cut in ends:            # cut between records: a shorter, valid file
            assert len(tfrecord.scan_records(path)) == sorted(ends).index(cut)
        else:
            with pytest.raises(tfrecord.FramingError):
                tfrecord.scan_records(path)
