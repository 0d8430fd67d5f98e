"""POINT_RESCALE_NORMALIZE of the resample pass: Rescale then Normalize in one pass, bit-identical
to the two ops run one after the other (Rescale's native float32 fma(v, r, s), then Normalize's
numpy float32 (t - mean) / std), with or without a resize, window, flips and CHW layout."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from transforms_c import _native
from transforms_c.vision import HWC2CHW, Inter, Normalize, Rescale, Resize

from tests.transforms_c.tc_samples import jpeg_bytes, natural_rgb

finite = st.floats(-1e3, 1e3, allow_nan=False, width=32)
positive = st.floats(0.0625, 255.0, allow_nan=False, width=32)
# Rescale refuses a negative rescale when it runs (as MindSpore 2.10)
not_negative = st.floats(0.0, 1e3, allow_nan=False, width=32)


def unfused(img, rescale, shift, mean, std):
    return Normalize(mean, std)(Rescale(rescale, shift)(img))


def values(*arrays):
    return [np.asarray(a, np.float32) for a in arrays]


@settings(deadline=None, max_examples=60)
@given(channels=st.integers(1, 4), rescale=not_negative, shift=finite,
       mean=st.lists(st.floats(0.0, 255.0, width=32), min_size=4, max_size=4),
       std=st.lists(positive, min_size=4, max_size=4), seed=st.integers(0, 2**32 - 1))
def test_bit_identical_to_rescale_then_normalize(channels, rescale, shift, mean, std, seed):
    img = np.random.default_rng(seed).integers(0, 256, (9, 11, channels), dtype=np.uint8)
    mean, std = mean[:channels], std[:channels]
    out = np.empty(img.shape, np.float32)
    r, s, m, d = values([rescale] * channels, [shift] * channels, mean, std)
    _native.resample(img, out, 11, 9, _native.INTERP_COPY,
                     point_op=_native.POINT_RESCALE_NORMALIZE, p0=r, p1=s, p2=m, p3=d)
    expected = unfused(img, rescale, shift, mean, std)
    assert out.tobytes() == np.ascontiguousarray(expected, np.float32).tobytes()


def test_every_sample_value_of_the_cifar_chain():
    """All 256 values per channel through Rescale(1/255) and ImageNet-style mean/std."""
    img = np.arange(256 * 3, dtype=np.int64).reshape(16, 16, 3).astype(np.uint8)
    mean, std = [0.4914, 0.4822, 0.4465], [0.247, 0.243, 0.261]
    out = np.empty(img.shape, np.float32)
    r, s, m, d = values([1 / 255] * 3, [0.0] * 3, mean, std)
    _native.resample(img, out, 16, 16, _native.INTERP_COPY,
                     point_op=_native.POINT_RESCALE_NORMALIZE, p0=r, p1=s, p2=m, p3=d)
    assert out.tobytes() == unfused(img, 1 / 255, 0.0, mean, std).tobytes()


@pytest.mark.parametrize("interp", [Inter.BILINEAR, Inter.NEAREST, Inter.BICUBIC, Inter.AREA])
def test_with_resize_window_flip_and_chw(interp):
    """Resize -> Rescale -> Normalize -> HWC2CHW in one pass equals the ops one by one."""
    img = natural_rgb(32, 32)
    native = {Inter.BILINEAR: _native.INTERP_LINEAR, Inter.NEAREST: _native.INTERP_NEAREST,
              Inter.BICUBIC: _native.INTERP_CUBIC, Inter.AREA: _native.INTERP_AREA}[interp]
    mean, std = [0.4914, 0.4822, 0.4465], [0.247, 0.243, 0.261]
    r, s, m, d = values([1 / 255] * 3, [0.0] * 3, mean, std)
    out = np.empty((3, 40, 50), np.float32)
    _native.resample(img, out, 64, 64, native, 0.0, 0.0, 0.0, 0.0, 9, 20, True, False,
                     _native.POINT_RESCALE_NORMALIZE, r, s, True, m, d)
    resized = Resize((64, 64), interp)(img)[20:60, 9:59][:, ::-1]
    expected = HWC2CHW()(unfused(np.ascontiguousarray(resized), 1 / 255, 0.0, mean, std))
    assert out.tobytes() == expected.tobytes()


def test_decode_resample_takes_the_two_extra_arrays():
    img = natural_rgb(48, 64)
    data = jpeg_bytes(img)
    decoded = np.empty((48, 64, 3), np.uint8)
    _native.jpeg_decode_into(data, 1, 0, 0, decoded, 1 << 28)
    mean, std = [120.0, 110.0, 100.0], [60.0, 61.0, 62.0]
    r, s, m, d = values([0.5] * 3, [3.0] * 3, mean, std)
    out = np.empty((48, 64, 3), np.float32)
    _native.decode_resample(data, 1, 0, 0, 64, 48, out, 64, 48, _native.INTERP_COPY, 1.0, 1.0,
                            0.0, 0.0, 0, 0, False, False, _native.POINT_RESCALE_NORMALIZE, r, s,
                            False, 1 << 28, m, d)
    assert out.tobytes() == unfused(decoded, 0.5, 3.0, mean, std).tobytes()


def test_existing_modes_keep_their_call_signature():
    img = natural_rgb(20, 30)
    mean, std = values([10.0, 20.0, 30.0], [2.0, 3.0, 4.0])
    out = np.empty(img.shape, np.float32)
    _native.resample(img, out, 30, 20, _native.INTERP_COPY, 0.0, 0.0, 0.0, 0.0, 0, 0, False,
                     False, _native.POINT_NORMALIZE, mean, std, False)
    assert out.tobytes() == Normalize([10.0, 20.0, 30.0], [2.0, 3.0, 4.0])(img).tobytes()


def test_missing_mean_or_std_is_refused():
    img = natural_rgb(20, 30)
    r, s = values([1.0] * 3, [0.0] * 3)
    out = np.empty(img.shape, np.float32)
    with pytest.raises(ValueError, match="one entry per channel"):
        _native.resample(img, out, 30, 20, _native.INTERP_COPY,
                         point_op=_native.POINT_RESCALE_NORMALIZE, p0=r, p1=s)
    with pytest.raises(ValueError, match="one entry per channel"):
        _native.resample(img, out, 30, 20, _native.INTERP_COPY,
                         point_op=_native.POINT_RESCALE_NORMALIZE, p0=r, p1=s, p2=r,
                         p3=np.ones(2, np.float32))
