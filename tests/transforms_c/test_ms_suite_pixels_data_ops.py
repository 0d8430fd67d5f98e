"""Behaviours of the pixel/colour vision ops, ToTensor/ToPIL/ToType and the data transforms
(mindspore.dataset.transforms) that MindSpore's own dataset tests check, each as measured in
MindSpore 2.10 (values, dtypes, error types and the words of its messages)."""
import numpy as np
import pytest

import transforms_c.transforms as T
import transforms_c.vision as V


def test_type_error_text_is_mindspores():
    # measured in MindSpore 2.10: the value as str() (no quotes), the types and the type got as
    # classes.
    with pytest.raises(TypeError) as info:
        T.OneHot(3, "a")
    assert str(info.value) == ("Argument smoothing_rate with value a is not of type "
                               "[<class 'int'>, <class 'float'>], but got <class 'str'>.")
    with pytest.raises(TypeError, match=r"Argument num_classes with value 2.5 is not of type "
                                        r"\[<class 'int'>\], but got <class 'float'>\."):
        T.OneHot(2.5)


def test_bool_for_int_lists_the_types_as_a_tuple():
    # measured in MindSpore 2.10: OneHot(True) -> "... is not of type (<class 'int'>,), but got
    # <class 'bool'>."
    with pytest.raises(TypeError, match=r"value True is not of type \(<class 'int'>,\), but got "
                                        r"<class 'bool'>\."):
        T.OneHot(True)


@pytest.mark.parametrize("relation, constant, dtype, expected", [
    # measured in MindSpore 2.10: the constant is cast to the input's type first
    (T.Relational.EQ, 3.5, np.int64, [False, False, True, False]),
    (T.Relational.LT, 3.5, np.int64, [True, True, False, False]),
    (T.Relational.EQ, 2.7, np.int32, [False, True, False, False]),
    (T.Relational.GT, -1, np.uint8, [False, False, False, False]),     # -1 is 255
    (T.Relational.EQ, 300, np.uint8, [False, False, False, False]),    # 300 is 44
])
def test_mask_casts_the_constant_to_the_input_type(relation, constant, dtype, expected):
    out = T.Mask(relation, constant)(np.array([1, 2, 3, 4], dtype))
    assert out.dtype == np.bool_ and out.tolist() == expected


def test_mask_strings_and_errors():
    # measured in MindSpore 2.10: str and bytes constants compare with either kind of strings
    assert T.Mask(T.Relational.EQ, "b")(np.array([b"a", b"b"])).tolist() == [False, True]
    assert T.Mask(T.Relational.EQ, b"b")(np.array(["a", "b"])).tolist() == [False, True]
    assert T.Mask(T.Relational.EQ, 44, np.int32)(np.array([44, 1], np.uint8)).tolist() == [1, 0]
    with pytest.raises(RuntimeError, match="input datatype does not match the value datatype"):
        T.Mask(T.Relational.EQ, "3.5")(np.array([1, 2]))
    with pytest.raises(RuntimeError, match="input datatype does not match the value datatype"):
        T.Mask(T.Relational.EQ, 3.5)(np.array(["1", "2"]))
    with pytest.raises(RuntimeError, match="Only supports bool or numeric datatype for "
                                           "generated mask type"):
        T.Mask(T.Relational.EQ, "3.5", "str")
    with pytest.raises(TypeError, match=r"Argument operator with value 0 is not of type "
                                        r"\[<enum 'Relational'>\], but got <class 'int'>\."):
        T.Mask(0, 1)


def test_fill_casts_the_value_as_mindspore():
    # measured in MindSpore 2.10: a C cast to the input's type
    u8 = np.array([4, 5], np.uint8)
    assert T.Fill(-3)(u8).tolist() == [253, 253]
    assert T.Fill(300)(u8).tolist() == [44, 44]
    out = T.Fill(2.7)(np.array([1, 2, 3]))
    assert out.dtype == np.int64 and out.tolist() == [2, 2, 2]
    with pytest.raises(TypeError, match=r"Argument fill_value with value \[1\] is not of type "
                                        r"\[<class 'str'>, <class 'float'>, <class 'bool'>, "
                                        r"<class 'int'>, <class 'bytes'>\], but got "
                                        r"<class 'list'>\."):
        T.Fill([1])


def test_slice_arguments_as_mindspore():
    # measured in MindSpore 2.10
    data = np.array([1, 2, 3, 4, 5])
    assert T.Slice()(data).tolist() == [1, 2, 3, 4, 5]
    assert T.Slice(True)(data).tolist() == [1, 2, 3, 4, 5]
    for empty in ([], False):
        with pytest.raises(RuntimeError, match="Both indices and slices can not be empty."):
            T.Slice(empty)(data)
    with pytest.raises(RuntimeError, match="Index 5 is out of bounds."):
        T.Slice([5])(data)
    with pytest.raises(RuntimeError, match="Index -1 is out of bounds."):
        T.Slice([-6])(data)
    with pytest.raises(RuntimeError, match="Invalid shape, should be greater than slices index."):
        T.Slice(0, 0)(data)
    with pytest.raises(TypeError, match=r"Argument slice_option\[0\] with value \[0, 1\] is not "
                                        r"of type \[<class 'int'>\], but got <class 'list'>\."):
        T.Slice([[0, 1]])
    with pytest.raises(TypeError, match=r"Argument slice with value a is not of type "
                                        r"\[<class 'int'>, <class 'list'>, <class 'slice'>, "
                                        r"<class 'bool'>, <class 'ellipsis'>"):
        T.Slice("a")


def test_concatenate_and_pad_end_type_errors():
    # measured in MindSpore 2.10: Concatenate compares types before ranks, names them as
    # MindSpore does; PadEnd refuses to mix numbers, str and bytes
    with pytest.raises(RuntimeError, match="input datatype does not match the prepend datatype, "
                                           "got input datatype: bytes, prepend datatype:float64"):
        T.Concatenate(0, np.array([3.0, 5.0]))(np.array([[b"s"], [b"a"]]))
    with pytest.raises(RuntimeError, match="got input datatype: string, prepend datatype:bytes"):
        T.Concatenate(0, np.array([b"dw"]))(np.array(["1"]))
    with pytest.raises(TypeError, match=r"Argument prepend with value \[1, 2\] is not of type "
                                        r"\[<class 'numpy.ndarray'>\], but got <class 'list'>\."):
        T.Concatenate(0, [1, 2])
    with pytest.raises(RuntimeError, match="PadEnd: can not pad numeric and string tensors "
                                           "together, but got: int64 and string."):
        T.PadEnd([3], 1)(np.array(["a", "b"]))
    with pytest.raises(RuntimeError, match="PadEnd: can not pad string and byte tensors "
                                           "together, but got: string and bytes."):
        T.PadEnd([3], "x")(np.array([b"a", b"b"]))
    with pytest.raises(RuntimeError, match="PadEnd: invalid pad shape, as rank of input is: 1, "
                                           "and rank of pad value: 2"):
        T.PadEnd([3, 3])(np.array([1, 2]))


def test_duplicate_and_type_cast_words():
    # measured in MindSpore 2.10
    with pytest.raises(RuntimeError, match="Duplicate: only supports transform one column each "
                                           "time, got column num: 2"):
        T.Duplicate()(np.array([1]), np.array([2]))
    with pytest.raises(TypeError, match=r"Argument data_type with value junk is not of type "
                                        r"\[<class 'mindspore._c_expression.typing.Type'>, "
                                        r"<class 'numpy.dtype'>\], but got <class 'str'>\."):
        T.TypeCast("junk")
