"""RandomDataset: rows of one repeated random byte per column, in a Schema's columns or in a
drawn schema; its row counts, ignored sampling arguments and errors as in MindSpore 2.10."""
import json

import numpy as np
import pytest

import minddata as ds
from minddata.sources.random_dataset import DRAWN_TYPES

from .engine_helpers import check_resume


def _rows(data, **kw):
    return list(data.create_tuple_iterator(num_epochs=1, output_numpy=True, **kw))


def _schema(*columns):
    schema = ds.Schema()
    for name, de_type, shape in columns:
        schema.add_column(name, de_type=de_type, shape=shape)
    return schema


def _image_label():
    return _schema(("image", "uint8", [2]), ("label", "int32", [1]))


@pytest.fixture
def schema_file(tmp_path):
    path = tmp_path / "schema.json"
    path.write_text(json.dumps({"datasetType": "TF", "numRows": 7, "columns": {
        "image": {"type": "uint8", "rank": 3, "shape": [4, -1, 3]},
        "label": {"type": "int64", "rank": 1, "shape": [1]},
        "r2": {"type": "float32", "rank": 2}}}))
    return str(path)


def test_schema_columns_types_and_shapes():
    # measured in MindSpore 2.10: the schema's columns, types and shapes, total_rows rows
    schema = _schema(("x", "float32", [2]), ("y", "int16", [3, 1]), ("b", "bool", [3]))
    data = ds.RandomDataset(schema=schema, total_rows=5)
    assert data.get_col_names() == ["x", "y", "b"]
    assert data.get_dataset_size() == 5
    assert data.output_shapes() == [[2], [3, 1], [3]]
    assert data.output_types() == [np.float32, np.int16, np.bool_]
    rows = _rows(data)
    assert len(rows) == 5
    for x, y, b in rows:
        assert (x.dtype, x.shape, y.dtype, y.shape, b.dtype, b.shape) == (
            np.float32, (2,), np.int16, (3, 1), np.bool_, (3,))


def test_each_value_is_one_byte_repeated():
    # measured in MindSpore 2.10: an int32 of -707406379 (0xD5D5D5D5), a uint64 of
    # 0x6B6B6B6B6B6B6B6B: every byte of a row's array is the same drawn byte
    schema = _schema(("i", "int32", [4]), ("u", "uint64", [2]), ("f", "float16", [3]))
    bytes_seen = set()
    for i, u, f in _rows(ds.RandomDataset(schema=schema, total_rows=30)):
        for array in (i, u, f):
            raw = array.view(np.uint8)
            assert (raw == raw[0]).all()
            bytes_seen.add(int(raw[0]))
    assert len(bytes_seen) > 10                 # drawn, not a constant


def test_a_bool_column_holds_only_true_or_false():
    # measured in MindSpore 2.10: a bool column reads True (its byte is not 0)
    for (b,) in _rows(ds.RandomDataset(schema=_schema(("b", "bool", [4])), total_rows=20)):
        assert b.view(np.uint8).max() <= 1
        assert len(set(b.tolist())) == 1


def test_unknown_dimensions_are_drawn_per_row():
    # measured in MindSpore 2.10: shape [-1, 2] gave (18, 2), (27, 2), (17, 2), (14, 2)
    data = ds.RandomDataset(schema=_schema(("a", "int32", [-1, 2])), total_rows=40)
    firsts = [a.shape[0] for (a,) in _rows(data)]
    assert all(1 <= n <= 32 for n in firsts) and len(set(firsts)) > 1
    assert all(a.shape[1] == 2 for (a,) in _rows(data))
    assert data.output_shapes()[0] == [firsts[0], 2]     # the first row's shape


def test_a_column_without_shape_is_a_scalar():
    # measured in MindSpore 2.10: add_column without shape gave shape () and output_shapes [[]]
    data = ds.RandomDataset(schema=_schema(("a", "uint8", None)), total_rows=3)
    assert data.output_shapes() == [[]]
    assert all(a.shape == () and a.dtype == np.uint8 for (a,) in _rows(data))


def test_drawn_schema():
    # measured in MindSpore 2.10 over 300 seeds: 1 to 4 columns c0.., the twelve numeric
    # types bool..float64, ranks 1 to 4, dimensions 1 to 32 (some drawn per row)
    counts, types, ranks = set(), set(), set()
    for seed in range(40):
        ds.config.set_seed(seed)
        data = ds.RandomDataset(total_rows=3)
        names = data.get_col_names()
        counts.add(len(names))
        assert names == [f"c{i}" for i in range(len(names))]
        for row in _rows(data):
            assert len(row) == len(names)
            for array in row:
                types.add(array.dtype.name)
                ranks.add(array.ndim)
                assert all(1 <= d <= 32 for d in array.shape)
    assert counts == {1, 2, 3, 4}
    assert ranks == {1, 2, 3, 4}
    assert types <= set(DRAWN_TYPES) and len(types) >= 10


def test_default_row_count_is_drawn_up_to_1024():
    # measured in MindSpore 2.10: RandomDataset() gave 18, 428, 447, 565 rows by seed
    sizes = set()
    for seed in range(6):
        ds.config.set_seed(seed)
        data = ds.RandomDataset(schema=_schema(("a", "uint8", [1])))
        sizes.add(data.get_dataset_size())
        assert 1 <= data.get_dataset_size() <= 1024
    assert len(sizes) > 1
    assert len(_rows(data)) == data.get_dataset_size()


def test_same_seed_same_rows_every_epoch():
    # measured in MindSpore 2.10: with set_seed, two datasets gave the same rows, and two
    # epochs (or a repeat) the same values
    ds.config.set_seed(5)
    first = [[a.tolist() for a in r] for r in _rows(ds.RandomDataset(total_rows=4))]
    ds.config.set_seed(5)
    data = ds.RandomDataset(total_rows=4)
    it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    for _ in range(2):
        assert [[a.tolist() for a in r] for r in it] == first
    ds.config.set_seed(6)
    assert [[a.tolist() for a in r] for r in _rows(ds.RandomDataset(total_rows=4))] != first


@pytest.mark.parametrize("kwargs, expected", [
    # measured in MindSpore 2.10 without a schema: num_samples decides, else total_rows
    (dict(total_rows=5), 5), (dict(total_rows=5, num_samples=10), 10),
    (dict(total_rows=10, num_samples=5), 5), (dict(num_samples=7), 7),
    (dict(total_rows=0, num_samples=3), 3), (dict(total_rows=2 ** 40, num_samples=2), 2),
    # with a schema: total_rows decides and num_samples is ignored
    (dict(total_rows=5, num_samples=10, schema=True), 5),
    (dict(total_rows=10, num_samples=5, schema=True), 10),
])
def test_row_counts(kwargs, expected):
    if kwargs.pop("schema", False):
        kwargs["schema"] = _image_label()
    data = ds.RandomDataset(**kwargs)
    assert data.get_dataset_size() == expected
    assert len(_rows(data)) == expected


def test_schema_file_num_rows_columns_list(schema_file):
    # measured in MindSpore 2.10: numRows 7 gives 7 rows (num_samples ignored), total_rows
    # overrides it, total_rows=0 draws; columns_list picks and orders the columns; a rank
    # without a shape is a scalar
    data = ds.RandomDataset(schema=schema_file, num_samples=2)
    assert data.get_dataset_size() == 7 and len(_rows(data)) == 7
    assert data.get_col_names() == ["image", "label", "r2"]
    assert data.output_types() == [np.uint8, np.int64, np.float32]
    image, label, r2 = _rows(data)[0]
    assert image.shape[0::2] == (4, 3) and 1 <= image.shape[1] <= 32
    assert label.shape == (1,) and r2.shape == ()
    assert ds.RandomDataset(schema=schema_file, total_rows=2).get_dataset_size() == 2
    assert ds.RandomDataset(schema=schema_file, total_rows=0).get_dataset_size() != 7
    picked = ds.RandomDataset(schema=schema_file, columns_list=["label", "image"])
    assert picked.get_col_names() == ["label", "image"]
    assert [a.dtype for a in _rows(picked)[0]] == [np.int64, np.uint8]


def test_columns_list_is_ignored_without_schema():
    # measured in MindSpore 2.10: columns_list=["a", "b"] still gave c0, c1, c2
    data = ds.RandomDataset(total_rows=2, columns_list=["a", "b"])
    assert data.get_col_names()[0] == "c0"


def test_shuffle_and_shards_are_ignored():
    # measured in MindSpore 2.10: shuffle=True, shuffle=False and shard 1 of 3 gave the same
    # 3 values in the same order
    schema = _schema(("x", "float32", [2]))
    ds.config.set_seed(3)
    plain = [r[0].tolist() for r in _rows(ds.RandomDataset(schema=schema, total_rows=3))]
    for kwargs in (dict(shuffle=True), dict(shuffle=False), dict(num_shards=3, shard_id=1)):
        data = ds.RandomDataset(schema=schema, total_rows=3, **kwargs)
        assert data.get_dataset_size() == 3
        assert [r[0].tolist() for r in _rows(data)] == plain
    assert not ds.RandomDataset(schema=schema, total_rows=3, num_shards=3, shard_id=1).is_sharded()


def test_repeat_batch_map_split():
    # measured in MindSpore 2.10: 5 rows batch(2) -> shapes (2, 2), (2, 2), (1, 2), size 3;
    # repeat(4) of 50 rows -> 200; split([0.5, 0.5], randomize=False) of 6 -> 3 and 3
    schema = _schema(("x", "float32", [2]))
    batched = ds.RandomDataset(schema=schema, total_rows=5).batch(2)
    assert batched.get_dataset_size() == 3
    assert [r[0].shape for r in _rows(batched)] == [(2, 2), (2, 2), (1, 2)]
    assert len(_rows(ds.RandomDataset(schema=_image_label(), total_rows=50).repeat(4))) == 200
    # (an int column: a float column's byte may make a NaN, which x * 0 keeps)
    mapped = ds.RandomDataset(schema=_image_label(), total_rows=5).map(lambda x: x * 0 + 1,
                                                                      input_columns=["label"])
    assert all(r[1].tolist() == [1] for r in _rows(mapped))
    parts = ds.RandomDataset(schema=schema, total_rows=6).split([0.5, 0.5], randomize=False)
    assert [len(_rows(p)) for p in parts] == [3, 3]


def test_sampler_and_exact_resume():
    data = ds.RandomDataset(schema=_image_label(), total_rows=9)
    check_resume(data, num_epochs=2, stops=(0, 1, 5, 9, 12))
    data.use_sampler(ds.SequentialSampler(start_index=2, num_samples=3))
    assert data.get_dataset_size() == 3 and len(_rows(data)) == 3


def test_serialize_rebuilds_the_rows(schema_file):
    ds.config.set_seed(4)
    for data in (ds.RandomDataset(num_samples=3), ds.RandomDataset(schema=schema_file,
                                                                   total_rows=4)):
        rebuilt = ds.deserialize(input_dict=ds.serialize(data))
        assert rebuilt.get_col_names() == data.get_col_names()
        want = [[a.tolist() for a in r] for r in _rows(data)]
        assert [[a.tolist() for a in r] for r in _rows(rebuilt)] == want


@pytest.mark.parametrize("kwargs, error, words", [
    # measured in MindSpore 2.10 (the words of its messages)
    (dict(total_rows=1.5), TypeError, "Argument total_rows with value 1.5 is not of type"),
    (dict(total_rows=True), TypeError, "Argument total_rows with value True"),
    (dict(total_rows=-1), RuntimeError,
     "'total_rows' must be greater than or equal to 0, got: -1"),
    (dict(columns_list=("a",)), TypeError, "Argument columns_list with value"),
    (dict(schema=3), TypeError, "path: 3 is not string"),
    (dict(schema="/nonexist.json"), ValueError, "does not exist or permission denied"),
    (dict(num_shards=2), RuntimeError, "num_shards is specified and currently requires shard_id"),
    (dict(shard_id=1), RuntimeError, "shard_id is specified but num_shards is not"),
    (dict(shuffle=1), TypeError, "Argument shuffle with value 1 is not of type"),
    (dict(shuffle=ds.Shuffle.GLOBAL), TypeError, "Argument shuffle with value"),
    (dict(num_samples=-1), ValueError, "num_samples exceeds the boundary between 0 and"),
    (dict(schema="SCHEMA", columns_list=["nope"]), RuntimeError,
     "failed to find column: nope in JSON schema"),
    (dict(columns_list=["a", "a"]), RuntimeError,
     "duplicate column names are not allowed: a"),
    (dict(columns_list=[""]), RuntimeError, "'columns_list' [0] must not be empty"),
])
def test_errors(kwargs, error, words):
    if kwargs.get("schema") == "SCHEMA":
        kwargs["schema"] = _image_label()
    with pytest.raises(error) as info:
        ds.RandomDataset(total_rows=kwargs.pop("total_rows", 3), **kwargs)
    assert words in str(info.value)


def test_schema_errors():
    # measured in MindSpore 2.10: an empty Schema and a string column are refused
    with pytest.raises(RuntimeError, match='"columns" field is missing'):
        ds.RandomDataset(schema=ds.Schema(), total_rows=2)
    with pytest.raises(RuntimeError, match="number of elements should be 0 when data type is"):
        ds.RandomDataset(schema=_schema(("s", "string", [2])), total_rows=2)
