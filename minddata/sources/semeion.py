"""SemeionDataset: the Semeion handwritten digits, the one file ``semeion.data`` of a folder.

Each non-empty line is one image: 256 pixel values (a 16x16 image, row by row, written
``0.0000`` / ``1.0000``) then the class as 10 one-hot values, separated by whitespace. Rows:
``image`` (16, 16) uint8 (no channel axis, as MindSpore gives it) holding each value's integer
part, so 0 and 1 as the file stores them (measured under MindSpore 2.10), and ``label`` uint32,
the position of the first non-zero class value. Rows follow the file's lines.
"""
import functools
import os

import numpy as np

from ._file_rows import file_stamps
from ._source_base import SourceDataset
from ._validation import check_dir, check_mappable_shuffle, check_sampling_args
from .usps import ImageLabelLines

SEMEION_FILE = "semeion.data"
PIXELS, CLASSES = 256, 10
IMAGE_SHAPE = (16, 16)


def _first_non_number(fields):
    for field in fields:
        try:
            float(field)
        except ValueError:
            return field
    return None


def parse_semeion_line(path, number, text):
    """(image (16, 16) uint8, class) of one line; RuntimeError naming the file and line when it
    is not 256 pixel values in [0, 256) and 10 class values with one marked."""
    where = f"{path} line {number}"
    fields = text.split()
    if len(fields) != PIXELS + CLASSES:
        raise RuntimeError(f"Invalid data, file content does not match SemeionDataset: {where} "
                           f"holds {len(fields)} values, expected {PIXELS} pixel values and "
                           f"{CLASSES} class values.")
    try:
        values = np.array(fields, dtype=np.float64)
    except ValueError:
        bad = _first_non_number(fields)
        part = "image" if fields.index(bad) < PIXELS else "label"
        raise RuntimeError(f"Invalid data, {part} data in file should be in type of uint8, but "
                           f"got: {bad} ({where}).") from None
    pixels, classes = values[:PIXELS], values[PIXELS:]
    if not ((pixels >= 0) & (pixels < 256)).all():     # NaN fails too
        bad = fields[int(np.flatnonzero(~((pixels >= 0) & (pixels < 256)))[0])]
        raise RuntimeError(f"Invalid data, image data in file should be in type of uint8, but "
                           f"got: {bad} ({where}).")
    marked = np.flatnonzero(classes)
    if not marked.size:
        raise RuntimeError(f"Invalid data, no class is marked in the last {CLASSES} values of "
                           f"{where}: they are all 0.")
    return pixels.astype(np.uint8).reshape(IMAGE_SHAPE), int(marked[0])


class SemeionSource(ImageLabelLines):
    """The lines of ``semeion.data``, parsed once at open; a missing or empty file is an error
    then (when the data is first counted or read), as in MindSpore."""

    def __init__(self, dataset_dir):
        self._dir = dataset_dir
        path = os.path.join(dataset_dir, SEMEION_FILE)
        if not os.path.isfile(path):
            raise RuntimeError(f"Invalid file, failed to find semeion file: {dataset_dir} (no "
                               f"{SEMEION_FILE} file in it).")
        no_data = ("Invalid data, SemeionDataset API can't read the data file (interface "
                   "mismatch or no data found). Check file path:")
        self._read_lines([path], "SemeionDataset", parse_semeion_line, no_data)
        if not self._values:
            raise RuntimeError(f"{no_data} {dataset_dir} ({path} holds no non-empty line).")

    def describe(self):
        return f"SemeionDataset(files={file_stamps(self._files)})"


class SemeionDataset(SourceDataset):
    """Semeion digits: columns ``image`` (16, 16) uint8 and ``label`` uint32. Same signature,
    defaults and errors as ``mindspore.dataset.SemeionDataset``. See the module's text."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        dataset_dir = check_dir(dataset_dir)
        check_mappable_shuffle(shuffle)
        check_sampling_args(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                            shard_id)
        self.dataset_dir = dataset_dir
        super().__init__(functools.partial(SemeionSource, dataset_dir),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=ImageLabelLines.column_names)
