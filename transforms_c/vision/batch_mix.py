"""MixUpBatch and CutMixBatch: mix the images of a batch and their one-hot labels."""
import math

import numpy as np

from transforms_c._base import TensorOperation
from transforms_c._rng import Rng
from transforms_c._validate import check_enum, check_float
from transforms_c.enums import ImageBatchFormat


def _images_and_labels(arrays, op_name):
    """(images, labels) of a batch-mixing op's two input columns, checked."""
    if len(arrays) != 2:
        raise RuntimeError(f"{op_name}: expected 2 columns (images, labels), got {len(arrays)}")
    images, labels = arrays
    if not isinstance(images, np.ndarray) or images.ndim != 4:
        raise RuntimeError(f"{op_name}: images should be a batch of shape <N,H,W,C> or "
                           f"<N,C,H,W>, got {getattr(images, 'shape', type(images).__name__)}")
    if not isinstance(labels, np.ndarray) or labels.ndim not in (2, 3):
        raise RuntimeError(f"{op_name}: labels should be one-hot of shape <N,num_classes>, got "
                           f"{getattr(labels, 'shape', type(labels).__name__)}")
    if labels.shape[0] != images.shape[0]:
        raise RuntimeError(f"{op_name}: {images.shape[0]} images but {labels.shape[0]} labels")
    return images, labels


def _permutation(count, rng):
    perm = list(range(count))
    for i in range(count - 1, 0, -1):
        j = rng.randint(0, i)
        perm[i], perm[j] = perm[j], perm[i]
    return np.asarray(perm, np.int64)


def _cast_like(values, like):
    if like.dtype.kind in "ui":
        info = np.iinfo(like.dtype)
        return np.clip(np.rint(values), info.min, info.max).astype(like.dtype)
    return values.astype(like.dtype, copy=False)


class MixUpBatch(TensorOperation):
    """MixUpBatch(alpha=1.0): lam ~ Beta(alpha, alpha); images and labels become
    lam * x + (1 - lam) * x[perm] for a random permutation of the batch."""

    is_random = True

    def __init__(self, alpha=1.0):
        self.alpha = check_float(alpha, "alpha", 0.0, low_open=True)

    def apply(self, arrays, seed):
        images, labels = _images_and_labels(arrays, "MixUpBatch")
        rng = Rng(seed)
        lam = rng.beta(self.alpha, self.alpha)
        perm = _permutation(images.shape[0], rng)
        mixed = lam * images.astype(np.float32) + (1 - lam) * images[perm].astype(np.float32)
        mixed_labels = lam * labels.astype(np.float32) + (1 - lam) * labels[perm].astype(
            np.float32)
        return _cast_like(mixed, images), mixed_labels.astype(np.float32)


class CutMixBatch(TensorOperation):
    """CutMixBatch(image_batch_format, alpha=1.0, prob=1.0): with probability prob per image,
    pastes a box of another image (area fraction 1 - lam, lam ~ Beta(alpha, alpha)) and mixes the
    labels by the pasted area."""

    is_random = True

    def __init__(self, image_batch_format, alpha=1.0, prob=1.0):
        self.image_batch_format = check_enum(image_batch_format, ImageBatchFormat,
                                             "image_batch_format")
        self.alpha = check_float(alpha, "alpha", 0.0, low_open=True)
        self.prob = check_float(prob, "prob", 0.0, 1.0)

    def apply(self, arrays, seed):
        images, labels = _images_and_labels(arrays, "CutMixBatch")
        rng = Rng(seed)
        nhwc = self.image_batch_format == ImageBatchFormat.NHWC
        height, width = (images.shape[1:3] if nhwc else images.shape[2:4])
        perm = _permutation(images.shape[0], rng)
        out = images.copy()
        out_labels = labels.astype(np.float32)
        for i in range(images.shape[0]):
            if rng.random() >= self.prob:
                continue
            lam = rng.beta(self.alpha, self.alpha)
            cut = math.sqrt(1.0 - lam)
            cut_h, cut_w = int(height * cut), int(width * cut)
            cy, cx = rng.randint(0, height - 1), rng.randint(0, width - 1)
            y0, y1 = max(cy - cut_h // 2, 0), min(cy + cut_h // 2, height)
            x0, x1 = max(cx - cut_w // 2, 0), min(cx + cut_w // 2, width)
            j = perm[i]
            if nhwc:
                out[i, y0:y1, x0:x1] = images[j, y0:y1, x0:x1]
            else:
                out[i, :, y0:y1, x0:x1] = images[j, :, y0:y1, x0:x1]
            pasted = (y1 - y0) * (x1 - x0) / float(height * width)
            out_labels[i] = (1 - pasted) * labels[i] + pasted * labels[j]
        return out, out_labels
