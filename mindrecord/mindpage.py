"""MindPage: MindSpore's paged reader of a MindRecord dataset by category (an index field).

``MindPage(file_name, num_consumer=4)``; ``candidate_fields`` are the dataset's index fields
(the header's ``index_fields``, in ``add_index`` order; every scalar field when ``add_index`` was
never called). Setting ``category_field`` groups the rows by that field's value; then
``read_category_info()`` describes the groups as MindSpore's JSON text, and
``read_at_page_by_id`` / ``read_at_page_by_name`` return one page of a group's rows as FileReader
dicts.

As MindSpore 2.10 does, the groups come from the ``.db`` index files (the value of each row as
SQLite's text of it: ``10``, ``2.0``, ``abc``), merged over the shards and sorted by that text,
and a group's rows are in global row order (shard files in order, rows in row-id order).
``get_category_fields()`` and ``set_category_field(name)`` (MindSpore 1.x's calls) are kept.
"""
import json
import os
import sqlite3

from .errors import MRMDefineCategoryError, ParamTypeError, ParamValueError
from .reader import MAX_CONSUMER_COUNT, MIN_CONSUMER_COUNT
from .shard_reader import ShardReader
from .status import SUCCESS

__all__ = ["MindPage"]


def _check_file_name(file_name):
    if isinstance(file_name, os.PathLike):
        file_name = os.fspath(file_name)
    names = file_name if isinstance(file_name, list) else [file_name]
    for name in names:
        if not isinstance(name, str):
            raise ParamValueError(f"File path: {name} is not string.")
    return file_name


def _check_consumer(num_consumer):
    if num_consumer is None:
        raise ParamValueError("Parameter num_consumer is None.")
    if not isinstance(num_consumer, int) or isinstance(num_consumer, bool):
        raise ParamValueError("Parameter num_consumer is not int.")
    if not MIN_CONSUMER_COUNT <= num_consumer <= MAX_CONSUMER_COUNT:
        raise ParamValueError(f"Parameter num_consumer: {num_consumer} should between "
                              f"{MIN_CONSUMER_COUNT} and {MAX_CONSUMER_COUNT}.")


def _check_page(page, num_row):
    if not isinstance(page, int) or page < 0:
        raise ParamValueError("Page should be int and greater than or equal to 0.")
    if not isinstance(num_row, int) or num_row <= 0:
        raise ParamValueError("num_row should be int and greater than 0.")


def _index_field_names(header):
    fields = header.get("index_fields") or []
    return [f["index_field"] for f in fields if isinstance(f, dict) and "index_field" in f]


class MindPage:
    """Reads the rows of a MindRecord dataset grouped by an index field, a page at a time.

    Args:
        file_name (str or list[str]): one shard (the set is found through its header) or the
            exact list of shard files.
        num_consumer (int): accepted for compatibility, 1..128.
    """

    def __init__(self, file_name, num_consumer=4):
        file_name = _check_file_name(file_name)
        _check_consumer(num_consumer)
        self._reader = ShardReader(file_name)
        self._candidate_fields = _index_field_names(self._reader.header)
        self._category_field = None
        self._groups = None         # [(name, [global row ids])], sorted by name
        order = self._reader.raw_fields + self._reader.blob_fields
        self._columns = order       # FileReader's key order: raw fields, then blob fields

    # ---- category field -----------------------------------------------------------------
    @property
    def candidate_fields(self):
        """The fields rows can be grouped by: the dataset's index fields."""
        return list(self._candidate_fields)

    @property
    def category_field(self):
        """The field rows are grouped by (None until set)."""
        return self._category_field

    @category_field.setter
    def category_field(self, category_field):
        self.set_category_field(category_field)

    def get_category_fields(self):
        """MindSpore 1.x's name of ``candidate_fields``."""
        return self.candidate_fields

    def set_category_field(self, category_field):
        """Groups the rows by ``category_field`` (one of ``candidate_fields``); SUCCESS."""
        if not category_field or not isinstance(category_field, str):
            raise ParamTypeError("'category_fields' expect str type.")
        if category_field not in self._candidate_fields:
            raise MRMDefineCategoryError(f"Field '{category_field}' is not a candidate category "
                                         f"field (candidates: {self._candidate_fields}).")
        self._groups = self._read_groups(category_field)
        self._category_field = category_field
        return SUCCESS

    def _read_groups(self, field):
        """[(value text, [global row ids in order])] from every shard's .db, sorted by text."""
        column = f"{field}_0"
        rows_of = {}
        for path, (first_row, _) in zip(self._reader.files, self._reader.file_row_ranges()):
            db = path + ".db"
            try:
                conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
                try:
                    found = conn.execute(f'SELECT ROW_ID, CAST("{column}" AS TEXT) FROM INDEXES '
                                         f'ORDER BY ROW_ID').fetchall()
                finally:
                    conn.close()
            except sqlite3.Error as exc:
                raise RuntimeError(f"[ERROR] Failed to read the category field '{field}' from the "
                                   f"mindrecord meta file: {db}: {exc}.") from None
            for row_id, text in found:
                rows_of.setdefault("" if text is None else text, []).append(first_row + row_id)
        return sorted(rows_of.items())

    def _need_groups(self):
        if self._groups is None:
            raise RuntimeError("[ERROR] Invalid data, field:  is invalid. Set MindPage."
                               f"category_field first (one of {self._candidate_fields}).")
        return self._groups

    # ---- reading ------------------------------------------------------------------------
    def read_category_info(self):
        """MindSpore's JSON text of the groups: ``{"categories":[{"count":N,"id":K,
        "name":"VALUE"},...],"key":"FIELD_0"}``."""
        groups = self._need_groups()
        categories = [{"count": len(ids), "id": k, "name": name}
                      for k, (name, ids) in enumerate(groups)]
        return json.dumps({"categories": categories, "key": f"{self._category_field}_0"},
                          separators=(",", ":"))

    def read_at_page_by_id(self, category_id, page, num_row):
        """Rows ``page * num_row`` .. of the group numbered ``category_id`` (its ``id`` in
        ``read_category_info``), as FileReader dicts."""
        if not isinstance(category_id, int) or category_id < 0:
            raise ParamValueError("Category id should be int and greater than or equal to 0.")
        _check_page(page, num_row)
        groups = self._need_groups()
        if category_id >= len(groups):
            raise RuntimeError(f"[ERROR] Invalid data, category_id: {category_id} must be in the "
                               f"range [0, {len(groups)}].")
        return self._page(groups[category_id], page, num_row)

    def read_at_page_by_name(self, category_name, page, num_row):
        """Rows ``page * num_row`` .. of the group whose value reads ``category_name`` (its
        ``name`` in ``read_category_info``), as FileReader dicts."""
        if not isinstance(category_name, str):
            raise ParamValueError("Category name should be str.")
        _check_page(page, num_row)
        for group in self._need_groups():
            if group[0] == category_name:
                return self._page(group, page, num_row)
        raise RuntimeError(f"[ERROR] category_name: {category_name} could not found (field "
                           f"'{self._category_field}').")

    def _page(self, group, page, num_row):
        name, ids = group
        first = page * num_row
        if first >= len(ids):
            raise RuntimeError(f"[ERROR] Invalid data, page no: {page}or page size: {num_row} is "
                               f"invalid: category '{name}' has {len(ids)} rows.")
        return [self._reader.python_row(i, self._columns) for i in ids[first:first + num_row]]

    def close(self):
        self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
