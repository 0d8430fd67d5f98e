"""FlickrDataset: Flickr8k / Flickr30k images with their captions.

``annotation_file`` has one caption a line: ``<image name>#<k>\\t<caption>`` (the two characters
before the tab, ``#k``, are dropped from the name); the image is ``dataset_dir/<image name>``.
As MindSpore 2.10 reads it: empty lines are skipped, a named image must exist, a file that is not
a JPEG, PNG, GIF or BMP (by its first bytes) is left out, and the rows are the images in sorted
path order, each with all its captions in file order.

Rows: ``image`` the file's bytes (1-D uint8), HWC uint8 RGB with ``decode=True``, and
``annotation`` a 1-D str array of the image's captions.
"""
import functools
import os

import numpy as np

from ._file_rows import text_lines
from ._image_files import check_common_args, file_stamp, read_each, read_image
from ._source_base import RowSource, SourceDataset
from ._validation import check_dir, check_file
from .manifest import _is_image as is_image_file

API = "FlickrDataset"
def read_annotations(dataset_dir, annotation_file):
    """(sorted image paths, their captions lists) of the annotation file."""
    captions, checked = {}, {}
    for number, line in text_lines(annotation_file, API):
        tab = line.find("\t")
        name, caption = (line[:tab - 2], line[tab + 1:]) if tab >= 2 else ("", "")
        if not name:
            raise RuntimeError(f"Invalid file, the attribute of image_name is missing in flickr "
                               f"dataset file: {annotation_file}, line {number}: {line!r}")
        if not caption:
            raise RuntimeError(f"Invalid file, the attribute of annotation is missing in flickr "
                               f"dataset file: {annotation_file}, line {number}: {line!r}")
        path = os.path.join(dataset_dir, name)
        if path not in checked:
            # MindSpore's check of the first bytes, as ManifestDataset's (missing: an error)
            checked[path] = is_image_file(path, f"flickr dataset file, named in {annotation_file}")
        if checked[path]:
            captions.setdefault(path, []).append(caption)
    if not captions:
        raise RuntimeError(f"Invalid data, no valid data matching the dataset API FlickrDataset. "
                           f"Please check file path or dataset API: {annotation_file} names no "
                           f"image file in {dataset_dir}.")
    paths = sorted(captions)
    return paths, [captions[p] for p in paths]


class FlickrSource(RowSource):
    """The annotated images; a read opens each requested image (decoding it if asked)."""

    column_names = ["image", "annotation"]

    def __init__(self, dataset_dir, annotation_file, decode):
        self._dir, self._file, self._decode = dataset_dir, annotation_file, decode
        self._paths, self._captions = read_annotations(dataset_dir, annotation_file)

    def __len__(self):
        return len(self._paths)

    def _read_one(self, i):
        return (read_image(self._paths[i], self._decode, None, API),
                np.array(self._captions[i], dtype=np.str_))

    def read_rows(self, ids):
        return read_each(self._read_one, ids, len(self), f"{API} {self._file}")

    def provenance(self, row_id):
        return f"{self._paths[int(row_id)]} (row {int(row_id)} of {self._file})"

    def describe(self):
        return (f"{API}(dir={self._dir!r}, annotations={file_stamp(self._file)}, "
                f"decode={self._decode})")


class FlickrDataset(SourceDataset):
    """Flickr8k/30k: columns ``image`` (file bytes as uint8, or decoded HWC RGB with
    ``decode=True``) and ``annotation`` (the image's captions, 1-D str).

    Same signature, defaults and errors as ``mindspore.dataset.FlickrDataset``.
    """

    def __init__(self, dataset_dir, annotation_file, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=None, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        dataset_dir = check_dir(dataset_dir)
        annotation_file = check_file(annotation_file, "annotation_file")
        decode = False if decode is None else decode
        check_common_args(API, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                          shard_id, decode, None, refuse_pk_sampler=False)
        self.dataset_dir, self.annotation_file, self.decode = dataset_dir, annotation_file, decode
        super().__init__(functools.partial(FlickrSource, dataset_dir, annotation_file, decode),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=FlickrSource.column_names)
