"""FileReader: MindSpore's sequential MindRecord reader, on top of ShardReader.

``FileReader(file_name, num_consumer=4, columns=None, operator=None)``: ``get_next()`` yields one
dict per row (raw fields, then blob fields, as MindSpore orders them) with Python values: int,
float, str, bytes, and numpy arrays of the schema dtype and shape.

Deviation: MindSpore's FileReader turns integral floats into ints (3.0 -> 3, -0.0 -> 0) and huge
floats into -2**63 (§10.1 of the format spec); that is a bug in its C++ -> Python conversion, so
floats are returned as floats here.
"""
from .errors import ParamTypeError, ParamValueError
from .shard_reader import ShardReader

MIN_CONSUMER_COUNT = 1
MAX_CONSUMER_COUNT = 128


class FileReader:
    """Reads every row of a MindRecord dataset in order.

    Args:
        file_name (str or list[str]): one shard (the whole set is found through its header, in
            the same directory) or the exact list of shard files to read; local paths or URLs.
        num_consumer (int): accepted for compatibility, 1..128; the rows are decoded at open in
            native code, so no consumer threads are needed.
        columns (list[str], optional): fields to return (default: all).
        operator: reserved by MindSpore; unused.
        storage_options (dict, keyword-only): options of the fsspec file system when
            file_name is a URL (s3://, gs://, http(s)://...), e.g. ``{"anon": True}``.
    """

    def __init__(self, file_name, num_consumer=4, columns=None, operator=None, *,
                 storage_options=None):
        if num_consumer is None:
            raise ParamValueError("Parameter num_consumer is None.")
        if not isinstance(num_consumer, int) or isinstance(num_consumer, bool):
            raise ParamValueError("Parameter num_consumer is not int.")
        if not MIN_CONSUMER_COUNT <= num_consumer <= MAX_CONSUMER_COUNT:
            raise ParamValueError(f"Parameter num_consumer: {num_consumer} should between "
                                  f"{MIN_CONSUMER_COUNT} and {MAX_CONSUMER_COUNT}.")
        if columns:
            if not isinstance(columns, list):
                raise ParamTypeError("'columns' expect list type.")
        else:
            columns = None
        self._operator = operator
        self._closed = False
        self._reader = ShardReader(file_name, storage_options=storage_options)
        if columns is not None:
            unknown = [c for c in columns if c not in self._reader.schema]
            if unknown:
                self._reader.close()
                raise RuntimeError(f"[ERROR] Invalid data, column name: {unknown[0]} can not "
                                   f"found in schema. Please check the 'column_list'. Schema of "
                                   f"{self._reader.files[0]}: {self._reader.column_names}.")
        # MindSpore's order: raw fields (sorted), then blob fields (sorted, or in the order
        # `columns` names them).
        if columns is None:
            self._columns = self._reader.raw_fields + self._reader.blob_fields
        else:
            blobs = set(self._reader.blob_fields)
            self._columns = [c for c in self._reader.raw_fields if c in columns] + [
                c for c in dict.fromkeys(columns) if c in blobs]

    def get_next(self):
        """Yields every row, in global order, as a dict. As MindSpore's: after ``close()`` it
        yields nothing, and a ``close()`` between two rows ends the iteration."""
        rows = self._reader.iter_python_rows(self._columns)
        while not self._closed:
            try:
                row = next(rows)
            except StopIteration:
                return
            yield row

    def len(self):
        """Total number of rows."""
        return self._reader.num_rows

    def __len__(self):
        return self._reader.num_rows

    def schema(self):
        """The schema dict (field -> {"type": ..., ["shape": ...]})."""
        return self._reader.schema

    def close(self):
        self._closed = True
        self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
