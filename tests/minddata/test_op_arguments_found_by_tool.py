"""Argument checks tools/op_arguments_vs_mindspore.py found different from MindSpore 2.10's
(each value measured there)."""
import numpy as np
import pytest

import minddata as ds


def data():
    return ds.NumpySlicesDataset({"a": np.arange(5), "b": np.ones((5, 2), np.float32)},
                                 shuffle=False)


def test_concat_and_zip_of_no_datasets_are_refused():
    # MindSpore 2.10: RuntimeError 'Concat: concatenated datasets are not specified.' and
    # 'ZipNode: input datasets are not specified.' when the pipeline starts; here when built
    with pytest.raises(RuntimeError, match="concatenated datasets are not specified"):
        data().concat([])
    with pytest.raises(RuntimeError, match="input datasets are not specified"):
        data().zip(())


def test_sending_batches_past_int64_is_a_type_error():
    # MindSpore 2.10: TypeError 'set_sending_batches(): incompatible function arguments'
    for value in (2 ** 63, 2 ** 64, -2 ** 63 - 1):
        with pytest.raises(TypeError, match="incompatible function arguments"):
            ds.config.set_sending_batches(value)
    ds.config.set_sending_batches(2 ** 63 - 1)      # accepted there too
    ds.config.set_sending_batches(0)


@pytest.mark.parametrize("args, kwargs, error, words", [
    # each MindSpore 2.10's error, measured
    (("b", [2], [1, 2]), {}, TypeError, "Argument column_names with value b is not of type"),
    (([""], [2], [1, 2]), {}, ValueError, "column_names"),
    ((["b"], "x", None), {}, TypeError, "Argument bucket_boundaries with value x"),
    ((["b"], [1.5], None), {}, TypeError, "Argument bucket_batch_sizes with value None"),
    ((["b"], [3], [1, 2, 3]), {"element_length_function": "x"}, TypeError,
     "element_length_function object is not callable"),
    ((["zz"], [2, 4], [1, 2]), {"pad_to_bucket_boundary": 1}, TypeError,
     "Argument pad_to_bucket_boundary with value 1"),
    ((["b"], [], [1]), {}, ValueError, "bucket_boundaries cannot be empty"),
])
def test_bucket_batch_by_length_checks_in_mindspore_s_order(args, kwargs, error, words):
    with pytest.raises(error, match=words):
        data().bucket_batch_by_length(*args, **kwargs)


def identity(x):
    return x


@pytest.mark.parametrize("kwargs, words", [
    # each MindSpore 2.10's TypeError, measured: the other arguments before the operations
    ({"operations": "x", "output_columns": [["a"]]}, "Argument output_columns\\[0\\] with value"),
    ({"operations": [identity, "x"], "python_multiprocessing": 0},
     "Argument python_multiprocessing with value 0"),
    ({"operations": [1], "output_columns": 1}, "Argument output_columns with value 1"),
    ({"operations": [], "max_rowsize": [1, 2, 3]}, "max_rowsize should be a single integer"),
    ({"operations": identity, "input_columns": ["zz"], "max_rowsize": 1.5},
     "Argument max_rowsize with value 1.5"),
])
def test_map_checks_its_other_arguments_before_the_operations(kwargs, words):
    with pytest.raises(TypeError, match=words):
        data().map(**kwargs)


@pytest.mark.parametrize("call, name", [
    (lambda d: d.rename(None, "x"), "input_columns"),
    (lambda d: d.rename("a", None), "output_columns"),
    (lambda d: d.project(None), "columns"),
])
def test_columns_none_where_required_is_mindspore_s_type_error(call, name):
    # MindSpore 2.10: "Argument input_columns with value None is not of type [<class 'list'>,
    # <class 'str'>], but got <class 'NoneType'>."
    with pytest.raises(TypeError, match=f"Argument {name} with value None is not of type "
                       r"\[<class 'list'>, <class 'str'>\], but got <class 'NoneType'>"):
        call(data())


def test_iterators_take_none_for_output_numpy_and_do_copy():
    # MindSpore 2.10 takes None for both (Tensors, as False) and refuses 1 or "x": TypeError
    for make in (lambda d, **k: d.create_tuple_iterator(**k),
                 lambda d, **k: d.create_dict_iterator(**k)):
        assert len(list(make(data(), num_epochs=1, output_numpy=None, do_copy=None))) == 5
        with pytest.raises(TypeError, match="Argument do_copy with value 1 is not of type"):
            make(data(), do_copy=1)
        with pytest.raises(TypeError, match="Argument output_numpy with value x is not of type"):
            make(data(), output_numpy="x")


def test_filter_checks_the_predicate_before_the_workers():
    # MindSpore 2.10: TypeError 'Predicate should be a Python function or a callable Python
    # object.'
    with pytest.raises(TypeError, match="Predicate should be a Python function"):
        data().filter(1, num_parallel_workers=[2])
    with pytest.raises(TypeError, match="Predicate should be a Python function"):
        data().filter([identity], num_parallel_workers=0)


def test_split_checks_randomize_s_type_before_the_sizes():
    # MindSpore 2.10: TypeError 'Argument randomize with value 1.0 is not of type [<class
    # 'bool'>], but got <class 'float'>.'
    for sizes in ([0.0, 1.0], [-1, 6]):
        with pytest.raises(TypeError, match="Argument randomize with value 1.0 is not of type"):
            data().split(sizes, randomize=1.0)
    with pytest.raises(TypeError, match="sizes"):
        data().split("x", randomize=1)


def test_bucket_batch_by_length_of_two_columns_without_a_length_function_in_mindspore_s_words():
    # MindSpore 2.10: ValueError 'If element_length_function is not specified, exactly one
    # column name should be passed.'
    with pytest.raises(ValueError, match="(?i)if element_length_function is not specified, "
                       "exactly one column name should be passed"):
        data().bucket_batch_by_length(["a", "b"], [2], [1, 2])
