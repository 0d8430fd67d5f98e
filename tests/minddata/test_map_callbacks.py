"""map(callbacks=[DSCallback]): epoch and step hooks with MindSpore's counters."""
import pytest

from minddata.callback import DSCallback
from .engine_helpers import numbers


class Recorder(DSCallback):
    def __init__(self, step_size=1):
        super().__init__(step_size)
        self.events = []

    def ds_begin(self, c):
        self.events.append("begin")

    def ds_epoch_begin(self, c):
        self.events.append(f"epoch_begin {c.cur_epoch_num}")

    def ds_epoch_end(self, c):
        self.events.append(f"epoch_end {c.cur_epoch_num}")

    def ds_step_begin(self, c):
        self.events.append(f"step {c.cur_epoch_num}.{c.cur_step_num_in_epoch}/{c.cur_step_num}")


@pytest.mark.parametrize("workers", [1, 2])
def test_hooks_fire_per_epoch_and_step(workers):
    rec = Recorder(step_size=2)
    d = numbers(3).map(lambda x: x, "x", num_parallel_workers=workers, callbacks=rec)
    it = d.create_tuple_iterator(num_epochs=2)
    for _ in range(2):
        list(it)
    # every step_size steps counted within each epoch, as MindSpore 2.10 calls them
    assert rec.events == ["begin", "epoch_begin 1", "step 1.1/1", "step 1.3/3", "epoch_end 1",
                          "epoch_begin 2", "step 2.1/4", "step 2.3/6", "epoch_end 2"]


def test_callbacks_validated():
    with pytest.raises(TypeError):
        numbers(2).map(lambda x: x, "x", callbacks=[5])
    with pytest.raises(ValueError):
        DSCallback(step_size=0)
