"""DIV2KDataset: the DIV2K super-resolution folders, one row per high-resolution image with its
low-resolution version.

The HR images are the ``.png`` files of ``DIV2K_<usage>_HR`` sorted by name ('all': train's,
then valid's). The LR image of ``0001.png`` is, by ``downgrade`` and ``scale``:

- 'bicubic' / 'unknown', scale 2, 3, 4: ``DIV2K_<usage>_LR_<downgrade>/X<scale>/0001x<scale>.png``
- 'bicubic', scale 8: ``DIV2K_<usage>_LR_x8/0001x8.png``
- 'mild' / 'difficult' / 'wild' (scale 4 only): ``DIV2K_<usage>_LR_<downgrade>/0001x4<m|d|w>.png``

An HR image without its LR image is an error when the dataset opens, as in MindSpore.
Columns ``hr_image`` and ``lr_image``: file bytes (uint8), or decoded HWC RGB with
``decode=True``.
"""
import functools
import os

from ._image_rows import (ImageRowsDataset, ImageRowsSource, check_choice, check_image_args,
                          sorted_entries)
from ._validation import check_dir, type_check

USAGES = ["train", "valid", "all"]
DOWNGRADES = ["bicubic", "unknown", "mild", "difficult", "wild"]
SCALES = [2, 3, 4, 8]
_SUFFIX_2018 = {"mild": "m", "difficult": "d", "wild": "w"}


def lr_folder(usage, downgrade, scale):
    """The LR folder of one usage, relative to ``dataset_dir``."""
    if downgrade == "bicubic" and scale == 8:
        return f"DIV2K_{usage}_LR_x8"
    base = f"DIV2K_{usage}_LR_{downgrade}"
    return base if downgrade in _SUFFIX_2018 else os.path.join(base, f"X{scale}")


def scan_div2k(dataset_dir, usage, downgrade, scale):
    """(hr paths, lr paths) in MindSpore's row order."""
    hr_paths, lr_paths = [], []
    for part in (["train", "valid"] if usage == "all" else [usage]):
        hr_dir = os.path.join(dataset_dir, f"DIV2K_{part}_HR")
        lr_dir = os.path.join(dataset_dir, lr_folder(part, downgrade, scale))
        for which, folder in (("hr", hr_dir), ("lr", lr_dir)):
            if not os.path.isdir(folder):
                raise RuntimeError(f"Invalid path, div2k {which} image dir: {folder} is not a "
                                   f"directory.")
        for hr in sorted_entries(hr_dir, lambda n: n.endswith(".png")):
            stem = os.path.basename(hr)[:-len(".png")]
            lr = os.path.join(lr_dir, f"{stem}x{scale}{_SUFFIX_2018.get(downgrade, '')}.png")
            if not os.path.exists(lr):
                raise RuntimeError(f"Invalid file, div2k image file: {lr} does not exist (the "
                                   f"low-resolution image of {hr}).")
            hr_paths.append(hr)
            lr_paths.append(lr)
    if not hr_paths:
        raise RuntimeError(f"Invalid data, no valid data matching the dataset API 'DIV2KDataset'. "
                           f"Please check dataset API or file path: {dataset_dir}.")
    return hr_paths, lr_paths


class DIV2KSource(ImageRowsSource):
    _api = "DIV2KDataset"
    image_columns = ["hr_image", "lr_image"]
    value_columns = []

    def __init__(self, dataset_dir, usage, downgrade, scale, decode):
        super().__init__(dataset_dir, decode)
        self._choice = f"usage={usage}, downgrade={downgrade}, scale={scale}"
        hr_paths, lr_paths = scan_div2k(dataset_dir, usage, downgrade, scale)
        # The folders' listings are the index: their stamps change when a file comes or goes.
        folders = sorted({os.path.dirname(p) for p in hr_paths + lr_paths})
        self._set_rows([hr_paths, lr_paths], [], folders)

    def _options(self):
        return self._choice


def check_div2k_options(usage, downgrade, scale):
    """MindSpore's checks of usage, downgrade and scale, and of how they combine."""
    check_choice(usage, USAGES, "usage")
    check_choice(downgrade, DOWNGRADES, "downgrade")
    type_check(scale, (int,), "scale")
    if scale not in SCALES:
        raise ValueError(f"Input scale is not within the valid set of {SCALES}.")
    if scale == 8 and downgrade != "bicubic":
        raise ValueError("DIV2KNode: scale equal to 8 is allowed only in bicubic downgrade.")
    if downgrade in _SUFFIX_2018 and scale != 4:
        raise ValueError(f"DIV2KNode: {downgrade} downgrade requires scale equal to 4.")


class DIV2KDataset(ImageRowsDataset):
    """DIV2K: columns ``hr_image`` and ``lr_image`` (file bytes as uint8, or decoded HWC RGB
    with ``decode=True``). Same signature, defaults and errors as
    ``mindspore.dataset.DIV2KDataset`` (see the module docstring)."""

    def __init__(self, dataset_dir, usage="train", downgrade="bicubic", scale=2, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        dataset_dir = check_dir(dataset_dir)
        check_div2k_options(usage, downgrade, scale)
        decode = check_image_args("DIV2KDataset", decode, num_samples, num_parallel_workers,
                                  shuffle, sampler, num_shards, shard_id)
        self.dataset_dir, self.usage, self.downgrade = dataset_dir, usage, downgrade
        self.scale, self.decode = scale, decode
        self._start(functools.partial(DIV2KSource, dataset_dir, usage, downgrade, scale, decode),
                    ["hr_image", "lr_image"], num_samples, num_parallel_workers, shuffle, sampler,
                    num_shards, shard_id, cache)
