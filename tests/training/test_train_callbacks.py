"""ModelCheckpoint, EarlyStopping, ReduceLROnPlateau, LambdaCallback (SummaryCollector is
tested in test_summary_tensorboard.py)."""
import os

import pytest

from training import Model, nn, set_seed
from training.callbacks import (CheckpointConfig, EarlyStopping, LambdaCallback, ModelCheckpoint,
                                ReduceLROnPlateau)
from training.checkpoint import load_checkpoint

from tests.training.conftest import classification_data, make_dataset


def _model(lr=0.05):
    set_seed(0)
    net = nn.SequentialCell(nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 3))
    return Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                 nn.Momentum(net.trainable_params(), lr, 0.9), metrics={"loss", "accuracy"})


def _dataset(n=40, batch=10):
    x, y = classification_data(n)
    return make_dataset([x, y], batch)


def test_checkpoint_file_names_and_keep_max(tmp_path):
    cfg = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=3)
    cb = ModelCheckpoint(prefix="net", directory=str(tmp_path), config=cfg)
    _model().train(3, _dataset(40, 10), callbacks=cb)  # 4 steps per epoch, saves every 2
    # saved: 1_2, 1_4, 2_2, 2_4, 3_2, 3_4 -> newest three kept
    assert sorted(os.listdir(tmp_path)) == ["net-2_4.ckpt", "net-3_2.ckpt", "net-3_4.ckpt"]
    params = load_checkpoint(str(tmp_path / "net-3_4.ckpt"))
    assert "0.weight" in params and "moments.0.weight" in params


def test_keep_per_n_minutes_protects_a_file_from_rotation(tmp_path):
    cfg = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=1,
                           keep_checkpoint_per_n_minutes=60)
    _model().train(1, _dataset(40, 10), callbacks=ModelCheckpoint(directory=str(tmp_path), config=cfg))
    # the first file opens the 60-minute window and is kept; the rotation keeps the newest
    assert sorted(os.listdir(tmp_path)) == ["CKP-1_1.ckpt", "CKP-1_4.ckpt"]


def test_exception_save_writes_a_breakpoint_checkpoint(tmp_path):
    from training.callbacks import Callback

    class Boom(Callback):
        def on_train_step_end(self, rc):
            if rc.original_args().cur_step_num == 2:
                raise KeyboardInterrupt
    cfg = CheckpointConfig(save_checkpoint_steps=100, exception_save=True)
    with pytest.raises(KeyboardInterrupt):
        _model().train(1, _dataset(40, 10),
                       callbacks=[ModelCheckpoint(directory=str(tmp_path), config=cfg), Boom()])
    assert os.listdir(tmp_path) == ["CKP-1_2_breakpoint.ckpt"]


def test_checkpoint_saves_the_last_step_at_end(tmp_path):
    cb = ModelCheckpoint(directory=str(tmp_path),
                         config=CheckpointConfig(save_checkpoint_steps=3, keep_checkpoint_max=0))
    _model().train(1, _dataset(40, 10), callbacks=cb)
    assert sorted(os.listdir(tmp_path)) == ["CKP-1_3.ckpt", "CKP-1_4.ckpt"]


def test_checkpoint_in_sink_mode_names_by_step_in_epoch(tmp_path):
    cb = ModelCheckpoint(prefix="s", directory=str(tmp_path),
                         config=CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=10))
    _model().train(2, _dataset(40, 10), callbacks=cb, dataset_sink_mode=True, sink_size=2)
    assert sorted(os.listdir(tmp_path)) == ["s-1_2.ckpt", "s-2_2.ckpt"]


def test_existing_prefix_gets_a_numbered_prefix(tmp_path):
    (tmp_path / "CKP-1_1.ckpt").write_bytes(b"")
    cb = ModelCheckpoint(directory=str(tmp_path))
    _model().train(1, _dataset(10, 10), callbacks=cb)
    assert "CKP_1-1_1.ckpt" in os.listdir(tmp_path)


def test_checkpoint_config_validation():
    with pytest.raises(ValueError, match="cannot both be 0"):
        CheckpointConfig(save_checkpoint_steps=0, save_checkpoint_seconds=0)
    with pytest.raises(ValueError, match="keep_checkpoint_max"):
        CheckpointConfig(keep_checkpoint_max=-1)
    with pytest.raises(TypeError, match="CheckpointConfig"):
        ModelCheckpoint(config={"save_checkpoint_steps": 1})


def test_early_stopping_on_training_loss_stops():
    model = _model(lr=0.0)  # no learning: the loss never improves
    stopper = EarlyStopping(monitor="loss", patience=1)
    epochs = []
    model.train(10, _dataset(20, 10),
                callbacks=[stopper, LambdaCallback(
                    on_train_epoch_end=lambda rc: epochs.append(rc.original_args().cur_epoch_num))])
    assert epochs == [1, 2, 3] and stopper.stopped_epoch == 3


def test_early_stopping_with_fit_monitors_eval_metrics():
    model = _model()
    ds = _dataset(40, 10)
    stopper = EarlyStopping(monitor="eval_loss", patience=0, min_delta=10.0)
    model.fit(20, ds, valid_dataset=ds, callbacks=stopper)
    assert stopper.stopped_epoch == 2  # epoch 1 sets the best, epoch 2 fails the huge min_delta


def test_reduce_lr_on_plateau_lowers_the_learning_rate():
    model = _model(lr=0.4)
    opt = model.train_network.optimizer
    # min_delta 1.0: no epoch after the first counts as an improvement
    reducer = ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_delta=1.0)
    model.train(3, _dataset(20, 10), callbacks=reducer)
    assert float(opt.learning_rate.data) == pytest.approx(0.1)


def test_lambda_callback_calls_given_functions():
    seen = []
    cb = LambdaCallback(on_train_begin=lambda rc: seen.append("begin"),
                        on_train_step_end=lambda rc: seen.append(rc.original_args().cur_step_num))
    _model().train(1, _dataset(20, 10), callbacks=cb)
    assert seen == ["begin", 1, 2]
    with pytest.raises(TypeError):
        LambdaCallback(on_train_end=3)
