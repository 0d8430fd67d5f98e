"""CocoDataset: images of one folder with a COCO annotation JSON file.

The JSON is read as MindSpore's CocoOp reads it. Rows are the entries of ``images`` in file
order that have at least one annotation of the task (an image without one is left out);
annotations are grouped by the image's ``file_name`` in ``annotations`` order. Per task:

- ``Detection``: ``bbox`` float32 (N, 4) as written (x, y, width, height), ``category_id`` and
  ``iscrowd`` uint32 (N, 1); ``iscrowd`` defaults to 0, ``category_id`` must name a category.
- ``Stuff``: ``segmentation`` float32 (P, L): one row per polygon of the image's annotations
  (``iscrowd`` 0) or the RLE ``counts`` (``iscrowd`` 1), padded with -1 to the longest;
  ``iscrowd`` uint32 (N, 1), one per annotation.
- ``Keypoint``: ``keypoints`` float32 (N, L) (padded with -1), ``num_keypoints`` uint32 (N, 1).
- ``Panoptic``: the ``segments_info`` of each annotation: ``bbox`` float32 (S, 4),
  ``category_id``, ``iscrowd``, ``area`` uint32 (S, 1).
- ``Captioning``: ``captions`` str (N, 1).

``image`` is the file's bytes (1-D uint8) or, with ``decode=True``, HWC uint8 RGB. With
``extra_metadata=True`` a last column ``_meta-filename`` holds the file name up to its first dot.
"""
import functools
import json
import os

import numpy as np

from ._image_files import (check_common_args, decrypt_key, file_stamp, meta_column,
                           read_each, read_image)
from ._source_base import RowSource, SourceDataset
from ._validation import check_dir, check_file, type_check

TASKS = ("Detection", "Stuff", "Panoptic", "Keypoint", "Captioning")

_TASK_COLUMNS = {
    "Detection": ["image", "bbox", "category_id", "iscrowd"],
    "Stuff": ["image", "segmentation", "iscrowd"],
    "Keypoint": ["image", "keypoints", "num_keypoints"],
    "Panoptic": ["image", "bbox", "category_id", "iscrowd", "area"],
    "Captioning": ["image", "captions"],
}
META_COLUMN = "_meta-filename"
PAD_VALUE = -1.0


def coco_columns(task, extra_metadata):
    return _TASK_COLUMNS[task] + ([META_COLUMN] if extra_metadata else [])


class _Annotations:
    """The parsed JSON: ``files`` (row order), per file its coordinate rows (lists of floats),
    its integer items (tuples, one per annotation or segment) or its captions, and the
    categories as ``[(name, [id] or [id, isthing])]``."""

    def __init__(self, path, task):
        self.path, self.task = path, task
        try:
            with open(path, "rb") as f:
                tree = json.load(f)
        except (OSError, ValueError) as exc:
            raise RuntimeError(f"Invalid annotation file, Coco Dataset annotation file:{path} "
                               f"load failed, error description: {exc}") from exc
        if not isinstance(tree, dict):
            raise RuntimeError(f"Invalid annotation file, Coco Dataset annotation file:{path}: "
                               f"the top level is not a JSON object")
        images = self._node(tree, "images")
        if not images:
            raise RuntimeError(f"Invalid annotation, the 'image' node is missing in annotation "
                               f"file: {path}.")
        file_of_id, order = {}, []
        for image in images:
            name = self._node(image, "file_name")
            file_of_id[self._node(image, "id")] = name
            order.append(name)
        self.categories = []
        self._category_ids = set()
        if task in ("Detection", "Panoptic"):
            self._load_categories(self._node(tree, "categories"))
        self.coords, self.items, self.captions = {}, {}, {}
        for annotation in self._node(tree, "annotations"):
            image_id = self._node(annotation, "image_id")
            if image_id not in file_of_id:
                raise RuntimeError(f"Invalid annotation, the attribute of 'image_id': {image_id} "
                                   f"is missing from image node in annotation file: {path}")
            self._load_annotation(annotation, file_of_id[image_id], image_id)
        kept = self.captions if task == "Captioning" else self.coords
        self.files = [name for name in order if name in kept]

    def _node(self, tree, name):
        if not isinstance(tree, dict) or name not in tree:
            raise RuntimeError(f"Invalid annotation, the attribute of '{name}' is missing in "
                               f"annotation file: {self.path}.")
        return tree[name]

    def _load_categories(self, categories):
        if not categories:
            raise RuntimeError(f"Invalid annotation, the 'categories' node is missing in "
                               f"annotation file: {self.path}.")
        for category in categories:
            if "id" not in category:
                raise RuntimeError(f"Invalid annotation, the attribute of 'id' is missing in the "
                                   f"node of 'categories' from annotation file: {self.path}")
            cid = int(category["id"])
            if "name" not in category:
                raise RuntimeError(f"Invalid annotation, the attribute of 'name' is missing in "
                                   f"the node of 'categories' where 'id': {cid}")
            info = [cid]
            if self.task == "Panoptic":
                if "isthing" not in category:
                    raise RuntimeError(f"Invalid annotation, the attribute of 'isthing' is "
                                       f"missing in the node of 'categories' from annotation "
                                       f"file: {self.path}")
                info.append(int(category["isthing"]))
            self._category_ids.add(cid)
            self.categories.append((category["name"], info))

    def _category(self, tree):
        cid = int(self._node(tree, "category_id"))
        if cid not in self._category_ids:
            raise RuntimeError(f"Invalid annotation, the attribute of 'category_id': {cid} is "
                               f"missing in the node of 'categories' from annotation file: "
                               f"{self.path}")
        return cid

    def _load_annotation(self, annotation, name, image_id):
        task = self.task
        if task != "Panoptic":
            self._node(annotation, "id")
        coords = self.coords.setdefault(name, []) if task != "Captioning" else None
        items = self.items.setdefault(name, []) if task != "Captioning" else None
        if task == "Detection":
            bbox = [float(v) for v in self._node(annotation, "bbox")]
            items.append((self._category(annotation), int(annotation.get("iscrowd", 0))))
            coords.append(bbox)
        elif task == "Stuff":
            iscrowd = int(self._node(annotation, "iscrowd"))
            items.append((iscrowd,))
            segmentation = self._node(annotation, "segmentation")
            if iscrowd == 0:
                coords.extend([float(v) for v in polygon] for polygon in segmentation)
            elif iscrowd == 1:
                coords.append([float(v) for v in self._node(segmentation, "counts")])
        elif task == "Keypoint":
            for key in ("num_keypoints", "keypoints"):
                if key not in annotation:
                    raise RuntimeError(f"Invalid annotation, the '{key}' node is missing in "
                                       f"annotation file: {self.path} where 'image_id': "
                                       f"{image_id}.")
            items.append((int(annotation["num_keypoints"]),))
            coords.append([float(v) for v in annotation["keypoints"]])
        elif task == "Panoptic":
            for info in self._node(annotation, "segments_info"):
                for key in ("bbox", "iscrowd", "area"):
                    if key not in info:
                        raise RuntimeError(f"Invalid annotation, the '{key}' attribute is missing "
                                           f"in the node of 'segments_info' where 'image_id': "
                                           f"{image_id} from annotation file: {self.path}.")
                coords.append([float(v) for v in info["bbox"]])
                items.append((self._category(info), int(info["iscrowd"]), int(info["area"])))
            if not coords:          # no segment: the image has no row, as in MindSpore
                del self.coords[name], self.items[name]
        else:
            self.captions.setdefault(name, []).append(str(self._node(annotation, "caption")))


def _padded(rows):
    """float32 (len(rows), longest) with shorter rows padded with -1."""
    width = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), width), PAD_VALUE, dtype=np.float32)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


class CocoSource(RowSource):
    """The parsed annotation file; a read opens each requested image (decoding it if asked)."""

    def __init__(self, dataset_dir, annotation_file, task, decode, extra_metadata, decrypt):
        self._dir, self._file, self._task = dataset_dir, annotation_file, task
        self._decode, self._extra, self._decrypt = decode, extra_metadata, decrypt
        self.column_names = coco_columns(task, extra_metadata)
        self._ann = _Annotations(annotation_file, task)
        if not self._ann.files:
            raise RuntimeError(f"Invalid data, 'CocoDataset' API can't read the data file "
                               f"(interface mismatch or no data found). Check file in directory: "
                               f"{dataset_dir} (annotation file {annotation_file}, task "
                               f"'{task}').")

    def __len__(self):
        return len(self._ann.files)

    def _annotation_columns(self, name):
        ann = self._ann
        if self._task == "Captioning":
            return [np.array(ann.captions[name], dtype=np.str_).reshape(-1, 1)]
        items = np.array(ann.items[name], dtype=np.int64).astype(np.uint32)
        columns = [_padded(ann.coords[name])]
        columns.extend(items[:, k:k + 1].copy() for k in range(items.shape[1]))
        return columns

    def _read_one(self, i):
        name = self._ann.files[i]
        path = os.path.join(self._dir, name)
        row = [read_image(path, self._decode, self._decrypt, "CocoDataset")]
        row.extend(self._annotation_columns(name))
        if self._extra:
            dot = name.find(".")
            if dot < 0:
                raise RuntimeError(f"Invalid image, 'image_id': {name} should be with suffix like "
                                   f"\".jpg\" (extra_metadata=True names the row by its file name "
                                   f"without the suffix).")
            row.append(meta_column(name[:dot]))
        return tuple(row)

    def read_rows(self, ids):
        return read_each(self._read_one, ids, len(self), f"CocoDataset {self._file}")

    def provenance(self, row_id):
        name = self._ann.files[int(row_id)]
        return f"{os.path.join(self._dir, name)} (annotations in {self._file}, row {int(row_id)})"

    def describe(self):
        return (f"CocoDataset(dir={self._dir!r}, annotation={file_stamp(self._file)}, "
                f"task={self._task!r}, rows={len(self)}, decode={self._decode}, "
                f"extra_metadata={self._extra}, decrypt={decrypt_key(self._decrypt)})")

    def class_indexing(self):
        # Values are tuples (hashable, so num_classes() counts the distinct ids);
        # CocoDataset.get_class_indexing gives MindSpore's lists.
        if self._task not in ("Detection", "Panoptic"):
            return None
        return {name: tuple(info) for name, info in self._ann.categories}


class CocoDataset(SourceDataset):
    """COCO images with their annotations (Detection, Stuff, Keypoint, Panoptic, Captioning).

    Same signature, defaults, columns and errors as ``mindspore.dataset.CocoDataset``;
    ``decrypt`` is a callable taking an image's path and returning its decrypted bytes.
    """

    def __init__(self, dataset_dir, annotation_file, task="Detection", num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None, extra_metadata=False, decrypt=None):
        dataset_dir = check_dir(dataset_dir)
        annotation_file = check_file(annotation_file, "annotation_file")
        task = "Detection" if task is None else task
        type_check(task, (str,), "task")
        if task not in TASKS:
            raise ValueError(f"Invalid task type: {task}. (task should be one of {list(TASKS)})")
        check_common_args("CocoDataset", num_samples, num_parallel_workers, shuffle, sampler,
                          num_shards, shard_id, decode, decrypt)
        extra_metadata = bool(extra_metadata)
        self.dataset_dir, self.annotation_file, self.task = dataset_dir, annotation_file, task
        self.decode, self.extra_metadata, self.decrypt = decode, extra_metadata, decrypt
        super().__init__(functools.partial(CocoSource, dataset_dir, annotation_file, task, decode,
                                           extra_metadata, decrypt),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=coco_columns(task, extra_metadata))

    def _num_classes(self):
        return None     # MindSpore's CocoDataset counts no classes: num_classes() is None

    def get_class_indexing(self):
        """Category name -> ``[id]`` (``Panoptic``: ``[id, isthing]``), in the file's order."""
        if self.task not in ("Detection", "Panoptic"):
            raise NotImplementedError("Only 'Detection' and 'Panoptic' support get_class_indexing.")
        return {name: list(info) for name, info in (self._class_indexing() or {}).items()}
