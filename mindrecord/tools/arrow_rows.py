"""pyarrow tables (from CSV or Parquet) as MindRecord rows: schema mapping and a row loader.

Type mapping (MindSpore's CsvToMR maps pandas int64 -> int64, float64 -> float64, bool -> int32
and anything else -> string; Parquet's richer types extend it):

=====================================  ===========================================
arrow type                             MindRecord field
=====================================  ===========================================
int8/16/32, uint8/16, bool             int32
int64, uint32, uint64                  int64 (a uint64 above 2**63-1 is bad input)
float16/32                             float32
float64                                float64
string, large_string, dictionary, ...  string (other types via their text form)
binary, large_binary, fixed binary     bytes
list of numbers                        ndarray field, shape [-1] (Parquet)
=====================================  ===========================================

A null becomes NaN in a float column (as pandas reads it); an int column with nulls becomes
float64 (pandas' behaviour, hence MindSpore's); elsewhere a null is bad input naming the row.
"""
import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import MRMInvalidSchemaError
from .bad_input import BadItem, ConversionError
from .conversion import ItemLoader

FIELD_NAME = re.compile(r"^[0-9a-zA-Z_]+$")
_NUMPY = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}


def _field_type(arrow_type):
    t = arrow_type
    if pa.types.is_boolean(t) or (pa.types.is_integer(t) and t.bit_width <= 16) \
            or pa.types.is_int32(t):
        return "int32"
    if pa.types.is_integer(t):
        return "int64"
    if pa.types.is_float16(t) or pa.types.is_float32(t):
        return "float32"
    if pa.types.is_floating(t):
        return "float64"
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        return "bytes"
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        inner = _field_type(t.value_type)
        if inner not in _NUMPY:
            return None
        return ("array", inner)
    if pa.types.is_struct(t) or pa.types.is_map(t) or pa.types.is_union(t):
        return None
    return "string"


def table_schema(table, source, columns_list=None):
    """(table restricted/cast for writing, MindRecord schema) for ``table`` read from ``source``."""
    if columns_list:
        for col in columns_list:
            if col not in table.column_names:
                raise RuntimeError(f"The parameter columns_list is illegal, column {col} does "
                                   f"not exist in {source}.")
        repeated = sorted({col for col in columns_list if columns_list.count(col) > 1})
        if repeated:    # MindSpore 2.10: RuntimeError, the index field "added repeatedly"
            raise RuntimeError(f"The parameter columns_list is illegal, it names {repeated} "
                               f"more than once ({source}).")
        table = table.select(columns_list)
    if table.num_columns == 0:
        raise ConversionError(f"{source}: no columns to convert")
    schema, columns = {}, []
    for name, column in zip(table.column_names, table.columns):
        if not FIELD_NAME.match(name):       # MindSpore 2.10's error type (its add_schema's)
            raise MRMInvalidSchemaError(f"{source}: column name {name!r} is not a valid "
                                        f"MindRecord field name (letters, digits and '_' only)")
        ftype = _field_type(column.type)
        if ftype is None:
            raise ConversionError(f"{source}: column {name!r} has type {column.type}, which "
                                  "MindRecord cannot store")
        if ftype in ("int32", "int64") and column.null_count and not \
                pa.types.is_boolean(column.type):
            ftype = "float64"                    # pandas reads an int column with gaps as float
            column = pc.cast(column, pa.float64())
        if ftype == "string" and not (pa.types.is_string(column.type) or
                                      pa.types.is_large_string(column.type)):
            column = pc.cast(column, pa.string())
        if isinstance(ftype, tuple):
            schema[name] = {"type": ftype[1], "shape": [-1]}
        else:
            schema[name] = {"type": ftype}
        columns.append(column)
    return pa.table(columns, names=table.column_names), schema


class ArrowTableLoader(ItemLoader):
    """Items are row indices of ``table``; ``where(i)`` names a row for messages."""

    def __init__(self, table, schema, source, line_of_row=None):
        self.table, self.schema, self.source = table, schema, source
        self.line_of_row = line_of_row     # row index -> physical line (CSV) or None

    def where(self, index):
        if self.line_of_row is not None:
            return f"{self.source} line {self.line_of_row[index]}"
        return f"{self.source} row {index}"

    def load_chunk(self, items):
        if not len(items):
            return []
        start = items[0]
        contiguous = items[-1] - start + 1 == len(items)
        if contiguous:
            part = self.table.slice(start, len(items))
        else:
            part = self.table.take(pa.array(list(items)))
        fast = self._columnar(part)
        if fast is not None:
            return fast
        records = part.to_pylist()
        out = []
        for index, record in zip(items, records):
            try:
                out.append(self._row(record, index))
            except BadItem as bad:
                out.append(bad)
        return out

    def _columnar(self, part):
        """Rows built column by column (several times faster than row by row) when no value
        of the chunk needs a per-row decision: no nulls, no arrays, no uint64 overflow."""
        columns = []
        for name, spec in self.schema.items():
            column = part.column(name)
            if "shape" in spec or column.null_count:
                return None
            if pa.types.is_uint64(column.type) and len(column) and \
                    pc.max(column).as_py() >= 2**63:
                return None
            values = column.to_pylist()
            if pa.types.is_boolean(column.type):
                values = [int(v) for v in values]      # FileWriter takes int, not bool
            columns.append(values)
        names = list(self.schema)
        return [dict(zip(names, values)) for values in zip(*columns)]

    def _row(self, record, index):
        row = {}
        for name, spec in self.schema.items():
            value = record[name]
            ftype = spec["type"]
            if value is None:
                if ftype in ("float32", "float64") and "shape" not in spec:
                    value = float("nan")
                else:
                    raise BadItem(self.where(index), f"column {name!r} is empty (null)")
            if "shape" in spec:
                if any(v is None for v in value) and ftype.startswith("int"):
                    raise BadItem(self.where(index), f"column {name!r} has an empty (null) "
                                                     "element")
                value = np.asarray([np.nan if v is None else v for v in value],
                                   dtype=_NUMPY[ftype])
            elif ftype in ("int32", "int64"):
                value = int(value)
                if ftype == "int64" and value >= 2**63:
                    raise BadItem(self.where(index), f"column {name!r} value {value} is outside "
                                                     "the int64 range")
            elif ftype in ("float32", "float64"):
                value = float(value)
            row[name] = value
        return row


def index_fields(table, schema):
    """The fields to index: every scalar field (MindSpore's choice), except float columns that
    hold NaN, infinity or nulls (which become NaN): such values cannot be indexed, and
    FileWriter refuses them in an index field (MindSpore's own converter aborts on them)."""
    fields = []
    for name, spec in schema.items():
        if "shape" in spec or spec["type"] == "bytes":
            continue
        if spec["type"] in ("float32", "float64"):
            column = table.column(name)
            values = column.to_numpy(zero_copy_only=False).astype(np.float64, copy=False)
            if column.null_count or not np.isfinite(values).all():
                continue
        fields.append(name)
    return fields or None
