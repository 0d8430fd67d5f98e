"""What the sources whose rows are image files found by an index (Food101, SUN397, Places365,
LFW, DIV2K, Caltech101) share: the row table built when the source opens, the reads (file bytes
or, with ``decode``, the decoded image, through ``_image_files.read_image``), and MindSpore's
check of a string argument chosen from a set.

A scan gives, for every row, one path per image column and one value per value column; the
values are numpy arrays so that ``column_values`` hands them to the engine in one piece (PK
sampling, native batches)."""
import functools
import os

import numpy as np

from ._image_files import check_common_args, file_stamp, read_each, read_image
from ._source_base import RowSource, SourceDataset
from ._validation import check_dir, type_check
from .native_access import ImageFiles


def check_choice(value, valid, arg_name):
    """MindSpore's check of a string argument: a str (TypeError) among ``valid`` (ValueError)."""
    type_check(value, (str,), arg_name)
    if value not in valid:
        raise ValueError(f"Input {arg_name} is not within the valid set of {list(valid)}.")
    return value


def read_text(path, what):
    """The text of an index file; RuntimeError with MindSpore's words naming it if unreadable."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise RuntimeError(f"Invalid file, failed to open {path}: {what} file is damaged or "
                           f"permission denied ({exc.strerror or exc}).") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RuntimeError(f"Invalid file {path}: {what} file is not UTF-8 text ({exc}).") from exc


def sorted_entries(folder, keep=None):
    """Sorted full paths of the entries of ``folder`` whose name passes ``keep``."""
    return sorted(os.path.join(folder, n) for n in os.listdir(folder) if keep is None or keep(n))


class ImageRowsSource(RowSource):
    """Rows of ``image_columns`` (paths read at each row) and ``value_columns`` (arrays).

    Subclasses set ``_api`` and call ``_set_rows(paths, values, index_files)`` from their
    ``__init__``: ``paths`` one list of file paths per image column, ``values`` one numpy array
    per value column (row i is the row's value), ``index_files`` the files the rows come from
    (their stamps enter ``describe``, so a cache key changes when one is rewritten)."""

    _api = "ImageRowsSource"
    image_columns = ["image"]
    value_columns = ["label"]

    def __init__(self, dataset_dir, decode):
        self._dir, self._decode = dataset_dir, decode
        self.column_names = list(self.image_columns) + list(self.value_columns)

    def _set_rows(self, paths, values, index_files=()):
        self._paths, self._values = paths, values
        self._index_files = list(index_files)

    def __len__(self):
        return len(self._paths[0])

    def _read_one(self, i):
        images = tuple(read_image(column[i], self._decode, None, self._api)
                       for column in self._paths)
        return images + tuple(np.array(column[i]) for column in self._values)

    def read_rows(self, ids):
        return read_each(self._read_one, ids, len(self), f"{self._api} {self._dir}")

    def provenance(self, row_id):
        return f"{self._paths[0][int(row_id)]} (row {int(row_id)})"

    def describe(self):
        stamps = [file_stamp(p) for p in self._index_files]
        return (f"{self._api}(dir={self._dir!r}, rows={len(self)}, files={stamps}, "
                f"options={self._options()}, decode={self._decode})")

    def _options(self):
        """The arguments that chose the rows (for ``describe``)."""
        return ""

    def native_column(self, name):
        if self._decode or name not in self.image_columns:
            return None
        return ImageFiles(self._paths[self.image_columns.index(name)])

    def column_values(self, name):
        if name not in self.value_columns:
            return None
        return np.array(self._values[self.value_columns.index(name)])


def check_image_args(api, decode, num_samples, num_parallel_workers, shuffle, sampler,
                     num_shards, shard_id):
    """The checks of this family that follow ``dataset_dir``'s and the source's own choices, in
    MindSpore's order; returns ``decode`` (None means False, as MindSpore's ``replace_none``)."""
    decode = False if decode is None else decode
    check_common_args(api, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                      shard_id, decode, None, refuse_pk_sampler=False)
    return decode


class ImageRowsDataset(SourceDataset):
    """The public class's hand-over to the core: ``factory`` opens the RowSource, ``columns``
    are its column names (known without opening it)."""

    def _start(self, factory, columns, num_samples, num_parallel_workers, shuffle, sampler,
               num_shards, shard_id, cache):
        super().__init__(factory, num_samples=num_samples, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=columns)


class FolderImageDataset(ImageRowsDataset):
    """The public class of a source whose only arguments are the folder, ``decode`` and the
    sampling ones (Caltech256, SUN397): subclasses name ``_source_class``, opened as
    ``_source_class(dataset_dir, decode)``, whose columns are ``[image, label]``."""

    _source_class = None

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        dataset_dir = check_dir(dataset_dir)
        decode = check_image_args(type(self).__name__, decode, num_samples, num_parallel_workers,
                                  shuffle, sampler, num_shards, shard_id)
        self.dataset_dir, self.decode = dataset_dir, decode
        self._start(functools.partial(self._source_class, dataset_dir, decode),
                    ["image", "label"], num_samples, num_parallel_workers, shuffle, sampler,
                    num_shards, shard_id, cache)
