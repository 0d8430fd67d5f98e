"""Callbacks as tutorials write them: a custom Callback reading cb_params (1.x step_end and
2.x on_train_epoch_end), LearningRateScheduler, History, EarlyStopping and LambdaCallback with
Model.fit."""
import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.train import (Callback, EarlyStopping, History, LambdaCallback,
                             LearningRateScheduler, Model)

from synthetic_data import vectors


class StopAtStep(Callback):
    """The tutorial's custom callback: stop once cur_step_num reaches stop_step."""

    def __init__(self, stop_step):
        super(StopAtStep, self).__init__()
        self.stop_step = stop_step
        self.seen_losses = []

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        self.seen_losses.append(float(cb_params.net_outputs.asnumpy()))
        if cb_params.cur_step_num >= self.stop_step:
            run_context.request_stop()


class EpochLog(Callback):
    def __init__(self):
        super().__init__()
        self.epochs = []

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        self.epochs.append(cb_params.cur_epoch_num)


def halve_every_8_steps(lr, cur_step_num):
    return lr * 0.5 if cur_step_num % 8 == 0 else lr


if __name__ == "__main__":
    ms.set_seed(0)
    ds.config.set_seed(0)
    x, y = vectors(n=256, dim=8, classes=2)
    train = ds.NumpySlicesDataset((x[:192], y[:192]), column_names=["x", "y"]).batch(16)
    valid = ds.NumpySlicesDataset((x[192:], y[192:]), column_names=["x", "y"]).batch(16)
    net = nn.SequentialCell([nn.Dense(8, 16), nn.ReLU(), nn.Dense(16, 2)])
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt,
                  metrics={"accuracy", "loss"})
    history, epoch_log = History(), EpochLog()
    ends = []
    model.fit(6, train, valid, callbacks=[
        history, epoch_log, LearningRateScheduler(halve_every_8_steps),
        EarlyStopping(monitor="accuracy", patience=3, mode="max"),
        LambdaCallback(on_train_end=lambda run_context: ends.append(True))])
    print("history:", history.history)
    assert history.epoch == epoch_log.epochs and ends == [True]
    assert history.history["accuracy"][-1] > 0.9, history.history
    assert abs(opt.get_lr() - 0.1 * 0.5 ** (len(history.epoch) * 12 // 8)) < 1e-6, opt.get_lr()
    stopper = StopAtStep(5)
    model.train(3, train, callbacks=[stopper])
    assert len(stopper.seen_losses) == 5
