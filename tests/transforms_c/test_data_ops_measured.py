"""The data transforms where tools/data_ops_vs_mindspore.py found this package apart from
MindSpore 2.10: every expected value and error here was measured by calling MindSpore 2.10's
``mindspore.dataset.transforms`` eagerly on the same input."""
import numpy as np
import pytest

import minddata.mstype as mstype
import minddata.transforms as T


@pytest.mark.parametrize("call", [
    lambda: T.Fill(1)(np.zeros((0,), np.int32)),
    lambda: T.Fill(1)([]),
    lambda: T.Duplicate()(np.array([], np.str_)),
    lambda: T.TypeCast(np.float32)(np.zeros((2, 0))),
    lambda: T.Compose([T.TypeCast(np.int32)])(np.zeros(0)),
    lambda: T.Compose([lambda x: x])(np.zeros(0)),
    lambda: T.RandomApply([T.Fill(1)], 0)(np.zeros(0)),
    lambda: T.RandomChoice([lambda x: x])(np.zeros(0)),
    lambda: T.RandomOrder([T.Fill(1)])(np.zeros(0)),
])
def test_an_eager_call_refuses_an_empty_input(call):
    with pytest.raises(RuntimeError, match="Input Tensor has no data"):
        call()


def test_random_order_of_python_functions_takes_an_empty_input():
    # MindSpore's RandomOrder is Python: only its ops' eager calls refuse
    assert T.RandomOrder([lambda x: x])(np.zeros(0)).shape == (0,)


def test_slice_ellipsis_is_one_whole_dimension():
    cube = np.arange(24).reshape(2, 3, 4)
    assert T.Slice(Ellipsis, 1)(cube).tolist() == [[[4, 5, 6, 7]], [[16, 17, 18, 19]]]
    assert T.Slice(Ellipsis, [0, 2])(cube).tolist() == [
        [[0, 1, 2, 3], [8, 9, 10, 11]], [[12, 13, 14, 15], [20, 21, 22, 23]]]
    assert T.Slice(0, Ellipsis, 1)(cube).tolist() == [[[1], [5], [9]]]
    for slices, value in [((Ellipsis, 1), np.arange(6)), ((Ellipsis, Ellipsis), np.arange(6)),
                          ((slice(0, 2, 1), 2, Ellipsis), np.arange(6).reshape(2, 3)),
                          ((Ellipsis,), np.array(5))]:
        with pytest.raises(RuntimeError):
            T.Slice(*slices)(value)


def test_type_cast_to_mstype_string():
    out = T.TypeCast(mstype.string)(np.array(["a"]))
    assert out.dtype.kind == "U" and out.tolist() == ["a"]
    with pytest.raises(RuntimeError):
        T.TypeCast(mstype.string)(np.array([1]))


@pytest.mark.parametrize("data_type, value", [
    (np.bytes_, np.array([b"a"])), (np.complex64, np.array([1])),
    (np.str_, np.array([b"a"])),          # "does not support cast from bytes to string"
])
def test_type_cast_refuses_bytes_and_complex(data_type, value):
    op = T.TypeCast(data_type)        # built, as MindSpore builds it
    with pytest.raises(RuntimeError, match="TypeCast"):
        op(value)


def test_float_to_uint32_casts_as_mindspore():
    values = [np.nan, np.inf, -np.inf, 1e10, -1e10, 300.25, -129.5, 2.0 ** 32 + 5, -0.0]
    assert T.TypeCast(np.uint32)(np.array(values)).tolist() == [
        0, 0, 0, 1410065408, 2884901888, 300, 4294967167, 5, 0]
    assert T.TypeCast(np.uint32)(np.array(values, np.float32)).tolist() == [
        0, 0, 0, 1410065408, 2884901888, 300, 4294967167, 0, 0]


def test_mask_of_a_0d_input_is_an_array():
    out = T.Mask(T.Relational.EQ, 1)(np.array(1))
    assert isinstance(out, np.ndarray) and out.shape == () and out.dtype == np.bool_ and out
    out = T.Mask(T.Relational.NE, 0, mstype.uint32)(3)
    assert isinstance(out, np.ndarray) and out.dtype == np.uint32 and out == 1


def test_mask_refuses_string_and_complex_types_when_it_runs():
    # MindSpore's Mask(..., mstype.complex64) raises a KeyError when built (README deviation)
    for dtype in (mstype.string, mstype.complex64):
        op = T.Mask(T.Relational.EQ, 1, dtype)
        with pytest.raises(RuntimeError, match="Only supports bool or numeric datatype"):
            op(np.array([1]))


@pytest.mark.parametrize("make", [
    lambda: T.RandomApply([T.TypeCast(np.bytes_)], 0),
    lambda: T.RandomApply([T.Mask(T.Relational.EQ, 1, mstype.string)], 0),
    lambda: T.Compose([T.RandomApply([T.TypeCast(np.complex64)], 0)]),
    lambda: T.RandomChoice([T.Compose([T.TypeCast(np.bytes_)])]),
])
def test_a_composite_refuses_a_wrong_type_of_an_op_that_does_not_run(make):
    # MindSpore validates every op of a composite when the composite is called
    with pytest.raises(RuntimeError, match="Invalid data type|Only supports bool or numeric"):
        make()(np.array([1.0]))


def test_a_composite_takes_bytes_as_a_0d_bytes_array():
    assert [a.tolist() for a in T.Compose([T.Duplicate()])(b"xy")] == [b"xy", b"xy"]
    out = T.RandomApply([T.Duplicate()], 0)(b"xy")
    assert out.dtype == np.dtype("S2") and out.shape == ()
    with pytest.raises(RuntimeError, match="does not support cast from bytes to uint8"):
        T.Compose([T.TypeCast(np.uint8)])(b"\xff\xd8")
