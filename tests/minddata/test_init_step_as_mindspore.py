"""``set_init_step`` as MindSpore 2.10 takes it (values measured there, 7 rows 0..6, batch 2:
4 batches an epoch): a pipeline inherits its only input's init step, None takes one back, the
value is checked when an iterator starts from it, a step the run does not reach is refused
then, and the passes a pipeline makes for itself (its size) start at its first row."""
import numpy as np
import pytest

import minddata as ds


def numbers(count=7, first=0):
    return ds.NumpySlicesDataset({"id": np.arange(first, first + count, dtype=np.int64)},
                                 shuffle=False)


def epochs(data, count=2, read=None):
    """``read`` epochs (all ``count``) of an iterator made for ``count`` epochs."""
    iterator = data.create_tuple_iterator(num_epochs=count, output_numpy=True)
    return [[row[0].tolist() for row in iterator] for _ in range(read or count)]


def test_a_pipeline_starts_at_its_only_input_s_init_step_counted_in_its_own_steps():
    source = numbers()
    source.set_init_step(3)
    batched = source.batch(2)
    assert batched.get_init_step() == 3
    assert epochs(batched) == [[[6]], [[0, 1], [2, 3], [4, 5], [6]]]
    assert epochs(source.map(lambda x: x + 100, input_columns=["id"])) == [
        [103, 104, 105, 106], list(range(100, 107))]
    # set on the input after the pipeline was built: still its input's
    later = numbers()
    above = later.batch(2)
    later.set_init_step(1)
    assert epochs(above) == [[[2, 3], [4, 5], [6]], [[0, 1], [2, 3], [4, 5], [6]]]


def test_an_own_init_step_or_several_inputs_end_the_inheritance():
    source = numbers()
    source.set_init_step(3)
    batched = source.batch(2)
    batched.set_init_step(0)
    assert batched.get_init_step() == 0 and epochs(batched)[0] == [[0, 1], [2, 3], [4, 5], [6]]
    zipped = source.zip(numbers(5, 50).rename("id", "z"))
    assert zipped.get_init_step() == 0 and epochs(zipped)[0] == [0, 1, 2, 3, 4]
    assert (source + numbers(3, 50)).get_init_step() == 0


def test_none_takes_the_init_step_back():
    source = numbers()
    source.set_init_step(3)
    source.set_init_step(None)
    assert source.get_init_step() == 0 and epochs(source)[0] == list(range(7))


def test_the_value_is_checked_when_an_iterator_starts_from_it():
    for wrong in (2.0, "3"):
        data = numbers().batch(2)
        data.set_init_step(wrong)                       # taken, as MindSpore takes it
        assert data.get_init_step() == wrong
        with pytest.raises(TypeError, match="init_step must be of type int"):
            data.create_tuple_iterator(num_epochs=1)
    negative = numbers()
    negative.set_init_step(-1)
    with pytest.raises(RuntimeError, match="reset step must be >= 0"):
        negative.create_tuple_iterator(num_epochs=1)
    flagged = numbers().batch(2)
    flagged.set_init_step(True)                         # the int 1
    assert epochs(flagged, 1) == [[[2, 3], [4, 5], [6]]]


def test_a_step_past_the_run_is_refused_when_the_iterator_is_made():
    data = numbers().batch(2)
    data.set_init_step(6)
    assert epochs(data, 2, read=1) == [[[4, 5], [6]]]
    with pytest.raises(RuntimeError, match="less than dataset_size \\* num_epochs"):
        data.create_tuple_iterator(num_epochs=1)
    empty = numbers().filter(lambda x: False, input_columns=["id"])
    empty.set_init_step(2)
    with pytest.raises(RuntimeError, match="dataset size is undefined"):
        empty.create_tuple_iterator(num_epochs=3)


def test_an_endless_iterator_starts_at_the_init_step():
    # Deviation (README): MindSpore 2.10 refuses every init step but 0 with num_epochs=-1
    data = numbers().batch(2)
    data.set_init_step(6)
    iterator = data.create_tuple_iterator(num_epochs=-1, output_numpy=True)
    assert [[row[0].tolist() for row in iterator] for _ in range(2)] == [
        [[4, 5], [6]], [[0, 1], [2, 3], [4, 5], [6]]]
    iterator.stop()


def test_a_counted_size_reads_the_whole_epoch_whatever_the_init_step():
    # a filter's size is counted by a pass over the pipeline; that pass used to start at the
    # init step too, asking for the size again (RecursionError)
    data = numbers(24).filter(lambda x: x % 2 == 1, input_columns=["id"]).take(4)
    data.set_init_step(5)
    assert data.get_dataset_size() == 4
    assert epochs(data, 3, read=2) == [[3, 5, 7], [1, 3, 5, 7]]


def test_save_writes_every_row_whatever_the_init_step(tmp_path):
    # measured in MindSpore 2.10: rows 0..6 saved after set_init_step(3)
    data = numbers()
    data.set_init_step(3)
    path = str(tmp_path / "saved.mindrecord")
    data.save(path)
    assert epochs(ds.MindDataset(path, shuffle=False), 1) == [list(range(7))]
