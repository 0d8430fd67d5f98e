"""Constructor checks: MindSpore's error types (TypeError for types, ValueError for ranges)."""
import numpy as np
import pytest

import transforms_c.vision as V
from transforms_c.transforms import OneHot, PadEnd, RandomApply, TypeCast

CASES = [
    (lambda: V.CenterCrop(0), ValueError),
    (lambda: V.CenterCrop("3"), TypeError),
    (lambda: V.RandomCrop(10, padding=-1), ValueError),
    (lambda: V.RandomCrop(10, pad_if_needed=1), TypeError),
    (lambda: V.RandomCrop(10, fill_value=(1, 2)), TypeError),     # MindSpore 2.10's type
    (lambda: V.RandomCrop(10, padding_mode=0), TypeError),
    (lambda: V.RandomVerticalFlip(-0.1), ValueError),
    (lambda: V.NormalizePad([1], [1], dtype=np.float32), TypeError),
    (lambda: V.Normalize([1], [1], is_hwc=1), TypeError),
    (lambda: V.Rescale(1.0, None), TypeError),
    (lambda: V.RandomColorAdjust(saturation=(2, 1)), ValueError),
    (lambda: V.RandomRotation((10, 5)), ValueError),
    (lambda: V.Rotate("30"), TypeError),
    (lambda: V.Rotate(30, center=(1,)), ValueError),
    (lambda: V.Rotate(30, expand="yes"), TypeError),
    (lambda: V.RandomAffine(-1), ValueError),
    (lambda: V.RandomAffine(5, resample=1), TypeError),
    (lambda: V.CutOut(10, num_patches=0), ValueError),
    (lambda: V.CutOut(10.5), TypeError),
    (lambda: V.RandomErasing(prob=2), ValueError),
    (lambda: V.RandomErasing(scale=(0.5, 0.1)), ValueError),
    (lambda: V.RandomErasing(max_attempts=0), ValueError),
    (lambda: V.GaussianBlur(3, sigma=-1.0), ValueError),
    (lambda: V.GaussianBlur((3, 3, 3)), TypeError),
    (lambda: V.RandAugment(num_magnitude_bins=1), ValueError),
    (lambda: V.RandAugment(num_ops=-1), ValueError),
    (lambda: V.RandAugment(interpolation="nearest"), TypeError),
    (lambda: V.MixUpBatch(-1.0), ValueError),
    (lambda: V.CutMixBatch(V.ImageBatchFormat.NHWC, prob=1.5), ValueError),
    (lambda: V.RandomSharpness(0.5), TypeError),
    (lambda: V.AutoContrast(ignore="1"), TypeError),
    (lambda: V.Grayscale("1"), TypeError),
    (lambda: V.Decode(to_pil="no"), TypeError),
    (lambda: V.RandomCropDecodeResize(10, max_attempts=-2), ValueError),
    (lambda: OneHot(3, smoothing_rate=1.5), ValueError),
    (lambda: OneHot(3.0), TypeError),
    (lambda: PadEnd(3), TypeError),
    (lambda: RandomApply([V.Invert()], prob=-0.5), ValueError),
    (lambda: TypeCast("not_a_type"), TypeError),
]


@pytest.mark.parametrize("make,exc", CASES)
def test_bad_argument_raises_at_construction(make, exc):
    with pytest.raises(exc):
        make()


def test_error_message_names_the_argument():
    with pytest.raises(ValueError, match="prob"):
        V.RandomHorizontalFlip(3)
    with pytest.raises(TypeError, match="interpolation"):
        V.Resize(3, interpolation=2)
