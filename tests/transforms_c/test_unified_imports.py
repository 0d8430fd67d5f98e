"""minddata.vision / minddata.transforms expose MindSpore 2.x's names (unified and c/py)."""
import inspect

import minddata.transforms as transforms
import minddata.vision as vision
import transforms_c.vision as native

ISSUE_OPS = ["Decode", "Resize", "CenterCrop", "Crop", "RandomCrop", "RandomResizedCrop",
             "RandomCropDecodeResize", "RandomHorizontalFlip", "RandomVerticalFlip", "Normalize",
             "NormalizePad", "HWC2CHW", "Rescale", "Pad", "RandomColorAdjust", "RandomRotation",
             "Rotate", "RandomAffine", "CutOut", "RandomErasing", "ConvertColor", "Grayscale",
             "AutoContrast", "Equalize", "Invert", "RandomSharpness", "GaussianBlur",
             "RandAugment", "MixUpBatch", "CutMixBatch", "Inter", "Border"]
GENERAL_OPS = ["Compose", "RandomApply", "RandomChoice", "TypeCast", "OneHot", "Fill",
               "Duplicate", "Concatenate", "Mask", "PadEnd", "Slice", "Unique"]


def test_vision_names_are_native_ops():
    for name in ISSUE_OPS:
        assert getattr(vision, name) is getattr(native, name)
        assert getattr(vision.c_transforms, name) is getattr(native, name)


def test_transforms_names():
    for name in GENERAL_OPS:
        assert hasattr(transforms, name) and hasattr(transforms.c_transforms, name)
    for name in ("Compose", "RandomApply", "RandomChoice", "RandomOrder"):
        assert hasattr(transforms.py_transforms, name)


def test_py_transforms_names():
    for name in ("Decode", "ToTensor", "ToPIL", "Resize", "CenterCrop", "RandomCrop",
                 "RandomResizedCrop", "RandomHorizontalFlip", "Normalize", "HWC2CHW",
                 "RandomColorAdjust", "Compose"):
        assert hasattr(vision.py_transforms, name)


def test_signatures_and_defaults_follow_mindspore():
    expected = {
        "Resize": "(size, interpolation=<Inter.BILINEAR: 2>)",
        "RandomResizedCrop": "(size, scale=(0.08, 1.0), ratio=(0.75, 1.3333333333333333), "
                             "interpolation=<Inter.BILINEAR: 2>, max_attempts=10)",
        "RandomCrop": "(size, padding=None, pad_if_needed=False, fill_value=0, "
                      "padding_mode=<Border.CONSTANT: 'constant'>)",
        "Normalize": "(mean, std, is_hwc=True)",
        "RandomColorAdjust": "(brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), "
                             "hue=(0, 0))",
        "RandAugment": "(num_ops=2, magnitude=9, num_magnitude_bins=31, "
                       "interpolation=<Inter.NEAREST: 0>, fill_value=0)",
        "RandomErasing": "(prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, "
                         "inplace=False, max_attempts=10)",
    }
    for name, text in expected.items():
        assert str(inspect.signature(getattr(native, name))) == text, name


def test_transforms_c_does_not_import_minddata():
    import subprocess
    import sys
    code = ("import sys, transforms_c, transforms_c.vision, transforms_c.transforms; "
            "assert not any(m == 'minddata' or m.startswith('minddata.') for m in sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True)
