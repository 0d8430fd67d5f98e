"""map: column placement, op chaining, worker kinds, validation at construction, errors."""
import numpy as np
import pytest

import minddata as ds
import minddata.transforms as transforms
from .engine_helpers import numbers, rows, values


def three_cols():
    return ds.NumpySlicesDataset({"a": np.arange(4), "b": np.arange(4) * 10,
                                  "c": np.arange(4) * 100}, shuffle=False)


def test_default_input_column_is_the_first():
    assert values(numbers(3).map(lambda x: x + 1)) == [1, 2, 3]


def test_ops_run_in_order():
    assert values(numbers(3).map([lambda x: x + 1, lambda x: x * 10], "x")) == [10, 20, 30]


def test_more_outputs_than_inputs_come_first():
    # measured in MindSpore 2.10: ['b1', 'b2', 'a', 'c'], row 1 [10, 11, 1, 100] (the outputs
    # first, then the columns that were not inputs; this package put them in b's place)
    d = three_cols().map(lambda b: (b, b + 1), "b", ["b1", "b2"])
    assert d.get_col_names() == ["b1", "b2", "a", "c"]
    assert rows(d)[1] == [10, 11, 1, 100]
    assert list(next(d.create_dict_iterator(output_numpy=True))) == ["b1", "b2", "a", "c"]


def test_fewer_outputs_than_inputs_come_first():
    # measured in MindSpore 2.10: inputs b, c of a, b, c give ['s', 'a'] (here ['a', 's'] before)
    d = three_cols().map(lambda b, c: b + c, ["b", "c"], ["s"])
    assert d.get_col_names() == ["s", "a"]
    assert rows(d)[1] == [110, 1]


def test_as_many_outputs_as_inputs_take_the_inputs_places():
    # measured in MindSpore 2.10 over a, b, c, d: inputs [c, a] -> outputs [x, y] give
    # ['y', 'b', 'x', 'd'] with row 1 [101, 10, 1, 1000] (result j where input j was); inputs
    # [d, b] -> [d, b] give ['a', 'b', 'c', 'd'], row 1 [1, 1001, 100, 10]
    four = ds.NumpySlicesDataset({"a": np.arange(3), "b": np.arange(3) * 10,
                                  "c": np.arange(3) * 100, "d": np.arange(3) * 1000},
                                 shuffle=False)
    swapped = four.map(lambda x, y: (y, x + 1), ["c", "a"], ["x", "y"])
    assert swapped.get_col_names() == ["y", "b", "x", "d"]
    assert rows(swapped)[1] == [101, 10, 1, 1000]
    same_names = four.map(lambda x, y: (y, x + 1), ["d", "b"], ["d", "b"])
    assert same_names.get_col_names() == ["a", "b", "c", "d"]
    assert rows(same_names)[1] == [1, 1001, 100, 10]


def test_several_inputs_one_output():
    d = three_cols().map(lambda a, c: a + c, ["a", "c"], ["s"])
    assert d.get_col_names() == ["s", "b"]
    assert rows(d)[2] == [202, 20]


def test_output_name_clash_is_refused_at_construction():
    with pytest.raises(ValueError, match="duplicate"):
        three_cols().map(lambda a: a, "a", ["c"])


def test_unknown_input_column():
    with pytest.raises(ValueError, match="input_columns"):
        numbers(3).map(lambda x: x, "nope")


def test_bad_operations_and_workers():
    with pytest.raises(ValueError):     # MindSpore 2.10's type for a non-callable
        numbers(3).map(5)
    with pytest.raises(ValueError):
        numbers(3).map([])
    with pytest.raises(ValueError):
        numbers(3).map(lambda x: x, num_parallel_workers=0)
    with pytest.raises(TypeError):
        numbers(3).map(lambda x: x, python_multiprocessing="yes")


def test_wrong_number_of_outputs_names_the_op():
    d = numbers(3).map(lambda x: (x, x), "x")
    with pytest.raises(RuntimeError, match="returned 2 columns"):
        rows(d)


def test_error_names_op_and_row():
    def bad(x):
        if x == 2:
            raise ZeroDivisionError("nope")
        return x

    with pytest.raises(RuntimeError, match=r"Map\(bad\).*row 2.*ZeroDivisionError") as info:
        rows(numbers(5).map(bad, "x", num_parallel_workers=2))
    assert isinstance(info.value.__cause__, ZeroDivisionError)


def test_error_from_process_worker_names_type_and_row():
    def bad(x):
        if x == 3:
            raise KeyError("k")
        return x

    with pytest.raises(RuntimeError, match="row 3.*KeyError") as info:
        rows(numbers(6).map(bad, "x", num_parallel_workers=2, python_multiprocessing=True))
    assert isinstance(info.value.__cause__, KeyError)
    # the worker's traceback, from the user's function on (MindSpore's "Python Call Stack")
    assert "Python Call Stack" in str(info.value) and "in bad" in str(info.value)


def test_scalars_and_lists_become_arrays():
    d = numbers(2).map(lambda x: [int(x), 1], "x")
    out = rows(d)
    assert out[1][0] == [1, 1]


@pytest.mark.parametrize("processes", [False, True])
def test_large_rows_through_workers(processes):
    d = ds.NumpySlicesDataset(np.arange(6), shuffle=False).map(
        lambda x: np.full((300, 300), x, dtype=np.float64), num_parallel_workers=2,
        python_multiprocessing=processes)
    out = [r[0] for r in d.create_tuple_iterator(num_epochs=1)]
    assert [float(a[5, 5]) for a in out] == [0, 1, 2, 3, 4, 5]
    assert out[0].shape == (300, 300)


def test_rows_over_max_rowsize_fall_back_and_stay_correct():
    d = ds.NumpySlicesDataset(np.arange(4), shuffle=False).map(
        lambda x: np.full((1024, 1024), x, dtype=np.float32), num_parallel_workers=2,
        python_multiprocessing=True, max_rowsize=1)
    out = [float(r[0][0, 0]) for r in d.create_tuple_iterator(num_epochs=1)]
    assert out == [0, 1, 2, 3]


def test_string_columns_through_processes():
    d = ds.NumpySlicesDataset(["ab", "cde"], shuffle=False).map(
        lambda s: np.array(str(s) + "!"), num_parallel_workers=2, python_multiprocessing=True)
    assert values(d) == ["ab!", "cde!"]


def test_compile_operations_used_when_present(monkeypatch):
    calls = []

    def fake_compile(ops):
        calls.append(len(ops))
        return list(ops)

    import transforms_c
    monkeypatch.setattr(transforms_c, "compile_operations", fake_compile)
    assert values(numbers(2).map([lambda x: x + 1, lambda x: x], "x")) == [1, 2]
    assert calls == [2]


def test_processes_without_shared_memory_use_pickles():
    ds.config.set_enable_shared_mem(False)
    d = numbers(6).map(lambda x: x + 1, "x", num_parallel_workers=2,
                       python_multiprocessing=True)
    assert values(d) == [1, 2, 3, 4, 5, 6]


def test_error_row_provenance_after_shuffle_free_chain():
    def bad(x):
        if x == 4:
            raise ValueError("four")
        return x

    d = numbers(6).project(["x"]).map(bad, "x", num_parallel_workers=2)
    with pytest.raises(RuntimeError, match="NumpySlicesDataset row 4.*ValueError: four"):
        values(d)


def test_non_array_output_is_refused():
    # dicts are Python object columns (as in MindSpore); other objects are refused
    with pytest.raises(RuntimeError, match="numpy-compatible"):
        values(numbers(2).map(lambda x: {1, 2}, "x"))


@pytest.mark.parametrize("op", [
    transforms.TypeCast(np.bytes_),
    transforms.RandomApply([transforms.TypeCast(np.complex64)], prob=0.0),   # never runs
    transforms.Compose([transforms.TypeCast(np.int32), transforms.TypeCast(np.bytes_)]),
])
def test_op_argument_errors_raise_where_the_pipeline_is_built(op):
    # MindSpore 2.10 (measured) makes such a map and raises RuntimeError 'TypeCast: Invalid data
    # type' from get_dataset_size or the iterator, even for an op a composite never runs
    data = ds.NumpySlicesDataset({"a": [1, 2]}, shuffle=False).map(op, input_columns=["a"])
    with pytest.raises(RuntimeError, match="TypeCast: Invalid data type"):
        data.get_dataset_size()
    with pytest.raises(RuntimeError, match="TypeCast: Invalid data type"):
        data.create_tuple_iterator(output_numpy=True)


def test_a_callable_with_a_transforms_attribute_is_not_taken_for_a_composite():
    class Scaled:
        transforms = 3      # not a list of ops

        def __call__(self, x):
            return x * self.transforms

    data = ds.NumpySlicesDataset({"a": [1, 2]}, shuffle=False).map(Scaled(), input_columns=["a"])
    assert [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == [3, 6]
