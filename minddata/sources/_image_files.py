"""What the annotated-image sources (COCO, VOC, CelebA) share: MindSpore's checks of their common
arguments, reading one image file (through ``decrypt``, decoded with ``decode=True``), and the
stamps that make a cache key change when an annotation file is rewritten."""
import os

import numpy as np

from ..cache.identity import describe_operation
from ._validation import check_sampling_args, type_check
from .image_folder import decode_image


def check_common_args(api, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                      shard_id, decode, decrypt, refuse_pk_sampler=True):
    """The checks MindSpore's validators run on every annotated-image source, in its order:
    ``decrypt`` callable, int/bool arguments, then the sampler/shuffle/shard rules."""
    if decrypt is not None and not callable(decrypt):
        raise TypeError(f"Argument decrypt is not a callable object, but got {type(decrypt)}")
    if shuffle is not None:
        type_check(shuffle, (bool,), "shuffle")
    type_check(decode, (bool,), "decode")
    if refuse_pk_sampler and type(sampler).__name__ == "PKSampler":
        raise ValueError(f"{api} doesn't support PKSampler.")
    check_sampling_args(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)


def read_image(path, decode, decrypt, api):
    """The file's bytes as a 1-D uint8 array (``decrypt(path)``'s bytes when given), or the
    decoded HWC uint8 RGB image with ``decode``; RuntimeError naming the file otherwise."""
    try:
        if decrypt is not None:
            data = np.frombuffer(bytes(decrypt(path)), dtype=np.uint8).copy()
        else:
            data = np.fromfile(path, dtype=np.uint8)
    except OSError as exc:
        raise RuntimeError(f"{api}: Invalid file, failed to read image file {path}: "
                           f"{exc.strerror or exc}") from exc
    if not decode:
        return data
    try:
        return decode_image(data, path)
    except RuntimeError as exc:
        raise RuntimeError(f"{api}: Invalid image, failed to decode {path}: the image is broken "
                           f"or permission denied ({exc.__cause__ or exc})") from exc


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
