"""MindSpore's internal dataset modules under `python -m training.compat`'s hook:
mindspore.dataset.engine.* , mindspore.dataset.core.* and mindspore._c_dataengine map onto
minddata.compat_layout, which re-exports the project's public objects."""
import copy
import gc
import importlib

import numpy as np
import pytest

import minddata
from training import compat


@pytest.fixture
def hook():
    finder = compat.install()
    yield finder
    compat.uninstall()


@pytest.mark.parametrize("module, names", [
    ("mindspore.dataset.engine", ["GeneratorDataset", "NumpySlicesDataset", "MindDataset",
                                  "TFRecordDataset", "CSVDataset", "ImageFolderDataset",
                                  "MnistDataset", "Cifar10Dataset", "Cifar100Dataset",
                                  "DistributedSampler", "RandomSampler", "SequentialSampler",
                                  "DatasetCache", "DSCallback", "WaitedDSCallback", "Schema",
                                  "Shuffle", "Dataset", "zip"]),
    ("mindspore.dataset.engine.datasets", ["Dataset", "SourceDataset", "Schema", "Shuffle",
                                           "BatchInfo", "zip"]),
    ("mindspore.dataset.engine.datasets_user_defined", ["GeneratorDataset",
                                                        "NumpySlicesDataset"]),
    ("mindspore.dataset.engine.datasets_standard_format", ["MindDataset", "TFRecordDataset",
                                                           "CSVDataset"]),
    ("mindspore.dataset.engine.datasets_vision", ["ImageFolderDataset", "MnistDataset",
                                                  "Cifar10Dataset", "Cifar100Dataset"]),
    ("mindspore.dataset.engine.samplers", ["Sampler", "DistributedSampler", "PKSampler",
                                           "RandomSampler", "SequentialSampler",
                                           "SubsetRandomSampler", "SubsetSampler",
                                           "WeightedRandomSampler", "Shuffle"]),
    ("mindspore.dataset.engine.cache_client", ["DatasetCache"]),
])
def test_engine_modules_re_export_the_project_objects(hook, module, names):
    mod = importlib.import_module(module)
    for name in names:
        assert getattr(mod, name) is getattr(minddata, name), name
        assert name in mod.__all__
    star = {}
    exec(f"from {module} import *", star)  # noqa: S102  (MindSpore's engine star-imports these)
    assert set(names) <= set(star)
    assert hook.mapped[module].startswith("minddata.compat_layout.engine")


def test_names_the_project_lacks_are_absent_not_stubbed(hook):
    import mindspore.dataset.engine.samplers as samplers
    import mindspore.dataset.engine.datasets_vision as vision
    with pytest.raises(AttributeError, match=r"mindspore.dataset.engine.samplers."
                                             r"BuiltinSampler \(MindSpore API\) is not "
                                             r"provided"):
        samplers.BuiltinSampler  # noqa: B018
    assert not hasattr(samplers, "BuiltinSampler")
    assert "BuiltinSampler" not in samplers.__all__
    with pytest.raises(ImportError):
        from mindspore.dataset.engine.datasets import MappableDataset  # noqa: F401
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchName'"):
        vision.NoSuchName  # noqa: B018


def test_core_config_is_the_config_module(hook):
    from mindspore.dataset.core import config
    from mindspore.dataset.core.config import get_seed, set_seed
    import mindspore.dataset.engine as de
    assert config is minddata.config and de.config is minddata.config
    assert get_seed is minddata.config.get_seed and set_seed is minddata.config.set_seed


def test_uninstall_gives_minddata_its_engine_attribute_back(hook):
    real = importlib.import_module("minddata.engine")
    import mindspore.dataset.engine  # noqa: F401  (the import system sets minddata.engine)
    import mindspore.dataset.core.config  # noqa: F401
    import mindspore.train.serialization  # noqa: F401
    import training.train
    assert minddata.engine is not real
    compat.uninstall()
    assert minddata.engine is real
    assert "core" not in vars(minddata)
    from minddata.compat_layout import core
    assert core.config is minddata.config  # attributes that were right stay
    assert training.train.serialization.save_checkpoint is training.save_checkpoint


def _iterators(n):
    data = minddata.NumpySlicesDataset(np.arange(4), column_names=["x"], shuffle=False)
    return [data.create_tuple_iterator(num_epochs=1, output_numpy=True) for _ in range(n)]


def test_iterators_list_holds_weak_references(hook):
    from mindspore.dataset.engine.iterators import ITERATORS_LIST, track
    ITERATORS_LIST.clear()
    itr1, itr2, itr3 = (track(i) for i in _iterators(3))
    assert len(ITERATORS_LIST) == 3 and all(ref() is not None for ref in ITERATORS_LIST)
    del itr1
    gc.collect()
    assert len(ITERATORS_LIST) == 2
    del itr2, itr3
    gc.collect()
    assert ITERATORS_LIST == []


def test_cleanup_stops_every_tracked_iterator(hook):
    import mindspore.dataset.engine.iterators as it
    from mindspore.dataset.engine.iterators import _cleanup, _unset_iterator_cleanup
    it.ITERATORS_LIST.clear()
    first, second = (it.track(i) for i in _iterators(2))
    assert next(second) == [np.array(0)]
    assert not it.check_iterator_cleanup()
    _cleanup()
    assert it.check_iterator_cleanup() and it.ITERATORS_LIST == []
    for stopped in (first, second):
        with pytest.raises((StopIteration, RuntimeError)):
            next(stopped)
    _unset_iterator_cleanup()
    assert not it.check_iterator_cleanup()
    _cleanup()  # nothing left to stop


def test_c_dataengine_tensor_shares_its_array(hook):
    import mindspore._c_dataengine as cde
    source = np.array([1, 2, 3, 4, 5])
    t = cde.Tensor(source)
    view = np.array(t, copy=False)
    view[0] = 0
    assert source[0] == 1  # the Tensor holds a copy of what it was given
    assert t.as_array()[0] == 0 and t.as_array().__array_interface__["data"] == \
        view.__array_interface__["data"]
    assert t.type() == cde.DataType("int64") and t.type() != cde.DataType("int32")
    assert t.shape().as_list() == [5] and str(t).startswith("Tensor (shape: <5>, Type: int64)")
    strided = np.arange(6).reshape(2, 3)
    np.testing.assert_array_equal(np.array(cde.Tensor(strided[:, 1]), copy=False), [1, 4])
    np.testing.assert_array_equal(np.array(cde.Tensor(strided.T), copy=False), strided.T)
    assert cde.Tensor(np.array(["ab", "c"])).type() == cde.DataType("string")
    assert cde.Tensor(np.array([b"ab"])).type() == cde.DataType("bytes")
    with pytest.raises(TypeError, match="bool, numbers, str or bytes"):
        cde.Tensor(np.array([{}], dtype=object))


def test_c_dataengine_shape_and_data_type(hook):
    import mindspore._c_dataengine as cde
    shape = cde.TensorShape([2, 3])
    assert shape.as_list() == [2, 3] and shape.is_known() and str(shape) == "<2,3>"
    assert not cde.TensorShape([2, -1]).is_known()
    dt = cde.DataType("float32")
    assert str(dt) == "float32" and dt.to_numpy() == np.float32 and not dt.is_python()
    assert copy.deepcopy(dt) is dt and len({dt, cde.DataType("float32")}) == 1
    assert cde.DataType("python").is_python()
    with pytest.raises(ValueError, match="invalid data type 'float8'"):
        cde.DataType("float8")


def test_core_datatypes_convert_numpy_and_mindspore_types(hook):
    import mindspore._c_dataengine as cde
    import mindspore.common.dtype as mstype
    from mindspore.dataset.core.datatypes import (mstype_to_detype, mstypelist_to_detypelist,
                                                  nptype_to_detype)
    for name in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float16", "float32", "float64"):
        assert nptype_to_detype(np.dtype(name)) == cde.DataType(name)
        assert nptype_to_detype(getattr(np, name if name != "bool" else "bool_")) == \
            cde.DataType(name)
    assert nptype_to_detype(int) == cde.DataType("int64") == nptype_to_detype(np.dtype("int"))
    assert nptype_to_detype(str) == cde.DataType("string") == nptype_to_detype(np.dtype("str"))
    assert nptype_to_detype(bool) == cde.DataType("bool")
    assert mstype_to_detype(mstype.int32) == cde.DataType("int32")
    assert mstype_to_detype(minddata.mstype.float16) == cde.DataType("float16")
    assert mstype_to_detype(minddata.mstype.string) == cde.DataType("string")
    assert mstypelist_to_detypelist([mstype.uint8, None]) == [cde.DataType("uint8"), None]
    with pytest.raises(TypeError, match="not a MindSpore data type"):
        mstype_to_detype(np.complex64)


def test_an_iterator_freed_while_the_registry_is_locked_does_not_deadlock():
    """A collection can free a tracked iterator inside any locked block of the registry (seen
    in CI: inside track()); its weak reference's callback takes the lock again."""
    import threading
    from minddata.compat_layout import iterator_registry as registry

    class Iterator:
        def stop(self):
            pass
    box = [Iterator()]
    registry.track(box[0])
    done = threading.Event()

    def free_inside_the_lock():
        with registry._lock:
            box.clear()             # the last reference: the callback runs here
        done.set()
    worker = threading.Thread(target=free_inside_the_lock, daemon=True)
    worker.start()
    worker.join(10)
    assert done.is_set()


def test_audio_datasets_under_their_engine_module(hook):
    import mindspore.dataset.engine.datasets_audio as audio
    assert audio.YesNoDataset is minddata.YesNoDataset
    assert "LJSpeechDataset" in audio.__all__ and audio.TedliumDataset is minddata.TedliumDataset
