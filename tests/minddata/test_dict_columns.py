"""Python dict (object) columns through GeneratorDataset, map, batch and the iterators,
with MindSpore 2.x's semantics."""
import numpy as np
import pytest

import minddata as ds
from minddata.tensor import Tensor


def _gen():
    for i in range(5):
        yield {"a": i, "b": [i, i + 1], "s": f"str{i}", "n": np.full(2, float(i))}, np.array([i])


def _source(**kw):
    return ds.GeneratorDataset(_gen, ["meta", "x"], shuffle=False, **kw)


def test_iterators_convert_the_leaves():
    row = next(_source().create_tuple_iterator(output_numpy=True))
    meta = row[0]
    assert isinstance(meta, dict) and meta["a"].shape == () and int(meta["a"]) == 0
    assert [int(v) for v in meta["b"]] == [0, 1] and isinstance(meta["b"], list)
    assert isinstance(meta["s"], np.ndarray) and str(meta["s"]) == "str0"
    row = next(_source().create_tuple_iterator())
    assert isinstance(row[0]["a"], Tensor) and isinstance(row[0]["b"][1], Tensor)
    assert isinstance(row[0]["s"], np.ndarray)          # strings stay numpy, as MindSpore's
    d_row = next(_source().create_dict_iterator(output_numpy=True))
    assert int(d_row["meta"]["a"]) == 0 and d_row["x"].tolist() == [0]


def test_map_receives_the_dict_as_it_was_given():
    seen = []

    def double(meta):
        seen.append(type(meta["a"]))
        return {"v": meta["a"] * 2, "arr": np.ones(2)}

    d = _source().map(double, input_columns=["meta"])
    out = [r[0] for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    assert seen and all(t is int for t in seen)
    assert [int(o["v"]) for o in out] == [0, 2, 4, 6, 8]


def test_batch_stacks_each_key():
    out = next(_source().batch(2).create_tuple_iterator(output_numpy=True))
    meta = out[0]
    assert meta["a"].tolist() == [0, 1] and meta["b"].tolist() == [[0, 1], [1, 2]]
    assert meta["s"].tolist() == ["str0", "str1"] and meta["n"].shape == (2, 2)
    assert out[1].tolist() == [[0], [1]]


def test_batch_of_values_without_a_primitive_type_is_refused():
    def gen():
        for i in range(2):
            yield ({"k": None},)
    d = ds.GeneratorDataset(gen, ["meta"], shuffle=False).batch(2)
    with pytest.raises(RuntimeError, match="key: 'k'"):
        list(d.create_tuple_iterator(num_epochs=1))


def test_per_batch_map_gets_lists_of_dicts_and_may_return_them():
    def per_batch(metas, xs, info):
        assert all(isinstance(m, dict) for m in metas)
        return metas, xs

    d = _source().batch(2, per_batch_map=per_batch, input_columns=["meta", "x"])
    meta = next(d.create_tuple_iterator(output_numpy=True))[0]
    assert [int(v) for v in meta["a"]] == [0, 1]          # a dict of lists, as MindSpore's


@pytest.mark.parametrize("multiprocessing", [False, True])
def test_dict_columns_cross_worker_processes(multiprocessing):
    class Source:
        def __getitem__(self, i):
            return {"id": i, "name": f"n{i}"}, np.array(i)

        def __len__(self):
            return 6

    d = ds.GeneratorDataset(Source(), ["meta", "x"], shuffle=False, num_parallel_workers=2,
                            python_multiprocessing=multiprocessing)
    d = d.map(lambda m: dict(m, twice=m["id"] * 2), input_columns=["meta"],
              num_parallel_workers=2, python_multiprocessing=multiprocessing)
    out = [r[0] for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    assert [int(m["twice"]) for m in out] == [0, 2, 4, 6, 8, 10]


def test_other_python_objects_are_refused_with_a_hint():
    d = ds.GeneratorDataset([({1, 2},)], ["s"], shuffle=False)
    with pytest.raises(RuntimeError, match="wrap other Python objects in a dict"):
        list(d.create_tuple_iterator(num_epochs=1))


def test_metadata_of_a_dict_column():
    assert _source().output_types()[0] == np.dtype(object)
    # measured in MindSpore 2.10: [0], with estimate=True too
    assert _source().output_shapes()[0] == [0]
    assert _source().output_shapes(estimate=True)[0] == [0]
