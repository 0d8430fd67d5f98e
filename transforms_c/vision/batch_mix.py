"""MixUpBatch, CutMixBatch and MixUp: mix the images of a batch and their one-hot labels."""
import math
import threading
import weakref

import numpy as np

from transforms_c._base import TensorOperation, cast_like
from transforms_c._rng import Rng
from transforms_c._validate import (MAX_SIZE, check_bool, check_enum, check_float, check_range,
                                    check_type)
from transforms_c.enums import ImageBatchFormat


#: MindSpore's words for images, then labels, of the wrong rank (formatted with the rank).
_RANK_WORDS = {
    "MixUpBatch": (
        "MixUpBatch: rank of image shape should be: 4, but got: {}, make sure image shape are "
        "<H,W,C> or <C,H,W> and batched before calling MixUpBatch.",
        "MixUpBatch: wrong labels shape. The second column (labels) must have a shape of NC or "
        "NLC where N is the batch size, L is the number of labels in each row, and C is the "
        "number of classes. labels must be in one-hot format and in a batch, but got rank: {}"),
    "CutMixBatch": (
        "CutMixBatch: input image is not in shape of <B,H,W,C> or <B,C,H,W>, but got "
        "dimension: {}. You may need to perform Batch first.",
        "CutMixBatch: input label is not in shape of <Batch,Class> or <Batch,Row,Class>, but "
        "got dimension: {}. You may need to perform OneHot and Batch first."),
}


#: MindSpore's words for a call with other than 2 columns (formatted with their count).
_COLUMN_WORDS = {
    "MixUpBatch": "MixUpBatch: size of input data should be 2 (including images or labels), but "
                  "got: {}, check 'input_columns' when call this operator.",
    "CutMixBatch": "CutMixBatch: invalid input size, input should have 2 columns (image and "
                   "label), but got: {}",
}


def _images_and_labels(arrays, op_name):
    """(images, labels) of a batch-mixing op's two input columns, checked (MindSpore's words,
    where its message says what is wrong)."""
    if len(arrays) != 2:
        raise RuntimeError(_COLUMN_WORDS[op_name].format(len(arrays)))
    images, labels = arrays
    if not isinstance(images, np.ndarray) or images.ndim != 4:
        raise RuntimeError(_RANK_WORDS[op_name][0].format(getattr(images, "ndim", "?")))
    if not isinstance(labels, np.ndarray) or labels.ndim not in (2, 3):
        raise RuntimeError(_RANK_WORDS[op_name][1].format(getattr(labels, "ndim", "?")))
    if labels.dtype.kind not in "biuf":
        raise RuntimeError(f"{op_name}: invalid label type, label must be in a numeric type, but "
                           f"got: string. You may need to perform OneHot first.")
    if labels.shape[0] != images.shape[0]:
        raise RuntimeError(f"{op_name}: batch sizes of image and label must be the same, but got "
                           f"image size: {images.shape[0]} and label size: {labels.shape[0]}")
    return images, labels


def _permutation(count, rng):
    perm = list(range(count))
    for i in range(count - 1, 0, -1):
        j = rng.randint(0, i)
        perm[i], perm[j] = perm[j], perm[i]
    return np.asarray(perm, np.int64)


class MixUpBatch(TensorOperation):
    """MixUpBatch(alpha=1.0): lam ~ Beta(alpha, alpha); images and labels become
    lam * x + (1 - lam) * x[perm] for a random permutation of the batch."""

    is_random = True

    def __init__(self, alpha=1.0):
        self.alpha = check_float(alpha, "alpha")
        if self.alpha <= 0:
            raise ValueError(f"Input alpha must be greater than 0. Got {alpha}.")

    def apply(self, arrays, seed):
        images, labels = _images_and_labels(arrays, "MixUpBatch")
        if images.shape[1] not in (1, 3) and images.shape[3] not in (1, 3):
            # a channel axis of 1 or 3, first or last (MindSpore 2.10's check, measured)
            raise RuntimeError(f"MixUpBatch: images shape should in <N,H,W,C> or <N,C,H,W>, "
                               f"got shape:<{','.join(map(str, images.shape))}>")
        rng = Rng(seed)
        lam = rng.beta(self.alpha, self.alpha)
        perm = _permutation(images.shape[0], rng)
        mixed = lam * images.astype(np.float32) + (1 - lam) * images[perm].astype(np.float32)
        mixed_labels = lam * labels.astype(np.float32) + (1 - lam) * labels[perm].astype(
            np.float32)
        return cast_like(mixed, images), mixed_labels.astype(np.float32)


class CutMixBatch(TensorOperation):
    """CutMixBatch(image_batch_format, alpha=1.0, prob=1.0): with probability prob per image,
    pastes a box of another image (area fraction 1 - lam, lam ~ Beta(alpha, alpha)) and mixes the
    labels by the pasted area."""

    is_random = True

    def __init__(self, image_batch_format, alpha=1.0, prob=1.0):
        self.image_batch_format = check_enum(image_batch_format, ImageBatchFormat,
                                             "image_batch_format")
        self.alpha = check_float(alpha, "alpha", 0, 16777216, low_open=True)
        self.prob = check_float(prob, "prob", 0, 1)

    def apply(self, arrays, seed):
        images, labels = _images_and_labels(arrays, "CutMixBatch")
        rng = Rng(seed)
        nhwc = self.image_batch_format == ImageBatchFormat.NHWC
        height, width = (images.shape[1:3] if nhwc else images.shape[2:4])
        channels = images.shape[3] if nhwc else images.shape[1]
        if channels not in (1, 3):
            raise RuntimeError(f"CutMixBatch: input image is not in channel of 1 or 3, but got "
                               f"channel: {channels} (image_batch_format "
                               f"{self.image_batch_format.name})")
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


#: MixUp(is_single=False) op -> (images, labels) of its last batch (kept out of the op's own
#: state, which pickles and fingerprints as its arguments only), under _HISTORY_LOCK.
_HISTORY = weakref.WeakKeyDictionary()
_HISTORY_LOCK = threading.Lock()


class MixUp(TensorOperation):
    """MixUp(batch_size, alpha, is_single=True): MindSpore's Python-only op on an (images,
    labels) batch of batch_size rows (images (N, H, W, C) or (N, C, H, W), one-hot labels
    (N, classes)); gives float64 images and labels. Each row draws lam ~ Beta(alpha, alpha);
    is_single mixes row i with row i + 1 of the same batch (the last with the first):
    lam * x[i] + (1 - lam) * x[i + 1]; otherwise with row i of the previous batch's result
    (the first batch comes back unmixed, as float64), so successive calls are chained: in a map
    the batches must come in order (one worker). A batch of another size than batch_size fails
    with numpy's broadcast error, as in MindSpore."""

    is_random = True

    def __init__(self, batch_size, alpha, is_single=True):
        self.is_single = check_bool(is_single, "is_single")
        check_type(batch_size, int, "batch_size")
        self.batch_size = int(batch_size)
        check_range(self.batch_size, "", 1, MAX_SIZE)
        check_type(alpha, (int, float), "alpha")
        if alpha <= 0:
            raise ValueError("Input alpha must be greater than 0.")
        self.alpha = float(alpha)

    def apply(self, arrays, seed):
        if len(arrays) != 2:
            raise TypeError(f"MixUp: takes 2 inputs (image, label), but {len(arrays)} were "
                            f"given")
        images, labels = arrays
        rng = Rng(seed)
        lam = np.array([rng.beta(self.alpha, self.alpha) for _ in range(self.batch_size)])
        if self.is_single:
            shifted = list(range(1, self.batch_size)) + [0]
            return self._mix(lam, images, labels, images[shifted, ...], labels[shifted, ...])
        with _HISTORY_LOCK:
            previous = _HISTORY.get(self)
            if previous is None:
                lam = np.ones(self.batch_size)
                previous = (0, 0)
            mixed = self._mix(lam, images, labels, *previous)
            _HISTORY[self] = mixed
        return mixed

    def _mix(self, lam, images, labels, other_images, other_labels):
        lam_images = lam.reshape((self.batch_size, 1, 1, 1))
        lam_labels = lam.reshape((self.batch_size, 1))
        return (lam_images * images + (1 - lam_images) * other_images,
                lam_labels * labels + (1 - lam_labels) * other_labels)
