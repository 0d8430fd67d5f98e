"""Model.train refuses sink mode while minddata's pipeline debug mode is on, as MindSpore 2.10
does (its test_pipeline_debug_mode checks it)."""
import pytest

from minddata import config as ds_config
from training import Model, nn, set_seed

from tests.training.conftest import classification_data, make_dataset


def _model():
    set_seed(0)
    net = nn.SequentialCell(nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 3))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return Model(net, loss, nn.Momentum(net.trainable_params(), 0.05, 0.9))


@pytest.fixture
def debug_mode():
    saved_mode, saved_seed = ds_config.get_debug_mode(), ds_config._state["seed"]
    ds_config.set_debug_mode(True)
    yield
    ds_config.set_debug_mode(saved_mode)
    ds_config._state["seed"] = saved_seed


def test_sink_mode_refused_in_debug_mode(debug_mode):
    # measured in MindSpore 2.10: ValueError 'Dataset sink mode is not supported when dataset
    # pipeline debug mode is on. Please manually turn off sink mode.'
    x, y = classification_data(20)
    with pytest.raises(ValueError, match="Dataset sink mode is not supported when dataset "
                                         "pipeline debug mode is on. Please manually turn off "
                                         "sink mode."):
        _model().train(1, make_dataset([x, y], 10), dataset_sink_mode=True)


def test_non_sink_training_runs_in_debug_mode(debug_mode):
    # measured in MindSpore 2.10: debug mode only refuses sink mode
    x, y = classification_data(20)
    model = _model()
    model.train(1, make_dataset([x, y], 10), dataset_sink_mode=False)
    assert model.last_train_stats["steps"] == 2
