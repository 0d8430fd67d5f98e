"""Declared image sizes, read from the header before any decoder allocates.

OpenCV's decoders allocate what a header declares (a 35-byte GIF can claim 30000x30000 pixels,
a PPM or Sun raster header can make OpenCV reserve gigabytes before it notices the data is
missing). So every format that the project's OpenCV opens (JPEG, PNG/APNG, BMP incl. OS/2, GIF,
TIFF/BigTIFF, WebP, PNM/PAM/PFM, Radiance HDR, Sun raster, JPEG 2000, AVIF) is recognised here
by the signature OpenCV recognises it by, and its declared width and height are read. Data whose
size cannot be read this way (unknown signature, header cut short) is refused before OpenCV
sees it. The limit is ``transforms_c.settings.get_max_image_pixels()``.
"""
import struct

import numpy as np

from transforms_c import settings

# How far into the data a text header (PNM, PAM, PFM, HDR) may reach: OpenCV's own readers give
# up long before this on real files.
_TEXT_HEADER_LIMIT = 1 << 16
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_JPEG_STANDALONE = frozenset([0x01, *range(0xD0, 0xD8)])
_JP2_SIGNATURE = b"\x00\x00\x00\x0cjP  \r\n\x87\n"
_J2K_SIGNATURE = b"\xff\x4f\xff\x51"
FORMATS = ("JPEG", "PNG", "BMP", "GIF", "TIFF", "WebP", "PNM", "PAM", "PFM", "HDR",
           "Sun raster", "JPEG 2000", "AVIF")


class _Unreadable(Exception):
    """The header of a recognised format ends or breaks before its size."""


def _u(fmt, buf, offset):
    """struct.unpack_from that reports a short buffer as an unreadable header."""
    try:
        return struct.unpack_from(fmt, buf, offset)
    except (struct.error, OverflowError):    # past the end (or past any possible end)
        raise _Unreadable("the header is cut short") from None


def _as_buffer(data):
    if isinstance(data, np.ndarray):
        return memoryview(np.ascontiguousarray(data).reshape(-1).view(np.uint8))
    return memoryview(data).cast("B")


def declared_size(data):
    """(format name, [(width, height), ...]) declared by the header of encoded image `data`
    (bytes or a uint8 array): the image itself first, then any frame or tile the decoder
    allocates on its own. RuntimeError if the format is not one OpenCV opens or its size
    cannot be read from the header."""
    buf = _as_buffer(data)
    head = bytes(buf[:16])
    for name, matches, reader in _READERS:
        if matches(head):
            try:
                return name, reader(buf)
            except _Unreadable as exc:
                # "image decode failed.": MindSpore's words
                raise RuntimeError(f"image decode failed. data is not a decodable image: the "
                                   f"{name} header is unreadable ({exc}), so its size cannot "
                                   f"be checked before decoding") from None
    # "image decode failed.": MindSpore's words
    raise RuntimeError(f"image decode failed. data is not a decodable image: unrecognised "
                       f"format ({len(buf)} bytes, first bytes {head[:8].hex(' ')}); accepted: "
                       f"{', '.join(FORMATS)}")


def check_declared_size(data, op_name="Decode"):
    """(width, height) of encoded image `data` after checking every size its header declares
    against the pixel limit; RuntimeError naming `op_name` otherwise. Call this before any
    decoder sees the bytes."""
    try:
        name, sizes = declared_size(data)
    except RuntimeError as exc:
        raise RuntimeError(f"{op_name}: {exc}") from None
    for width, height in sizes:
        check_pixels(width, height, op_name, f"{name} image")
    return sizes[0]


def check_pixels(width, height, op_name="Decode", what="image"):
    """RuntimeError unless width x height is within 1..the pixel limit."""
    limit = settings.get_max_image_pixels()
    if width <= 0 or height <= 0 or width * height > limit:
        raise RuntimeError(f"{op_name}: {what} declares {width}x{height} pixels, outside the "
                           f"accepted range (1 to {limit} pixels; see "
                           f"transforms_c.settings.set_max_image_pixels)")


# ---- binary formats -----------------------------------------------------------------------
def _jpeg(buf):
    pos, end = 2, len(buf)
    while pos < end:
        if buf[pos] != 0xFF:
            raise _Unreadable(f"no marker at byte {pos}")
        while pos < end and buf[pos] == 0xFF:
            pos += 1
        if pos >= end:
            break
        marker = buf[pos]
        pos += 1
        if marker in _JPEG_STANDALONE:
            continue
        if marker in (0xD9, 0xDA):
            raise _Unreadable("no frame header before the image data")
        (length,) = _u(">H", buf, pos)
        if marker in _JPEG_SOF:
            height, width = _u(">HH", buf, pos + 3)
            return [(width, height)]
        pos += length
    raise _Unreadable("the header is cut short")


def _png(buf):
    length, chunk, width, height = _u(">I4sII", buf, 8)
    if chunk != b"IHDR" or length != 13:
        raise _Unreadable("the first chunk is not IHDR")
    return [(width, height)]


def _bmp(buf):
    (info_size,) = _u("<I", buf, 14)
    if info_size == 12:                      # OS/2 BITMAPCOREHEADER: 16-bit sizes
        return [_u("<HH", buf, 18)]
    if info_size >= 36:                      # BITMAPINFOHEADER and its successors
        width, height = _u("<ii", buf, 18)
        return [(width, abs(height))]        # negative height: top-down rows
    raise _Unreadable(f"DIB header size {info_size} is none that OpenCV reads")


def _gif(buf):
    """The logical screen, then every frame: OpenCV composes frames onto the screen, so a frame
    reaching past it is counted by its far corner."""
    width, height, flags = _u("<HHB", buf, 6)
    sizes = [(width, height)]
    pos, end = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0), len(buf)
    while pos < end:
        block = buf[pos]
        if block == 0x3B:                    # trailer
            break
        if block == 0x21:                    # extension: label, then sub-blocks
            pos = _skip_gif_sub_blocks(buf, pos + 2)
        elif block == 0x2C:                  # image descriptor
            left, top, w, h, frame_flags = _u("<HHHHB", buf, pos + 1)
            sizes.append((w, h))
            sizes.append((left + w, top + h))
            pos += 10
            if frame_flags & 0x80:
                pos += 3 << ((frame_flags & 7) + 1)
            pos = _skip_gif_sub_blocks(buf, pos + 1)   # after the LZW minimum code size
        else:
            break                            # garbage after the frames: the decoder stops too
    return sizes


def _skip_gif_sub_blocks(buf, pos):
    end = len(buf)
    while pos < end:
        size = buf[pos]
        pos += 1 + size
        if size == 0:
            break
    return pos


_TIFF_TYPES = {3: "H", 4: "I", 16: "Q"}       # SHORT, LONG, LONG8
_TIFF_WIDTH, _TIFF_LENGTH, _TIFF_TILE_WIDTH, _TIFF_TILE_LENGTH = 256, 257, 322, 323


def _tiff(buf):
    """The first IFD (the page cv2.imdecode reads): ImageWidth/ImageLength, and the tile size
    of a tiled image (the decoder allocates a tile buffer). Classic and BigTIFF, both orders."""
    order = "<" if bytes(buf[:2]) == b"II" else ">"
    (version,) = _u(order + "H", buf, 2)
    if version == 43:
        (ifd,) = _u(order + "Q", buf, 8)
        count_fmt, entry_fmt, entry_size = "Q", "HHQ8s", 20
    else:
        (ifd,) = _u(order + "I", buf, 4)
        count_fmt, entry_fmt, entry_size = "H", "HHI4s", 12
    (count,) = _u(order + count_fmt, buf, ifd)
    first = ifd + struct.calcsize(order + count_fmt)
    if count > (len(buf) - first) // entry_size:
        raise _Unreadable(f"the IFD at {ifd} lists {count} entries past the end of the data")
    tags = {}
    for k in range(count):
        tag, kind, _n, value = _u(order + entry_fmt, buf, first + k * entry_size)
        if tag in (_TIFF_WIDTH, _TIFF_LENGTH, _TIFF_TILE_WIDTH, _TIFF_TILE_LENGTH) \
                and kind in _TIFF_TYPES:
            (tags[tag],) = _u(order + _TIFF_TYPES[kind], value, 0)
    if _TIFF_WIDTH not in tags or _TIFF_LENGTH not in tags:
        raise _Unreadable("the first IFD has no ImageWidth/ImageLength")
    sizes = [(tags[_TIFF_WIDTH], tags[_TIFF_LENGTH])]
    if _TIFF_TILE_WIDTH in tags or _TIFF_TILE_LENGTH in tags:
        sizes.append((tags.get(_TIFF_TILE_WIDTH, 0), tags.get(_TIFF_TILE_LENGTH, 0)))
    return sizes


def _webp(buf):
    (chunk,) = _u("4s", buf, 12)
    if chunk == b"VP8 ":
        if bytes(buf[23:26]) != b"\x9d\x01\x2a":
            raise _Unreadable("no VP8 key frame start code")
        width, height = _u("<HH", buf, 26)
        return [(width & 0x3FFF, height & 0x3FFF)]
    if chunk == b"VP8L":
        signature, bits = _u("<BI", buf, 20)
        if signature != 0x2F:
            raise _Unreadable("no VP8L signature byte")
        return [((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)]
    if chunk == b"VP8X":                     # extended: the canvas holds every frame
        raw = bytes(buf[24:30])
        if len(raw) < 6:
            raise _Unreadable("the header is cut short")
        return [(int.from_bytes(raw[:3], "little") + 1, int.from_bytes(raw[3:], "little") + 1)]
    raise _Unreadable(f"first chunk {chunk!r} is none of VP8, VP8L, VP8X")


def _sun_raster(buf):
    return [_u(">II", buf, 4)]


# ---- text headers -------------------------------------------------------------------------
def _pnm_tokens(buf, start, count):
    """The first `count` whitespace-separated header tokens after `start`, '#' comments
    skipped (the PNM rules)."""
    text = bytes(buf[start:_TEXT_HEADER_LIMIT])
    tokens, pos = [], 0
    while len(tokens) < count:
        while pos < len(text) and (text[pos:pos + 1].isspace() or text[pos:pos + 1] == b"#"):
            if text[pos:pos + 1] == b"#":
                newline = text.find(b"\n", pos)
                pos = len(text) if newline < 0 else newline
            pos += 1
        stop = pos
        while stop < len(text) and not text[stop:stop + 1].isspace() \
                and text[stop:stop + 1] != b"#":
            stop += 1
        if stop == pos or stop == len(text):
            raise _Unreadable("the header is cut short")
        tokens.append(text[pos:stop])
        pos = stop
    return tokens


def _decimal(token):
    if not token.isdigit():
        raise _Unreadable(f"{token[:20]!r} is not a size")
    return int(token)


def _pnm(buf):                               # P1..P6 and PFM: width height ...
    width, height = _pnm_tokens(buf, 2, 2)
    return [(_decimal(width), _decimal(height))]


def _pam(buf):                               # P7: "WIDTH n" / "HEIGHT n" lines up to ENDHDR
    values = {}
    for line in bytes(buf[2:_TEXT_HEADER_LIMIT]).split(b"\n"):
        words = line.split(b"#", 1)[0].split()
        if words and words[0] == b"ENDHDR":
            break
        if len(words) >= 2 and words[0] in (b"WIDTH", b"HEIGHT"):
            values[words[0]] = _decimal(words[1])
    else:
        raise _Unreadable("no ENDHDR line")
    if len(values) != 2:
        raise _Unreadable("no WIDTH or HEIGHT line")
    return [(values[b"WIDTH"], values[b"HEIGHT"])]


def _hdr(buf):
    """Radiance: header lines, an empty line, then the resolution line, e.g. '-Y 480 +X 640'."""
    text = bytes(buf[:_TEXT_HEADER_LIMIT])
    blank = text.find(b"\n\n")
    if blank < 0:
        raise _Unreadable("no end of the header lines")
    words = text[blank + 2:].split(b"\n", 1)[0].split()
    if len(words) != 4 or words[0][-1:] not in (b"X", b"Y") or words[2][-1:] not in (b"X", b"Y") \
            or words[0][-1:] == words[2][-1:]:
        raise _Unreadable("no resolution line")
    first, second = _decimal(words[1]), _decimal(words[3])
    return [(second, first) if words[0][-1:] == b"Y" else (first, second)]


# ---- box formats --------------------------------------------------------------------------
def _boxes(buf, start, end):
    """(type, payload start, payload end) of the ISO/JP2 boxes between start and end."""
    pos = start
    while pos + 8 <= end:
        size, kind = _u(">I4s", buf, pos)
        header = 8
        if size == 1:
            (size,) = _u(">Q", buf, pos + 8)
            header = 16
        elif size == 0:
            size = end - pos
        if size < header or pos + size > end:
            raise _Unreadable(f"box {kind!r} at {pos} runs past its container")
        yield kind, pos + header, pos + size
        pos += size


def _j2k_codestream(buf, start):
    if bytes(buf[start:start + 4]) != _J2K_SIGNATURE:
        raise _Unreadable("no codestream SIZ marker")
    xsiz, ysiz, xosiz, yosiz = _u(">IIII", buf, start + 8)
    return (xsiz - xosiz, ysiz - yosiz)


def _jpeg2000(buf):
    if bytes(buf[:4]) == _J2K_SIGNATURE:
        return [_j2k_codestream(buf, 0)]
    sizes = []
    for kind, start, end in _boxes(buf, 0, len(buf)):
        if kind == b"jp2h":
            for inner, istart, _iend in _boxes(buf, start, end):
                if inner == b"ihdr":
                    height, width = _u(">II", buf, istart)
                    sizes.insert(0, (width, height))
        elif kind == b"jp2c":                # what OpenJPEG decodes, whatever ihdr says
            sizes.append(_j2k_codestream(buf, start))
            break
    if not sizes:
        raise _Unreadable("no image header box")
    return sizes


def _avif(buf):
    """Every 'ispe' (image spatial extent) property: the image, a grid's tiles and its
    alpha plane all carry one; a file without any cannot be checked."""
    sizes = []
    for kind, start, end in _boxes(buf, 0, len(buf)):
        if kind == b"meta":                  # FullBox: 4 bytes of version and flags
            for inner, istart, iend in _boxes(buf, start + 4, end):
                if inner == b"iprp":
                    for prop, pstart, pend in _boxes(buf, istart, iend):
                        if prop == b"ipco":
                            sizes += [_u(">II", buf, s + 4) for k, s, _e in
                                      _boxes(buf, pstart, pend) if k == b"ispe"]
    if not sizes:
        raise _Unreadable("no 'ispe' size property")
    return sorted(sizes, key=lambda s: -s[0] * s[1])


def _is_pnm(head):
    return len(head) >= 3 and head[:1] == b"P" and head[1] in b"123456" and head[2:3].isspace()


# (name, signature test on the first 16 bytes, size reader), in OpenCV's own terms.
_READERS = (
    ("JPEG", lambda h: h[:3] == b"\xff\xd8\xff", _jpeg),
    ("PNG", lambda h: h[:8] == b"\x89PNG\r\n\x1a\n", _png),
    ("BMP", lambda h: h[:2] == b"BM", _bmp),
    ("GIF", lambda h: h[:3] == b"GIF", _gif),
    ("TIFF", lambda h: h[:4] in (b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+"), _tiff),
    ("WebP", lambda h: h[:4] == b"RIFF" and h[8:12] == b"WEBP", _webp),
    ("PNM", _is_pnm, _pnm),
    ("PAM", lambda h: h[:2] == b"P7" and h[2:3].isspace(), _pam),
    ("PFM", lambda h: h[:2] in (b"PF", b"Pf"), _pnm),
    ("HDR", lambda h: h.startswith((b"#?RGBE", b"#?RADIANCE")), _hdr),
    ("Sun raster", lambda h: h[:4] == b"\x59\xa6\x6a\x95", _sun_raster),
    ("JPEG 2000", lambda h: h[:12] == _JP2_SIGNATURE or h[:4] == _J2K_SIGNATURE, _jpeg2000),
    ("AVIF", lambda h: h[4:8] == b"ftyp", _avif),
)
