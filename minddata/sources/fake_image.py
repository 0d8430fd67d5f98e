"""FakeImageDataset: ``num_images`` rows of random images and labels, for trying a pipeline
without data.

Rows: ``image`` uint8 of shape ``image_size`` (every pixel drawn uniformly from 0-255) and
``label`` uint32 drawn uniformly from ``0 .. num_classes - 1``. Row i is a function of
``base_seed + i`` alone, as in MindSpore: the same ``base_seed`` gives the same rows in every
run, whatever the global seed, and the rows of ``base_seed=s`` shifted by one are those of
``s + 1``. The values themselves cannot match MindSpore's (its generator is the C++ standard
library's; its images are the bytes of clipped normal doubles, about half of them 0).
"""
import functools

import numpy as np

from .. import seeds
from ._arrays import as_int_ids, check_ids
from ._source_base import RowSource, SourceDataset
from ._validation import INT32_MAX, check_sampling_args, check_value, type_check

INT32_MIN = -2 ** 31
# Mixed into every row's seed, so these draws share no stream with other seeded draws.
_SALT = 0x46414B45494D47
# base_seed + i shifted to be non-negative (base_seed >= INT32_MIN), for seeds.row_seeds.
_SHIFT = -INT32_MIN


class FakeImageRows(RowSource):
    """``num_images`` rows; row i's label and image come from the seed of ``base_seed + i``."""

    column_names = ["image", "label"]

    def __init__(self, num_images, image_size, num_classes, base_seed):
        self._num_images, self._image_size = num_images, tuple(image_size)
        self._num_classes, self._base_seed = num_classes, base_seed

    def __len__(self):
        return self._num_images

    def _seed(self, row_id):
        return seeds.row_seed(_SALT, self._base_seed + _SHIFT + row_id)

    def read_rows(self, ids):
        ids = as_int_ids(ids)
        check_ids(ids, self._num_images, self.describe())
        rows = []
        for row_id in ids.tolist():
            seed = self._seed(row_id)
            image = np.random.Generator(np.random.PCG64(seed)).integers(
                0, 256, size=self._image_size, dtype=np.uint8)
            rows.append((image, np.array(seed % self._num_classes, dtype=np.uint32)))
        return rows

    def column_values(self, name):
        if name != "label":
            return None
        all_seeds = seeds.row_seeds(_SALT, self._base_seed + _SHIFT, self._num_images)
        return (all_seeds % np.uint64(self._num_classes)).astype(np.uint32)

    def describe(self):
        return (f"FakeImageDataset(num_images={self._num_images}, image_size="
                f"{list(self._image_size)}, num_classes={self._num_classes}, "
                f"base_seed={self._base_seed})")


def _check_arguments(num_images, image_size, num_classes, base_seed, num_samples,
                     num_parallel_workers, shuffle, sampler, num_shards, shard_id):
    """MindSpore's checks, in its order: the ints' types, shuffle, the ranges of num_images,
    image_size and num_classes, the sampling rules, and base_seed's int32 range last."""
    for name, value in (("num_images", num_images), ("num_classes", num_classes),
                        ("base_seed", base_seed)):
        type_check(value, (int,), name)
    check_sampling_args(num_samples)
    for name, value in (("num_shards", num_shards), ("shard_id", shard_id)):
        if value is not None:
            type_check(value, (int,), name)
    if shuffle is not None:
        type_check(shuffle, (bool,), "shuffle")
    check_value(num_images, 1, INT32_MAX, "num_images")
    type_check(image_size, (list, tuple), "image_size")
    if len(image_size) != 3:
        raise ValueError(f"image_size should be a list or tuple of length 3, but got "
                         f"{len(image_size)}")
    for i, value in enumerate(image_size):
        type_check(value, (int,), f"image_size[{i}]")
        check_value(value, 1, INT32_MAX, f"image_size[{i}]")
    check_value(num_classes, 1, INT32_MAX, "num_classes")
    check_sampling_args(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
    if not INT32_MIN <= base_seed <= INT32_MAX:
        raise TypeError(f"FakeImageDataset: base_seed {base_seed} is not an int32 (MindSpore "
                        f"passes it to its engine as one).")


class FakeImageDataset(SourceDataset):
    """Random images and labels: columns ``image`` uint8 of shape ``image_size`` and ``label``
    uint32. Same signature, defaults and argument errors as
    ``mindspore.dataset.FakeImageDataset``. As there, ``num_classes`` is also the attribute
    holding the argument. See the module's text."""

    def __init__(self, num_images=1000, image_size=(224, 224, 3), num_classes=10, base_seed=0,
                 num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        _check_arguments(num_images, image_size, num_classes, base_seed, num_samples,
                         num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.num_images, self.image_size = num_images, image_size
        self.num_classes, self.base_seed = num_classes, base_seed
        super().__init__(functools.partial(FakeImageRows, num_images, list(image_size),
                                           num_classes, base_seed),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=FakeImageRows.column_names)
