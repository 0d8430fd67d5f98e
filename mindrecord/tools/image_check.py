"""Cheap checks that a byte string is a whole, plausible image, without decoding it.

Converters store image files as they are (MindSpore's converters do too), so a truncated or
corrupt file would only show up later, in the training pipeline, far from its source. These
checks catch the common cases (empty or truncated file, wrong format, broken header) at a cost of
a few hundred bytes read per image; ``verify="decode"`` decodes fully when the user asks.
"""
import struct
import zlib

from .bad_input import BadItem

VERIFY_MODES = ("header", "decode", "none")

# JPEG markers that carry frame dimensions (SOF0..SOF15 except DHT, JPG and DAC).
_SOF_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
# Markers without a length field.
_STANDALONE = frozenset([0x01, *range(0xD0, 0xD8)])
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def check_image(data, where, mode="header"):
    """Raise :class:`BadItem` if ``data`` is not a plausible image; ``mode`` in VERIFY_MODES."""
    if mode not in VERIFY_MODES:
        raise ValueError(f"verify must be one of {VERIFY_MODES}, got {mode!r}")
    if mode == "none":
        return
    if not data:
        raise BadItem(where, "empty file")
    if data[:2] == b"\xff\xd8":
        _check_jpeg(data, where)
    elif data[:8] == _PNG_SIGNATURE:
        _check_png(data, where)
    elif data[:2] == b"BM":
        _check_bmp(data, where)
    elif data[:6] in (b"GIF87a", b"GIF89a"):
        if data.rstrip(b"\x00")[-1:] != b"\x3b":
            raise BadItem(where, "GIF file is truncated (no trailer byte 0x3B)")
    elif data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        (size,) = struct.unpack_from("<I", data, 4)
        if size + 8 > len(data):
            raise BadItem(where, f"WebP file is truncated ({len(data)} of {size + 8} bytes)")
    elif data[:4] in (b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+"):   # TIFF, BigTIFF
        pass  # TIFF: the structure is scattered through the file; only a decode checks it
    else:
        raise BadItem(where, "not an image: unknown signature "
                             f"{data[:8].hex(' ')} (expected JPEG, PNG, BMP, GIF, WebP or TIFF)")
    if mode == "decode":
        # After the structural checks: a truncated JPEG still "decodes" (with grey rows).
        _check_decodes(data, where)


def _check_jpeg(data, where):
    """Walk the header segments up to the start of scan (checking every segment length and the
    frame header), then require an end-of-image marker after the scan data. Bytes after EOI
    (camera trailers, zero padding) are allowed; inside scan data 0xFF is always followed by
    0x00 or a restart marker, so a FFD9 there can only be a real end of image."""
    end = len(data)
    pos, frame_seen = 2, False
    while True:
        if pos >= end or data[pos] != 0xFF:
            raise BadItem(where, f"corrupt JPEG header: no marker at byte {pos}")
        while pos < end and data[pos] == 0xFF:       # fill bytes
            pos += 1
        if pos >= end:
            raise BadItem(where, "JPEG file is truncated (ends inside its header)")
        marker = data[pos]
        pos += 1
        if marker in _STANDALONE:
            continue
        if marker == 0xD9:
            raise BadItem(where, "corrupt JPEG header: end-of-image marker before any image data")
        if pos + 2 > end:
            raise BadItem(where, "JPEG file is truncated (ends inside its header)")
        (length,) = struct.unpack_from(">H", data, pos)
        if length < 2 or pos + length > end:
            raise BadItem(where, f"corrupt JPEG header: segment length {length} at byte {pos} "
                                 "is outside the file")
        if marker == 0xDA:
            if not frame_seen:
                raise BadItem(where, "corrupt JPEG header: image data before any frame "
                                     "header (SOF)")
            break
        if marker in _SOF_MARKERS:
            if length < 8:
                raise BadItem(where, "corrupt JPEG frame header (too short)")
            _precision, height, width, components = struct.unpack_from(">BHHB", data, pos + 2)
            if width == 0 or components not in (1, 3, 4):
                raise BadItem(where, f"corrupt JPEG frame header: {width}x{height}, "
                                     f"{components} components")
            frame_seen = True
        pos += length
    if data.rfind(b"\xff\xd9", pos) < 0:
        raise BadItem(where, "JPEG file is truncated (no end-of-image marker FFD9)")


def _check_png(data, where):
    if len(data) < 33 or data[12:16] != b"IHDR":
        raise BadItem(where, "corrupt PNG: no IHDR chunk")
    (length,) = struct.unpack_from(">I", data, 8)
    if length != 13:
        raise BadItem(where, f"corrupt PNG: IHDR length {length}, expected 13")
    (crc,) = struct.unpack_from(">I", data, 29)
    if zlib.crc32(data[12:29]) != crc:
        raise BadItem(where, "corrupt PNG: IHDR checksum mismatch")
    width, height = struct.unpack_from(">II", data, 16)
    if width == 0 or height == 0:
        raise BadItem(where, f"corrupt PNG: size {width}x{height}")
    iend = data.rfind(b"\x00\x00\x00\x00IEND", 33)
    if iend < 0 or iend + 12 > len(data):
        raise BadItem(where, "PNG file is truncated (no IEND chunk at the end)")


def _check_bmp(data, where):
    if len(data) < 26:
        raise BadItem(where, "BMP file is truncated (header incomplete)")
    size, _reserved, offset = struct.unpack_from("<IIII", data, 2)[:3]
    if offset >= len(data) or size > len(data):
        raise BadItem(where, f"BMP file is truncated ({len(data)} bytes, header says {size})")


def _check_decodes(data, where):
    """Decode as the training pipeline will: the declared size is checked against the same
    pixel limit first (transforms_c.image_limits), so a decompression bomb is a bad item,
    not an allocation of gigabytes."""
    import cv2
    import numpy as np

    from transforms_c.image_limits import check_declared_size
    try:
        check_declared_size(data, "verify='decode'")
        img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    except (RuntimeError, cv2.error) as exc:
        raise BadItem(where, f"image does not decode: {str(exc).strip()}") from None
    if img is None or img.size == 0:
        raise BadItem(where, "image does not decode")
