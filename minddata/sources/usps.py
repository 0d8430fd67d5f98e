"""USPSDataset: the USPS handwritten digits in LIBSVM's text format (the files ``usps`` and
``usps.t`` that its ``usps.bz2`` / ``usps.t.bz2`` downloads decompress to).

Each non-empty line is one image: the class 1-10, then the 256 pixels ``<index>:<value>`` with
index 1-256 and value in [-1, 1], fields separated by whitespace. Rows: ``image`` (16, 16, 1)
uint8, the value mapped as MindSpore maps it (``(value + 1) / 2 * 255`` truncated), and
``label`` uint32, the class minus one (0-9). ``usage`` 'train' reads ``usps``, 'test'
``usps.t``, 'all' (None) both, in that order; a missing file is an error when the data is first
counted or read, as in MindSpore.

A non-mappable source, as MindSpore's: ``shuffle`` takes a bool or ``Shuffle.GLOBAL`` /
``FILES`` / ``INFILE``, ``num_samples`` applies as TextFileDataset's (text_file.py). The files
are read whole when the pipeline opens the source, so rows are random-access and shard like
the other sources here (round robin, see the README's "Reading files").
"""
import functools
import os

import numpy as np

from ._file_rows import FileOrderSampling, TextLinesRowSource, file_stamps
from ._source_base import Shuffle, SourceDataset
from ._validation import check_dir, check_sampling_args, check_usage

USAGES = ["train", "test", "all"]
_FILES = {"train": [("train", "usps")], "test": [("test", "usps.t")],
          "all": [("train", "usps"), ("test", "usps.t")]}
PIXELS = 256
IMAGE_SHAPE = (16, 16, 1)
_BZIP2_MAGIC = b"BZh"
_MAX_CLASS = 2 ** 32      # the label, class - 1, is a uint32


class ImageLabelLines(TextLinesRowSource):
    """Text lines parsed at open into (image uint8 array, class) pairs (USPS, Semeion): a row
    is a private copy of the image and the class as a 0-d uint32 array."""

    column_names = ["image", "label"]

    def read_rows(self, ids):
        return [(image.copy(), np.array(label, dtype=np.uint32))
                for image, label in self._parsed(ids)]


def usps_files(dataset_dir, usage):
    """The files ``usage`` reads, in order; RuntimeError (MindSpore's words) for a missing one
    and a clear one for a file still bzip2-compressed."""
    files = []
    for part, name in _FILES[usage]:
        path = os.path.join(dataset_dir, name)
        if not os.path.isfile(path):
            raise RuntimeError(f"Invalid file, USPS dataset {part} file: {path} does not exist "
                               f"or is a directory.")
        with open(path, "rb") as f:
            if f.read(len(_BZIP2_MAGIC)) == _BZIP2_MAGIC:
                raise RuntimeError(f"Invalid file, USPS dataset {part} file: {path} is "
                                   f"bzip2-compressed; decompress it (bunzip2) first.")
        files.append(path)
    return files


def _fault(fields, where):
    """The RuntimeError for a line whose fields are not a class and 256 ``k:value`` pixels."""
    for k, field in enumerate(fields[1:], 1):
        index, colon, value = field.partition(":")
        if not colon:
            return RuntimeError(f"Invalid data, split character ':' is missing in USPS data "
                                f"file: {where}, field {field!r}.")
        if index != str(k):
            return RuntimeError(f"Invalid data, the character before ':' should be {k}, but got "
                                f"{index}: {where}.")
        try:
            float(value)
        except ValueError:
            return RuntimeError(f"Invalid data, pixel {k} of {where} is not a number: {value!r}.")
    return RuntimeError(f"Invalid data, the number of split characters ':' in USPS data file is "
                        f"corrupted, should be {PIXELS + 1}, but got {len(fields)}: {where}.")


def parse_usps_line(path, number, text):
    """(image (16, 16, 1) uint8, class 0-9) of one line; RuntimeError naming the file and line
    when it is not a class and 256 pixels."""
    where = f"{path} line {number}"
    fields = text.split()
    if not fields:
        raise RuntimeError(f"Invalid data, {where} holds only blanks.")
    label = fields[0]
    if not label.isdigit() or not 1 <= int(label) <= _MAX_CLASS:
        raise RuntimeError(f"Invalid data, the class of {where} should be an integer from 1 "
                           f"(MindSpore's label is the class minus one), but got {label!r}.")
    pairs = text.replace(":", " ").split()[1:]
    try:
        values = np.array(pairs, dtype=np.float64).reshape(PIXELS, 2)
    except ValueError:
        raise _fault(fields, where) from None
    if len(fields) != PIXELS + 1 or not np.array_equal(values[:, 0], np.arange(1, PIXELS + 1)):
        raise _fault(fields, where)
    pixels = values[:, 1]
    if not np.isfinite(pixels).all():
        raise RuntimeError(f"Invalid data, {where} holds a pixel that is not a finite number.")
    # MindSpore reads a value as a float32 and maps it in double arithmetic, truncating; a
    # value outside [-1, 1] is clipped (MindSpore's cast would wrap it around).
    scaled = (pixels.astype(np.float32).astype(np.float64) + 1.0) / 2.0 * 255.0
    image = np.clip(np.floor(scaled), 0, 255).astype(np.uint8).reshape(IMAGE_SHAPE)
    return image, int(label) - 1


class USPSSource(ImageLabelLines):
    """Every non-empty line of the usage's files, parsed once at open."""

    def __init__(self, dataset_dir, usage):
        self._usage = usage
        self._read_lines(usps_files(dataset_dir, usage), "USPSDataset", parse_usps_line,
                         "Invalid data, 'USPSDataset' API can't read the data file (interface "
                         "mismatch or no data found). Check file:")

    def describe(self):
        return f"USPSDataset(usage={self._usage!r}, files={file_stamps(self._files)})"


class USPSDataset(FileOrderSampling, SourceDataset):
    """USPS digits: columns ``image`` (16, 16, 1) uint8 and ``label`` uint32. Same signature,
    defaults (``shuffle=Shuffle.GLOBAL``) and errors as ``mindspore.dataset.USPSDataset``;
    ``usage`` 'train', 'test' or 'all' (None). See the module's text."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        dataset_dir = check_dir(dataset_dir)
        usage = check_usage(usage, USAGES)
        check_sampling_args(num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id)
        self.dataset_dir, self.usage = dataset_dir, usage
        super().__init__(functools.partial(USPSSource, dataset_dir, usage),
                         num_samples=num_samples, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, sampler=None,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         shuffle_modes=(Shuffle.GLOBAL, Shuffle.FILES, Shuffle.INFILE),
                         column_names=ImageLabelLines.column_names)
