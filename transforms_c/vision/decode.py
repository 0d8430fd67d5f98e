"""Decode: encoded image bytes (1-D uint8) -> RGB HWC uint8. JPEG goes through libjpeg-turbo
(native, GIL released); PNG, BMP, WebP, TIFF and the rest through cv2.imdecode, after
image_limits has read the size their header declares. Every failure is a RuntimeError saying what
was wrong with the data."""
import ctypes

import cv2
import numpy as np

from transforms_c import _native, folding, settings
from transforms_c._base import is_pil
from transforms_c.image_limits import check_declared_size, check_pixels
from transforms_c.schema import BOOL, NativeOperation, OpSchema, Param


def encoded_bytes(data, op_name="Decode"):
    """The 1-D uint8 contiguous array of an encoded image, checked."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        data = np.frombuffer(data, np.uint8)
    if isinstance(data, np.ndarray) and data.dtype.kind == "S" and data.ndim <= 1 \
            and data.size == 1:
        # A MindRecord bytes field as MindDataset gives it (|S<n> of shape (1,), as MindSpore),
        # or np.asarray(b"...") from a generator: the same memory as uint8, every byte kept.
        data = data.reshape(-1).view(np.uint8)
    if not isinstance(data, np.ndarray):
        raise TypeError(f"The type of the encoded image should be {np.ndarray}, but got "
                        f"{type(data)}.")
    if data.ndim == 1 and data.dtype != np.uint8 and data.dtype.kind in "biuf":
        # np.fromfile(path, dtype="int8" / "float32" ...): MindSpore 2.10 decodes the array's
        # bytes whatever their type (measured: bool to float64); a 1-D array is never a decoded
        # image, and bytes that are not an image still fail to decode
        data = np.ascontiguousarray(data).view(np.uint8)
    if data.dtype != np.uint8 or data.ndim != 1:
        raise RuntimeError(f"{op_name}: invalid data shape {data.shape} / dtype {data.dtype}: "
                           f"expected 1-D uint8 encoded image bytes (is the image already "
                           f"decoded?)")
    if data.size == 0:
        raise RuntimeError(f"{op_name}: Input Tensor has no data: image data is empty (0 bytes)")
    return np.ascontiguousarray(data)


def check_eager_call(op, arrays):
    """MindSpore's decoding ops are called with one image (Python's own TypeError otherwise)."""
    if not arrays:
        raise TypeError(f"{type(op).__name__}.__call__() missing 1 required positional argument: "
                        f"'img'")


def check_eager_encoded(data):
    """MindSpore's eager Decode checks its input in Python before its kernel does: an array
    that is not 1-D is a TypeError there (a pipeline's kernel raises RuntimeError). Bytes and
    a bytes scalar are taken; encoded_bytes checks the rest."""
    if not isinstance(data, np.ndarray) and not is_pil(data) \
            and not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"The type of the encoded image should be {np.ndarray}, but got "
                        f"{type(data)}.")
    if isinstance(data, np.ndarray) and data.ndim != 1 \
            and not (data.dtype.kind == "S" and data.size == 1):
        raise TypeError(f"The number of array dimensions of the encoded image should be 1, "
                        f"but got {data.ndim}.")


def is_jpeg(data):
    return data.size >= 3 and data[0] == 0xFF and data[1] == 0xD8 and data[2] == 0xFF


def decode_other(data, op_name="Decode"):
    """Non-JPEG formats through OpenCV, as RGB (3 channels, alpha dropped), stored side up:
    an EXIF orientation is not applied (as MindSpore 2.10 and the JPEG path: measured on a PNG
    with orientation 6); the size every header declares is checked first (image_limits), so no
    decoder allocates past the limit."""
    check_declared_size(data, op_name)
    try:
        img = cv2.imdecode(data, cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    except cv2.error as exc:
        raise RuntimeError(f"{op_name}: image decode failed. cannot decode image: {exc}") \
            from None
    if img is None or img.size == 0:
        raise RuntimeError(f"{op_name}: image decode failed. data is not a decodable image "
                           f"({data.size} bytes, first bytes {data[:8].tobytes()!r})")
    return cv2.cvtColor(img, cv2.COLOR_BGR2RGB)


def jpeg_size(data, op_name="Decode"):
    try:
        width, height, _ = _native.jpeg_info(data)
    except RuntimeError as exc:
        raise RuntimeError(f"{op_name}: image decode failed. {exc}") from None
    check_pixels(width, height, op_name)
    return width, height


class EncodedRows:
    """A batch of encoded rows as where their bytes lie, for the batch readers below:
    ``addresses`` (N,) uint64 (0: a row that is not encoded bytes) and ``sizes`` (N,) int64.
    ``of(datas)`` takes rows given as objects (contiguous 1-D uint8 arrays, one-element bytes
    arrays; anything else is a row of address 0) and gives them back by index; a source that
    knows where its rows lie (a MindRecord file's map: sources/native_access.EncodedBytes) gives
    the addresses with ``owner``, the object that keeps that memory valid, and then a row by
    index is a read-only view of its bytes."""

    def __init__(self, addresses, sizes, owner=None, rows=None):
        self.addresses = np.ascontiguousarray(addresses, np.uint64)
        self.sizes = np.ascontiguousarray(sizes, np.int64)
        if self.addresses.shape != self.sizes.shape or self.addresses.ndim != 1:
            raise ValueError(f"EncodedRows: addresses of shape {self.addresses.shape} and sizes "
                             f"of shape {self.sizes.shape}, expected two (N,) arrays")
        self.owner = owner
        self._rows = rows

    @classmethod
    def of(cls, datas):
        """``datas`` (a sequence of rows) as EncodedRows; an EncodedRows as it is."""
        if isinstance(datas, cls):
            return datas
        datas = list(datas)
        addresses, sizes = _native.encoded_addresses(datas)
        return cls(addresses, sizes, rows=datas)

    def __len__(self):
        return len(self.sizes)

    def __getitem__(self, i):
        if self._rows is not None:
            return self._rows[i]
        size = int(self.sizes[i])
        if size == 0:
            return np.zeros(0, np.uint8)
        view = np.frombuffer((ctypes.c_uint8 * size).from_address(int(self.addresses[i])),
                             np.uint8)
        view.flags.writeable = False
        return view

    def nbytes(self, rows):
        """The bytes of ``rows`` (indices) together."""
        return int(self.sizes[np.asarray(rows, np.int64)].sum())


def jpeg_batch_sizes(datas):
    """(N, 2) int64 (height, width) of a batch of encoded rows (EncodedRows or a sequence
    EncodedRows.of takes), from each JPEG's header, for
    the rows a batch decoder can take: a contiguous 1-D uint8 array or a one-element bytes
    array holding a complete JPEG (ending with its EOI marker) of YCbCr or grey colours whose
    header parses and declares 1 to the pixel limit; (0, 0) for every other row: Decode gives
    it its error, or its pixels where another decoder might misread it (a file cut short, or
    RGB-, CMYK- or YCCK-coded colours). The headers are read natively without the GIL."""
    rows = EncodedRows.of(datas)
    headers = _native.jpeg_headers(rows.addresses, rows.sizes)
    width, height = headers[:, 0], headers[:, 1]
    fits = (width > 0) & (height > 0) & (width * height <= settings.get_max_image_pixels())
    return np.where(fits[:, None], np.stack([height, width], 1), 0)


def gather_encoded(datas, rows, out):
    """Copies the encoded rows ``datas[rows[k]]`` (rows jpeg_batch_sizes takes; ``datas`` as
    there) one after another into the 1-D uint8 array ``out`` (natively, without the GIL);
    returns their (len(rows) + 1,) int64 offsets there. ValueError for a row of another type
    or an ``out`` too small, before anything is copied."""
    encoded = EncodedRows.of(datas)
    return _native.gather_encoded(encoded.addresses, encoded.sizes,
                                  np.ascontiguousarray(rows, np.int64), out)


def stage_jpegs(datas, out):
    """A whole batch (EncodedRows, or a sequence EncodedRows.of takes) staged for a batch
    decoder by one native call, the GIL let go once: every row that is encoded bytes copied
    one after another into the 1-D uint8 array ``out`` and its header read there. Returns
    (offsets (N + 1,) int64: row i is ``out[offsets[i]:offsets[i + 1]]``, empty for a row
    of another type; hw: jpeg_batch_sizes of the rows). ValueError when ``out`` is smaller
    than the rows, before anything is copied."""
    rows = EncodedRows.of(datas)
    return _native.stage_jpegs(rows.addresses, rows.sizes, out, settings.get_max_image_pixels())


def decode_jpeg(data, op_name="Decode", cmyk_rule=0, channels=3):
    """RGB pixels of a JPEG; a CMYK or YCCK one's colours as MindSpore's Decode converts them
    (``cmyk_rule`` 0: by its Adobe marker) or as OpenCV's imread (1: MindSpore's read_image).
    ``channels=1``: H x W x 1 grey, as OpenCV's imread GRAYSCALE (libjpeg's luma)."""
    width, height = jpeg_size(data, op_name)
    out = np.empty((height, width, channels), np.uint8)
    try:
        _native.jpeg_decode_into(data, 1, 0, 0, out, settings.get_max_image_pixels(), cmyk_rule)
    except RuntimeError as exc:
        raise RuntimeError(f"{op_name}: image decode failed. {exc}") from None
    return out


def decode_pil(data, op_name="Decode"):
    """Decode(to_pil=True): an RGB PIL image decoded by Pillow, as MindSpore 2.10 decodes there
    (its Python path: Pillow's pixels and formats, GIF and WebP included; a PNG whose pixels
    are whole but whose last chunk is cut short decodes; so does a GIF whose first frame is
    whole, what follows it cut short; RGBA TIFF keeps its colours where OpenCV's differ), after
    the size Pillow reads from the header (the frame it decodes) is checked against the pixel
    limit. Failures are ValueError "Failed to decode given image." as there (measured on
    empty, unrecognised and truncated data)."""
    import io
    from PIL import Image
    try:
        data = encoded_bytes(data, op_name)
        with Image.open(io.BytesIO(data.tobytes())) as image:
            check_pixels(*image.size, op_name)
            return image.convert("RGB")
    except (RuntimeError, OSError, SyntaxError, ValueError) as exc:
        raise ValueError(f"Failed to decode given image. {exc}") from None


def decode_image(data, op_name="Decode"):
    data = encoded_bytes(data, op_name)
    if is_jpeg(data):
        return decode_jpeg(data, op_name)
    return decode_other(data, op_name)


class Decode(NativeOperation):
    """Decode(to_pil=False): encoded bytes -> RGB image (HWC uint8), or a PIL image."""

    schema = OpSchema(params=(Param("to_pil", BOOL),), phase=folding.PHASE_START, step="decode",
                      first_only=True)

    decodes = True      # its input is encoded bytes
    pil_input = "own"   # refused by the encoded-bytes check (TypeError)

    def __init__(self, to_pil=False):
        self.schema.bind(self, to_pil=to_pil)

    def __call__(self, *arrays):
        check_eager_call(self, arrays)
        if len(arrays) == 1:
            check_eager_encoded(arrays[0])
        return super().__call__(*arrays)

    def fusion_phase(self, position):
        return None if self.to_pil else super().fusion_phase(position)

    @property
    def gives_pil(self):
        """Whether its output is a PIL image (minddata's map fusion looks at it)."""
        return self.to_pil

    def _compute(self, img, rng):
        if not self.to_pil:
            return decode_image(img, "Decode")
        return decode_pil(img, "Decode")
