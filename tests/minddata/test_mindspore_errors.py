"""MindSpore 2.10's error types where the pipeline fails (issue 20, row 10): a user function's
exception is a RuntimeError naming the op and the row, with MindSpore's words and the original
as __cause__; reading past num_epochs and after stop() raise MindSpore's errors."""
import numpy as np
import pytest

import minddata as ds
import transforms_c.vision as vision
from minddata.engine.errors import IteratorStoppedError, WorkerDiedError, wrap_error

from .engine_helpers import numbers


def _boom(x):
    if int(x) == 2:
        raise KeyError("k")
    return x


def _raised(data):
    with pytest.raises(RuntimeError) as info:
        list(data.create_tuple_iterator(num_epochs=1, output_numpy=True))
    return info.value


def _has_mindspore_words(text, user=True):
    if user:
        return ("Exception thrown from user defined Python function in dataset" in text and
                "Python Call Stack" in text and "Traceback (most recent call last):" in text and
                "Dataset Pipeline Error Message" in text)
    return ("Exception thrown from dataset pipeline" in text and "Python Call Stack" not in text
            and "Dataset Pipeline Error Message" in text)


@pytest.mark.parametrize("workers, processes", [(1, False), (2, False), (2, True)])
def test_map_error_is_a_runtime_error_with_op_row_and_cause(workers, processes):
    err = _raised(numbers(5).map(_boom, "x", num_parallel_workers=workers,
                                 python_multiprocessing=processes))
    text = str(err)
    assert type(err) is not KeyError and isinstance(err.__cause__, KeyError)
    assert text.splitlines()[0].startswith("Map(_boom) failed on ")
    assert "row 2 of epoch 0" in text and "KeyError: 'k'" in text
    assert _has_mindspore_words(text) and "in _boom" in text
    assert text.count("map operation") == 1


def test_filter_per_batch_map_and_generator_errors_are_runtime_errors():
    def pred(x):
        raise ValueError("no filter")
    err = _raised(numbers(3).filter(pred, ["x"]))
    assert isinstance(err.__cause__, ValueError) and "Filter" in str(err)
    assert _has_mindspore_words(str(err))

    def per_batch(x, info):
        raise TypeError("no batch")
    err = _raised(numbers(4).batch(2, per_batch_map=per_batch, input_columns=["x"]))
    assert isinstance(err.__cause__, TypeError) and "in per_batch" in str(err)

    def gen():
        yield (np.array(1),)
        raise OSError("disk gone")
    err = _raised(ds.GeneratorDataset(gen, ["x"]))
    assert isinstance(err.__cause__, OSError) and "generator row 1" in str(err)
    assert _has_mindspore_words(str(err))


def test_the_pipeline_s_own_failure_has_no_python_call_stack():
    data = ds.NumpySlicesDataset({"x": np.zeros((2, 5), np.uint8)}, shuffle=False)
    err = _raised(data.map(vision.Resize((4, 4)), "x"))
    assert "Map(Resize) failed" in str(err) and _has_mindspore_words(str(err), user=False)


def test_a_runtime_error_subclass_keeps_its_type():
    err = wrap_error(WorkerDiedError("worker 7 exited"), "Map(f)", "row 3")
    assert type(err) is WorkerDiedError and "Map(f) failed on row 3" in str(err)
    assert wrap_error(err, "Batch") is err          # wrapped once only
    interrupt = KeyboardInterrupt()
    assert wrap_error(interrupt, "Map(f)") is interrupt


def test_reading_past_num_epochs_is_mindspore_s_runtime_error():
    it = numbers(3).create_tuple_iterator(num_epochs=1)
    assert len(list(it)) == 3
    with pytest.raises(RuntimeError, match="User tries to fetch data beyond the specified "
                                           "number of epochs"):
        next(it)


def test_reading_after_stop_is_an_attribute_error_and_a_runtime_error():
    it = numbers(3).create_tuple_iterator(num_epochs=2)
    next(it)
    it.stop()
    with pytest.raises(AttributeError, match="object has no attribute '_runtime_context'"):
        next(it)
    with pytest.raises(RuntimeError, match="does not have a running pipeline"):
        next(it)
    assert issubclass(IteratorStoppedError, RuntimeError)


def test_reading_after_a_failure_names_the_failure():
    it = numbers(5).map(_boom, "x").create_tuple_iterator(num_epochs=1)
    with pytest.raises(RuntimeError):
        list(it)
    with pytest.raises(IteratorStoppedError, match="stopped at an error: .*Map\\(_boom\\)"):
        next(it)
