"""MindSpore 2.x's module layout and op details scripts rely on: ds.transforms.transforms,
ds.vision.transforms, ds.vision.utils, Decode of int8 bytes, OneHot's smoothing dtype,
py_transforms Normalize(is_hwc), TypeCast with mstype."""
import importlib

import cv2
import numpy as np
import pytest

import minddata as ds


def test_modules_exist_and_hold_the_same_classes():
    for name in ("minddata.transforms.transforms", "minddata.vision.transforms",
                 "minddata.vision.utils"):
        importlib.import_module(name)
    assert ds.transforms.transforms.TypeCast is ds.transforms.TypeCast
    assert ds.transforms.transforms.Compose is ds.transforms.Compose
    assert ds.vision.transforms.Decode is ds.vision.Decode
    assert ds.vision.transforms.RandomResizedCrop is ds.vision.RandomResizedCrop
    assert ds.vision.utils.Inter is ds.vision.Inter and ds.vision.utils.Border is ds.vision.Border
    assert ds.transforms.RandomOrder is ds.transforms.transforms.RandomOrder
    with pytest.raises(AttributeError):
        ds.vision.NoSuchOp  # noqa: B018


def test_type_cast_takes_mstype():
    from minddata.transforms.transforms import TypeCast
    out = TypeCast(ds.mstype.int32)(np.arange(3.0))
    assert out.dtype == np.int32 and out.tolist() == [0, 1, 2]
    d = ds.NumpySlicesDataset({"x": np.arange(3.0)}, shuffle=False)
    d = d.map(TypeCast(ds.mstype.float16), "x")
    assert next(iter(d))[0].dtype == ds.mstype.float16


def _jpeg_file(tmp_path):
    img = (np.random.default_rng(0).random((20, 30, 3)) * 255).astype(np.uint8)
    ok, enc = cv2.imencode(".jpg", img)
    assert ok
    path = tmp_path / "x.jpg"
    enc.tofile(str(path))
    return str(path)


def test_decode_accepts_int8_bytes(tmp_path):
    path = _jpeg_file(tmp_path)
    signed = np.fromfile(path, dtype="int8")
    want = ds.vision.Decode()(np.fromfile(path, np.uint8))
    assert np.array_equal(ds.vision.Decode()(signed), want)
    d = ds.GeneratorDataset([(signed,)] * 3, ["image"], shuffle=False)
    d = d.map([ds.vision.Decode(), ds.vision.Resize((8, 8)), ds.vision.HWC2CHW()], "image")
    assert [r[0].shape for r in d.create_tuple_iterator(output_numpy=True)] == [(3, 8, 8)] * 3
    # any number type's bytes are decoded, as MindSpore 2.10 does; zeros are no image
    with pytest.raises(RuntimeError, match="not a decodable image"):
        ds.vision.Decode()(np.zeros(10, np.int16))


def test_one_hot_smoothing_dtype():
    from minddata.transforms.transforms import OneHot
    smooth = OneHot(5, smoothing_rate=0.1)(np.array([1, 2], np.int32))
    assert smooth.dtype == np.float64          # MindSpore 2.10 returns float64
    assert smooth[0].tolist() == [0.02, 0.92, 0.02, 0.02, 0.02]
    assert OneHot(5)(np.array(3, np.int32)).dtype == np.int32


def test_py_transforms_normalize_is_hwc():
    import minddata.vision.py_transforms as P
    rng = np.random.default_rng(1)
    hwc = rng.random((4, 5, 3)).astype(np.float32)
    mean, std = [0.5, 0.4, 0.3], [0.2, 0.3, 0.4]
    out = P.Normalize(mean, std, is_hwc=True)(hwc)
    np.testing.assert_allclose(out, (hwc - mean) / np.asarray(std), atol=1e-6)
    chw = P.Normalize(mean, std)(np.ascontiguousarray(hwc.transpose(2, 0, 1)))
    assert np.array_equal(chw.transpose(1, 2, 0), out)
    with pytest.raises(TypeError, match="is_hwc"):
        P.Normalize(mean, std, is_hwc="yes")
    with pytest.raises(RuntimeError, match="HWC"):
        P.Normalize(mean, std, is_hwc=True)(hwc.transpose(2, 0, 1))
