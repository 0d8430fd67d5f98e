"""What the sources that join the rows of several files into one row-id range share.

Row ids run through the files in order: file ``k`` holds the global ids
``starts[k] .. starts[k + 1] - 1``. From that one table come the row's provenance (file and
position inside it), the per-file ranges the engine needs for ``Shuffle.FILES``/``INFILE``, and
the file stamps that make a cache key change when a file is rewritten.
"""
import os

import numpy as np

from ._source_base import RowSource


def file_stamps(paths):
    """``(path, size, mtime_ns)`` of each path, so a cache key changes when a file is rewritten."""
    stamps = []
    for path in paths:
        st = os.stat(path)
        stamps.append((path, st.st_size, st.st_mtime_ns))
    return stamps


class MultiFileRowSource(RowSource):
    """A RowSource whose rows are the rows of ``self._files`` one file after another.

    Subclasses set ``self._files`` (paths, in row order) and ``self._starts`` (cumulative row
    counts, starting with 0, one entry more than there are files), and name what a row is in
    their format with ``_row_unit`` (for error messages: "record", "data line").
    """

    _row_unit = "row"

    def provenance(self, row_id):
        k = int(np.searchsorted(self._starts, row_id, side="right")) - 1
        return f"{self._files[k]} {self._row_unit} {int(row_id - self._starts[k])}"

    def file_row_ranges(self):
        return [(int(a), int(b)) for a, b in zip(self._starts[:-1], self._starts[1:])]
