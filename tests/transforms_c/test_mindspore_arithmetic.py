"""Rescale, ToTensor and AutoContrast compute what MindSpore 2.10 computes, bit for bit (issue 20,
item 7), in the eager op, on non-uint8 input, in the native pass the fused plans and the batch
engine use, and in a pipeline.

Expected values are derived here from the definitions, not from the implementation:
- MindSpore's Rescale is OpenCV's convertTo: v * float32(rescale) + float32(shift) rounded once
  to float32 (a fused multiply-add); the exact rational result is rounded by `nearest_float32`.
- MindSpore's C++ ToTensor is the same with rescale 1/255 and shift 0 (206 -> 0.8078432); its
  Python implementation (the op called on a PIL image) divides by 255 in float64
  (206 -> 0.80784315).
- AutoContrast: scale = float32(255 / (hi - lo)), offset = float32(-lo * scale), value
  int(float32(v * scale) + offset) truncated, clamped to [0, 255]."""
from fractions import Fraction

import numpy as np
import pytest
from PIL import Image

from transforms_c import _native
from transforms_c.vision import AutoContrast, HWC2CHW, Normalize, Rescale, ToTensor
from minddata.vision import py_transforms as P

EVERY_VALUE = np.arange(256, dtype=np.uint8).reshape(16, 16, 1).repeat(3, axis=2)


def nearest_float32(q):
    """The float32 nearest to the rational q (ties to even)."""
    f = np.float32(float(q))
    best = f
    for g in (np.nextafter(f, np.float32(-np.inf)), np.nextafter(f, np.float32(np.inf))):
        dg, db = abs(Fraction(float(g)) - q), abs(Fraction(float(best)) - q)
        if dg < db or (dg == db and int(g.view(np.uint32)) % 2 == 0):
            best = g
    return best


def fused_rescale(values, rescale, shift):
    a, b = Fraction(float(np.float32(rescale))), Fraction(float(np.float32(shift)))
    return np.array([nearest_float32(int(v) * a + b) for v in values], np.float32)


def test_the_worked_example():
    a = np.float32(1.0) / np.float32(255.0)
    assert nearest_float32(206 * Fraction(float(a))) == np.float32(0.8078432)
    assert np.float32(206 / 255.0) == np.float32(0.80784315)      # the Python division
    img = np.full((1, 1, 3), 206, np.uint8)
    assert ToTensor()(img)[0, 0, 0] == np.float32(0.8078432)
    assert Rescale(1 / 255, 0.0)(img)[0, 0, 0] == np.float32(0.8078432)
    assert ToTensor()(Image.fromarray(img))[0, 0, 0] == np.float32(0.80784315)
    assert P.ToTensor()(Image.fromarray(img))[0, 0, 0] == np.float32(0.80784315)


@pytest.mark.parametrize("rescale,shift", [(1 / 255, 0.0), (1 / 255, -1.0), (1 / 127.5, -1.0),
                                           (0.1, 0.3), (2.5, 1e-3)])
def test_rescale_rounds_the_multiply_add_once(rescale, shift):
    expected = fused_rescale(range(256), rescale, shift)
    out = Rescale(rescale, shift)(EVERY_VALUE)
    for c in range(3):
        assert out[..., c].reshape(-1).tobytes() == expected.tobytes()
    for dtype in (np.float32, np.float64, np.int32, np.uint16):
        other = Rescale(rescale, shift)(EVERY_VALUE.astype(dtype))
        assert other.dtype == np.float32
        assert other[..., 0].reshape(-1).tobytes() == expected.tobytes(), dtype


def test_rescale_then_normalize_in_one_pass_equals_the_ops_in_turn():
    """The fused pass (Rescale then Normalize) starts from the same once-rounded values."""
    mean, std = [0.5, 0.25, 0.75], [0.2, 0.3, 0.4]
    out = np.empty((3, 16, 16), np.float32)
    p = [np.asarray(v, np.float32) for v in ([1 / 255] * 3, [-1.0] * 3, mean, std)]
    _native.resample(EVERY_VALUE, out, 16, 16, _native.INTERP_COPY,
                     point_op=_native.POINT_RESCALE_NORMALIZE, p0=p[0], p1=p[1], p2=p[2],
                     p3=p[3], chw=True)
    by_ops = HWC2CHW()(Normalize(mean, std)(Rescale(1 / 255, -1.0)(EVERY_VALUE)))
    assert out.tobytes() == by_ops.tobytes()
    rescaled = fused_rescale(range(256), 1 / 255, -1.0)
    assert out[0].reshape(-1).tobytes() == (
        (rescaled - np.float32(0.5)) / np.float32(0.2)).astype(np.float32).tobytes()


def test_to_tensor_multiplies_by_float32_one_255th():
    expected = fused_rescale(range(256), 1 / 255, 0.0)
    out = ToTensor()(EVERY_VALUE)
    assert out.shape == (3, 16, 16) and out.dtype == np.float32
    assert out[1].reshape(-1).tobytes() == expected.tobytes()
    for dtype in (np.float32, np.float64, np.int32):
        assert ToTensor()(EVERY_VALUE.astype(dtype))[2].reshape(-1).tobytes() == \
            expected.tobytes(), dtype
    as_f64 = ToTensor(np.float64)(EVERY_VALUE)
    assert as_f64.dtype == np.float64
    np.testing.assert_array_equal(as_f64[0].reshape(-1), expected.astype(np.float64))


def test_to_tensor_on_a_pil_image_divides_in_float64():
    values = np.arange(256) / 255.0
    pil = Image.fromarray(EVERY_VALUE)
    for op in (ToTensor(), P.ToTensor()):
        assert op(pil)[0].reshape(-1).tobytes() == values.astype(np.float32).tobytes()
        np.testing.assert_array_equal(type(op)(np.float64)(pil)[0].reshape(-1), values)


def test_to_tensor_in_a_pipeline_matches_the_eager_op():
    import minddata as ds
    images = [np.random.default_rng(i).integers(0, 256, (6, 7, 3), dtype=np.uint8)
              for i in range(4)]
    data = ds.NumpySlicesDataset({"image": np.stack(images)}, shuffle=False)
    data = data.map([ToTensor()], "image").map([Rescale(0.5, -1.0)], "image").batch(2)
    rows = [r["image"] for r in data.create_dict_iterator(output_numpy=True, num_epochs=1)]
    got = np.concatenate(rows)
    expected = np.stack([Rescale(0.5, -1.0)(ToTensor()(img)) for img in images])
    assert got.tobytes() == expected.tobytes()
    v = fused_rescale([int(images[0][0, 0, 0])], 1 / 255, 0.0)[0]
    assert got[0, 0, 0, 0] == nearest_float32(Fraction(float(v)) * Fraction(1, 2) - 1)


def test_autocontrast_truncates_as_mindspore():
    """lo = 0, hi = 7: scale = float32(255 / 7) = 36.42857 (a little below 255 / 7), so
    v * scale is 36.43, 72.86, 109.29, 145.71, 182.14, 218.57, 254.99998 and the values are
    truncated: 4 -> 145 and 6 -> 218 (rounding would give 146 and 219), and 7 -> 254."""
    img = np.arange(8, dtype=np.uint8).reshape(2, 4)
    np.testing.assert_array_equal(AutoContrast()(img),
                                  [[0, 36, 72, 109], [145, 182, 218, 254]])
    # lo = 100: offset = float32(-100 * scale) = -3642.857; v = 107 gives exactly 255.0.
    img = (np.arange(8, dtype=np.uint8) + 100).reshape(1, 8, 1)
    np.testing.assert_array_equal(AutoContrast()(img).reshape(-1),
                                  [0, 36, 72, 109, 145, 182, 218, 255])


def test_autocontrast_cutoff_and_ignore():
    # 20 pixels, cutoff 10: int(float32(0.1) * 20) = 2 cut from each end, so lo = 20,
    # hi = 170: scale = 1.7, offset = -34; 30 -> int(51 - 34) = 17, 40 -> 34, ...
    img = (np.arange(20, dtype=np.uint8) * 10).reshape(1, 20)
    np.testing.assert_array_equal(
        AutoContrast(cutoff=10.0)(img),
        [[0, 0, 0, 17, 34, 51, 68, 85, 102, 119, 136, 153, 170, 187, 204, 221, 238, 255,
          255, 255]])
    # ignore 0 and 7: lo = 1, hi = 6, scale = 51: exact multiples, 0 -> clamp(-51) = 0,
    # 7 -> clamp(306) = 255.
    img = np.arange(8, dtype=np.uint8).reshape(2, 4, 1).repeat(3, axis=2)
    out = AutoContrast(ignore=[0, 7])(img)
    np.testing.assert_array_equal(out[..., 1].reshape(-1), [0, 0, 51, 102, 153, 204, 255, 255])
    # one value left: the image is returned unchanged
    np.testing.assert_array_equal(AutoContrast(ignore=[0, 1, 2, 3, 4, 5, 6])(img), img)


def test_the_native_batch_engine_rounds_rescale_once(shared_fixtures):
    """MindDataset + Map(Decode, Resize, Rescale, HWC2CHW) + batch runs in the native batch
    engine; its values are the once-rounded multiply-add of the decoded, resized pixels."""
    import minddata as ds
    from transforms_c.vision import Decode, Resize
    path = str(shared_fixtures / "mindrecord" / "i_jpeg" / "i_jpeg.mindrecord")
    ops = [Decode(), Resize((6, 6)), Rescale(1 / 255, -1.0), HWC2CHW()]
    data = ds.MindDataset(path, columns_list=["data"], shuffle=False).map(ops, "data").batch(5)
    assert "native_batch on Batch: fired" in str(data.plan())
    got = next(data.create_tuple_iterator(output_numpy=True, num_epochs=1))[0]
    raw = ds.MindDataset(path, columns_list=["data"], shuffle=False)
    pixels = [Resize((6, 6))(Decode()(r[0]))
              for r in raw.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    expected = np.stack([fused_rescale(p.reshape(-1), 1 / 255, -1.0).reshape(p.shape)
                         .transpose(2, 0, 1) for p in pixels])
    assert got.tobytes() == expected.tobytes()
