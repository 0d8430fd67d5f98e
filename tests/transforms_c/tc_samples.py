"""Sample images for the transforms_c tests: natural content (scikit-image's bundled photos),
encoded in memory with Pillow/OpenCV. Sizes are small so the suite stays fast."""
import functools
import io

import cv2
import numpy as np
from PIL import Image


@functools.lru_cache(maxsize=None)
def natural_rgb(height=123, width=157, seed=0):
    import skimage.data
    base = skimage.data.astronaut() if seed % 2 == 0 else skimage.data.chelsea()
    img = cv2.resize(np.ascontiguousarray(base[..., :3]), (width, height),
                     interpolation=cv2.INTER_AREA)
    img.setflags(write=False)
    return img


def jpeg_bytes(img, quality=90, subsampling=2):
    """Encodes an RGB (or gray) uint8 array as JPEG (Pillow; 4:2:0 by default)."""
    buf = io.BytesIO()
    mode = "L" if img.ndim == 2 else "RGB"
    Image.fromarray(img, mode).save(buf, "JPEG", quality=quality, subsampling=subsampling)
    return np.frombuffer(buf.getvalue(), np.uint8)


def encoded(img, ext):
    """PNG/BMP/TIFF/WebP bytes of an RGB image through OpenCV."""
    ok, data = cv2.imencode(ext, cv2.cvtColor(img, cv2.COLOR_RGB2BGR))
    assert ok
    return data.ravel()


def cv2_decode_rgb(data):
    return cv2.cvtColor(cv2.imdecode(data, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


@functools.lru_cache(maxsize=None)
def sample_jpeg(height=123, width=157, seed=0):
    data = jpeg_bytes(natural_rgb(height, width, seed))
    data.setflags(write=False)
    return data


def max_abs_diff(a, b):
    return int(np.abs(a.astype(np.int64) - b.astype(np.int64)).max()) if a.size else 0
