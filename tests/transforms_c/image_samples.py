"""Small valid images of every format OpenCV opens, and headers that declare huge sizes
(the reproducers of issue 11), for the image-limit tests and the fuzz campaign."""
import contextlib
import struct
import zlib

import cv2
import numpy as np

from tests.transforms_c.tc_samples import natural_rgb


@contextlib.contextmanager
def pixel_limit(pixels):
    """transforms_c.settings' pixel limit set to `pixels` inside the block, restored after."""
    from transforms_c import settings
    previous = settings.get_max_image_pixels()
    settings.set_max_image_pixels(pixels)
    try:
        yield
    finally:
        settings.set_max_image_pixels(previous)


def _bgr(height=40, width=56):
    return natural_rgb(height, width)[:, :, ::-1].copy()


def _encode(ext, image, params=()):
    ok, data = cv2.imencode(ext, image, list(params))
    assert ok, ext
    return data.tobytes()


def tiff(width, height, order="<", bigtiff=False, pixels=None, tile=None):
    """Uncompressed 8-bit grey TIFF (classic or BigTIFF, either byte order); `pixels` default
    to a ramp. Declares width x height whatever `pixels` holds, for hostile variants."""
    if pixels is None:
        pixels = (np.arange(width * height) % 251).astype(np.uint8).tobytes()
    # (tag, type, value): SHORT = 3, LONG = 4
    entries = [(256, 4, width), (257, 4, height), (258, 3, 8), (259, 3, 1), (262, 3, 1),
               (273, 4, 0), (277, 3, 1), (278, 4, height), (279, 4, len(pixels))]
    if tile is not None:                   # TileWidth, TileLength
        entries += [(322, 4, tile[0]), (323, 4, tile[1])]
    if bigtiff:
        head = struct.pack(order + "2sHHHQ", b"II" if order == "<" else b"MM", 43, 8, 0, 16)
        ifd_size = 8 + 20 * len(entries) + 8
        data_offset = 16 + ifd_size
        ifd = struct.pack(order + "Q", len(entries))
        for tag, kind, value in entries:
            value = data_offset if tag == 273 else value
            fmt = "H6x" if kind == 3 else "I4x"
            ifd += struct.pack(order + "HHQ", tag, kind, 1) + struct.pack(order + fmt, value)
        ifd += struct.pack(order + "Q", 0)
    else:
        head = struct.pack(order + "2sHI", b"II" if order == "<" else b"MM", 42, 8)
        ifd_size = 2 + 12 * len(entries) + 4
        data_offset = 8 + ifd_size
        ifd = struct.pack(order + "H", len(entries))
        for tag, kind, value in entries:
            value = data_offset if tag == 273 else value
            fmt = "H2x" if kind == 3 else "I"
            ifd += struct.pack(order + "HHI", tag, kind, 1) + struct.pack(order + fmt, value)
        ifd += struct.pack(order + "I", 0)
    return head + ifd + pixels


def os2_bmp(image):
    """24-bit BMP with the OS/2 BITMAPCOREHEADER (12 bytes, 16-bit width and height)."""
    height, width = image.shape[:2]
    stride = (width * 3 + 3) & ~3
    rows = b"".join(image[y].tobytes().ljust(stride, b"\0") for y in range(height - 1, -1, -1))
    offset = 14 + 12
    return (struct.pack("<2sIHHI", b"BM", offset + len(rows), 0, 0, offset)
            + struct.pack("<IHHHH", 12, width, height, 1, 24) + rows)


def valid_images():
    """name -> encoded bytes of a small valid image that cv2.imdecode opens."""
    bgr = _bgr()
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    hdr_image = bgr.astype(np.float32) / 255
    bgra = np.dstack([bgr, np.full(bgr.shape[:2], 200, np.uint8)])
    big = _bgr(96, 128)                      # OpenJPEG wants more than a few pixels
    return {
        "png": _encode(".png", bgr), "bmp": _encode(".bmp", bgr), "os2_bmp": os2_bmp(bgr),
        "gif": _encode(".gif", bgr), "tiff": _encode(".tiff", bgr),
        "tiff_le": tiff(33, 21), "tiff_be": tiff(33, 21, ">"),
        "bigtiff_le": tiff(33, 21, "<", True), "bigtiff_be": tiff(33, 21, ">", True),
        "webp_vp8": _encode(".webp", bgr), "webp_vp8l": _encode(".webp", bgr,
                                                                (cv2.IMWRITE_WEBP_QUALITY, 101)),
        "webp_vp8x": _encode(".webp", bgra), "ppm": _encode(".ppm", bgr),
        "pgm": _encode(".pgm", grey), "pbm": _encode(".pbm", grey),
        "ppm_ascii": _encode(".ppm", bgr, (cv2.IMWRITE_PXM_BINARY, 0)),
        "pam": _encode(".pam", bgr), "pfm": _encode(".pfm", hdr_image),
        "hdr": _encode(".hdr", hdr_image), "sun": _encode(".ras", bgr),
        "jp2": _encode(".jp2", big), "j2k": _codestream(_encode(".jp2", big)), "avif": _encode(".avif", bgr),
        "jpeg": _encode(".jpg", bgr),
    }


def _codestream(jp2):
    """The raw JPEG 2000 codestream inside a JP2 file (its 'jp2c' box)."""
    start = jp2.index(b"jp2c") + 4
    return jp2[start:]


def _png_chunk(kind, payload):
    return (struct.pack(">I", len(payload)) + kind + payload
            + struct.pack(">I", zlib.crc32(kind + payload)))


def gif_bomb(width=30000, height=30000):
    """The issue's 35-byte GIF: a 2-colour image declaring width x height."""
    return (b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80, 0, 0) + b"\0\0\0\xff\xff\xff"
            + b"\x2c" + struct.pack("<HHHHB", 0, 0, width, height, 0)
            + b"\x02\x02\x4c\x01\x00\x3b")


def _patched_after(data, box, offset, fmt, *values):
    """`data` with `values` packed `offset` bytes after the first occurrence of `box`."""
    raw = bytearray(data)
    struct.pack_into(fmt, raw, raw.index(box) + len(box) + offset, *values)
    return bytes(raw)


def huge_headers():
    """name -> bytes of a header (plus a few bytes) declaring about 10**10 pixels."""
    n = 100000
    big = _bgr(96, 128)
    return {
        "tiff_tile": tiff(16, 16, "<", pixels=b"\0" * 64, tile=(n, n)),
        "jp2_ihdr": _patched_after(_encode(".jp2", big), b"ihdr", 0, ">II", n, n),
        "avif_ispe": _patched_after(_encode(".avif", big), b"ispe", 4, ">II", n, n),
        "gif": gif_bomb(),
        "gif_frame": gif_bomb(10, 10)[:13 + 6] + b"\x2c" + struct.pack("<HHHHB", 0, 0, 60000,
                                                                       60000, 0) + b"\x02\0;",
        "gif_frame_offset": gif_bomb(10, 10)[:13 + 6] + b"\x2c"
        + struct.pack("<HHHHB", 60000, 60000, 4, 4, 0) + b"\x02\0;",
        "ppm": b"P6\n%d %d\n255\n" % (n, n) + b"\0" * 16,
        "pgm": b"P5 # comment\n%d\n%d 255\n" % (n, n) + b"\0" * 16,
        "pbm": b"P4\n%d %d\n" % (n, n) + b"\0" * 16,
        "ppm_ascii": b"P3\n%d %d\n255\n1 2 3\n" % (n, n),
        "pam": b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH 3\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n" % (n, n),
        "pfm": b"PF\n%d %d\n-1.0\n" % (n, n) + b"\0" * 16,
        "hdr": b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n" % (n, n) + b"\0" * 16,
        "sun": struct.pack(">8I", 0x59A66A95, n, n, 24, n * n * 3 % 2**32, 1, 0, 0) + b"\0" * 16,
        "bmp": struct.pack("<2sIHHIIiiHHII", b"BM", 70, 0, 0, 54, 40, n, -n, 1, 24, 0, 0)
        + b"\0" * 32,
        "os2_bmp": struct.pack("<2sIHHIIHHHH", b"BM", 40, 0, 0, 26, 12, 65535, 65535, 1, 24)
        + b"\0" * 16,
        "png": b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", n, n, 8, 2, 0, 0, 0))
        + _png_chunk(b"IDAT", zlib.compress(b"\0" * 64)) + _png_chunk(b"IEND", b""),
        "tiff_le": tiff(17000, 17000, "<", pixels=b"\0" * 64),
        "tiff_be": tiff(17000, 17000, ">", pixels=b"\0" * 64),
        "bigtiff": tiff(17000, 17000, ">", True, pixels=b"\0" * 64),
        "webp_vp8x": b"RIFF" + struct.pack("<I", 22) + b"WEBPVP8X" + struct.pack("<I", 10)
        + b"\0\0\0\0" + (n - 1).to_bytes(3, "little") + (n - 1).to_bytes(3, "little"),
        "j2k": b"\xff\x4f\xff\x51" + struct.pack(">HHIIIIIIIIH", 47, 0, n, n, 0, 0, n, n, 0, 0, 3)
        + b"\x07\x01\x01" * 3,
    }
