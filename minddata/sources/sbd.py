"""SBDataset: the Semantic Boundaries Dataset (``benchmark_RELEASE/dataset``).

The folder holds ``img/<id>.jpg``, ``cls/<id>.mat`` (MATLAB files whose ``GTcls`` struct has
``Boundaries``, 20 sparse matrices, one per category, and ``Segmentation``, an H x W class map)
and the id lists ``train.txt``, ``val.txt``, ``train_noval.txt``. ``usage`` 'all' is the lines
of ``train.txt`` then those of ``val.txt`` (an id in both is read twice, as in MindSpore); rows
follow the lines, blank lines skipped.

Columns (MindSpore's names): ``image`` the file's bytes (1-D uint8) or, with ``decode=True``,
HWC uint8 RGB; ``task`` the ``cls`` file's ``Boundaries`` stacked to (20, H, W) (task
'Boundaries') or its ``Segmentation`` (H, W) (task 'Segmentation'), in the dtype the file
stores (uint8 for the released files). The ``inst`` folder is not read, as in MindSpore.
"""
import functools
import os

import numpy as np

from ._image_files import check_common_args, file_stamp, read_each, read_image
from ._image_rows import check_choice
from ._source_base import RowSource, SourceDataset
from ._validation import check_dir

TASKS = ["Boundaries", "Segmentation"]
USAGES = ["train", "val", "train_noval", "all"]
COLUMNS = ["image", "task"]
NUM_CATEGORIES = 20


def id_list_files(dataset_dir, usage):
    """The id lists a usage reads, in row order."""
    names = ["train", "val"] if usage == "all" else [usage]
    return [os.path.join(dataset_dir, name + ".txt") for name in names]


def read_ids(path):
    """The ids of one list file (one per line, surrounding blanks dropped)."""
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


def load_cls(path, task):
    """``task``'s array of one ``cls/<id>.mat`` file; RuntimeError naming the file when it
    cannot be read or lacks what the task needs."""
    from scipy.io import loadmat     # scipy only for this source (requirements.txt)
    try:
        gt = loadmat(path)["GTcls"][0]
        if task == "Segmentation":
            return np.array(gt["Segmentation"][0])
        boundaries = gt["Boundaries"][0]
        if len(boundaries) < NUM_CATEGORIES:
            raise ValueError(f"GTcls.Boundaries holds {len(boundaries)} categories, not "
                             f"{NUM_CATEGORIES}")
        layers = [np.asarray(boundaries[i][0].toarray()) for i in range(NUM_CATEGORIES)]
        return np.stack(layers)
    except Exception as exc:  # noqa: BLE001 - scipy raises many types for a bad file
        raise RuntimeError(f"Invalid file, SBDataset failed to read the {task} of {path}: "
                           f"{type(exc).__name__}: {exc}") from exc


class SBSource(RowSource):
    """The ids of the usage's lists; a read opens the image and its ``cls`` file."""

    column_names = COLUMNS

    def __init__(self, dataset_dir, task, usage, decode):
        self._dir, self._task, self._usage, self._decode = dataset_dir, task, usage, decode
        self._lists = id_list_files(dataset_dir, usage)
        self._ids = [i for path in self._lists for i in read_ids(path)]
        if not self._ids:       # MindSpore's GeneratorDataset refuses a source of 0 rows
            raise RuntimeError(f"Invalid data, SBDataset: data row of input source must not "
                               f"be 0: {' and '.join(self._lists)} list no image id.")

    def __len__(self):
        return len(self._ids)

    def _image(self, image_id):
        return os.path.join(self._dir, "img", image_id + ".jpg")

    def _read_one(self, i):
        image_id = self._ids[i]
        image = read_image(self._image(image_id), self._decode, None, "SBDataset")
        return image, load_cls(os.path.join(self._dir, "cls", image_id + ".mat"), self._task)

    def read_rows(self, ids):
        return read_each(self._read_one, ids, len(self), f"SBDataset {self._dir}")

    def provenance(self, row_id):
        return f"{self._image(self._ids[int(row_id)])} (row {int(row_id)})"

    def describe(self):
        return (f"SBDataset(dir={self._dir!r}, task={self._task!r}, usage={self._usage!r}, "
                f"lists={[file_stamp(p) for p in self._lists]}, decode={self._decode})")


class SBDataset(SourceDataset):
    """Semantic Boundaries Dataset: columns ``image`` and ``task`` (the boundaries of the 20
    categories, or the segmentation map).

    Same signature, defaults, columns and errors as ``mindspore.dataset.SBDataset`` (which
    has no ``cache`` argument); a missing id list is a FileNotFoundError when the dataset is
    built, as there."""

    def __init__(self, dataset_dir, task="Boundaries", usage="all", num_samples=None,
                 num_parallel_workers=1, shuffle=None, decode=None, sampler=None,
                 num_shards=None, shard_id=None):
        dataset_dir = check_dir(dataset_dir)
        # None means the default here (MindSpore fails on a None usage with a TypeError
        # from inside its reader).
        usage = "all" if usage is None else usage
        task = "Boundaries" if task is None else task
        check_choice(usage, USAGES, "usage")
        check_choice(task, TASKS, "task")
        decode = False if decode is None else decode
        check_common_args("SBDataset", num_samples, num_parallel_workers, shuffle, sampler,
                          num_shards, shard_id, decode, None, refuse_pk_sampler=False)
        for path in id_list_files(dataset_dir, usage):
            if not os.path.exists(path):
                raise FileNotFoundError(f"SBDataset: {path} not found")
        self.dataset_dir, self.task, self.usage, self.decode = dataset_dir, task, usage, decode
        super().__init__(functools.partial(SBSource, dataset_dir, task, usage, decode),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, column_names=COLUMNS)
