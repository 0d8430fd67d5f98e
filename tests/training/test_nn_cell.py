"""Cell registration, MindSpore parameter names, train mode and shape errors."""
import numpy as np
import pytest

from training import nn
from training.nn.wrappers import TrainOneStepCell, WithLossCell
from training.tensor import Tensor

from tests.training.conftest import LeNet5


def test_parameter_names_follow_attribute_paths():
    names = [n for n, _ in LeNet5().parameters_and_names()]
    assert names == ["conv1.weight", "conv2.weight", "fc1.weight", "fc1.bias", "fc2.weight",
                     "fc2.bias", "fc3.weight", "fc3.bias"]


def test_wrappers_keep_the_network_names():
    net = LeNet5()
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    train = TrainOneStepCell(WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True)), opt)
    names = [n for n, _ in train.parameters_and_names()]
    assert "conv1.weight" in names and "moments.fc3.bias" in names and "learning_rate" in names
    assert [p.name for p in net.trainable_params()][0] == "conv1.weight"


def test_sequential_cell_names_are_indices():
    seq = nn.SequentialCell(nn.Dense(2, 3), nn.ReLU(), nn.Dense(3, 1))
    assert [n for n, _ in seq.parameters_and_names()] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert len(seq) == 3 and isinstance(seq[1], nn.ReLU)


def test_set_train_reaches_every_sub_cell():
    net = nn.SequentialCell(nn.Dense(2, 2), nn.Dropout(p=0.5))
    net.set_train(True)
    assert all(c.training for _, c in net.cells_and_names())
    net.set_train(False)
    x = np.ones((4, 2), np.float32)
    np.testing.assert_array_equal(net(x).asnumpy(), net(x).asnumpy())  # dropout off


def test_dropout_scales_kept_values_in_training():
    drop = nn.Dropout(p=0.5).set_train(True)
    out = drop(np.ones((1000,), np.float32)).asnumpy()
    assert set(np.unique(out)) <= {0.0, 2.0}
    assert 300 < (out == 0).sum() < 700


def test_rgb_input_to_gray_lenet_names_layer_and_shapes():
    net = LeNet5()
    with pytest.raises(ValueError, match=r"conv1.*\(N, 1, H, W\).*\(2, 3, 32, 32\)"):
        net(np.zeros((2, 3, 32, 32), np.float32))


def test_28x28_input_to_32x32_lenet_fails_at_fc1():
    net = LeNet5()
    with pytest.raises(ValueError, match=r"'fc1'.*\(N, 400\).*\(2, 256\)"):
        net(np.zeros((2, 1, 28, 28), np.float32))


def test_constructor_argument_errors():
    with pytest.raises(ValueError, match="in_channels"):
        nn.Dense(0, 3)
    with pytest.raises(ValueError, match="pad_mode"):
        nn.Conv2d(1, 2, 3, pad_mode="full")
    with pytest.raises(ValueError, match="keep_prob"):
        nn.Dropout(keep_prob=0.0)
    with pytest.raises(ValueError, match="reduction"):
        nn.MSELoss(reduction="avg")


def test_forward_hook_sees_inputs_and_outputs():
    dense = nn.Dense(3, 2)
    seen = []
    handle = dense.register_forward_hook(lambda cell, inputs, out: seen.append(out.shape))
    dense(Tensor(np.ones((5, 3), np.float32)))
    handle.remove()
    dense(Tensor(np.ones((5, 3), np.float32)))
    assert seen == [(5, 2)]


def test_with_eval_cell_add_cast_fp32_casts_float_outputs_and_labels():
    """add_cast_fp32 was once accepted and ignored: a float16 network's outputs reached the
    metrics as float16. As MindSpore's WithEvalCell, float outputs and labels become float32;
    integer labels stay as they are."""
    import training
    from training import ops

    class Half(nn.Cell):
        def construct(self, x):
            return ops.cast(x, training.float16)

    data = Tensor(np.ones((2, 2), np.float32))
    for label, cast_label in ((np.array([1.0, 2.0], np.float16), np.float32),
                              (np.array([1, 2], np.int32), np.int32)):
        _, outputs, out_label = nn.WithEvalCell(Half(), None, add_cast_fp32=True)(data,
                                                                                   Tensor(label))
        assert outputs.asnumpy().dtype == np.float32
        assert out_label.asnumpy().dtype == cast_label
    _, outputs, _ = nn.WithEvalCell(Half(), None)(data, Tensor(label))
    assert outputs.asnumpy().dtype == np.float16
