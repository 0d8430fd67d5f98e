"""Cases that served wrong rows without an error (issue 20): each is refused or right now."""
import numpy as np
import pytest

import minddata as ds


def rows(data, epochs=1):
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=epochs)
    return [[np.asarray(c).tolist() for c in row] for _ in range(epochs) for row in it]


def sign_by_epoch(x, info):
    return ([a * (-1) ** info.get_epoch_num() for a in x],)


def column(n=4):
    return ds.NumpySlicesDataset({"x": np.arange(n).reshape(n, 1)}, shuffle=False)


def test_per_batch_map_sees_the_iterators_epoch_not_the_repeats_pass():
    data = column().batch(2, per_batch_map=sign_by_epoch, input_columns=["x"]).repeat(2)
    once = [[[0], [1]]], [[[2], [3]]]
    assert rows(data) == list(once) * 2
    # the second epoch of the iterator is epoch 1: flipped
    assert rows(data, epochs=2)[4:] == [[[[0], [-1]]], [[[-2], [-3]]]] * 2


def test_a_batch_size_callable_that_raises_stop_iteration_is_an_error():
    def size(info):
        raise StopIteration
    with pytest.raises(RuntimeError, match="batch_size"):
        rows(column().batch(size))


def test_stop_iteration_inside_a_map_is_an_error_not_the_end_of_the_data():
    def op(x):
        if int(x[0]) == 2:
            raise StopIteration
        return x
    with pytest.raises(RuntimeError, match="StopIteration"):
        rows(column().map(op, "x"))


def test_concat_of_columns_of_different_types_is_refused():
    a = ds.NumpySlicesDataset({"x": np.arange(3, dtype=np.float32)}, shuffle=False)
    b = ds.NumpySlicesDataset({"x": np.arange(3, dtype=np.int64)}, shuffle=False)
    with pytest.raises(RuntimeError, match="type of column 'x'"):
        rows(a + b)
    assert len(rows(a + a)) == 6


def test_an_error_in_a_worker_process_batch_keeps_the_users_exception_as_its_cause():
    def fail_on_3(x):
        if int(np.asarray(x).reshape(-1)[0]) == 3:
            raise KeyError("row three")
        return x
    data = ds.NumpySlicesDataset({"x": np.arange(8).reshape(8, 1)}, shuffle=False)
    data = data.map(fail_on_3, "x", num_parallel_workers=2, python_multiprocessing=True)
    data = data.batch(2)
    assert data.plan().fired("process_batches")
    with pytest.raises(RuntimeError, match="row three") as info:
        rows(data)
    cause = info.value.__cause__
    assert isinstance(cause, KeyError) and "row three" in str(cause)
