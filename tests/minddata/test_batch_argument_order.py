"""batch checks its arguments in MindSpore 2.10's order (measured by
tools/op_arguments_vs_mindspore.py): input_columns without a per_batch_map is a ValueError
before the columns' own types and before python_multiprocessing's type."""
import numpy as np
import pytest

import minddata as ds


def data():
    return ds.NumpySlicesDataset({"a": np.arange(5), "b": np.ones((5, 2), np.float32)},
                                 shuffle=False)


def test_input_columns_without_per_batch_map_comes_before_their_type():
    # MindSpore 2.10: ValueError 'input_columns can be specified only when per_batch_map is set.'
    with pytest.raises(ValueError, match="input_columns can be specified only when "
                       "per_batch_map is set"):
        data().batch(1, input_columns=[["a"]])


def test_input_columns_without_per_batch_map_comes_before_python_multiprocessing():
    with pytest.raises(ValueError, match="input_columns can be specified only when"):
        data().batch(5, drop_remainder=True, input_columns=["a", "b"], python_multiprocessing=0)
    with pytest.raises(ValueError, match="input_columns can be specified only when"):
        data().batch(2, input_columns="b", output_columns=[1])


def test_batch_size_is_checked_before_num_parallel_workers():
    # MindSpore 2.10 checks batch_size first: 'batch_size should either be an int or a callable.'
    with pytest.raises(TypeError, match="batch_size"):
        data().batch("2", num_parallel_workers=0)


def test_python_multiprocessing_s_type_comes_before_output_columns_without_per_batch_map():
    # MindSpore 2.10: TypeError 'Argument python_multiprocessing with value 1.0 is not of type
    # [<class 'bool'>], but got <class 'float'>.' (it ignores output_columns without a map)
    with pytest.raises(TypeError, match="Argument python_multiprocessing with value 1.0"):
        data().batch(5, output_columns=["x", "y"], python_multiprocessing=1.0)
