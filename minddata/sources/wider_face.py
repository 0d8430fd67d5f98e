"""WIDERFaceDataset: the WIDER FACE face-detection benchmark.

Images are the ``.jpg`` files of the event folders of ``WIDER_train/images`` (usage 'train'),
``WIDER_val/images`` ('valid'), ``WIDER_test/images`` ('test'); 'all' is 'train' then 'valid'.
Rows go through the event folders in sorted order and through each folder's files sorted by
name. The faces of a 'train'/'valid' image come from ``wider_face_split/
wider_face_train_bbx_gt.txt`` / ``wider_face_val_bbx_gt.txt``: per image a line with its path
under ``images``, a line with its number of faces, then one line per face of 10 integers:
x, y, w, h, blur, expression, illumination, invalid, occlusion, pose (the order of the
dataset's readme; MindSpore 2.10 reads the last three as occlusion, pose, invalid, which puts
each of them in the wrong column). As in MindSpore, a count of 0 is followed by one line (all
zeros in the released files) which is kept as the image's one face, and an image the file
does not name has no face.

Columns (MindSpore's names and dtypes, int32 as it serves them), N the image's faces:
``image`` (the file's bytes, 1-D uint8, or HWC uint8 RGB with ``decode=True``); except for
'test': ``bbox`` int32 (N, 4) and ``blur``, ``expression``, ``illumination``, ``occlusion``,
``pose``, ``invalid`` int32 (N,).
"""
import os

import numpy as np

from ._image_files import file_stamp, read_each, read_image
from ._source_base import RowSource
from .image_folder import _extension
from .kitti import UsageImageDataset

USAGES = ["train", "test", "valid", "all"]
ANNOTATED_COLUMNS = ["image", "bbox", "blur", "expression", "illumination", "occlusion", "pose",
                     "invalid"]
VALUES_PER_FACE = 10
# the position in a face line of blur, expression, illumination, occlusion, pose, invalid
_FACE_FIELDS = (4, 5, 6, 8, 9, 7)
_PARTS = {"train": ("WIDER_train", "wider_face_train_bbx_gt.txt"),
          "valid": ("WIDER_val", "wider_face_val_bbx_gt.txt"),
          "test": ("WIDER_test", None)}


def wider_face_columns(usage):
    return ["image"] if usage == "test" else ANNOTATED_COLUMNS


def list_images(images_dir):
    """The ``.jpg`` files of the event folders of ``images_dir``, folders and files sorted."""
    if not os.path.isdir(images_dir):
        raise RuntimeError(f"Invalid path, failed to open WIDERFace folder: {images_dir}")
    events = sorted(n for n in os.listdir(images_dir) if os.path.isdir(os.path.join(images_dir, n)))
    if not events:
        raise RuntimeError(f"Invalid file, no subfolder found under path: {images_dir}")
    paths = [os.path.join(images_dir, event, name) for event in events
             for name in sorted(os.listdir(os.path.join(images_dir, event)))
             if _extension(name) == ".jpg"]
    if not paths:
        raise RuntimeError(f"Invalid file, no .jpg file found under path: {images_dir}")
    return paths


def _ints(path, number, line, count=None):
    try:
        values = [int(v) for v in line.split()]
    except ValueError:
        raise RuntimeError(f"Invalid data, failed to parse the annotation: {path} line {number} "
                           f"should hold integers, got {line.strip()!r}") from None
    if count is not None and len(values) != count:
        raise RuntimeError(f"Invalid data, {path} line {number} holds {len(values)} values, a "
                           f"face line holds {count}: {line.strip()!r}")
    return values


def parse_annotations(path, images_dir):
    """Image path -> int32 (N, 10) faces, from one ``*_bbx_gt.txt`` file; RuntimeError naming
    the file and line for a count or face line that cannot be read, or a file cut short."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise RuntimeError(f"Invalid file, failed to open WIDERFace annotation file: {path} "
                           f"({exc.strerror or exc})") from exc
    faces, k = {}, 0
    while k < len(lines):
        if not lines[k].strip():
            k += 1
            continue
        name, count_line = lines[k].strip(), lines[k + 1] if k + 1 < len(lines) else ""
        count = _ints(path, k + 2, count_line, 1)[0]
        if count < 0:
            raise RuntimeError(f"Invalid data, failed to read the number of bbox: {path} line "
                               f"{k + 2} is {count}")
        rows = max(count, 1)        # a 0 count is followed by one all-zero line
        if k + 2 + rows > len(lines):
            raise RuntimeError(f"Invalid file, {path} ends inside the faces of {name} (line "
                               f"{k + 2} announces {count})")
        boxes = [_ints(path, k + 3 + j, lines[k + 2 + j], VALUES_PER_FACE) for j in range(rows)]
        faces[os.path.join(images_dir, name)] = np.array(boxes, dtype=np.int32)
        k += 2 + rows
    return faces


class WIDERFaceSource(RowSource):
    """The usage's image files (with their faces); a read opens the image."""

    def __init__(self, dataset_dir, usage, decode):
        self._dir, self._usage, self._decode = dataset_dir, usage, decode
        self.column_names = wider_face_columns(usage)
        parts = ["train", "valid"] if usage == "all" else [usage]
        self._paths, self._faces, self._files = [], {}, []
        for part in parts:
            folder, annotation = _PARTS[part]
            images_dir = os.path.join(dataset_dir, folder, "images")
            self._paths.extend(list_images(images_dir))
            if annotation is not None:
                self._files.append(os.path.join(dataset_dir, "wider_face_split", annotation))
                self._faces.update(parse_annotations(self._files[-1], images_dir))

    def __len__(self):
        return len(self._paths)

    def _read_one(self, i):
        path = self._paths[i]
        image = read_image(path, self._decode, None, "WIDERFaceDataset")
        if self._usage == "test":
            return (image,)
        faces = self._faces.get(path, np.zeros((0, VALUES_PER_FACE), np.int32))
        return (image, faces[:, :4].copy()) + tuple(faces[:, k].copy() for k in _FACE_FIELDS)

    def read_rows(self, ids):
        return read_each(self._read_one, ids, len(self), f"WIDERFaceDataset {self._dir}")

    def provenance(self, row_id):
        return f"{self._paths[int(row_id)]} (row {int(row_id)})"

    def describe(self):
        return (f"WIDERFaceDataset(dir={self._dir!r}, usage={self._usage!r}, "
                f"images={self._paths}, files={[file_stamp(p) for p in self._files]}, "
                f"decode={self._decode})")


class WIDERFaceDataset(UsageImageDataset):
    """WIDER FACE: ``image`` and, except for usage 'test', the faces' ``bbox``, ``blur``,
    ``expression``, ``illumination``, ``occlusion``, ``pose`` and ``invalid``.

    Same signature, defaults and columns as ``mindspore.dataset.WIDERFaceDataset``; ``usage``
    None means 'all'.
    """

    _api, _usages, _default_usage = "WIDERFaceDataset", tuple(USAGES), "all"
    _source_class = WIDERFaceSource
    _columns = staticmethod(wider_face_columns)
