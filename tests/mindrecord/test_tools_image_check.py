"""The cheap structural image check used by the image converters."""

import cv2
import numpy as np
import pytest

from mindrecord.tools import BadItem
from mindrecord.tools.image_check import check_image
from .test_tools_helpers import jpeg_bytes


def _png():
    ok, buf = cv2.imencode(".png", np.zeros((4, 5, 3), np.uint8))
    return buf.tobytes()


def test_valid_jpeg_and_png_pass():
    check_image(jpeg_bytes(1), "a.jpg")
    check_image(_png(), "a.png")


@pytest.mark.parametrize("data, message", [
    (b"", "empty file"),
    (b"GARBAGE!" * 4, "unknown signature"),
    (jpeg_bytes(1)[:-2], "no end-of-image"),
    (b"\xff\xd8\xff\xe0\x00\x02\xff\xd9", "end-of-image marker before any image data"),
    (b"\xff\xd8\xff\xda\x00\x02\x00\xff\xd9", "before any frame header"),
    (b"\xff\xd8\xff\xe0\xff\xff\x00\x00\xff\xd9", "outside the file"),
])
def test_broken_jpegs_are_named(data, message):
    with pytest.raises(BadItem, match=message) as info:
        check_image(data, "x/y.jpg")
    assert info.value.where == "x/y.jpg"


def test_png_checksum_and_truncation():
    png = bytearray(_png())
    with pytest.raises(BadItem, match="truncated"):
        check_image(bytes(png[:-12]), "p.png")
    png[20] ^= 0xFF                                    # inside IHDR: checksum now wrong
    with pytest.raises(BadItem, match="checksum"):
        check_image(bytes(png), "p.png")


def test_zero_padding_or_a_trailer_after_jpeg_end_is_accepted():
    check_image(jpeg_bytes(2) + b"\x00" * 10, "padded.jpg")
    check_image(jpeg_bytes(2) + b"CAMERA TRAILER \x01\x02", "trailer.jpg")


def test_jpeg_cut_anywhere_is_rejected():
    data = jpeg_bytes(3, h=64, w=64)
    for cut in range(3, len(data) - 1, 97):
        with pytest.raises(BadItem):
            check_image(data[:cut], "cut.jpg")


def test_none_mode_accepts_anything_and_bad_mode_is_refused():
    check_image(b"whatever", "w", mode="none")
    with pytest.raises(ValueError, match="verify"):
        check_image(b"whatever", "w", mode="strict")
