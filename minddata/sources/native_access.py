"""How a source lets the native batch engine (minddata/engine/native_batch.py) and the GPU batch
node (minddata/engine/gpu_batch.py) read a column without running Python per row.

A RowSource may offer, for the column a native map reads, one of:

- ``EncodedBytes``: encoded images already in memory (a MindRecord blob in the file's map);
- ``ImageFiles``: encoded images in files, which the C++ threads read themselves (the GPU batch
  node: one native call a batch, transforms_c._native.read_files);
- ``DecodedImages``: decoded HWC uint8 images of one shape in one array (in-memory sources);

and, for every other column, the whole column as one array (``column_values``), which the engine
gathers per batch with one numpy indexing call. A source that offers neither is run through the
general nodes. The engine keeps the source open (and so its memory valid) while it runs.
"""
import os

import numpy as np

from transforms_c import _batch


class EncodedBytes:
    """Encoded bytes in memory; ``locate(ids)`` -> (uint64 addresses, int64 sizes)."""

    kind = _batch.INPUT_ENCODED
    image_shape = None

    def __init__(self, locate):
        self.locate = locate


class ImageFiles:
    """One file per row, read by the native threads."""

    kind = _batch.INPUT_FILE
    image_shape = None

    def __init__(self, paths):
        encoded = [os.fsencode(p) for p in paths]
        self._sizes = np.fromiter((len(p) for p in encoded), np.int64, len(encoded))
        self._offsets = np.concatenate([[0], np.cumsum(self._sizes)[:-1]]).astype(np.uint64)
        self._buffer = np.frombuffer(b"".join(encoded) or b"\0", np.uint8).copy()

    def locate(self, ids):
        base = np.uint64(self._buffer.ctypes.data)
        return self._offsets[ids] + base, self._sizes[ids]


class DecodedImages:
    """Decoded uint8 images, one (h, w, c) row of a C-contiguous (n, h, w, c) array each."""

    kind = _batch.INPUT_IMAGE

    def __init__(self, array):
        self._array = array
        _, h, w, c = array.shape
        self._row_bytes = h * w * c
        self.image_shape = (h, w, c, w * c)

    @classmethod
    def of(cls, array):
        """A DecodedImages over `array`, or None when it is not such an array."""
        if (isinstance(array, np.ndarray) and array.dtype == np.uint8 and array.ndim == 4
                and array.flags.c_contiguous and array.size):
            return cls(array)
        return None

    def locate(self, ids):
        base = np.uint64(self._array.ctypes.data)
        addresses = ids.astype(np.uint64) * np.uint64(self._row_bytes) + base
        return addresses, np.full(len(ids), self._row_bytes, np.int64)
