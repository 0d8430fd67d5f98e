"""minddata.Tensor and minddata.mstype: what iterators return with output_numpy=False."""
import copy
import pickle

import numpy as np
import pytest

import minddata as ds
from minddata import mstype
from minddata.tensor import Tensor
from .engine_helpers import numbers


def test_default_iterators_return_zero_copy_tensors():
    d = ds.NumpySlicesDataset({"a": np.arange(6, dtype=np.float32).reshape(3, 2),
                               "s": np.array(["x", "yy", "z"])}, shuffle=False)
    row = next(iter(d))
    assert isinstance(row[0], Tensor) and isinstance(row[1], np.ndarray)   # strings stay numpy
    t = row[0]
    assert t.shape == (2,) and t.dtype == mstype.float32 and str(t.dtype) == "Float32"
    assert np.asarray(t) is t.asnumpy()
    d_row = next(d.create_dict_iterator())
    assert isinstance(d_row["a"], Tensor) and d_row["a"].asnumpy().tolist() == [0.0, 1.0]
    assert isinstance(next(d.create_dict_iterator(output_numpy=True))["a"], np.ndarray)


def test_do_copy_gives_private_arrays():
    data = np.arange(4, dtype=np.int32).reshape(2, 2)
    d = ds.NumpySlicesDataset({"a": data}, shuffle=False)
    first = next(d.create_tuple_iterator(do_copy=True))[0].asnumpy()
    first[0] = 99
    assert next(d.create_tuple_iterator())[0].asnumpy().tolist() == [0, 1]
    with pytest.raises(TypeError, match="output_numpy"):
        d.create_tuple_iterator(output_numpy=1)


def test_tensor_interface():
    t = Tensor.from_numpy(np.arange(6, dtype=np.int64).reshape(2, 3))
    assert (t.ndim, t.size, t.itemsize, t.nbytes) == (2, 6, 8, 48)
    assert isinstance(t[1], Tensor) and t[1].tolist() == [3, 4, 5]
    assert int(t[1, 2]) == 5 and float(t[0, 1]) == 1.0 and t[0, 0].item() == 0
    assert len(t) == 2 and [r.tolist() for r in t] == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(TypeError, match="0-D"):
        len(t[0, 0])
    assert t.astype(mstype.float16).dtype == mstype.float16
    assert t.astype(np.int8).asnumpy().dtype == np.int8
    assert t.T.shape == (3, 2) and t.reshape(3, 2).shape == (3, 2)
    assert [0, 1, 2, 3][t[0, 2]] == 2                       # __index__
    t[0, 0] = 7
    assert t.asnumpy()[0, 0] == 7


def test_tensor_arithmetic_and_numpy_functions_give_tensors():
    t = Tensor(np.array([1.0, 2.0], np.float32))
    s = t + 1
    assert isinstance(s, Tensor) and s.tolist() == [2.0, 3.0] and s.dtype == mstype.float32
    eq = t == 2
    assert isinstance(eq, Tensor) and eq.dtype == mstype.bool_ and eq.tolist() == [False, True]
    assert float(np.mean(t)) == 1.5 and isinstance(np.sum(t), Tensor)
    assert isinstance(np.sqrt(t), Tensor)
    assert np.array_equal(np.asarray(t * t), [1.0, 4.0])


def test_tensor_construction_rules():
    assert Tensor(1.5).dtype == mstype.float32          # Python floats -> float32
    assert Tensor([1, 2]).dtype == mstype.int64
    assert Tensor(np.float64(1)).dtype == mstype.float64
    assert Tensor([1, 2], dtype=mstype.float16).dtype == mstype.float16
    src = np.zeros(3, np.float32)
    assert not np.shares_memory(Tensor(src).asnumpy(), src)
    assert np.shares_memory(Tensor.from_numpy(src).asnumpy(), src)
    with pytest.raises(TypeError):
        Tensor(np.array(["a"]))
    with pytest.raises(TypeError):
        Tensor([1], dtype=mstype.string)
    with pytest.raises(ValueError):
        Tensor(None)


def test_tensor_repr_follows_mindspore():
    assert repr(Tensor(np.array([0.0, 1.0], np.float32))) == \
        "Tensor(shape=[2], dtype=Float32, value= [0., 1.])"
    assert repr(Tensor(np.array(True))) == "Tensor(shape=[], dtype=Bool, value= True)"
    assert repr(Tensor(np.zeros((2, 3), np.uint8))) == \
        "Tensor(shape=[2, 3], dtype=UInt8, value=\n[[0, 0, 0],\n [0, 0, 0]])"


def test_tensor_pickles_and_copies():
    t = Tensor.from_numpy(np.arange(3))
    back = pickle.loads(pickle.dumps(t))
    assert isinstance(back, Tensor) and back.tolist() == [0, 1, 2]
    deep = copy.deepcopy(t)
    deep[0] = 5
    assert t.tolist() == [0, 1, 2]
    assert {t: 1}[t] == 1                                  # hashable by identity


def test_mstype_objects():
    assert str(mstype.uint8) == "UInt8" and repr(mstype.float32) == "mindspore.float32"
    assert mstype.float32 == mstype.single and mstype.float32 != mstype.float64
    # equal to the numpy type it stands for (training's mstype names are numpy's types)
    assert mstype.float32 == np.float32 and np.dtype("float32") == mstype.float32
    assert mstype.float32 != np.float64 and mstype.int8 != "int8"
    assert {np.int32: 1}[mstype.int32] == 1               # hashed as the numpy scalar type
    assert np.dtype(mstype.int16) == np.int16              # numpy's dtype-like protocol
    assert np.zeros(2).astype(mstype.int32).dtype == np.int32
    assert mstype.dtype_to_nptype(mstype.float16) is np.float16
    assert mstype.dtype_to_pytype(mstype.int8) is int
    assert mstype.pytype_to_dtype(np.uint16) == mstype.uint16
    assert mstype.pytype_to_dtype(float) == mstype.float64
    assert pickle.loads(pickle.dumps(mstype.int64)) is mstype.int64
    assert isinstance(mstype.float32, mstype.Float) and mstype.int8 in mstype.int_type
    with pytest.raises(ValueError):
        mstype.pytype_to_dtype(np.dtype("datetime64[s]"))


def test_column_types_accept_mstype():
    # the values must have the column's type (measured in MindSpore 2.10: never cast)
    d = ds.GeneratorDataset([(np.int8(1),), (np.int8(2),)], ["a"], column_types=[mstype.int8],
                            shuffle=False)
    out = next(iter(d))[0]
    assert out.dtype == mstype.int8


def test_every_stage_output_converted_once():
    # batch output, repeat, project: always Tensors with output_numpy=False
    d = numbers(6).batch(4).repeat(2).project(["y"])
    got = [r[0] for r in d.create_tuple_iterator(num_epochs=1)]
    assert all(isinstance(t, Tensor) for t in got)
    assert [t.shape for t in got] == [(4,), (2,), (4,), (2,)]
