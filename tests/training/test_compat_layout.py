"""MindSpore's module layout and top-level names, as the model zoo imports them."""
import importlib
import warnings

import numpy as np
import pytest

import training as ms
from training import context


@pytest.mark.parametrize("module, names", [
    ("training.common", ["dtype", "set_seed", "Tensor", "Parameter", "initializer"]),
    ("training.common.initializer", ["Normal", "TruncatedNormal", "XavierUniform", "HeNormal",
                                     "HeUniform", "Zero", "One", "Constant", "initializer"]),
    ("training.train.callback", ["Callback", "LossMonitor", "ModelCheckpoint", "CheckpointConfig",
                                 "TimeMonitor", "RunContext"]),
    ("training.train.serialization", ["save_checkpoint", "load_checkpoint",
                                      "load_param_into_net"]),
    ("training.train.model", ["Model"]),
    ("training.train.metrics", ["Accuracy", "Loss", "Precision"]),
    ("training.nn.loss", ["SoftmaxCrossEntropyWithLogits", "MSELoss", "L1Loss", "LossBase"]),
    ("training.nn.metrics", ["Accuracy", "Loss", "F1", "Metric"]),
    ("training.nn", ["Accuracy", "Loss", "F1", "Precision", "Recall", "Top1CategoricalAccuracy"]),
    ("training.communication.management", ["init", "get_rank", "get_group_size", "release",
                                           "get_local_rank", "GlobalComm",
                                           "HCCL_WORLD_COMM_GROUP"]),
    ("training.communication", ["init", "get_rank", "get_group_size", "management"]),
    ("training.profiler", ["Profiler"]),
    ("training.context", ["ParallelMode", "set_context", "GRAPH_MODE"]),
    ("training", ["dtype", "ParallelMode", "LossMonitor", "CheckpointConfig", "Callback",
                  "ModelCheckpoint", "TimeMonitor", "Model", "Accuracy", "set_seed",
                  "initializer", "get_seed"]),
])
def test_mindspore_module_layout(module, names):
    mod = importlib.import_module(module)
    missing = [n for n in names if not hasattr(mod, n)]
    assert not missing


def test_dtype_names_are_numpy_types():
    from training import dtype as mstype
    from training.common import dtype
    assert mstype is dtype
    assert mstype.float32 is np.float32 and mstype.int32 is np.int32 and mstype.bool_ is np.bool_
    assert ms.Tensor([1, 2], mstype.float16).dtype == np.float16
    assert mstype.pytype_to_dtype(float) is np.float64     # (MindSpore 2.10: float64)
    assert mstype.dtype_to_pytype(mstype.int8) is int


def test_parallel_mode_values():
    assert ms.ParallelMode is context.ParallelMode
    assert ms.ParallelMode.DATA_PARALLEL == "data_parallel"
    assert ms.ParallelMode.STAND_ALONE == "stand_alone"
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    try:
        assert ms.get_auto_parallel_context("parallel_mode") == "data_parallel"
    finally:
        context.reset_auto_parallel_context()


def test_train_package_names_are_the_implementations():
    from training.callbacks import LossMonitor
    from training.train.callback import LossMonitor as L2
    assert ms.LossMonitor is LossMonitor is L2
    assert ms.train.Model is ms.Model


def test_set_context_keys_without_effect_warn_once_and_unknown_keys_raise():
    with pytest.warns(UserWarning, match="graph_kernel_flags.*no effect"):
        ms.set_context(graph_kernel_flags="--opt_level=2")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ms.set_context(graph_kernel_flags="--opt_level=1")  # once only
    with pytest.raises(ValueError, match="not recognized"):
        ms.set_context(device_tgt="CPU")
    with pytest.raises(ValueError, match="device_target"):
        ms.set_context(device_target="TPU")
    with pytest.warns(UserWarning, match="all_reduce_fusion_config"):
        ms.set_auto_parallel_context(all_reduce_fusion_config=[85, 160])


def test_cell_call_on_a_missing_gpu_warns_and_runs_on_cpu(monkeypatch):
    """As MindSpore: a missing device_target device is a warning and a CPU run; with an
    explicit device_id it is an error; the numpy backend on a present GPU is an error too."""
    from training.backends import devices
    monkeypatch.setattr(devices, "missing_reason", lambda target: "no GPU here")
    net = ms.nn.Dense(3, 2)
    ms.set_context(device_target="GPU")
    try:
        with pytest.warns(UserWarning, match="no GPU here. Running on the CPU"):
            assert net(np.ones((1, 3), np.float32)).shape == (1, 2)
        ms.set_context(device_id=0)
        with pytest.raises(RuntimeError, match="device_id 0 was set explicitly"):
            net(np.ones((1, 3), np.float32))
        monkeypatch.setattr(devices, "missing_reason", lambda target: None)
        ms.set_backend("numpy")
        with pytest.raises(RuntimeError, match="device_target is 'GPU'.*numpy backend"):
            net(np.ones((1, 3), np.float32))
    finally:
        ms.set_backend(None)
        ms.set_context(device_target="CPU")
    assert net(np.ones((1, 3), np.float32)).shape == (1, 2)


def test_profiler_writes_a_trace(tmp_path):
    from training import nn
    from training.profiler import Profiler
    import minddata as ds
    profiler = Profiler(output_path=str(tmp_path))
    data = ds.NumpySlicesDataset((np.ones((8, 3), np.float32), np.zeros(8, np.int32)),
                                 column_names=["x", "y"]).batch(4)
    net = nn.Dense(3, 2)
    ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
             nn.SGD(net.trainable_params(), 0.1)).train(1, data)
    path = profiler.analyse()
    assert path.startswith(str(tmp_path)) and "forward_backward" in open(path).read()
    with pytest.raises(RuntimeError, match="not running"):
        profiler.stop()
    with pytest.raises(ValueError, match="profile_memory"):
        Profiler(output_path=str(tmp_path), profile_memory=True)


def test_tensor_accepts_objects_with_asnumpy():
    class Wrapped:  # minddata's Tensor has this interface
        def __init__(self, a):
            self.a = a

        def asnumpy(self):
            return self.a
    arr = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = ms.Tensor(Wrapped(arr))
    assert t.asnumpy() is arr
    assert ms.nn.Flatten()(Wrapped(arr.reshape(2, 3, 1))).shape == (2, 3)


def test_minddata_tensors_flow_into_cells_ops_and_grad():
    import minddata as ds
    from training import nn, ops
    data = ds.NumpySlicesDataset({"x": np.ones((4, 3), np.float32),
                                  "y": np.arange(4, dtype=np.int32)}, shuffle=False).batch(2)
    net = nn.Dense(3, 2)
    for x, y in data.create_tuple_iterator():  # minddata Tensors (output_numpy=False)
        assert not isinstance(x, ms.Tensor)
        assert ms.Tensor(x).asnumpy() is x.asnumpy()  # zero-copy
        assert net(x).shape == (2, 2)
        grad = ms.grad(lambda a: ops.ReduceSum()(net(a)))(x)
        np.testing.assert_allclose(grad.asnumpy(), np.tile(net.weight.asnumpy().sum(0), (2, 1)),
                                   rtol=1e-6)
        assert ops.Cast()(y, ms.float32).dtype == np.float32


def test_jit_parameter_tuple_and_communication_names():
    from training.communication import management

    @ms.jit
    def double(x):
        return x * 2
    assert double(3) == 6 and ms.ms_function(double) is double
    assert ms.jit(jit_config=None)(double) is double
    with pytest.raises(TypeError, match="Parameter"):
        ms.ParameterTuple([np.ones(2)])
    assert management.HCCL_WORLD_COMM_GROUP == "hccl_world_group"
    if not management.is_initialized():
        with pytest.raises(RuntimeError, match="init"):
            management.get_local_rank()


@pytest.mark.usefixtures("numpy_backend")
def test_tensor_methods_model_code_uses():
    t = ms.Tensor(np.array([[1.0, 5.0], [4.0, 2.0]], np.float32))
    assert float(t.max()) == 5.0 and t.min(axis=0).tolist() == [1.0, 2.0]
    grad = ms.grad(lambda a: a.max(axis=1).sum())(t)
    np.testing.assert_array_equal(grad.asnumpy(), [[0, 1], [1, 0]])
    assert t.expand_dims(0).shape == (1, 2, 2) and t.expand_dims(0).squeeze(0).shape == (2, 2)
    assert (t != 1.0).asnumpy().tolist() == [[False, True], [True, True]]
    assert (t >= 4.0).asnumpy().sum() == 2 and (t <= 2.0).asnumpy().sum() == 2
    assert t.flatten().shape == (4,) and int(ms.Tensor(np.array([3]))) == 3
    net = ms.nn.Dense(2, 2)
    from training.nn import cell
    cell._warned_to_float.clear()  # the warning is once per process
    with pytest.warns(UserWarning, match="float32"):
        assert net.to_float(ms.float16) is net
    assert set(net.init_parameters_data()) == set(net.get_parameters())


def test_top_level_exports_do_not_shadow_packages():
    import sys
    import training.metrics
    import training.model
    assert ms.metrics is sys.modules["training.metrics"]
    assert ms.model is sys.modules["training.model"]
    assert ms.FixedLossScaleManager is ms.amp.FixedLossScaleManager
