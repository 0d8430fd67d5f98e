"""Model.train resuming its data: the iterator is made for the whole run, so after
``set_init_step(k * steps)`` the epochs from ``initial_epoch=k`` train on what the uninterrupted
run gave them (values measured in MindSpore 2.10: 7 rows 0..6, batch 2, a per_batch_map adding
1000 times the epoch number); and a scalar column reaches the network as a 0-d Tensor."""
import numpy as np
import pytest

import minddata as ds
from training import Model, nn


def tag_epoch(ids, batch_info):
    return ([np.asarray(v) + np.int64(1000 * batch_info.get_epoch_num()) for v in ids],)


def tagged(rows=7):
    data = ds.NumpySlicesDataset({"id": np.arange(rows, dtype=np.int64)}, shuffle=False)
    return data.batch(2, per_batch_map=tag_epoch, input_columns=["id"])


class Recorder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.seen = []

    def construct(self, *inputs):
        self.seen.append(np.asarray(inputs[0]).tolist())
        return inputs[0]


def trained(data, epochs, **kwargs):
    network = Recorder()
    Model(network).train(epochs, data, **kwargs)
    return network.seen


@pytest.mark.parametrize("sink", [False, True])
def test_epochs_after_initial_epoch_get_the_uninterrupted_run_s_batches(sink):
    data = tagged()
    data.set_init_step(4)               # one epoch of 4 batches
    assert trained(data, 3, initial_epoch=1, dataset_sink_mode=sink) == [
        [1000, 1001], [1002, 1003], [1004, 1005], [1006],
        [2000, 2001], [2002, 2003], [2004, 2005], [2006]]


def test_an_init_step_inside_an_epoch_resumes_there():
    data = tagged()
    data.set_init_step(5)
    assert trained(data, 3, initial_epoch=1) == [
        [1002, 1003], [1004, 1005], [1006], [2000, 2001], [2002, 2003], [2004, 2005], [2006]]


def test_without_an_init_step_initial_epoch_reads_the_data_from_its_start():
    assert trained(tagged(), 3, initial_epoch=1)[:2] == [[0, 1], [2, 3]]


@pytest.mark.parametrize("sink", [False, True])
def test_a_scalar_column_reaches_the_network_as_a_0_d_tensor(sink):
    # np.ascontiguousarray made it shape (1,) on the torch backend
    network = Recorder()
    shapes = []
    network.construct = lambda *inputs: shapes.append(np.asarray(inputs[0]).shape) or inputs[0]
    data = ds.NumpySlicesDataset({"id": np.arange(3, dtype=np.int64)}, shuffle=False)
    Model(network).train(1, data, dataset_sink_mode=sink)
    assert shapes == [(), (), ()]


def test_a_resume_inside_the_last_epoch_ends_with_the_run():
    # measured in MindSpore 2.10: 29 rows, set_init_step(2 * 29 + 8), initial_epoch=2 of 3:
    # epoch 3 trains on rows 8..28 and the run ends (we read past the iterator's last epoch)
    data = ds.NumpySlicesDataset({"id": np.arange(29, dtype=np.int64)}, shuffle=False)
    data.set_init_step(2 * 29 + 8)
    assert trained(data, 3, initial_epoch=2) == list(range(8, 29))


@pytest.mark.parametrize("sink", [False, True])
def test_an_init_step_past_the_resumed_epoch_is_refused_before_any_step(sink):
    """set_init_step(8) is epoch 3 of 4 batches; resuming at initial_epoch=1 would train 3
    epochs on 2 passes of data: MindSpore 2.10 raises its end-of-data error when the data runs
    out; here the run is refused before its first step, naming the step to set (an epoch
    boundary could otherwise end training early without a word)."""
    data = tagged()
    data.set_init_step(8)
    network = Recorder()
    with pytest.raises(RuntimeError, match=r"set_init_step\(4\)"):
        Model(network).train(4, data, initial_epoch=1, dataset_sink_mode=sink)
    assert network.seen == []
    if not sink:                        # inside epoch 3: resumed part-way at initial_epoch=2
        data.set_init_step(9)
        assert trained(data, 4, initial_epoch=2)[:2] == [[2002, 2003], [2004, 2005]]
