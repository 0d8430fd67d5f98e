"""The one interface between file-format sources and the engine core.

A *RowSource* only knows how to read rows by id. Everything else (samplers, sharding,
shuffling, worker threads and processes, caching, batching) is the engine's job, so a new file
format needs only a RowSource subclass plus a thin public class that validates its arguments and
calls ``SourceDataset.__init__(self, source_factory, ...)`` (see ``minddata.ops.source``).

The public class passes a *factory* (a zero-argument callable returning an opened RowSource)
rather than an opened source: the engine opens it lazily at iteration, once per pipeline, so a
dataset object stays cheap, picklable and usable by two pipelines at the same time.
"""


class RowSource:
    """Random-access reader of rows. Subclasses set ``column_names`` and implement
    ``__len__`` and ``read_rows``; the other methods have usable defaults.

    Rows are tuples of numpy arrays, one per column, in ``column_names`` order (the data model
    of ARCHITECTURE.md: strings as numpy ``str_`` arrays, bytes as 1-D ``uint8`` arrays).
    """

    #: Output column names, in the order of the arrays in each row tuple.
    column_names = []

    #: The column a PKSampler groups rows by when its ``class_column`` is not a column
    #: (Cifar100Dataset: ``coarse_label``, as MindSpore's).
    class_column = "label"

    def __len__(self):
        """Number of rows. Row ids are ``0 .. len(self) - 1``."""
        raise NotImplementedError(f"{type(self).__name__} must implement __len__")

    def read_rows(self, ids):
        """Read the rows with the given ids (a sequence of ints or an int64 numpy array).

        Returns a list with one tuple of numpy arrays per id, in the order of ``ids``. Ids may
        repeat. Must be thread-safe: the engine calls it from several worker threads at once
        (release the GIL in native code where possible). Raise an exception naming the file
        and row on corrupt data; the engine adds the op name and row provenance.
        """
        raise NotImplementedError(f"{type(self).__name__} must implement read_rows")

    def provenance(self, row_id):
        """Human-readable origin of a row for error messages, e.g. ``"a.mindrecord row 12"``."""
        return f"{self.describe()} row {int(row_id)}"

    def describe(self):
        """Stable text identifying the data (file paths, column selection, options).

        Used as part of cache keys: two sources with the same description must return the same
        rows for the same ids.
        """
        return type(self).__name__

    def class_indexing(self):
        """Mapping class name -> class id for ``Dataset.num_classes()``, or None when the source
        has no notion of classes."""
        return None

    def file_row_ranges(self):
        """Optional: list of ``(start, stop)`` global row-id ranges, one per file, in file order.

        Lets the engine implement ``Shuffle.FILES`` (shuffle the file order, keep rows in
        order inside each file) and ``Shuffle.INFILE`` (keep the file order, shuffle rows
        inside each file). Sources made of one file may leave the default (one range).
        """
        return [(0, len(self))]

    def native_column(self, name):
        """Optional: native access to column `name` (a minddata.sources.native_access
        EncodedBytes, ImageFiles or DecodedImages), so the native batch engine reads it without
        Python per row; None (the default) when the source offers none."""
        return None

    def column_values(self, name):
        """Optional: every row's value of column `name` as one array whose row i is what
        read_rows gives for row i (stacked), or None (the default)."""
        return None

    def will_read(self, ids):
        """Optional hint: the rows ``ids`` (int64 array) are about to be read in this order
        (an epoch's, from its resume position). A source whose bytes are remote starts
        fetching them ahead of the reads; a source without any row may raise here, which is
        when MindSpore's sources report an empty folder; the default does nothing."""

    def close(self):
        """Release file handles and memory maps. Called once when the pipeline closes; must be
        safe to call twice."""

    # Context-manager convenience for tests and tools.
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
