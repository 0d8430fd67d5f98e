"""TFRecordDataset: columns and types (with and without a schema), compression, shuffle modes,
file- and row-based sharding, and errors on bad arguments and bad files."""
import gzip
import json
import os
import pickle
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minddata as ds
from minddata.sources.schema import Schema
from minddata.sources.tfrecord_dataset import TFRecordDataset, TFRecordSource
from mindrecord.tools.tfrecord import encode_example, frame_record, write_tfrecord

from .engine_helpers import check_resume


def _example(i):
    return {"label": [i], "image": [bytes([i % 256]) * (1 + i % 3)],
            "score": np.array([i / 2, -1.0], np.float32), "name": [f"row{i}".encode()]}


def _write(path, first, count, make=_example):
    write_tfrecord(str(path), [make(i) for i in range(first, first + count)])
    return str(path)


def _rows(data, **kw):
    return list(data.create_tuple_iterator(num_epochs=1, output_numpy=True, **kw))


def _labels(data):
    names = data.get_col_names()
    return [int(r[names.index("label")].reshape(-1)[0]) for r in _rows(data)]


@pytest.fixture
def three_files(tmp_path):
    """c.tfrecord (rows 0-3), a.tfrecord (4-5), b.tfrecord (6-8): sorted order a, b, c."""
    return [_write(tmp_path / "a.tfrecord", 4, 2), _write(tmp_path / "b.tfrecord", 6, 3),
            _write(tmp_path / "c.tfrecord", 0, 4)]


# ---- columns and values --------------------------------------------------------------------

def test_public_name():
    assert ds.TFRecordDataset is TFRecordDataset


def test_without_schema_columns_are_sorted_features(tmp_path):
    data = TFRecordDataset(_write(tmp_path / "a.tfrecord", 0, 3), shuffle=False)
    assert data.get_col_names() == ["image", "label", "name", "score"]
    image, label, name, score = _rows(data)[2]
    assert image.dtype == np.uint8 and image.tolist() == [2, 2, 2]
    assert label.dtype == np.int64 and label.shape == (1,) and label.tolist() == [2]
    assert name.dtype == np.uint8 and name.tobytes() == b"row2"
    assert score.dtype == np.float32 and score.tolist() == [1.0, -1.0]


def test_columns_list_selects_and_orders(tmp_path):
    data = TFRecordDataset(_write(tmp_path / "a.tfrecord", 0, 2), columns_list=["score", "label"],
                           shuffle=False)
    assert data.get_col_names() == ["score", "label"]
    assert [len(r) for r in _rows(data)] == [2, 2]


def test_columns_list_name_missing_in_first_record(tmp_path):
    data = TFRecordDataset(_write(tmp_path / "a.tfrecord", 0, 2), columns_list=["nope"])
    with pytest.raises(RuntimeError, match="a.tfrecord.*failed to find column name: nope"):
        data.get_dataset_size()


def test_schema_types_and_shapes(tmp_path):
    write_tfrecord(str(tmp_path / "a.tfrecord"), [
        {"label": [7], "grid": list(range(6)), "text": [b"hello", "wörld".encode()],
         "raw": [b"\x01\xff"], "vec": np.arange(6, dtype=np.float32)}])
    s = Schema()
    s.add_column("label", "int32", [])
    s.add_column("grid", "int16", [-1, 3])
    s.add_column("text", "string")
    s.add_column("raw", "uint8")
    s.add_column("vec", "float32", [2, 3])
    row = _rows(TFRecordDataset(str(tmp_path / "a.tfrecord"), schema=s))[0]
    label, grid, text, raw, vec = row
    assert label.dtype == np.int32 and label.shape == () and label == 7
    assert grid.dtype == np.int16 and grid.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert text.dtype.kind == "U" and text.tolist() == ["hello", "wörld"]
    assert raw.dtype == np.uint8 and raw.tolist() == [1, 255]
    assert vec.shape == (2, 3) and vec[1, 2] == 5


def test_bytes_values_laid_end_to_end_then_shaped(tmp_path):
    # MindSpore 2.10 measured: the bytes values are laid end to end and the column's shape
    # applies to the bytes: b"ab", b"cd" as [-1, 2] -> [[97, 98], [99, 100]]; b"ab", b"c", b""
    # as [-1, 4] raises ("Requested shape has an invalid element count"), where each value
    # used to be padded here to 4 bytes.
    write_tfrecord(str(tmp_path / "a.tfrecord"), [{"b": [b"ab", b"cd"]}])
    write_tfrecord(str(tmp_path / "b.tfrecord"), [{"b": [b"ab", b"c", b""]}])
    s = Schema()
    s.add_column("b", "uint8", [-1, 2])
    (b,) = _rows(TFRecordDataset(str(tmp_path / "a.tfrecord"), schema=s))[0]
    assert b.tolist() == [[97, 98], [99, 100]]
    s = Schema()
    s.add_column("b", "uint8", [-1, 4])
    with pytest.raises(RuntimeError, match="do not fill its shape"):
        _rows(TFRecordDataset(str(tmp_path / "b.tfrecord"), schema=s))


def test_int_values_are_cast_like_cpp(tmp_path):
    write_tfrecord(str(tmp_path / "a.tfrecord"), [{"v": [300, -1]}])
    s = Schema()
    s.add_column("v", "uint8")
    (v,) = _rows(TFRecordDataset(str(tmp_path / "a.tfrecord"), schema=s))[0]
    assert v.dtype == np.uint8 and v.tolist() == [44, 255]


def test_arrays_are_writable_and_private(tmp_path):
    data = TFRecordDataset(_write(tmp_path / "a.tfrecord", 0, 2), shuffle=False)
    first = _rows(data)[0]
    for value in first:
        value[...] = 0            # a map that writes in place must be able to
    assert _rows(data)[0][1].tolist() == [0] and _labels(data) == [0, 1]


def test_schema_file_path_and_columns_list(tmp_path):
    path = tmp_path / "schema.json"
    path.write_text('{"datasetType": "TF", "columns": {"label": {"type": "int64", "rank": 1}, '
                    '"score": {"type": "float32", "rank": 1, "shape": [2]}}}')
    data = TFRecordDataset(_write(tmp_path / "a.tfrecord", 0, 3), schema=str(path),
                           columns_list=["score"], shuffle=False)
    assert data.get_col_names() == ["score"]
    assert [r[0].tolist() for r in _rows(data)] == [[0.0, -1.0], [0.5, -1.0], [1.0, -1.0]]


def test_schema_num_rows_caps_rows_and_num_samples_overrides(tmp_path):
    f = _write(tmp_path / "a.tfrecord", 0, 6)
    s = Schema()
    s.from_json({"numRows": 2, "columns": [{"name": "label", "type": "int64", "shape": [1]}]})
    assert TFRecordDataset(f, schema=s, shuffle=False).get_dataset_size() == 2
    assert _labels(TFRecordDataset(f, schema=s, shuffle=False, num_samples=4)) == [0, 1, 2, 3]


def test_later_edits_of_the_schema_do_not_change_the_dataset(tmp_path):
    s = Schema()
    s.add_column("label", "int64")
    data = TFRecordDataset(_write(tmp_path / "a.tfrecord", 0, 2), schema=s)
    s.add_column("score", "float32")
    assert data.get_col_names() == ["label"]


def test_columns_list_not_in_schema(tmp_path):
    s = Schema()
    s.add_column("label", "int64")
    with pytest.raises(RuntimeError, match=r"\['image'\] not in the schema"):
        TFRecordDataset(_write(tmp_path / "a.tfrecord", 0, 1), schema=s, columns_list=["image"])


@pytest.mark.parametrize("column, kind, message", [
    ("score", "int64", "should be float32, but got int64"),
    ("label", "float32", "should be uint64, int64, .* or int8, but got float32"),
    ("image", "int32", "should be uint8 or string, but got int32"),
    ("missing", "int64", "column name: missing does not exist"),
])
def test_feature_and_column_type_mismatch(tmp_path, column, kind, message):
    s = Schema()
    s.add_column(column, kind)
    data = TFRecordDataset(_write(tmp_path / "a.tfrecord", 0, 2), schema=s, shuffle=False)
    with pytest.raises(RuntimeError, match=f"a.tfrecord record 0.*{message}"):
        _rows(data)


def test_known_shape_must_match_element_count(tmp_path):
    s = Schema()
    s.add_column("score", "float32", [3])
    data = TFRecordDataset(_write(tmp_path / "a.tfrecord", 0, 1), schema=s)
    with pytest.raises(RuntimeError, match=r"'score' has 2 elements but its schema shape \[3\]"):
        _rows(data)


def test_string_column_with_non_utf8_bytes(tmp_path):
    write_tfrecord(str(tmp_path / "a.tfrecord"), [{"t": [b"\xff\xfe"]}])
    s = Schema()
    s.add_column("t", "string")
    with pytest.raises(RuntimeError, match="not UTF-8"):
        _rows(TFRecordDataset(str(tmp_path / "a.tfrecord"), schema=s))


def _kindless_feature_file(path):
    # Example{features{feature{key: "k", value: Feature{}}}}: a feature whose kind is not set.
    entry = b"\x0a\x01k\x12\x00"
    features = b"\x0a" + bytes([len(entry)]) + entry
    path.write_bytes(frame_record(b"\x0a" + bytes([len(features)]) + features))
    return str(path)


def test_feature_without_value_list(tmp_path):
    data = TFRecordDataset(_kindless_feature_file(tmp_path / "a.tfrecord"))
    with pytest.raises(RuntimeError, match="Unrecognized column type, the column type of k"):
        data.get_col_names()


def test_feature_without_value_list_with_schema(tmp_path):
    s = Schema()
    s.add_column("k", "int64")
    data = TFRecordDataset(_kindless_feature_file(tmp_path / "a.tfrecord"), schema=s)
    with pytest.raises(RuntimeError, match="a.tfrecord record 0: Unrecognized datatype"):
        _rows(data)


# ---- files, order, shuffle -----------------------------------------------------------------

def test_files_sorted_and_glob(tmp_path, three_files):
    data = TFRecordDataset(str(tmp_path / "*.tfrecord"), shuffle=False)
    assert _labels(data) == [4, 5, 6, 7, 8, 0, 1, 2, 3]
    assert _labels(TFRecordDataset(list(reversed(three_files)), shuffle=False)) == _labels(data)


def test_global_shuffle_is_seeded_permutation(three_files):
    ds.config.set_seed(5)
    first = _labels(TFRecordDataset(three_files))
    second = _labels(TFRecordDataset(three_files, shuffle=True))
    assert sorted(first) == list(range(9)) and first == second
    assert first != [4, 5, 6, 7, 8, 0, 1, 2, 3]


def test_shuffle_files_keeps_rows_of_a_file_together(three_files):
    blocks = {(4, 5), (6, 7, 8), (0, 1, 2, 3)}
    seen = set()
    for seed in range(6):
        ds.config.set_seed(seed)
        labels = _labels(TFRecordDataset(three_files, shuffle=ds.Shuffle.FILES))
        parts, i = [], 0
        while i < len(labels):
            block = next(b for b in blocks if b[0] == labels[i])
            assert tuple(labels[i:i + len(block)]) == block
            parts.append(block)
            i += len(block)
        seen.add(tuple(parts))
    assert len(seen) > 1


def test_shuffle_infile_keeps_file_order(three_files):
    ds.config.set_seed(3)
    labels = _labels(TFRecordDataset(three_files, shuffle=ds.Shuffle.INFILE))
    assert sorted(labels[:2]) == [4, 5] and sorted(labels[2:5]) == [6, 7, 8]
    assert sorted(labels[5:]) == [0, 1, 2, 3]


def test_two_workers_same_rows(three_files):
    ds.config.set_seed(1)
    one = [tuple(v.tobytes() for v in r) for r in _rows(TFRecordDataset(three_files,
                                                                        num_parallel_workers=1))]
    two = [tuple(v.tobytes() for v in r) for r in _rows(TFRecordDataset(three_files,
                                                                        num_parallel_workers=2))]
    assert one == two


def test_pickled_dataset_and_two_pipelines(three_files):
    data = pickle.loads(pickle.dumps(TFRecordDataset(three_files, shuffle=False)))
    it1 = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    it2 = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    assert [int(a[1][0]) for a, _ in zip(it1, it2)] == [4, 5, 6, 7, 8, 0, 1, 2, 3]


def test_empty_file_is_no_rows(tmp_path):
    a = _write(tmp_path / "a.tfrecord", 0, 2)
    (tmp_path / "b.tfrecord").write_bytes(b"")
    data = TFRecordDataset([a, str(tmp_path / "b.tfrecord")], shuffle=False)
    assert data.get_dataset_size() == 2 and _labels(data) == [0, 1]


def test_no_records_and_no_schema(tmp_path):
    (tmp_path / "a.tfrecord").write_bytes(b"")
    with pytest.raises(RuntimeError, match="no records.*pass a schema"):
        TFRecordDataset(str(tmp_path / "a.tfrecord")).get_col_names()


def test_row_provenance_names_file_and_record(three_files):
    with TFRecordSource(sorted(three_files), None, "") as src:
        assert src.provenance(3).endswith("b.tfrecord record 1")
        assert src.file_row_ranges() == [(0, 2), (2, 5), (5, 9)]


# ---- sharding ------------------------------------------------------------------------------

def test_shards_by_file_by_default(three_files):
    # Sorted files a (2 rows), b (3), c (4); shard k reads files k, k+2, ...
    shard0 = TFRecordDataset(three_files, shuffle=False, num_shards=2, shard_id=0)
    shard1 = TFRecordDataset(three_files, shuffle=False, num_shards=2, shard_id=1)
    assert shard0.get_dataset_size() == 6 and _labels(shard0) == [4, 5, 0, 1, 2, 3]
    assert shard1.get_dataset_size() == 3 and _labels(shard1) == [6, 7, 8]


def test_shard_by_file_num_samples_is_per_shard(three_files):
    data = TFRecordDataset(three_files, shuffle=False, num_shards=2, shard_id=0, num_samples=4)
    assert data.get_dataset_size() == 4 and _labels(data) == [4, 5, 0, 1]


def test_fewer_files_than_shards(three_files):
    with pytest.raises(RuntimeError, match="numbers of tfrecord file: 3, num_shards: 4"):
        TFRecordDataset(three_files, num_shards=4, shard_id=0)


def test_shard_equal_rows_splits_rows(three_files):
    shards = [TFRecordDataset(three_files, shuffle=False, num_shards=4, shard_id=k,
                              shard_equal_rows=True) for k in range(4)]
    assert [s.get_dataset_size() for s in shards] == [3, 3, 3, 3]
    got = [_labels(s) for s in shards]
    assert sorted(set(sum(got, []))) == list(range(9))


def test_shard_equal_rows_with_shuffle_covers_every_row(three_files):
    ds.config.set_seed(11)
    got = sum((_labels(TFRecordDataset(three_files, num_shards=3, shard_id=k,
                                       shard_equal_rows=True)) for k in range(3)), [])
    assert sorted(got) == list(range(9))


def test_cache_makes_sharding_row_based(three_files, tmp_path, monkeypatch):
    # MindSpore shards by row when a cache is used, so 1 file and 2 shards is fine then.
    monkeypatch.setenv("MINDDATA_CACHE_DIR", str(tmp_path / "root"))
    monkeypatch.setenv("MINDDATA_CACHE_SPILL_DIR", str(tmp_path / "spill"))
    from minddata.cache import generate_session
    cache = ds.DatasetCache(generate_session())
    data = TFRecordDataset(three_files[0], shuffle=False, num_shards=2, shard_id=1, cache=cache)
    assert data.get_dataset_size() == 1 and _labels(data) == [5]


@pytest.mark.parametrize("kwargs", [{"shuffle": True}, {"shuffle": ds.Shuffle.FILES},
                                    {"shuffle": False, "num_shards": 2, "shard_id": 1}])
def test_resume(three_files, kwargs):
    check_resume(TFRecordDataset(three_files, **kwargs), num_epochs=2, stops=(0, 2, 5, 9))


# ---- compression ---------------------------------------------------------------------------

@pytest.mark.parametrize("kind, compress", [("GZIP", gzip.compress), ("ZLIB", zlib.compress)])
def test_compressed_files_read_like_plain(tmp_path, kind, compress):
    plain = _write(tmp_path / "p.tfrecord", 0, 5)
    packed = tmp_path / "c.tfrecord"
    packed.write_bytes(compress(open(plain, "rb").read()))
    data = TFRecordDataset(str(packed), compression_type=kind, shuffle=False)
    assert _labels(data) == [0, 1, 2, 3, 4]
    assert data.get_col_names() == TFRecordDataset(plain).get_col_names()


def test_empty_compression_type_means_plain(tmp_path):
    data = TFRecordDataset(_write(tmp_path / "a.tfrecord", 0, 2), compression_type="", shuffle=False)
    assert _labels(data) == [0, 1]


def test_plain_file_read_as_gzip(tmp_path):
    with pytest.raises(RuntimeError, match="not valid GZIP-compressed TFRecord files"):
        TFRecordDataset(_write(tmp_path / "a.tfrecord", 0, 2), compression_type="GZIP")


def test_truncated_gzip(tmp_path):
    data = gzip.compress(open(_write(tmp_path / "p.tfrecord", 0, 50), "rb").read())
    (tmp_path / "c.gz").write_bytes(data[:len(data) // 2])
    dataset = TFRecordDataset(str(tmp_path / "c.gz"), compression_type="GZIP")
    with pytest.raises(RuntimeError, match="c.gz: cannot decompress it as GZIP"):
        _rows(dataset)


def test_truncated_zlib(tmp_path):
    data = zlib.compress(open(_write(tmp_path / "p.tfrecord", 0, 50), "rb").read())
    (tmp_path / "c.z").write_bytes(data[:len(data) // 2])
    with pytest.raises(RuntimeError, match="c.z: cannot decompress it as ZLIB"):
        _rows(TFRecordDataset(str(tmp_path / "c.z"), compression_type="ZLIB"))


def test_compressed_with_num_samples_needs_a_file_per_shard(three_files):
    with pytest.raises(ValueError, match="number of dataset files cannot be less than num_shards"):
        TFRecordDataset(three_files, compression_type="GZIP", num_samples=2, num_shards=4,
                        shard_id=0, shard_equal_rows=True)


# ---- bad files -----------------------------------------------------------------------------

def test_not_a_tfrecord_file(tmp_path):
    (tmp_path / "x.tfrecord").write_bytes(b"this is not a tfrecord file at all")
    with pytest.raises(RuntimeError, match=r"(?s)not valid TFRecordDataset files:.*x.tfrecord"):
        TFRecordDataset(str(tmp_path / "x.tfrecord"))


def test_corrupt_record_data(tmp_path):
    f = _write(tmp_path / "a.tfrecord", 0, 3)
    raw = bytearray(open(f, "rb").read())
    raw[-6] ^= 0xFF          # inside the last record's data
    open(f, "wb").write(bytes(raw))
    data = TFRecordDataset(f, shuffle=False)
    with pytest.raises(RuntimeError, match="a.tfrecord record 2.*checksum"):
        _rows(data)


def test_truncated_file(tmp_path):
    f = _write(tmp_path / "a.tfrecord", 0, 3)
    with open(f, "r+b") as fh:
        fh.truncate(os.path.getsize(f) - 3)
    with pytest.raises(RuntimeError, match="a.tfrecord record 2.*truncated record"):
        TFRecordDataset(f).get_dataset_size()


def test_record_that_is_not_an_example(tmp_path):
    (tmp_path / "a.tfrecord").write_bytes(frame_record(encode_example({"a": [1]})) +
                                          frame_record(b"\x0a\x05ab"))
    data = TFRecordDataset(str(tmp_path / "a.tfrecord"), shuffle=False)
    with pytest.raises(RuntimeError, match="a.tfrecord record 1: not a tf.train.Example"):
        _rows(data)


def _open_fds():
    return len(os.listdir("/proc/self/fd"))


def test_no_file_handles_left(tmp_path, three_files):
    packed = tmp_path / "c.gz"
    packed.write_bytes(gzip.compress(open(three_files[0], "rb").read()))
    before = _open_fds()
    for _ in range(3):
        _rows(TFRecordDataset(three_files, num_parallel_workers=2))
        _rows(TFRecordDataset(str(packed), compression_type="GZIP"))
        with TFRecordDataset(three_files).create_tuple_iterator(num_epochs=1) as it:
            next(it)      # stopped early: closing releases the open files
    assert _open_fds() <= before


def test_no_file_handles_left_after_error(tmp_path):
    good = _write(tmp_path / "a.tfrecord", 0, 2)
    bad = _write(tmp_path / "b.tfrecord", 0, 3)
    with open(bad, "r+b") as fh:
        fh.truncate(os.path.getsize(bad) - 3)
    before = _open_fds()
    for _ in range(3):
        with pytest.raises(RuntimeError):
            TFRecordSource([good, bad], None, "")
    assert _open_fds() == before


# ---- arguments -----------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, error, message", [
    ({"dataset_files": 3}, TypeError, "dataset_files should be type str or a list"),
    ({"dataset_files": []}, ValueError, "dataset_files can not be empty"),
    ({"columns_list": "label"}, TypeError, "columns_list"),
    ({"columns_list": ["a", "a"]}, ValueError, "duplicate"),
    ({"shard_equal_rows": 1}, TypeError, "shard_equal_rows"),
    ({"compression_type": "BZIP2"}, ValueError, "compression_type can only be"),
    ({"schema": 5}, TypeError, "schema"),
    ({"num_shards": 2}, RuntimeError, "requires shard_id"),
    ({"num_shards": 2, "shard_id": 2}, ValueError, "shard_id"),
    ({"num_samples": -1}, ValueError, "num_samples"),
    ({"shuffle": "yes"}, TypeError, "shuffle"),
])
def test_argument_errors(tmp_path, kwargs, error, message):
    args = {"dataset_files": _write(tmp_path / "a.tfrecord", 0, 1)}
    args.update(kwargs)
    with pytest.raises(error, match=message):
        TFRecordDataset(**args)


def test_missing_file_or_pattern(tmp_path):
    with pytest.raises(ValueError, match="did not match any files"):
        TFRecordDataset(str(tmp_path / "missing.tfrecord"))


def test_missing_schema_file(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        TFRecordDataset(_write(tmp_path / "a.tfrecord", 0, 1), schema=str(tmp_path / "s.json"))


# ---- any Example round-trips ---------------------------------------------------------------

_FEATURES = {
    "int": st.lists(st.integers(-2 ** 63, 2 ** 63 - 1), min_size=1, max_size=4),
    "float": st.lists(st.floats(-1e6, 1e6, width=32), min_size=1, max_size=4).map(
        lambda v: np.array(v, np.float32)),
    "bytes": st.lists(st.binary(max_size=6), min_size=1, max_size=1),
}


@settings(deadline=None, max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_examples_round_trip(tmp_path, data):
    kinds = data.draw(st.fixed_dictionaries({k: st.sampled_from(sorted(_FEATURES)) for k in "abc"}))
    rows = data.draw(st.lists(st.fixed_dictionaries({k: _FEATURES[v] for k, v in kinds.items()}),
                              min_size=1, max_size=4))
    path = tmp_path / "r.tfrecord"
    write_tfrecord(str(path), rows)
    got = _rows(TFRecordDataset(str(path), shuffle=False))
    assert len(got) == len(rows)
    for row, want in zip(got, rows):
        for name, value in zip("abc", row):
            if kinds[name] == "bytes":
                assert value.dtype == np.uint8 and value.tobytes() == want[name][0]
            else:
                assert value.tolist() == np.asarray(want[name]).tolist()


# ---- against MindSpore, where it is installed ----------------------------------------------

@pytest.mark.parametrize("kwargs", [{}, {"columns_list": ["score", "label"]},
                                    {"num_shards": 2, "shard_id": 1}])
def test_same_rows_as_mindspore(three_files, kwargs):
    ms_ds = pytest.importorskip("mindspore.dataset")
    ours = TFRecordDataset(three_files, shuffle=False, **kwargs)
    # MindSpore's parallel file readers interleave rows of different files (with the default 8
    # workers, [4, 6, 5, 7, 0, 8, ...] here); read one file after the other, it gives the file
    # order that minddata gives whatever its worker count.
    theirs = ms_ds.TFRecordDataset(three_files, shuffle=False, num_parallel_workers=1, **kwargs)
    assert ours.get_col_names() == theirs.get_col_names()
    assert ours.get_dataset_size() == theirs.get_dataset_size()
    assert [[a.tolist() for a in r] for r in _rows(ours)] == \
        [[a.tolist() for a in r] for r in _rows(theirs)]


def test_same_schema_json_as_mindspore():
    ms_ds = pytest.importorskip("mindspore.dataset")
    ours, theirs = Schema(), ms_ds.Schema()
    for s in (ours, theirs):
        s.add_column("image", "uint8")
        s.add_column("label", "int32", [2, -1])
    assert json.loads(ours.to_json()) == json.loads(theirs.to_json())
