"""GeneratorDataset: generator functions, iterables, random-access sources, dtypes, workers,
errors with provenance."""
import numpy as np
import pytest

import minddata as ds
from .engine_helpers import rows, values


class Access:
    def __init__(self, n=6):
        self.n = n

    def __getitem__(self, i):
        return np.array([i, i], dtype=np.int16), np.float32(i / 2)

    def __len__(self):
        return self.n


def test_generator_function_runs_each_epoch():
    d = ds.GeneratorDataset(lambda: ((np.array(i),) for i in range(3)), ["a"])
    it = d.create_tuple_iterator(num_epochs=2)
    assert [[int(r[0]) for r in it] for _ in range(2)] == [[0, 1, 2], [0, 1, 2]]


def test_iterable_and_list_sources():
    assert values(ds.GeneratorDataset([1, 2, 3], ["a"], shuffle=False)) == [1, 2, 3]

    class It:
        def __iter__(self):
            return iter([(4,), (5,)])

    assert values(ds.GeneratorDataset(It(), ["a"])) == [4, 5]


def test_random_access_shuffles_by_default_and_shards():
    ds.config.set_seed(0)
    out = values(ds.GeneratorDataset(Access(20), ["a", "b"]))
    assert sorted(map(tuple, out)) == [(i, i) for i in range(20)]
    got = [values(ds.GeneratorDataset(Access(10), ["a", "b"], shuffle=False, num_shards=3,
                                      shard_id=k), 1) for k in range(3)]
    assert got[1] == [0.5, 2.0, 3.5, 0.0]


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "uint16", "int32",
                                   "uint32", "int64", "uint64", "float16", "float32",
                                   "float64", "complex64", "<U3", "S3"])
def test_every_numpy_dtype_survives(dtype):
    arr = np.zeros((2, 3), dtype=dtype)
    for mp in (False, True):
        d = ds.GeneratorDataset([(arr,)] * 4, ["a"], shuffle=False, num_parallel_workers=2,
                                python_multiprocessing=mp)
        out = [r[0] for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]
        assert out[0].dtype == np.dtype(dtype) and out[0].shape == (2, 3)


def test_python_scalars_and_column_types():
    d = ds.GeneratorDataset([(1, 2.5, "s")], ["i", "f", "s"], shuffle=False)
    out = next(d.create_tuple_iterator(output_numpy=True))
    assert out[0].dtype == np.int64 and out[1].dtype == np.float64 and out[2].dtype.kind == "U"
    # a value of the column's type passes; another is refused, never cast (measured in
    # MindSpore 2.10; tests/minddata/test_generator_types.py)
    d = ds.GeneratorDataset([(np.int8(1),)], ["i"], column_types=[np.int8], shuffle=False)
    assert next(d.create_tuple_iterator(output_numpy=True))[0].dtype == np.int8
    with pytest.raises(RuntimeError, match="specified column type: int8"):
        rows(ds.GeneratorDataset([(1,)], ["i"], column_types=[np.int8], shuffle=False))


def test_generator_that_raises_names_the_row():
    def gen():
        yield (np.array(0),)
        raise OSError("disk gone")

    with pytest.raises(RuntimeError, match="generator row 1.*OSError: disk gone"):
        rows(ds.GeneratorDataset(gen, ["a"]))


@pytest.mark.parametrize("mp", [False, True])
def test_getitem_that_raises_names_the_index(mp):
    class Bad(Access):
        def __getitem__(self, i):
            if i == 4:
                raise IndexError("no row 4")
            return super().__getitem__(i)

    d = ds.GeneratorDataset(Bad(), ["a", "b"], shuffle=False, num_parallel_workers=2,
                            python_multiprocessing=mp)
    with pytest.raises(RuntimeError, match=r"source\[4\].*IndexError"):
        rows(d)


def test_wrong_column_count():
    with pytest.raises(RuntimeError, match="size of column_names is:3 and number of returned "
                                           "NumPy array is:2"):
        rows(ds.GeneratorDataset([(1, 2)], ["a", "b", "c"], shuffle=False))


def test_validation():
    with pytest.raises(ValueError):
        ds.GeneratorDataset([1], None)
    with pytest.raises(ValueError):
        ds.GeneratorDataset(lambda: iter([]), ["a"], sampler=ds.SequentialSampler())
    with pytest.raises(TypeError):
        ds.GeneratorDataset(5, ["a"])
    with pytest.raises(ValueError):
        ds.GeneratorDataset([1], ["a", "a"])


def test_sizes():
    assert ds.GeneratorDataset(Access(7), ["a", "b"]).get_dataset_size() == 7
    d = ds.GeneratorDataset(lambda: ((i,) for i in range(5)), ["a"])
    assert d.get_dataset_size() == 5
    assert ds.GeneratorDataset(Access(7), ["a", "b"], num_samples=3).get_dataset_size() == 3


def test_empty_source():
    assert rows(ds.GeneratorDataset(Access(0), ["a", "b"])) == []
    assert rows(ds.GeneratorDataset(lambda: iter(()), ["a"])) == []


@pytest.mark.parametrize("value", [np.datetime64("2020-01-02"), np.timedelta64(3, "s")])
def test_values_of_no_tensor_type_are_refused(value):
    """Measured in MindSpore 2.10: a RuntimeError when the row is read ("Failed to create
    tensor from numpy array, data type is unknown"); they were served as numpy's dates."""
    with pytest.raises(RuntimeError, match="data type is unknown"):
        rows(ds.GeneratorDataset([(value,)], ["a"], shuffle=False))
    with pytest.raises(RuntimeError, match="data type is unknown"):
        rows(ds.PaddedDataset([{"a": value}]))
    with pytest.raises(RuntimeError, match="data type is unknown"):
        rows(ds.NumpySlicesDataset({"a": np.array([value])}, shuffle=False))
