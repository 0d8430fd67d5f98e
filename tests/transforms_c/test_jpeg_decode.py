"""Decode: libjpeg-turbo full, DCT-scaled and region decode against OpenCV; other formats."""
import io

import cv2
import numpy as np
import pytest

from transforms_c import _native
from transforms_c.vision import Decode

from tests.transforms_c.tc_samples import (cv2_decode_rgb, encoded, jpeg_bytes, natural_rgb,
                                           sample_jpeg)


def test_full_decode_matches_opencv():
    data = sample_jpeg(123, 157)
    out = Decode()(data)
    assert out.shape == (123, 157, 3) and out.dtype == np.uint8
    assert np.array_equal(out, cv2_decode_rgb(data))


def test_decode_accepts_bytes():
    data = sample_jpeg()
    assert np.array_equal(Decode()(data.tobytes()), Decode()(data))


@pytest.mark.parametrize("denom,flag", [(2, cv2.IMREAD_REDUCED_COLOR_2),
                                         (4, cv2.IMREAD_REDUCED_COLOR_4),
                                         (8, cv2.IMREAD_REDUCED_COLOR_8)])
def test_scaled_decode_matches_opencv_reduced(denom, flag):
    data = sample_jpeg(200, 264)
    width, height = _native.jpeg_scaled(264, 200, denom)
    out = np.empty((height, width, 3), np.uint8)
    _native.jpeg_decode_into(data, denom, 0, 0, out, 1 << 28)
    ref = cv2.cvtColor(cv2.imdecode(data, flag), cv2.COLOR_BGR2RGB)
    assert ref.shape == out.shape
    assert np.abs(out.astype(int) - ref).max() <= 1


@pytest.mark.parametrize("x,y,w,h", [(0, 0, 10, 10), (17, 33, 100, 60), (1, 1, 1, 1),
                                      (100, 90, 57, 33), (0, 50, 157, 73)])
def test_region_decode_equals_full_decode_window(x, y, w, h):
    data = sample_jpeg(123, 157)
    full = Decode()(data)
    region = np.empty((h, w, 3), np.uint8)
    _native.jpeg_decode_into(data, 1, x, y, region, 1 << 28)
    assert np.array_equal(region, full[y:y + h, x:x + w])


def test_region_outside_image_raises():
    data = sample_jpeg(123, 157)
    with pytest.raises(RuntimeError, match="outside"):
        _native.jpeg_decode_into(data, 1, 150, 0, np.empty((10, 10, 3), np.uint8), 1 << 28)


def test_gray_jpeg_decodes_to_three_channels():
    gray = natural_rgb()[..., 0].copy()
    out = Decode()(jpeg_bytes(gray))
    assert out.shape == gray.shape + (3,)
    assert np.array_equal(out[..., 0], out[..., 1]) and np.array_equal(out[..., 1], out[..., 2])


def test_cmyk_jpeg_decodes_to_rgb():
    import io
    from PIL import Image
    img = Image.fromarray(natural_rgb()).convert("CMYK")
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=95)
    data = np.frombuffer(buf.getvalue(), np.uint8)
    out = Decode()(data)
    ref = np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))
    assert out.shape == ref.shape
    assert np.abs(out.astype(int) - ref).mean() < 3


@pytest.mark.parametrize("ext", [".png", ".bmp", ".tiff", ".webp"])
def test_other_formats_match_opencv(ext):
    img = natural_rgb()
    data = encoded(img, ext)
    out = Decode()(data)
    assert np.array_equal(out, cv2_decode_rgb(data))
    if ext != ".webp":  # lossless formats round-trip exactly
        assert np.array_equal(out, img)


def test_an_exif_orientation_is_not_applied_to_other_formats():
    """As MindSpore 2.10's Decode (measured: a PNG saying "rotate 90" keeps its stored 20x30)
    and as this project's JPEG path: the image as stored."""
    from PIL import Image
    img = natural_rgb(20, 30)
    exif = Image.Exif()
    exif[0x0112] = 6                                # Orientation: rotate 90 to display
    out = io.BytesIO()
    Image.fromarray(img).save(out, "PNG", exif=exif.tobytes())
    assert np.array_equal(Decode()(np.frombuffer(out.getvalue(), np.uint8)), img)


def test_to_pil_returns_pil_image():
    from PIL import Image
    out = Decode(to_pil=True)(sample_jpeg())
    assert isinstance(out, Image.Image) and out.size == (157, 123)


def test_decode_rejects_decoded_image():
    with pytest.raises(TypeError, match="number of array dimensions"):   # eager, as MindSpore
        Decode()(natural_rgb())
    with pytest.raises(RuntimeError, match="1-D uint8"):     # in a pipeline
        Decode().apply((natural_rgb(),), 0)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.float32, np.bool_])
def test_decode_reads_the_bytes_of_a_one_dimensional_array_of_any_number_type(dtype):
    """np.fromfile(path, dtype=...): MindSpore 2.10 decodes the bytes whatever the type
    (measured for bool to float64); bytes that are not an image still fail."""
    data = np.frombuffer(jpeg_bytes(natural_rgb()), np.uint8)
    padded = np.concatenate([data, np.zeros(-len(data) % 4, np.uint8)])
    assert np.array_equal(Decode()(padded.view(dtype)), Decode()(data))
    with pytest.raises(RuntimeError, match="Decode"):
        Decode()(np.zeros(16, dtype))


def test_decode_argument_type():
    with pytest.raises(TypeError):
        Decode(to_pil=1)


@pytest.mark.parametrize("options", [dict(progressive=True), dict(subsampling=0),
                                     dict(subsampling=1), dict(progressive=True, subsampling=1)])
def test_region_and_scaled_decode_for_other_jpeg_layouts(options):
    import io
    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(natural_rgb()).save(buf, "JPEG", quality=90, **options)
    data = np.frombuffer(buf.getvalue(), np.uint8)
    full = Decode()(data)
    assert np.array_equal(full, cv2_decode_rgb(data))
    region = np.empty((60, 57, 3), np.uint8)
    _native.jpeg_decode_into(data, 1, 33, 41, region, 1 << 28)
    assert np.array_equal(region, full[41:101, 33:90])
    width, height = _native.jpeg_scaled(157, 123, 2)
    scaled = np.empty((height, width, 3), np.uint8)
    _native.jpeg_decode_into(data, 2, 0, 0, scaled, 1 << 28)
    part = np.empty((30, 40, 3), np.uint8)
    _native.jpeg_decode_into(data, 2, 10, 11, part, 1 << 28)
    assert np.array_equal(part, scaled[11:41, 10:50])


def test_decode_accepts_zero_dim_bytes_array():
    data = sample_jpeg()
    packed = np.asarray(data.tobytes())
    assert packed.dtype.kind == "S" and packed.ndim == 0
    assert np.array_equal(Decode().apply((packed,), 0)[0], Decode()(data))
    from minddata.vision import py_transforms as P
    assert P.Decode().apply((packed,), 0)[0].size == (157, 123)


@pytest.mark.parametrize("options", [dict(), dict(progressive=True), dict(subsampling=1),
                                     dict(subsampling=0)])
def test_random_regions_are_bit_identical_to_full_decode(options):
    import io
    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(natural_rgb(200, 263)).save(buf, "JPEG", quality=90, **options)
    data = np.frombuffer(buf.getvalue(), np.uint8)
    full = Decode()(data)
    rng = np.random.default_rng(3)
    for _ in range(60):
        x, y = int(rng.integers(0, 263)), int(rng.integers(0, 200))
        w, h = int(rng.integers(1, 264 - x)), int(rng.integers(1, 201 - y))
        region = np.empty((h, w, 3), np.uint8)
        _native.jpeg_decode_into(data, 1, x, y, region, 1 << 28)
        assert np.array_equal(region, full[y:y + h, x:x + w]), (x, y, w, h)


# measured in MindSpore 2.10: Decode(to_pil=True) on empty, unrecognised (b"abc") or truncated
# JPEG data raises ValueError ": Failed to decode given image." (its Pillow path), where
# Decode() raises RuntimeError
def test_decode_to_pil_raises_pillows_value_error():
    from PIL import Image
    buffer = io.BytesIO()
    Image.fromarray(np.zeros((8, 8, 3), np.uint8)).save(buffer, format="JPEG")
    for data in (b"", b"abc", buffer.getvalue()[:40], np.frombuffer(b"abcdef", np.uint8)):
        with pytest.raises(ValueError, match="Failed to decode given image"):
            Decode(to_pil=True)(data)
        with pytest.raises(RuntimeError):
            Decode()(data)


def _random_jpeg(progressive, height=40, width=24):
    from PIL import Image
    pixels = np.random.default_rng(3).integers(0, 255, (height, width, 3)).astype(np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "JPEG", quality=90, progressive=progressive)
    return buffer.getvalue()


def test_a_jpeg_without_its_eoi_marker_decodes_when_every_pixel_is_there():
    # measured in MindSpore 2.10: Decode gives a baseline JPEG cut just before its EOI marker
    # the whole file's pixels, and raises for a progressive one (its scans may be missing)
    whole = _random_jpeg(False)
    no_end = np.frombuffer(whole[:-2], np.uint8)
    assert np.array_equal(Decode()(no_end), Decode()(np.frombuffer(whole, np.uint8)))
    # ... also through a region decode that reads the last rows
    region = np.empty((8, 24, 3), np.uint8)
    _native.jpeg_decode_into(no_end, 1, 0, 32, region, 1 << 28)
    assert np.array_equal(region, Decode()(no_end)[32:])
    with pytest.raises(RuntimeError, match="Premature end of JPEG file"):
        Decode()(np.frombuffer(_random_jpeg(True)[:-2], np.uint8))


@pytest.mark.parametrize("progressive", [False, True])
def test_a_jpeg_whose_scan_ends_early_raises(progressive):
    # measured in MindSpore 2.10: a baseline JPEG cut a few bytes into its last MCU row (EOI
    # gone too), or cut and closed with an EOI marker, decodes "successfully" there with its
    # last rows grey or garbage (served silently); here it raises, as MindSpore does for the
    # progressive ones
    whole = _random_jpeg(progressive)
    for data in (whole[:-3], whole[:-12], whole[:-32] + b"\xff\xd9"):
        with pytest.raises(RuntimeError, match="Premature end|premature end of data segment"):
            Decode()(np.frombuffer(data, np.uint8))


def _cmyk_jpeg(adobe):
    """A CMYK JPEG (Pillow's, with its Adobe marker or without) and its stored ink values."""
    from PIL import Image
    inks = np.random.default_rng(1).integers(0, 256, (16, 16, 4)).astype(np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(inks, "CMYK").save(buffer, "JPEG", quality=100)
    data = buffer.getvalue()
    # Pillow reads an Adobe file's inverted inks back upright: the stored values are 255 - them
    stored = 255 - np.asarray(Image.open(io.BytesIO(data))).astype(np.int64)
    if not adobe:
        start = data.index(b"\xff\xee")
        data = data[:start] + data[start + 2 + int.from_bytes(data[start + 2:start + 4], "big"):]
    return np.frombuffer(data, np.uint8), stored


def test_cmyk_jpeg_colours_are_mindspores():
    # measured in MindSpore 2.10 (on Pillow-written 32x32 files of random inks): Decode gives
    # floor(C * K / 255) of the stored values with an Adobe marker (inverted inks) and
    # floor((255 - C) * (255 - K) / 255) without one; read_image (OpenCV's imread) gives
    # K - ((255 - C) * K >> 8) either way. Here Decode rounded, and read the inks of a file
    # without an Adobe marker as inverted (every value off by up to 255).
    from transforms_c.vision.decode import decode_jpeg
    for adobe in (True, False):
        data, stored = _cmyk_jpeg(adobe)
        ink, k = stored[..., :3], stored[..., 3:]
        want = ink * k // 255 if adobe else (255 - ink) * (255 - k) // 255
        assert np.array_equal(Decode()(data), want)
        assert np.array_equal(decode_jpeg(data, cmyk_rule=1), k - (((255 - ink) * k) >> 8))


def test_decode_to_pil_is_pillows_decode():
    # measured in MindSpore 2.10: Decode(to_pil=True) decodes with Pillow (Image.open(...)
    # .convert("RGB")): a PNG cut one byte short (its pixels whole) decodes there, where
    # Decode() raises; an RGBA TIFF keeps its colours there (OpenCV's Decode() differs); a
    # GIF's first frame
    from PIL import Image
    rgba = np.random.default_rng(4).integers(0, 255, (6, 5, 4)).astype(np.uint8)
    for fmt, cut in (("PNG", 1), ("TIFF", 0), ("GIF", 0)):
        buffer = io.BytesIO()
        image = Image.fromarray(rgba, "RGBA")
        (image.convert("RGB").quantize(8) if fmt == "GIF" else image).save(buffer, fmt)
        data = buffer.getvalue()[:len(buffer.getvalue()) - cut]
        out = Decode(to_pil=True)(np.frombuffer(data, np.uint8))
        assert out.mode == "RGB"
        assert np.array_equal(np.asarray(out),
                              np.asarray(Image.open(io.BytesIO(data)).convert("RGB")))
    assert np.asarray(out).astype(np.int64).sum() == 12540      # the GIF, as MindSpore measured


def _restart_jpeg():
    """A grey baseline JPEG with restart markers every 2 MCUs, and where its scan starts."""
    pixels = np.random.default_rng(5).integers(0, 255, (48, 48)).astype(np.uint8)
    data = cv2.imencode(".jpg", pixels, [cv2.IMWRITE_JPEG_QUALITY, 90,
                                         cv2.IMWRITE_JPEG_RST_INTERVAL, 2])[1].tobytes()
    sos = data.index(b"\xff\xda")
    return data, sos + 2 + int.from_bytes(data[sos + 2:sos + 4], "big")


def test_a_bad_huffman_code_raises_a_restart_marker_out_of_place_does_not():
    # measured in MindSpore 2.10: with stuffed 0xFF bytes (no valid Huffman code) in the middle
    # of its scan, this file decodes there "successfully" with 128 pixels up to 224 levels off
    # (libjpeg zeroes the rest of the block): here it raises. With its first restart marker
    # renumbered (RST4 for RST1) libjpeg resynchronises and both give the whole file's pixels.
    data, start = _restart_jpeg()
    whole = Decode()(np.frombuffer(data, np.uint8))
    middle = start + (len(data) - start) // 2
    bad_code = data[:middle] + b"\xff\x00" * 3 + data[middle + 6:]
    with pytest.raises(RuntimeError, match="bad Huffman code"):
        Decode()(np.frombuffer(bad_code, np.uint8))
    marker = data.index(b"\xff\xd1", start)
    renumbered = data[:marker + 1] + b"\xd4" + data[marker + 2:]
    assert np.array_equal(Decode()(np.frombuffer(renumbered, np.uint8)), whole)


def test_decode_to_pil_of_a_gif_whose_first_frame_is_whole():
    # measured in MindSpore 2.10 (the decoders tool's seed 13): a two-frame GIF cut in its
    # second frame's header decodes with Decode(to_pil=True) to its first frame (Pillow's);
    # here it raised, the cut header failing the size check of every frame
    from PIL import Image
    frames = [Image.fromarray(np.full((17, 3), v, np.uint8)).convert("P") for v in (5, 200)]
    buffer = io.BytesIO()
    frames[0].save(buffer, "GIF", save_all=True, append_images=frames[1:])
    data = buffer.getvalue()
    cut = data[:data.index(b"\x2c", data.index(b"\x21\xf9", 20)) + 3]   # second descriptor
    out = Decode(to_pil=True)(np.frombuffer(cut, np.uint8))
    assert out.mode == "RGB" and out.size == (3, 17)
    assert np.array_equal(np.asarray(out), np.full((17, 3, 3), 5, np.uint8))
    from transforms_c import settings
    limit = settings.get_max_image_pixels()
    settings.set_max_image_pixels(17 * 3 - 1)
    try:
        with pytest.raises(ValueError, match="outside the accepted range"):
            Decode(to_pil=True)(np.frombuffer(data, np.uint8))
    finally:
        settings.set_max_image_pixels(limit)
