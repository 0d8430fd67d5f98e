"""What the sources that join the rows of several files into one row-id range share.

Row ids run through the files in order: file ``k`` holds the global ids
``starts[k] .. starts[k + 1] - 1``. From that one table come the row's provenance (file and
position inside it), the per-file ranges the engine needs for ``Shuffle.FILES``/``INFILE``, and
the file stamps that make a cache key change when a file is rewritten.
"""
import os

import numpy as np

from .. import seeds
from . import _arrays
from ._no_rows import FailsWhenReadIfEmpty
from ._source_base import RowSource, Shuffle


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


def text_lines(path, api, blank_lines=False):
    """``(line number, text)`` of every non-blank line of a UTF-8 text file, in file order.

    Lines end at ``\\n``; the ``\\r`` of a CRLF ending is dropped (a CR with no LF after it is
    text). Blank lines (empty, or only the CR of a CRLF) are no rows, as MindSpore skips empty
    lines, unless ``blank_lines`` (EnWik9, measured: every line a row, but for the nothing
    after a final line break). A file that is not UTF-8 is a
    ``RuntimeError`` naming ``api``, the file and the line."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise RuntimeError(f"Invalid file, failed to open {path} for {api}: {exc}") from exc
    out = []
    pieces = data.split(b"\n")
    unended = len(pieces)       # the number of the piece with no LF after it
    if blank_lines and pieces[-1] == b"":
        pieces.pop()
    for number, raw in enumerate(pieces, 1):
        # only a CRLF ending loses its CR: the file's last piece has no LF after it, so a CR
        # there is text (MindSpore 2.10 serves b"a\r" as 'a\r', measured)
        if raw.endswith(b"\r") and number < unended:
            raw = raw[:-1]
        if not raw and not blank_lines:
            continue
        try:
            out.append((number, raw.decode("utf-8")))
        except UnicodeDecodeError as exc:
            raise RuntimeError(f"Invalid file {path} for {api}: line {number} is not UTF-8 "
                               f"text ({exc}).") from exc
    return out


class TextLinesRowSource(FailsWhenReadIfEmpty, MultiFileRowSource):
    """A MultiFileRowSource whose rows are the non-blank lines of text files (TextFile, CLUE),
    each parsed once at open; a row's provenance is its file and line number."""

    def _read_lines(self, files, api, parse, no_data, blank_lines=False):
        """Set the files, the row ranges and ``parse(path, line number, text)`` of every
        non-blank line (every line with ``blank_lines``), in file order; with none, no row and
        the RuntimeError ``no_data`` (MindSpore's words) naming the files when a pass starts."""
        self._files = files
        values, numbers, counts = [], [], []
        for path in files:
            lines = text_lines(path, api, blank_lines)
            for number, text in lines:
                values.append(parse(path, number, text))
                numbers.append(number)
            counts.append(len(lines))
        if not values:
            self._no_rows = f"{no_data} {' '.join(files)} (the files hold no non-empty line)."
        self._api, self._values = api, values
        self._starts = np.cumsum([0] + counts, dtype=np.int64)
        self._line_numbers = np.array(numbers, dtype=np.int64)

    def __len__(self):
        return len(self._values)

    def _parsed(self, ids):
        """The parsed values of rows ``ids``, in order."""
        ids = _arrays.as_int_ids(ids)
        _arrays.check_ids(ids, len(self), f"{self._api} {self._files}")
        values = self._values
        return [values[i] for i in ids.tolist()]

    def provenance(self, row_id):
        k = int(np.searchsorted(self._starts, row_id, side="right")) - 1
        return f"{self._files[k]} line {int(self._line_numbers[int(row_id)])}"


class FileOrderSampling:
    """``num_samples`` as MindSpore's non-mappable file sources (TFRecord, TextFile, CLUE) apply
    it: mixed into their public class, before ``SourceDataset``.

    With ``num_samples`` and ``Shuffle.GLOBAL``, the rows are taken in file order (the files
    shuffled), cut to ``num_samples``, and only those rows are shuffled: one file with
    ``num_samples=3`` gives its rows 0-2 in some order, never a random 3 of all its rows.
    Otherwise the core's order (``Source.epoch_ids``)."""

    def epoch_ids(self, src, seed, epoch, position, shards=None):
        if not self.num_samples or self.shuffle_level != Shuffle.GLOBAL:
            return super().epoch_ids(src, seed, epoch, position, shards)
        rng = seeds.rng(seed, epoch, position)
        ranges = list(src.file_row_ranges())
        order = np.concatenate([np.arange(*ranges[i], dtype=np.int64)
                                for i in rng.permutation(len(ranges))] or [np.zeros(0, np.int64)])
        num_shards, shard_id = shards or (self.num_shards, self.shard_id)
        if num_shards and order.size:      # the core's split of the rows
            per = -(-order.size // num_shards)
            order = order[(shard_id + np.arange(per, dtype=np.int64) * num_shards) % order.size]
        order = order[:self.num_samples]
        return order[rng.permutation(order.size)]
