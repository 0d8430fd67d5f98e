"""Hostile encoded images: clean RuntimeErrors naming the problem, never a crash."""
import struct

import numpy as np
import pytest

import transforms_c
from transforms_c import settings
from transforms_c.vision import (Decode, HWC2CHW, Normalize, RandomCropDecodeResize,
                                 RandomResizedCrop)

from tests.transforms_c.tc_samples import encoded, natural_rgb, sample_jpeg


# Whole-image crops (scale 1): a region decode reads every row, so truncation always shows.
# (A crop that only needs rows before the cut decodes them; the missing rows are never used.)
def _fused_train():
    ops = [Decode(), RandomResizedCrop(32, scale=(1.0, 1.0)), HWC2CHW()]
    (plan,) = transforms_c.compile_operations(ops)
    return plan


def _all_decoders():
    return [lambda d: Decode()(d), lambda d: RandomCropDecodeResize(32, scale=(1.0, 1.0))(d),
            lambda d: _fused_train().apply((d,), 7)[0]]


def _patch_sof_dimensions(data, height, width):
    raw = bytearray(data.tobytes())
    i = 2
    while i < len(raw):
        marker = raw[i + 1]
        length = struct.unpack(">H", raw[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            raw[i + 5:i + 9] = struct.pack(">HH", height, width)
            return np.frombuffer(bytes(raw), np.uint8)
        i += 2 + length
    raise AssertionError("no SOF marker")


@pytest.mark.parametrize("decode", _all_decoders())
def test_truncated_jpeg_raises(decode):
    data = sample_jpeg()
    with pytest.raises(RuntimeError, match="(?i)premature end|invalid JPEG|corrupt"):
        decode(data[:len(data) // 2].copy())


@pytest.mark.parametrize("decode", _all_decoders())
def test_not_an_image_raises(decode):
    data = np.frombuffer(b"this is certainly not an image file at all", np.uint8)
    with pytest.raises(RuntimeError, match="not a decodable image"):
        decode(data)


@pytest.mark.parametrize("decode", _all_decoders())
def test_empty_data_raises(decode):
    with pytest.raises(RuntimeError, match="empty"):
        decode(np.zeros(0, np.uint8))


@pytest.mark.parametrize("decode", _all_decoders())
def test_huge_declared_jpeg_refused_before_allocation(decode):
    data = _patch_sof_dimensions(sample_jpeg(), 60000, 60000)
    with pytest.raises(RuntimeError, match="60000x60000"):
        decode(data)


def test_zero_height_jpeg_raises():
    data = _patch_sof_dimensions(sample_jpeg(), 0, 157)
    with pytest.raises(RuntimeError):
        Decode()(data)


def test_huge_declared_png_refused():
    data = bytearray(encoded(natural_rgb(), ".png").tobytes())
    data[16:24] = struct.pack(">II", 100000, 100000)
    with pytest.raises(RuntimeError, match="100000x100000"):
        Decode()(np.frombuffer(bytes(data), np.uint8))


def test_garbage_after_jpeg_header_raises():
    data = sample_jpeg().copy()
    data[400:] = 0x55
    with pytest.raises(RuntimeError):
        Decode()(data)


def test_max_image_pixels_setting():
    data = sample_jpeg(123, 157)
    old = settings.get_max_image_pixels()
    try:
        settings.set_max_image_pixels(100)
        with pytest.raises(RuntimeError, match="accepted range"):
            Decode()(data)
    finally:
        settings.set_max_image_pixels(old)
    assert Decode()(data).shape == (123, 157, 3)


def test_settings_validation():
    with pytest.raises(TypeError):
        settings.set_max_image_pixels(1.5)
    with pytest.raises(ValueError):
        settings.set_max_image_pixels(0)
    with pytest.raises(TypeError):
        settings.set_approximate_decode(1)


def test_decoder_survives_many_failures():
    data = sample_jpeg()
    for cut in range(10, len(data), max(1, len(data) // 25)):
        try:
            Decode()(data[:cut].copy())
        except RuntimeError:
            pass
    assert Decode()(data).shape == (123, 157, 3)


def test_normalize_rejects_bytes_shape():
    with pytest.raises(RuntimeError):
        Normalize([0.0], [1.0])(np.zeros((64,), np.uint8))  # encoded bytes, not an image


@pytest.mark.parametrize("ext", [".png", ".bmp", ".webp", ".tiff"])
def test_truncated_other_formats_raise(ext):
    data = encoded(natural_rgb(), ext)
    with pytest.raises(RuntimeError, match="not a decodable image"):
        Decode()(data[:len(data) // 3].copy())


def test_random_bytes_never_crash():
    rng = np.random.default_rng(0)
    for i in range(200):
        data = rng.integers(0, 256, rng.integers(1, 400), dtype=np.uint8)
        if i % 2:
            data[:3] = (0xFF, 0xD8, 0xFF)  # looks like a JPEG
        try:
            Decode()(data)
        except RuntimeError:
            pass


def test_failed_decodes_release_decoder_memory():
    import psutil
    process = psutil.Process()
    truncated = sample_jpeg(400, 500)
    truncated = truncated[:len(truncated) * 2 // 3].copy()
    plan = _fused_train()

    def fail_many(count):
        for i in range(count):
            for decode in (Decode(), lambda d: plan.apply((d,), i)[0]):
                with pytest.raises(RuntimeError):
                    decode(truncated)

    fail_many(50)  # warm up allocator pools
    before = process.memory_info().rss
    fail_many(1500)
    # libjpeg allocates well over 100 kB per decoder: a leak would add hundreds of MB.
    assert process.memory_info().rss - before < 40 * 1024 * 1024
