"""Argument errors of the types MindSpore 2.10 raises (measured against it): a sequence of the
wrong length (a size, a scale/ratio/degrees pair, a kernel size, coordinates, translate,
shear) or a fill_value that is not an int or a 3-tuple is a TypeError; a few of its checks
raise ValueError (a rotation center, RandomErasing's value, RandomSharpness's degrees)."""
import numpy as np
import pytest

import transforms_c.transforms as T
import transforms_c.vision as V


@pytest.mark.parametrize("make", [
    lambda: V.Resize([3]),
    lambda: V.CenterCrop([3]),
    lambda: V.RandomCrop([3]),
    lambda: V.RandomResizedCrop([3]),
    lambda: V.RandomResizedCrop(3, scale=(0.5,)),
    lambda: V.RandomResizedCrop(3, ratio=(1.0,)),
    lambda: V.RandomCropDecodeResize(3, scale=(0.5,)),
    lambda: V.RandomRotation((1, 2, 3)),
    lambda: V.RandomAffine(degrees=(1, 2, 3)),
    lambda: V.RandomAffine(degrees=1, translate=(0.1, 0.2, 0.3)),
    lambda: V.RandomAffine(degrees=1, shear=(1, 2, 3)),
    lambda: V.RandomColorAdjust(brightness=(1, 2, 3)),
    lambda: V.RandomColorAdjust(hue=(0.1,)),
    lambda: V.RandomErasing(scale=(0.1,)),
    lambda: V.GaussianBlur((3,)),
    lambda: V.GaussianBlur(3, sigma=(1.0, 2.0, 3.0)),
    lambda: V.Crop((1,), 3),
    lambda: V.RandomCrop(3, fill_value=[1, 2, 3]),
    lambda: V.RandomCrop(3, fill_value=(1, 2)),
    lambda: V.Pad(1, fill_value=(1, 2, 3, 4)),
    lambda: V.RandomRotation(5, fill_value=(1, 2)),
    lambda: T.TypeCast("abc"),
])
def test_type_errors(make):
    with pytest.raises(TypeError):
        make()


@pytest.mark.parametrize("make", [
    lambda: V.RandomRotation(5, center=(1,)),
    lambda: V.RandomErasing(value=(1, 2)),
    lambda: V.RandomSharpness(degrees=(1.0,)),
])
def test_value_errors(make):
    with pytest.raises(ValueError):
        make()


def test_valid_sequences_still_build():
    V.Resize((3, 4))
    V.RandomCrop(3, fill_value=(1, 2, 3))
    V.RandomRotation(5, center=(1, 2))
    out = T.TypeCast("int32")(np.array([1.5]))
    assert out.dtype == np.int32
