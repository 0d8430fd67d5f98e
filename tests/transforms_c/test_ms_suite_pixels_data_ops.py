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
