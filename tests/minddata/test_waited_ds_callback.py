"""DSCallback / WaitedDSCallback exported as ds.*, and WaitedDSCallback's synchronisation with
the training loop (MindSpore semantics: the pipeline waits at each step after the first
step_size and at each epoch after the first until training has finished the one before)."""
import threading

import numpy as np
import pytest

import minddata as ds
from .engine_helpers import numbers


class Recorder(ds.WaitedDSCallback):
    def __init__(self, step_size=1):
        super().__init__(step_size)
        self.events = []

    def sync_epoch_begin(self, train_run_context, ds_run_context):
        self.events.append(("epoch", ds_run_context.cur_epoch_num, train_run_context))

    def sync_step_begin(self, train_run_context, ds_run_context):
        self.events.append(("step", ds_run_context.cur_step_num, train_run_context))


def test_exports():
    assert ds.DSCallback is ds.callback.DSCallback
    assert issubclass(ds.WaitedDSCallback, ds.DSCallback)
    assert ds.config.get_callback_timeout() == 60
    with pytest.raises(ValueError):
        ds.config.set_callback_timeout(0)
    with pytest.raises(TypeError):
        ds.config.set_callback_timeout(1.5)


def test_pipeline_waits_for_each_training_step_and_epoch():
    cb = Recorder()
    data = numbers(3).map(lambda x: x, "x", callbacks=[cb], num_parallel_workers=2)
    it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    step = 0
    for epoch in (1, 2):
        for _ in it:
            step += 1
            cb.on_train_step_end(f"train step {step}")     # what Model.train calls
        cb.on_train_epoch_end(f"train epoch {epoch}")
    cb.on_train_end("train end")
    assert cb.events == [
        ("step", 2, "train step 1"), ("step", 3, "train step 2"),
        ("epoch", 2, "train epoch 1"),
        ("step", 4, "train step 3"), ("step", 5, "train step 4"), ("step", 6, "train step 5"),
    ]


def test_step_size_counts_rows():
    cb = Recorder(step_size=2)
    it = numbers(4).map(lambda x: x, "x", callbacks=cb).create_tuple_iterator(num_epochs=1)
    for k, _ in enumerate(it, 1):
        cb.step_end(f"train step {k}")
    assert cb.events == [("step", 3, "train step 2")]


def test_no_training_times_out():
    ds.config.set_callback_timeout(1)
    it = numbers(3).map(lambda x: x, "x", callbacks=[Recorder()]).create_tuple_iterator()
    next(it)
    with pytest.raises(RuntimeError, match="timed out after 1 second"):
        next(it)


def test_close_does_not_wait_for_the_timeout():
    it = numbers(3).map(lambda x: x, "x", callbacks=[Recorder()]).create_tuple_iterator()
    next(it)                                  # the pipeline now waits for a training step
    closer = threading.Thread(target=it.close)
    closer.start()
    closer.join(timeout=30)                   # a hang guard (the callback timeout is 60 s)
    assert not closer.is_alive()


def test_with_model_train():
    training = pytest.importorskip("training")
    from training import Model, nn

    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 3)).astype(np.float32)
    y = (x.sum(axis=1, keepdims=True)).astype(np.float32)
    cb = Recorder()
    data = ds.NumpySlicesDataset((x, y), ["x", "y"], shuffle=False)
    data = data.map(lambda v: v, "x", callbacks=[cb]).batch(1)
    net = nn.Dense(3, 1)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01))
    model.train(2, data, callbacks=[cb], dataset_sink_mode=False)
    steps = [e for e in cb.events if e[0] == "step"]
    epochs = [e for e in cb.events if e[0] == "epoch"]
    assert [e[1] for e in steps] == list(range(2, 17)) and len(epochs) == 1
    assert all(isinstance(e[2], training.RunContext) for e in cb.events)
