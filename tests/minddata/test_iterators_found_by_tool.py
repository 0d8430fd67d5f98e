"""Iteration and callback behaviour tools/iterators_vs_mindspore.py found different from
MindSpore 2.10's (each value measured there)."""
import numpy as np
import pytest

import minddata as ds


class Recorder(ds.WaitedDSCallback):
    """A WaitedDSCallback that no training loop releases, and a DSCallback's step hook."""

    def __init__(self):
        super().__init__(step_size=1)
        self.calls = []

    def sync_step_begin(self, train_run_context, ds_run_context):
        self.calls.append(ds_run_context.cur_step_num)


class Steps(ds.DSCallback):
    def __init__(self):
        super().__init__()
        self.steps = []

    def ds_step_begin(self, ds_run_context):
        self.steps.append(ds_run_context.cur_step_num)


def test_the_count_of_get_dataset_size_runs_no_map_callbacks():
    # MindSpore 2.10 counts a filter's rows with no callback called: a DSCallback's hooks
    # stay silent, and a WaitedDSCallback does not wait for a training step (here it waited
    # for one until the callback timeout, then raised)
    ds.config.set_callback_timeout(2)
    try:
        for callback in (Steps(), Recorder()):
            data = ds.NumpySlicesDataset({"id": np.arange(8)}, shuffle=False).map(
                lambda x: x, callbacks=[callback]).filter(lambda x: x % 2 == 0)
            assert data.get_dataset_size() == 4 and len(data) == 4
            assert (callback.steps if isinstance(callback, Steps) else callback.calls) == []
    finally:
        ds.config.set_callback_timeout(60)


@pytest.mark.parametrize("make", ["tuple", "dict"])
def test_a_stopped_iterator_says_so_after_its_last_epoch_too(make):
    # MindSpore 2.10, num_epochs=1 read to its end, then stop(), then next(): AttributeError
    # "'TupleIterator' object has no attribute '_runtime_context'" (not the RuntimeError of
    # reading past the last epoch, which it raises without the stop())
    data = ds.NumpySlicesDataset({"id": np.arange(3)}, shuffle=False)
    iterator = getattr(data, f"create_{make}_iterator")(num_epochs=1)
    assert len(list(iterator)) == 3
    iterator.stop()
    with pytest.raises(AttributeError, match="_runtime_context"):
        next(iterator)
    iterator = getattr(data, f"create_{make}_iterator")(num_epochs=1)
    list(iterator)
    with pytest.raises(RuntimeError, match="beyond the specified number of epochs"):
        next(iterator)
