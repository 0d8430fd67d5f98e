"""Image files and encoded bytes (mindspore.dataset.vision's read_file, read_image, encode_jpeg,
encode_png, write_file, write_jpeg, write_png).

Arguments are checked as MindSpore checks them (TypeError for a wrong Python type, RuntimeError
for bad data, a quality or compression level out of range, or a bad path, in MindSpore's order
and words). read_image decodes as MindSpore's read_image (OpenCV's imread rules): a JPEG's
COLOR and UNCHANGED pixels come from the project's own decoder (decode.py, the pixels of
Decode), its GRAYSCALE (libjpeg's luma) and every other format from OpenCV, after image_limits
has checked the size the header declares. The write functions
never leave half a file: the bytes go to a temporary file beside the target, renamed over it
once complete.
"""
import os
import struct
import tempfile

import cv2
import numpy as np

from transforms_c import _native
from transforms_c._validate import dtype_words
from transforms_c.enums import ImageReadMode
from transforms_c.image_limits import check_declared_size
from transforms_c.vision.decode import decode_jpeg, is_jpeg

# MindSpore's type error names its own Tensor; here its part is played by any object with
# asnumpy() (minddata.Tensor, training.Tensor) and by torch tensors.
_ARRAY_TYPES = "<class 'numpy.ndarray'> or <class 'mindspore.common.tensor.Tensor'>"


# -- argument checks ---------------------------------------------------------------------------

def _check_filename(filename):
    if not isinstance(filename, str):
        raise TypeError(f"Input filename is not of type {str}, but got: {type(filename)}.")


def _check_int(value, name):
    """A Python int (bool included, as MindSpore's isinstance check lets it through)."""
    if not isinstance(value, int):
        raise TypeError(f"Input {name} is not of type {int}, but got: {type(value)}.")


def _as_array(value, name, lead="Input"):
    """numpy array of `value`: an ndarray, a Tensor (asnumpy()) or a torch tensor."""
    if isinstance(value, np.ndarray):
        return value
    if type(value).__module__.split(".")[0] == "torch" and hasattr(value, "detach"):
        return value.detach().cpu().numpy()
    asnumpy = getattr(value, "asnumpy", None)
    if callable(asnumpy):
        array = asnumpy()
        if isinstance(array, np.ndarray):
            return array
    raise TypeError(f"{lead} {name} is not of type {_ARRAY_TYPES}, but got: "
                    f"{type(value)}.")


def _check_image(image, op, subject):
    """A uint8 H x W or H x W x 1 / x 3 image, checked in MindSpore's order."""
    if image.dtype != np.uint8:
        raise RuntimeError(f"{op}: The type of the {subject} should be UINT8, but got "
                           f"{dtype_words(image.dtype)}.")
    if image.ndim not in (2, 3):
        raise RuntimeError(f"{op}: The image has invalid dimensions. It should have two or "
                           f"three dimensions, but got {image.ndim} dimensions.")
    channels = 1 if image.ndim == 2 else image.shape[2]
    if channels not in (1, 3):
        raise RuntimeError(f"{op}: The image has invalid channels. It should have 1 or 3 "
                           f"channels, but got {channels} channels.")


def _check_in_range(value, name, low, high, op):
    if not low <= value <= high:
        raise RuntimeError(f"{op}: Invalid {name} {value}, should be in range of "
                           f"[{low}, {high}].")


# -- encoding ----------------------------------------------------------------------------------

def _encode(image, op, ext, params):
    """OpenCV's encoding of an RGB or grey image (OpenCV wants BGR)."""
    if image.size == 0:
        raise RuntimeError(f"{op}: Load the image tensor failed. The image is empty (shape "
                           f"{image.shape}).")
    if image.ndim == 3 and image.shape[2] == 3:
        pixels = np.ascontiguousarray(image[..., ::-1])
    else:
        pixels = np.ascontiguousarray(image.reshape(image.shape[:2]))
    try:
        ok, encoded = cv2.imencode(ext, pixels, params)
    except cv2.error as exc:
        raise RuntimeError(f"{op}: Failed to encode image. {exc}".strip()) from None
    if not ok:
        raise RuntimeError(f"{op}: Failed to encode image.")
    return encoded.reshape(-1)


def _jpeg_bytes(image, quality, op, subject):
    _check_image(image, op, subject)
    _check_in_range(quality, "quality", 1, 100, op)
    return _encode(image, op, ".jpg", [cv2.IMWRITE_JPEG_QUALITY, int(quality)])


def _png_bytes(image, compression_level, op, subject):
    # zlib at the level asked for. MindSpore's OpenCV build also picks zlib's RLE strategy,
    # which makes levels 1 to 9 give the same (about 3x larger) bytes: not imitated.
    _check_image(image, op, subject)
    _check_in_range(compression_level, "compression_level", 0, 9, op)
    return _encode(image, op, ".png", [cv2.IMWRITE_PNG_COMPRESSION, int(compression_level)])


def encode_jpeg(image, quality=75):
    """The JPEG bytes (1-D uint8 array) of a uint8 RGB or grey image (H x W, H x W x 1 or
    H x W x 3); quality in [1, 100]. The bytes are MindSpore's, byte for byte."""
    _check_int(quality, "quality")
    image = _as_array(image, "image")
    return _jpeg_bytes(image, quality, "EncodeJpeg", "image data")


def encode_png(image, compression_level=6):
    """The PNG bytes (1-D uint8 array) of a uint8 RGB or grey image (H x W, H x W x 1 or
    H x W x 3); compression_level in [0, 9] (zlib's level; 0 stores the pixels)."""
    _check_int(compression_level, "compression_level")
    image = _as_array(image, "image")
    return _png_bytes(image, compression_level, "EncodePng", "image data")


# -- files -------------------------------------------------------------------------------------

def _check_readable(filename, op):
    if not os.path.exists(filename):  # a dangling link or "" included
        raise RuntimeError(f"{op}: Invalid file path, {filename} does not exist.")
    if not os.path.isfile(filename):
        raise RuntimeError(f"{op}: Invalid file path, {filename} is not a regular file.")


def _read_bytes(filename, op):
    _check_readable(filename, op)
    try:
        return np.fromfile(filename, np.uint8)
    except OSError as exc:
        raise RuntimeError(f"{op}: Failed to read file {filename}: {exc.strerror}") from None


def _remove_quietly(path):
    try:
        os.unlink(path)
    except OSError:
        pass


def _write_atomically(filename, payload, op):
    """Write `payload` (bytes-like) to `filename` through a temporary file in the same folder
    renamed over it: a reader sees the old file or the whole new one, and a failure (a full
    disk, an interrupt) leaves no partial file. A symbolic link is written through to its
    target, as MindSpore's writes do. The file gets mode 0600, as MindSpore gives it."""
    if not filename:
        raise RuntimeError(f"{op}: No such file or directory: cannot write ''")
    target = os.path.realpath(filename)
    if filename.endswith(os.sep) or (os.path.exists(target) and not os.path.isfile(target)):
        raise RuntimeError(f"{op}: Invalid file path, {filename} is not a regular file.")
    name = os.path.basename(target)
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{name[:32]}.", suffix=".partial",
                                    dir=os.path.dirname(target))
    except OSError as exc:
        raise RuntimeError(f"{op}: {exc.strerror}: cannot write {filename}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
        os.replace(temp, target)
    except OSError as exc:
        _remove_quietly(temp)
        raise RuntimeError(f"{op}: {exc.strerror}: cannot write {filename}") from None
    except BaseException:
        _remove_quietly(temp)
        raise


def read_file(filename):
    """The bytes of file `filename` as a 1-D uint8 array (empty for an empty file)."""
    _check_filename(filename)
    return _read_bytes(filename, "ReadFile")


def write_file(filename, data):
    """Write 1-D uint8 `data` to `filename` (replacing it whole, never half-written)."""
    _check_filename(filename)
    data = _as_array(data, "data")
    if data.dtype != np.uint8:
        raise RuntimeError(f"WriteFile: The type of the elements of data should be UINT8, but "
                           f"got {dtype_words(data.dtype)}.")
    if data.ndim != 1:
        raise RuntimeError(f"WriteFile: The data has invalid dimensions. It should have only "
                           f"one dimension, but got {data.ndim} dimensions.")
    _write_atomically(filename, np.ascontiguousarray(data).data, "WriteFile")


def write_jpeg(filename, image, quality=75):
    """encode_jpeg(image, quality) written to `filename` (never half-written)."""
    _check_filename(filename)
    _check_int(quality, "quality")
    image = _as_array(image, "image")
    encoded = _jpeg_bytes(image, quality, "WriteJpeg", "elements of image")
    _write_atomically(filename, encoded.data, "WriteJpeg")


def write_png(filename, image, compression_level=6):
    """encode_png(image, compression_level) written to `filename` (never half-written)."""
    _check_filename(filename)
    _check_int(compression_level, "compression_level")
    image = _as_array(image, "image", lead="The input")
    encoded = _png_bytes(image, compression_level, "WritePng", "elements of image")
    _write_atomically(filename, encoded.data, "WritePng")


# -- read_image --------------------------------------------------------------------------------

def _tiff_orientation(tiff):
    """The Orientation tag (0x0112) of IFD0 of an EXIF TIFF block, 1 when absent."""
    endian = {b"II": "<", b"MM": ">"}.get(bytes(tiff[:2]))
    if endian is None:
        return 1
    (ifd,) = struct.unpack_from(endian + "I", tiff, 4)
    (count,) = struct.unpack_from(endian + "H", tiff, ifd)
    for entry in range(ifd + 2, ifd + 2 + 12 * count, 12):
        tag, kind = struct.unpack_from(endian + "HH", tiff, entry)
        if tag == 0x0112 and kind == 3:   # SHORT
            (value,) = struct.unpack_from(endian + "H", tiff, entry + 8)
            return value if 1 <= value <= 8 else 1
    return 1


def jpeg_orientation(data):
    """The EXIF orientation (1..8) of JPEG bytes, 1 without a readable one: the markers before
    the first scan are walked to the APP1 segment that starts with "Exif"."""
    buf = memoryview(data).cast("B")
    pos = 2
    try:
        while pos + 4 <= len(buf) and buf[pos] == 0xFF:
            marker = buf[pos + 1]
            if marker == 0xFF:                           # fill byte
                pos += 1
                continue
            if marker in (0xDA, 0xD9):                   # start of scan / end: no more headers
                return 1
            (length,) = struct.unpack_from(">H", buf, pos + 2)
            if marker == 0xE1 and bytes(buf[pos + 4:pos + 10]) == b"Exif\0\0":
                return _tiff_orientation(buf[pos + 10:pos + 2 + length])
            pos += 2 + length
    except struct.error:                                 # a header cut short
        return 1
    return 1


# Each EXIF orientation undone, as OpenCV's imread does (1 is upright).
_UPRIGHT = {
    1: lambda a: a, 2: lambda a: a[:, ::-1], 3: lambda a: a[::-1, ::-1], 4: lambda a: a[::-1],
    5: lambda a: a.swapaxes(0, 1), 6: lambda a: np.rot90(a, -1),
    7: lambda a: a[::-1, ::-1].swapaxes(0, 1), 8: lambda a: np.rot90(a, 1),
}

_OPENCV_FLAGS = {ImageReadMode.UNCHANGED: cv2.IMREAD_UNCHANGED,
                 ImageReadMode.GRAYSCALE: cv2.IMREAD_GRAYSCALE,
                 ImageReadMode.COLOR: cv2.IMREAD_COLOR}


def _opencv_decode(data, mode):
    """OpenCV's decoding with imread's flags (COLOR and GRAYSCALE turn the image upright by its
    EXIF orientation, UNCHANGED keeps 16-bit and float samples), as H x W x C RGB: alpha is
    dropped, as MindSpore drops it."""
    check_declared_size(data, "ReadImage")
    try:
        img = cv2.imdecode(data, _OPENCV_FLAGS[mode])
    except cv2.error as exc:
        raise RuntimeError(f"cannot decode image: {exc}") from None
    if img is None or img.size == 0:
        raise RuntimeError("data is not a decodable image")
    if img.ndim == 2:
        return img[..., None]
    code = cv2.COLOR_BGRA2RGB if img.shape[2] == 4 else cv2.COLOR_BGR2RGB
    return cv2.cvtColor(img, code)


def _decode_file_bytes(data, mode):
    if data.size == 0:
        raise RuntimeError("the file is empty")
    if not is_jpeg(data):
        return _opencv_decode(data, mode)
    if mode == ImageReadMode.GRAYSCALE:
        # One decode straight to grey: libjpeg's luma, as OpenCV's imread gives it (RGB -> grey
        # would differ by 1); a file cut short or damaged raises as Decode does (OpenCV serves
        # its missing part grey)
        pixels = decode_jpeg(data, "ReadImage", cmyk_rule=1, channels=1)
        return np.ascontiguousarray(_UPRIGHT[jpeg_orientation(data)](pixels))
    # (a CMYK JPEG's colours as OpenCV's imread converts them, as MindSpore's read_image)
    pixels = decode_jpeg(data, "ReadImage", cmyk_rule=1)
    if mode == ImageReadMode.COLOR:
        return np.ascontiguousarray(_UPRIGHT[jpeg_orientation(data)](pixels))
    if _native.jpeg_info(data)[2] == 1:                 # UNCHANGED: a grey JPEG stays grey
        return np.ascontiguousarray(pixels[..., :1])
    return pixels                                       # (EXIF orientation ignored)


def read_image(filename, mode=ImageReadMode.UNCHANGED):
    """Decode image file `filename` (JPEG, PNG, BMP, TIFF, and what else Decode reads) into an
    H x W x C array. UNCHANGED: the file's own channels (1 or 3; alpha dropped) and depth
    (uint16 for 16-bit PNG/TIFF); GRAYSCALE: H x W x 1 uint8; COLOR: H x W x 3 uint8 RGB, the
    pixels of Decode. GRAYSCALE and COLOR turn the image upright by its EXIF orientation."""
    _check_filename(filename)
    if not isinstance(mode, ImageReadMode):
        raise TypeError(f"Input mode is not of type {ImageReadMode}, but got: {type(mode)}.")
    data = _read_bytes(filename, "ReadImage")
    try:
        return _decode_file_bytes(data, mode)
    except RuntimeError as exc:
        detail = str(exc).removeprefix("ReadImage: ")
        raise RuntimeError(f"ReadImage: Failed to read file {filename}: {detail}") from None
