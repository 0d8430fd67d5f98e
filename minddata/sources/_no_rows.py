"""MindSpore's mappable sources over a folder or file that holds no row of the selection: the
dataset's size is 0 (``get_dataset_size()``, a batch's size, ``num_classes()``) and the error
comes when a pipeline starts reading it, not when the dataset is built."""


class FailsWhenReadIfEmpty:
    """Mixed into a RowSource (before it): a source whose scan found no row sets ``_no_rows``
    to MindSpore's message; ``will_read``, which the engine calls when a pass starts, raises it
    as a RuntimeError."""

    _no_rows = None

    def will_read(self, ids):
        if self._no_rows is not None:
            raise RuntimeError(self._no_rows)
        super().will_read(ids)
