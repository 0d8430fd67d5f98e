"""Flowers102Dataset: the Oxford 102 Flowers folder.

Layout: ``jpg/image_<5-digit id>.jpg`` (ids from 1), ``imagelabels.mat`` (``labels``: the class,
1-102, of each id), ``setid.mat`` (``trnid``, ``valid``, ``tstid``: the ids of each split) and,
for ``task='Segmentation'``, ``segmim/segmim_<id>.jpg``. Rows follow the split's id list; 'all'
reads train, test, then valid ids, as MindSpore 2.10 does.

Rows: ``image`` (file bytes as 1-D uint8, decoded HWC uint8 RGB with ``decode=True``), with
'Segmentation' a ``segmentation`` column the same way, and ``label`` uint32 0-d (class - 1).
"""
import functools
import os

import numpy as np

from ._image_files import read_each, read_image
from ._source_base import RowSource, SourceDataset
from ._validation import (check_dir, check_file, check_mappable_shuffle, check_sampling_args,
                          check_usage, type_check)

TASKS = ["Classification", "Segmentation"]
USAGES = ["train", "valid", "test", "all"]
_SPLITS = {"train": ["trnid"], "valid": ["valid"], "test": ["tstid"],
           "all": ["trnid", "tstid", "valid"]}
API = "Flowers102Dataset"

# The class names of labels 0-101 (the dataset's published list), for get_class_indexing.
CLASS_NAMES = (
    "pink primrose", "hard-leaved pocket orchid", "canterbury bells", "sweet pea",
    "english marigold", "tiger lily", "moon orchid", "bird of paradise", "monkshood",
    "globe thistle", "snapdragon", "colt's foot", "king protea", "spear thistle", "yellow iris",
    "globe-flower", "purple coneflower", "peruvian lily", "balloon flower",
    "giant white arum lily", "fire lily", "pincushion flower", "fritillary", "red ginger",
    "grape hyacinth", "corn poppy", "prince of wales feathers", "stemless gentian", "artichoke",
    "sweet william", "carnation", "garden phlox", "love in the mist", "mexican aster",
    "alpine sea holly", "ruby-lipped cattleya", "cape flower", "great masterwort", "siam tulip",
    "lenten rose", "barbeton daisy", "daffodil", "sword lily", "poinsettia",
    "bolero deep blue", "wallflower", "marigold", "buttercup", "oxeye daisy",
    "common dandelion", "petunia", "wild pansy", "primula", "sunflower", "pelargonium",
    "bishop of llandaff", "gaura", "geranium", "orange dahlia", "pink-yellow dahlia?",
    "cautleya spicata", "japanese anemone", "black-eyed susan", "silverbush",
    "californian poppy", "osteospermum", "spring crocus", "bearded iris", "windflower",
    "tree poppy", "gazania", "azalea", "water lily", "rose", "thorn apple", "morning glory",
    "passion flower", "lotus", "toad lily", "anthurium", "frangipani", "clematis", "hibiscus",
    "columbine", "desert-rose", "tree mallow", "magnolia", "cyclamen", "watercress",
    "canna lily", "hippeastrum", "bee balm", "ball moss", "foxglove", "bougainvillea",
    "camellia", "mallow", "mexican petunia", "bromelia", "blanket flower", "trumpet creeper",
    "blackberry lily")


def flowers_class_indexing():
    """Class name -> label (0-101), as MindSpore's get_class_indexing gives it."""
    return {name: k for k, name in enumerate(CLASS_NAMES)}


def _mat_vector(path, name):
    """Variable ``name`` of a MATLAB file as a 1-D int64 array; RuntimeError naming the file."""
    import scipy.io
    try:
        value = scipy.io.loadmat(path, variable_names=[name]).get(name)
    except Exception as exc:  # noqa: BLE001 - scipy raises several types for a damaged file
        raise RuntimeError(f"Invalid {API} file {path}: not a readable MATLAB file "
                           f"({type(exc).__name__}: {exc}).") from exc
    if value is None or value.dtype.kind not in "iuf":
        raise RuntimeError(f"Invalid {API} file {path}: it holds no numeric variable '{name}'.")
    return np.asarray(value).reshape(-1).astype(np.int64)


def read_split(dataset_dir, usage):
    """(ids, labels uint32) of the split's images, in MindSpore's order."""
    labels_path = os.path.join(dataset_dir, "imagelabels.mat")
    setid_path = os.path.join(dataset_dir, "setid.mat")
    classes = _mat_vector(labels_path, "labels")
    ids = np.concatenate([_mat_vector(setid_path, key) for key in _SPLITS[usage]])
    bad = ids[(ids < 1) | (ids > classes.size)]
    if bad.size:
        raise RuntimeError(f"Invalid {API} file {setid_path}: image id {int(bad[0])} has no "
                           f"label in {labels_path} ({classes.size} labels).")
    return ids, (classes[ids - 1] - 1).astype(np.uint32)


class Flowers102Source(RowSource):
    """The split's ids; a read opens each requested image (and mask), decoding it if asked."""

    def __init__(self, dataset_dir, task, usage, decode):
        self._dir, self._task, self._usage, self._decode = dataset_dir, task, usage, decode
        self._segment = task == "Segmentation"
        self.column_names = ["image", "segmentation", "label"] if self._segment else [
            "image", "label"]
        self._ids, self._labels = read_split(dataset_dir, usage)
        if not len(self._ids):      # MindSpore's GeneratorDataset refuses a source of 0 rows
            raise RuntimeError(f"Invalid data, {API}: data row of input source must not be 0: "
                               f"{os.path.join(dataset_dir, 'setid.mat')} lists no image id for "
                               f"usage '{usage}'.")

    def __len__(self):
        return len(self._ids)

    def _file(self, folder, prefix, i, what):
        path = os.path.join(self._dir, folder, f"{prefix}_{int(self._ids[i]):05d}.jpg")
        if not os.path.exists(path):
            raise RuntimeError(f"Can not find {what} file: {path}")
        return read_image(path, self._decode, None, API)

    def _read_one(self, i):
        image = self._file("jpg", "image", i, "image")
        label = np.array(self._labels[i])
        if self._segment:
            return image, self._file("segmim", "segmim", i, "segmentation"), label
        return image, label

    def read_rows(self, ids):
        return read_each(self._read_one, ids, len(self), f"{API} {self._dir}")

    def provenance(self, row_id):
        return f"{self._dir}/jpg image id {int(self._ids[int(row_id)])} (row {int(row_id)})"

    def describe(self):
        stamps = [(p, os.stat(p).st_size, os.stat(p).st_mtime_ns) for p in (
            os.path.join(self._dir, "imagelabels.mat"), os.path.join(self._dir, "setid.mat"))]
        return (f"{API}(dir={self._dir!r}, task={self._task!r}, usage={self._usage!r}, "
                f"files={stamps}, decode={self._decode})")

    def class_indexing(self):
        return flowers_class_indexing()

    def column_values(self, name):
        return self._labels.copy() if name == "label" else None


class Flowers102Dataset(SourceDataset):
    """Oxford 102 Flowers: columns ``image`` (and ``segmentation`` for that task), file bytes as
    uint8 or decoded HWC RGB with ``decode=True``, and ``label`` uint32 (0-101).

    Same signature, defaults and errors as ``mindspore.dataset.Flowers102Dataset``: ``task``
    'Classification' or 'Segmentation', ``usage`` 'train', 'valid', 'test' or 'all' (None means
    'all').
    """

    def __init__(self, dataset_dir, task="Classification", usage="all", num_samples=None,
                 num_parallel_workers=1, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None):
        dataset_dir = check_dir(dataset_dir)
        check_dir(os.path.join(dataset_dir, "jpg"))
        check_file(os.path.join(dataset_dir, "imagelabels.mat"))
        check_file(os.path.join(dataset_dir, "setid.mat"))
        usage = check_usage(usage, USAGES)
        if task is not None:
            type_check(task, (str,), "task")
            if task not in TASKS:
                raise ValueError(f"Input task is not within the valid set of {TASKS}.")
        task = task or "Classification"
        if task == "Segmentation":
            check_dir(os.path.join(dataset_dir, "segmim"))
        check_mappable_shuffle(shuffle)
        type_check(decode, (bool,), "decode")
        check_sampling_args(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                            shard_id)
        self.dataset_dir, self.task, self.usage, self.decode = dataset_dir, task, usage, decode
        columns = ["image", "segmentation", "label"] if task == "Segmentation" else [
            "image", "label"]
        super().__init__(functools.partial(Flowers102Source, dataset_dir, task, usage, decode),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=None,
                         column_names=columns)

    def get_class_indexing(self):
        """The 102 class names -> labels 0-101 (MindSpore's), without reading the files."""
        return flowers_class_indexing()
