"""VOCDataset: a PASCAL VOC folder (``JPEGImages``, ``Annotations``, ``SegmentationClass``,
``ImageSets``).

The image ids are the lines of ``ImageSets/Segmentation/<usage>.txt`` (task ``Segmentation``) or
``ImageSets/Main/<usage>.txt`` (task ``Detection``), in file order (a trailing ``\\r`` and
surrounding blanks are dropped, empty lines skipped).

- ``Segmentation``: ``image`` = ``JPEGImages/<id>.jpg``, ``target`` = ``SegmentationClass/<id>.png``,
  both the file's bytes (1-D uint8) or, with ``decode=True``, decoded.
- ``Detection``: ``image`` and, from ``Annotations/<id>.xml``, one entry per ``<object>``:
  ``bbox`` float32 (N, 4) = (xmin, ymin, xmax - xmin, ymax - ymin), ``label``, ``difficult``,
  ``truncate`` uint32 (N, 1). As in MindSpore, every ``bndbox`` must have xmin > 0, ymin > 0,
  xmax > xmin and ymax > ymin; objects without a name or whose name is not in
  ``class_indexing`` are left out, and an image left without objects has no row. Without
  ``class_indexing`` the labels are the positions of the kept names in sorted order.

With ``extra_metadata=True`` a last column ``_meta-filename`` holds the image id.
"""
import functools
import os
import xml.etree.ElementTree as ElementTree

import numpy as np

from ._image_files import (check_common_args, check_decrypt, decrypt_key, file_stamp, meta_column,
                           read_each, read_image)
from ._source_base import RowSource, SourceDataset
from ._validation import check_class_indexing, check_dir, check_file, type_check

META_COLUMN = "_meta-filename"
_COLUMNS = {"Segmentation": ["image", "target"],
            "Detection": ["image", "bbox", "label", "difficult", "truncate"]}


def voc_columns(task, extra_metadata):
    return _COLUMNS[task] + ([META_COLUMN] if extra_metadata else [])


def image_set_file(dataset_dir, task, usage):
    folder = "Segmentation" if task == "Segmentation" else "Main"
    return os.path.join(dataset_dir, "ImageSets", folder, usage + ".txt")


def read_image_ids(path):
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


def _number(node, name):
    child = None if node is None else node.find(name)
    if child is None or child.text is None or not child.text.strip():
        return 0.0
    try:
        return float(child.text)
    except ValueError:
        return 0.0      # tinyxml2's FloatText gives 0 for text that is not a number


def parse_voc_objects(path, class_indexing):
    """``[(name, [xmin, ymin, w, h, difficult, truncated])]`` of the objects of one annotation
    file that MindSpore keeps; RuntimeError naming the file for what MindSpore refuses."""
    if not os.path.isfile(path):
        raise RuntimeError(f"Invalid file, failed to open file: {path} (the annotation of an id "
                           f"of the image set)")
    try:
        root = ElementTree.parse(path).getroot()
    except (ElementTree.ParseError, OSError) as exc:
        raise RuntimeError(f"Invalid file, failed to load xml file: {path} ({exc})") from exc
    objects = root.findall("object")
    if not objects:
        raise RuntimeError(f"Invalid data, no object found in {path}")
    kept = []
    for obj in objects:
        name_node = obj.find("name")
        name = (name_node.text or "") if name_node is not None else ""
        difficult, truncated = _number(obj, "difficult"), _number(obj, "truncated")
        box = obj.find("bndbox")
        if box is None:
            raise RuntimeError(f"Invalid data, bndbox dismatch in {path}")
        xmin, ymin = _number(box, "xmin"), _number(box, "ymin")
        xmax, ymax = _number(box, "xmax"), _number(box, "ymax")
        if not (xmin > 0 and ymin > 0 and xmax > xmin and ymax > ymin):
            raise RuntimeError(f"Invalid bndbox: {{{int(xmin)}, {int(ymin)}, {int(xmax)}, "
                               f"{int(ymax)}}} found in {path} (VOC boxes need xmin > 0, "
                               f"ymin > 0, xmax > xmin, ymax > ymin)")
        if name and (not class_indexing or name in class_indexing):
            kept.append((name, [xmin, ymin, xmax - xmin, ymax - ymin, difficult, truncated]))
    return kept


class VOCSource(RowSource):
    """The image set's ids (Detection: with their parsed objects); a read opens the files."""

    def __init__(self, dataset_dir, task, usage, class_indexing, decode, extra_metadata,
                 decrypt):
        self._dir, self._task, self._usage = dataset_dir, task, usage
        self._user_classes = dict(class_indexing or {})
        self._decode, self._extra, self._decrypt = decode, extra_metadata, decrypt
        self.column_names = voc_columns(task, extra_metadata)
        self._set_file = image_set_file(dataset_dir, task, usage)
        try:
            ids = read_image_ids(self._set_file)
        except OSError as exc:
            raise RuntimeError(f"Invalid file, failed to open file: {self._set_file}: {exc}") from exc
        self._objects = {}
        if task == "Detection":
            for image_id in ids:
                objects = parse_voc_objects(self._annotation(image_id), self._user_classes)
                if objects:
                    self._objects[image_id] = objects
            ids = [i for i in ids if i in self._objects]
            names = sorted({name for objects in self._objects.values() for name, _ in objects})
            self._labels = self._user_classes or {name: k for k, name in enumerate(names)}
        self._ids = ids
        if not ids:
            raise RuntimeError(f"Invalid data, VOCDataset API can't read the data file (interface "
                               f"mismatch or no data found). Check file in directory: "
                               f"{dataset_dir} (image set {self._set_file} lists no usable "
                               f"image).")

    def _annotation(self, image_id):
        return os.path.join(self._dir, "Annotations", image_id + ".xml")

    def _image(self, image_id):
        return os.path.join(self._dir, "JPEGImages", image_id + ".jpg")

    def __len__(self):
        return len(self._ids)

    def _read_one(self, i):
        image_id = self._ids[i]
        row = [read_image(self._image(image_id), self._decode, self._decrypt, "VOCDataset")]
        if self._task == "Segmentation":
            target = os.path.join(self._dir, "SegmentationClass", image_id + ".png")
            row.append(read_image(target, self._decode, self._decrypt, "VOCDataset"))
        else:
            objects = self._objects[image_id]
            values = np.array([v for _, v in objects], dtype=np.float32).reshape(-1, 6)
            row.append(values[:, :4].copy())
            row.append(np.array([[self._labels[name]] for name, _ in objects], dtype=np.uint32))
            row.append(values[:, 4:5].astype(np.uint32))
            row.append(values[:, 5:6].astype(np.uint32))
        if self._extra:
            row.append(meta_column(image_id))
        return tuple(row)

    def read_rows(self, ids):
        return read_each(self._read_one, ids, len(self), f"VOCDataset {self._dir}")

    def provenance(self, row_id):
        image_id = self._ids[int(row_id)]
        return f"{self._image(image_id)} (id {image_id!r} of {self._set_file}, row {int(row_id)})"

    def describe(self):
        stamps = [file_stamp(self._set_file)]
        if self._task == "Detection":
            stamps.extend(file_stamp(self._annotation(i)) for i in self._ids)
        return (f"VOCDataset(dir={self._dir!r}, task={self._task!r}, usage={self._usage!r}, "
                f"files={stamps}, class_indexing={sorted(self._user_classes.items())}, "
                f"decode={self._decode}, extra_metadata={self._extra}, "
                f"decrypt={decrypt_key(self._decrypt)})")

    def class_indexing(self):
        return dict(self._labels) if self._task == "Detection" else None


class VOCDataset(SourceDataset):
    """PASCAL VOC images for ``Segmentation`` (columns ``image``, ``target``) or ``Detection``
    (``image``, ``bbox``, ``label``, ``difficult``, ``truncate``).

    Same signature, defaults, columns and errors as ``mindspore.dataset.VOCDataset``;
    ``decrypt`` is a callable taking an image's path and returning its decrypted bytes.
    """

    def __init__(self, dataset_dir, task="Segmentation", usage="train", class_indexing=None,
                 num_samples=None, num_parallel_workers=None, shuffle=None, decode=False,
                 sampler=None, num_shards=None, shard_id=None, cache=None, extra_metadata=False,
                 decrypt=None):
        dataset_dir = check_dir(dataset_dir)
        task = "Segmentation" if task is None else task
        usage = "train" if usage is None else usage
        type_check(task, (str,), "task")
        type_check(usage, (str,), "usage")
        if task == "Segmentation":
            if class_indexing is not None:
                raise ValueError("class_indexing is not supported in Segmentation task.")
        elif task != "Detection":
            raise ValueError(f"Invalid task : {task}. (task should be 'Segmentation' or "
                             f"'Detection')")
        check_decrypt(decrypt)
        check_file(image_set_file(dataset_dir, task, usage), "usage")
        check_class_indexing(class_indexing)
        check_common_args("VOCDataset", num_samples, num_parallel_workers, shuffle, sampler,
                          num_shards, shard_id, decode, decrypt, refuse_pk_sampler=False)
        extra_metadata = bool(extra_metadata)
        self.dataset_dir, self.task, self.usage = dataset_dir, task, usage
        self.class_indexing = dict(class_indexing or {})      # MindSpore's attribute, {} for None
        self.decode, self.extra_metadata, self.decrypt = decode, extra_metadata, decrypt
        super().__init__(functools.partial(VOCSource, dataset_dir, task, usage, class_indexing,
                                           decode, extra_metadata, decrypt),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=voc_columns(task, extra_metadata))

    def _num_classes(self):
        return None     # MindSpore's VOCDataset counts no classes: num_classes() is None

    def get_class_indexing(self):
        """Class name -> label: ``class_indexing`` when given, else the object names of the
        image set's annotations in sorted order, numbered from 0."""
        if self.task != "Detection":
            raise NotImplementedError("Only 'Detection' support get_class_indexing.")
        if self.class_indexing:
            return dict(self.class_indexing)
        return dict(self._class_indexing() or {})
