"""Schema: the names, types and shapes of a dataset's columns (``mindspore.dataset.Schema``).

TFRecordDataset reads its columns from a Schema or from a JSON schema file such as::

    {"datasetType": "TF", "numRows": 100,
     "columns": {"image": {"type": "uint8", "rank": 1},
                 "label": {"type": "int64", "rank": 1, "shape": [1]}}}

``columns`` is either a dict (name -> attributes; the columns come out sorted by name, as
MindSpore's JSON library orders them) or a list of dicts with a ``name`` (in list order). A
column has a ``type`` (one of VALID_TYPES), an optional ``shape`` (-1 marks the one dimension
that is filled in from the data) and an optional ``rank``. Without a shape, a column of rank 1
(``add_column``'s default) holds a 1-D array of whatever length the record has; with neither
shape nor rank it is a scalar (``shape: []``), as MindSpore's Schema reads such a file.

Everything is checked when it is added, and a failed load leaves the Schema unchanged.
"""
import json

import numpy as np

from ._validation import check_file, type_check

#: Column types MindSpore accepts (``mindspore.dataset.core.validator_helpers.valid_detype``).
VALID_TYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "float16", "float32", "float64", "string", "bytes")

# Column attributes a schema file may hold ("t_impl" is MindSpore's tensor layout hint, unused).
_COLUMN_KEYS = {"name", "type", "shape", "rank", "t_impl"}


def type_name(de_type):
    """The schema type name of ``de_type`` ("int64", "string", ...) or None if it is not one.

    Accepts the names themselves, numpy dtypes and scalar types (``np.int64``,
    ``np.dtype("float32")``, ``np.str_``) and MindSpore-style type objects whose text is the name
    (``str(mstype.int64) == "Int64"``), so scripts that pass those keep working.
    """
    if isinstance(de_type, str):
        return de_type if de_type in VALID_TYPES else None
    if de_type is bool:
        return "bool"
    try:
        dtype = np.dtype(de_type) if isinstance(de_type, (np.dtype, type)) else None
    except TypeError:
        dtype = None
    if dtype is not None:
        if dtype.kind == "U":
            return "string"
        if dtype.kind == "S":
            return "bytes"
        return dtype.name if dtype.name in VALID_TYPES else None
    text = str(de_type).lower()
    return text if text in VALID_TYPES else None


def _check_shape(shape, where):
    """A list of ints, each >= -1, with at most one -1."""
    if not isinstance(shape, (list, tuple)):
        raise RuntimeError(f"{where}: shape must be a list of int, got {shape!r}.")
    for dim in shape:
        if isinstance(dim, bool) or not isinstance(dim, int) or dim < -1:
            raise RuntimeError(f"{where}: shape must hold ints >= -1 (-1 = unknown), got {shape!r}.")
    if list(shape).count(-1) > 1:
        raise RuntimeError(f"{where}: shape {list(shape)} has more than one unknown (-1) dimension.")
    return [int(d) for d in shape]


def _column_from_json(name, attrs, where):
    """One column dict {"name", "type", "rank"[, "shape"]} from a schema file's attributes."""
    if not isinstance(attrs, dict):
        raise RuntimeError(f"{where}: column {name!r} must be a JSON object with a type, got {attrs!r}.")
    unknown = sorted(set(attrs) - _COLUMN_KEYS)
    if unknown:
        raise RuntimeError(f"{where}: unexpected column attribute {unknown[0]!r} for column {name!r} "
                           f"(allowed: name, type, shape, rank).")
    if name is None:
        if "name" not in attrs:
            raise RuntimeError("Column's name is missing")
        name = attrs["name"]
    elif "name" in attrs and attrs["name"] != name:
        raise RuntimeError(f"{where}: column {name!r} has a different name attribute "
                           f"{attrs['name']!r}.")
    if not isinstance(name, str) or not name:
        raise RuntimeError(f"{where}: column names must be non-empty strings, got {name!r}.")
    if "type" not in attrs:
        raise RuntimeError("Column's type is missing")
    kind = attrs["type"] if isinstance(attrs["type"], str) else None
    if kind not in VALID_TYPES:
        raise RuntimeError(f"{where}: column {name!r} has an unknown type {attrs['type']!r} "
                           f"(expected one of {list(VALID_TYPES)}).")
    column = {"name": name, "type": kind}
    if "shape" in attrs:
        column["shape"] = _check_shape(attrs["shape"], f"{where}: column {name!r}")
        column["rank"] = len(column["shape"])
    elif "rank" in attrs:
        rank = attrs["rank"]
        if isinstance(rank, bool) or not isinstance(rank, int) or rank < 0:
            raise RuntimeError(f"{where}: column {name!r} must define a rank >= 0, got {rank!r}.")
        column["rank"] = rank
    else:
        column["shape"], column["rank"] = [], 0
    return column


def _columns_from_json(columns, where):
    if isinstance(columns, dict):
        parsed = [_column_from_json(name, columns[name], where) for name in sorted(columns)]
    elif isinstance(columns, (list, tuple)):
        parsed = [_column_from_json(None, attrs, where) for attrs in columns]
    else:
        raise RuntimeError("columns must be dict or list, columns contain name, type, shape(optional).")
    names = [c["name"] for c in parsed]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise RuntimeError(f"{where}: duplicate column name(s) {duplicates}.")
    return parsed


class Schema:
    """Column names, types and shapes, and optionally the number of rows to read.

    ``Schema(schema_file=None)`` as in MindSpore: with a file, its JSON is loaded (a missing file
    is a ValueError, a file that is not a valid schema a RuntimeError naming it).
    """

    def __init__(self, schema_file=None):
        self.schema_file = "" if schema_file is None else schema_file
        self.dataset_type = ""
        self.num_rows = 0
        self._columns = []
        if schema_file is not None:
            if not isinstance(schema_file, str):    # MindSpore's words first
                raise TypeError(f"path: {schema_file} is not string (Argument schema_file must "
                                f"be a str, but got {type(schema_file)}).")
            path = check_file(schema_file, "schema_file")
            try:
                with open(path, encoding="utf-8") as f:
                    content = json.load(f)
            except (OSError, ValueError) as exc:
                raise RuntimeError(f"Schema file failed to load: {path}: {exc}") from exc
            if not isinstance(content, dict) or "columns" not in content:
                raise RuntimeError(f"\"columns\" node is required in the schema json file {path}.")
            self._load(content, path)

    # -- MindSpore's methods ---------------------------------------------------------------
    def add_column(self, name, de_type, shape=None):
        """Append a column. ``shape=None`` means rank 1 of any length; ``[]`` a scalar; -1 in
        ``shape`` an unknown dimension."""
        type_check(name, (str,), "name")
        if not name:
            raise TypeError("Expected non-empty string for column name.")
        if de_type is None:
            raise TypeError("Expected non-empty string for de_type.")
        kind = type_name(de_type)
        if kind is None or kind == "bytes":
            # MindSpore 2.10's add_column refuses "bytes" ("Unknown column type."), which its
            # from_json and schema files take (measured).
            raise TypeError(f"Unknown column type: {de_type}.")
        column = {"name": name, "type": kind, "rank": 1}
        if shape is not None:
            type_check(shape, (list,), "shape")
            for i, dim in enumerate(shape):
                type_check(dim, (int,), f"shape[{i}]")
            try:
                column["shape"] = _check_shape(shape, f"add_column({name!r})")
            except RuntimeError as exc:
                raise ValueError(str(exc)) from None
            column["rank"] = len(shape)
        if any(c["name"] == name for c in self._columns):
            raise ValueError(f"Column {name!r} is already in the schema.")
        self._columns.append(column)

    def parse_columns(self, columns):
        """Replace the columns by ``columns``: a list of dicts with 'name' and 'type' (and
        optionally 'shape'), or a dict name -> {'type', 'shape'}. RuntimeError if malformed."""
        self._columns = _columns_from_json(columns, "parse_columns")

    def to_json(self):
        """The schema as JSON text (the layout MindSpore writes: keys sorted, indent 2)."""
        content = {"columns": [dict(c) for c in self._columns]}
        if self.dataset_type:
            content["datasetType"] = self.dataset_type
        if self.num_rows > 0:
            content["numRows"] = self.num_rows
        return json.dumps(content, indent=2, sort_keys=True)

    def from_json(self, json_obj):
        """Load a parsed schema file (a dict with 'columns' and optionally 'datasetType' and
        'numRows'). RuntimeError on unknown keys, missing columns or a negative numRows."""
        if not isinstance(json_obj, dict):
            raise RuntimeError(f"from_json expects a dict (a parsed schema file), got "
                               f"{type(json_obj).__name__}.")
        if "columns" not in json_obj:
            raise RuntimeError("\"columns\" node is required in the schema json JSON.")
        self._load(json_obj, "from_json")

    @staticmethod
    def get_num_rows(schema):
        """numRows of a Schema or of a schema file (0 when it gives none)."""
        return (schema if isinstance(schema, Schema) else Schema(schema)).num_rows

    def __str__(self):
        return self.to_json()

    def __repr__(self):
        return f"Schema({self.to_json()})"

    def __eq__(self, other):
        return isinstance(other, Schema) and self.to_json() == other.to_json()

    __hash__ = None

    # -- for the sources -------------------------------------------------------------------
    @property
    def columns(self):
        """Copies of the column dicts {"name", "type", "rank"[, "shape"]}, in order."""
        return [dict(c, **({"shape": list(c["shape"])} if "shape" in c else {}))
                for c in self._columns]

    def _load(self, content, where):
        dataset_type, num_rows, columns = self.dataset_type, self.num_rows, None
        for key, value in content.items():
            if key == "datasetType":
                if not isinstance(value, str):
                    raise RuntimeError(f"{where}: datasetType must be a string, got {value!r}.")
                dataset_type = value
            elif key == "numRows":
                if isinstance(value, bool) or not isinstance(value, int):
                    raise RuntimeError(f"{where}: numRows must be an integer, got {value!r}.")
                num_rows = value
            elif key == "columns":
                columns = _columns_from_json(value, where)
            else:
                raise RuntimeError(f"Unknown field {key}")
        if not columns:
            raise RuntimeError("Columns are missing.")
        if num_rows < 0:
            raise RuntimeError("numRows must be greater than or equal to 0")
        # Assigned together, after every check: a failed load changes nothing.
        self.dataset_type, self.num_rows, self._columns = dataset_type, num_rows, columns
