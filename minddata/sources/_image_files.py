"""What the sources of one image file per row share (ImageFolder, Manifest, COCO, VOC, CelebA):
MindSpore's checks of their common arguments, reading one image file (through ``decrypt``,
decoded with ``decode=True``) with MindSpore's errors, and the stamps that make a cache key
change when an annotation file is rewritten."""
import os

import numpy as np

from ..cache.identity import describe_operation
from ._validation import check_mappable_shuffle, check_sampling_args, type_check


def check_decrypt(decrypt):
    """``decrypt`` is None or a callable (MindSpore's TypeError and words otherwise)."""
    if decrypt is not None and not callable(decrypt):
        raise TypeError(f"Argument decrypt is not a callable object, but got {type(decrypt)}")


def check_common_args(api, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                      shard_id, decode, decrypt, refuse_pk_sampler=True):
    """The checks MindSpore's validators run on every annotated-image source, in its order:
    ``decrypt`` callable, int/bool arguments, then the sampler/shuffle/shard rules."""
    check_decrypt(decrypt)
    check_mappable_shuffle(shuffle)
    type_check(decode, (bool,), "decode")
    if refuse_pk_sampler and type(sampler).__name__ == "PKSampler":
        raise ValueError(f"{api} doesn't support PKSampler.")
    check_sampling_args(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)


_native_decode = None


def decode_image(data, path, api):
    """Encoded bytes (1-D uint8) -> HWC uint8 RGB; RuntimeError with MindSpore's words naming
    the file (and the dataset API ``api`` that read it) if undecodable."""
    global _native_decode
    if _native_decode is None:
        try:   # the project's Decode op, so decode=True matches .map(vision.Decode())
            from transforms_c.vision import Decode
            _native_decode = Decode()
        except Exception:  # noqa: BLE001 - transforms_c not built: OpenCV does the same job
            _native_decode = False
    try:
        if _native_decode:
            return _native_decode(data)
        import cv2
        img = cv2.imdecode(data, cv2.IMREAD_COLOR)
        if img is None:
            raise ValueError("OpenCV could not decode it")
        return cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
    except Exception as exc:  # noqa: BLE001 - re-raised with the file that failed
        raise RuntimeError(f"Invalid image, {path} decode failed, the image is broken or "
                           f"permission denied ({api}: {exc})") from exc


def _decrypted(decrypt, path):
    # bytes(n) of an int would be n zero bytes: anything but bytes is refused, as MindSpore does.
    data = decrypt(path)
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"The return value of the decrypt function is not of type bytes: "
                        f"decrypt({path!r}) returned {type(data)}.")
    return np.frombuffer(data, dtype=np.uint8).copy()


def read_image(path, decode, decrypt, api):
    """The file's bytes as a 1-D uint8 array (``decrypt(path)``'s bytes when given), or the
    decoded HWC uint8 RGB image with ``decode``; RuntimeError naming the file otherwise."""
    if os.path.isdir(path):
        raise RuntimeError(f"Invalid file found: {path}, should be file, but got directory.")
    try:
        data = np.fromfile(path, dtype=np.uint8) if decrypt is None else _decrypted(decrypt, path)
    except OSError as exc:
        raise RuntimeError(f"{api}: Invalid file, failed to read image file {path}: "
                           f"{exc.strerror or exc}") from exc
    return decode_image(data, path, api) if decode else data


def read_each(read_one, ids, count, where):
    """``read_rows`` of a source that reads its rows one by one: ``read_one(i)`` for each id,
    an IndexError naming ``where`` for an id outside ``[0, count)``."""
    out = []
    for i in ids:
        i = int(i)
        if not 0 <= i < count:
            raise IndexError(f"row id {i} is out of range for {where} ({count} rows)")
        out.append(read_one(i))
    return out


def file_stamp(path):
    """``(path, size, mtime_ns)`` of an annotation file, for a source's ``describe()``."""
    st = os.stat(path)
    return (path, st.st_size, st.st_mtime_ns)


def decrypt_key(decrypt):
    """The decrypt function's code and state (cache keys): two functions differ."""
    return None if decrypt is None else describe_operation(decrypt)


def meta_column(value):
    """The ``_meta-filename`` column's value: a 0-d ``str`` array."""
    return np.array(value, dtype=np.str_)
