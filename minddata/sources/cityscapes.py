"""CityscapesDataset: the Cityscapes street scenes with their fine or coarse annotations.

Images are ``leftImg8bit/<usage>/<city>/<name>_leftImg8bit.png`` (the ``.png`` files of every
city folder); each one's annotation is ``gtFine/<usage>/<city>/<name>_gtFine_<kind>``
(``gtCoarse`` with ``quality_mode='coarse'``), where ``<kind>`` is ``instanceIds.png``,
``labelIds.png``, ``color.png`` or ``polygons.json`` for the tasks 'instance', 'semantic',
'color' and 'polygon'. Rows are sorted by image path within a usage; 'all' is 'train', 'test',
'val' (fine) or 'train', 'train_extra', 'val' (coarse), one after the other.

Columns (MindSpore's names): ``image`` the file's bytes (1-D uint8) or, with ``decode=True``,
HWC uint8 RGB; ``task`` the annotation file's bytes (decoded too with ``decode=True``) or, for
'polygon', a 0-d str: the JSON re-written compactly with its keys sorted, as MindSpore's
(nlohmann) dump writes it.
"""
import functools
import json
import os

import numpy as np

from ._image_files import check_common_args, read_each, read_image
from ._image_rows import check_choice
from ._source_base import RowSource, SourceDataset
from ._validation import check_dir
from .image_folder import _extension

TASKS = ["instance", "semantic", "polygon", "color"]
QUALITY_MODES = ["fine", "coarse"]
USAGES = {"fine": ["train", "test", "val", "all"], "coarse": ["train", "train_extra", "val", "all"]}
COLUMNS = ["image", "task"]
_TASK_SUFFIX = {"instance": "instanceIds.png", "semantic": "labelIds.png", "color": "color.png",
                "polygon": "polygons.json"}
_IMAGE_MARK = "_leftImg8bit"


def scan_usage(dataset_dir, usage, quality_mode, task):
    """``[(image path, annotation path)]`` of one usage, sorted by image path."""
    gt = "gtFine" if quality_mode == "fine" else "gtCoarse"
    images_dir = os.path.join(dataset_dir, "leftImg8bit", usage)
    task_dir = os.path.join(dataset_dir, gt, usage)
    for folder, what in ((images_dir, "image"), (task_dir, "task")):
        if not os.path.isdir(folder):
            raise RuntimeError(f"Invalid path, Cityscapes Dataset {what} dir: {folder} is not a "
                               f"directory path.")
    pairs = []
    for city in os.listdir(images_dir):
        if not os.path.isdir(os.path.join(images_dir, city)):
            continue
        for name in os.listdir(os.path.join(images_dir, city)):
            if _extension(name) != ".png":
                continue
            mark = name.find(_IMAGE_MARK)
            stem = name if mark < 0 else name[:mark]
            target = os.path.join(task_dir, city, f"{stem}_{gt}_{_TASK_SUFFIX[task]}")
            if not os.path.exists(target):
                raise RuntimeError(f"Invalid file, Cityscapes Dataset task file: {target} does "
                                   f"not exist (the {task} annotation of "
                                   f"{os.path.join(images_dir, city, name)}).")
            pairs.append((os.path.join(images_dir, city, name), target))
    return sorted(pairs)


def polygon_json(path):
    """The polygons file as MindSpore serves it: parsed, then dumped compactly, keys sorted."""
    try:
        with open(path, encoding="utf-8") as f:
            tree = json.load(f)
    except (OSError, ValueError) as exc:
        raise RuntimeError(f"Invalid file, failed to load json file: {path} ({exc})") from exc
    return np.array(json.dumps(tree, separators=(",", ":"), sort_keys=True, ensure_ascii=False),
                    dtype=np.str_)


class CityscapesSource(RowSource):
    """The (image, annotation) pairs of the usage; a read opens both files."""

    column_names = COLUMNS

    def __init__(self, dataset_dir, usage, quality_mode, task, decode):
        self._dir, self._usage, self._mode = dataset_dir, usage, quality_mode
        self._task, self._decode = task, decode
        usages = [u for u in USAGES[quality_mode] if u != "all"] if usage == "all" else [usage]
        self._pairs = [p for u in usages for p in scan_usage(dataset_dir, u, quality_mode, task)]
        if not self._pairs:     # MindSpore 2.10 refuses it at once (get_dataset_size too)
            raise RuntimeError("Invalid data, no valid data matching the dataset API "
                               "'CityscapesDataset'. Please check dataset API or file path: "
                               f"{dataset_dir}. (no '.png' image in the city folders of "
                               f"leftImg8bit for usage '{usage}')")

    def __len__(self):
        return len(self._pairs)

    def _read_one(self, i):
        image_path, task_path = self._pairs[i]
        image = read_image(image_path, self._decode, None, "CityscapesDataset")
        if self._task == "polygon":
            return image, polygon_json(task_path)
        return image, read_image(task_path, self._decode, None, "CityscapesDataset")

    def read_rows(self, ids):
        return read_each(self._read_one, ids, len(self), f"CityscapesDataset {self._dir}")

    def provenance(self, row_id):
        return f"{self._pairs[int(row_id)][0]} (row {int(row_id)})"

    def describe(self):
        # The paths say which files; their stamps make a key change when one is rewritten.
        stamps = [(p, os.stat(p).st_mtime_ns) for pair in self._pairs for p in pair]
        return (f"CityscapesDataset(dir={self._dir!r}, usage={self._usage!r}, "
                f"quality_mode={self._mode!r}, task={self._task!r}, files={stamps}, "
                f"decode={self._decode})")


class CityscapesDataset(SourceDataset):
    """Cityscapes images (``image``) with one annotation per image (``task``).

    Same signature, defaults, columns and errors as ``mindspore.dataset.CityscapesDataset``.
    """

    def __init__(self, dataset_dir, usage="train", quality_mode="fine", task="instance",
                 num_samples=None, num_parallel_workers=None, shuffle=None, decode=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        dataset_dir = check_dir(dataset_dir)
        check_choice(task, TASKS, "task")
        check_choice(quality_mode, QUALITY_MODES, "quality_mode")
        check_choice(usage, USAGES[quality_mode], "usage")
        decode = False if decode is None else decode
        check_common_args("CityscapesDataset", num_samples, num_parallel_workers, shuffle,
                          sampler, num_shards, shard_id, decode, None, refuse_pk_sampler=False)
        self.dataset_dir, self.usage, self.quality_mode = dataset_dir, usage, quality_mode
        self.task, self.decode = task, decode
        super().__init__(functools.partial(CityscapesSource, dataset_dir, usage, quality_mode,
                                           task, decode),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=COLUMNS)
