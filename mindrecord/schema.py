"""MindRecord schemas: validation (MindSpore's rules and messages) and the facts derived from a
schema that both the writer and the reader need (blob/raw fields, compression, index columns).

Pure Python, no native code: the reader imports it too. Rules: ../shared/docs/mindrecord-format.md
section 3 (schema), 3.1 (index fields) and 5.3 (when integer arrays are compressed).
"""
import json
import re

from .errors import MRMBuildSchemaError, MRMInvalidSchemaError

SCALAR_TYPES = ("int32", "int64", "float32", "float64", "string", "bytes")
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
INTEGER_TYPES = ("int32", "int64")
FLOAT_TYPES = ("float32", "float64")

# SQL column type of an index field in the .db (section 8).
SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL",
             "string": "TEXT"}

_FIELD_NAME = re.compile(r"[0-9a-zA-Z_]+")


def _field_error(detail):
    return MRMInvalidSchemaError(detail)


def _check_field(name, spec):
    """MindSpore's Python-side checks for one field; returns an error text or None."""
    if not isinstance(name, str) or not _FIELD_NAME.fullmatch(name):
        return f"Field '{name}' should be composed of '0-9' or 'a-z' or 'A-Z' or '_'."
    if not spec or not isinstance(spec, dict):
        return f"Field '{name}' should be dict."
    if len(spec) == 1 and "type" in spec:
        if not _is_member(spec["type"], SCALAR_TYPES):
            return f"Field '{name}' contain illegal attribute '{spec['type']}'."
        return None
    if len(spec) == 2 and "type" in spec:
        if "shape" not in spec:
            return f"Field '{spec}' contains illegal attributes."
        if not _is_member(spec["type"], ARRAY_TYPES):
            return f"Field '{name}' contain illegal attribute '{spec['type']}'."
        if not isinstance(spec["shape"], list):
            return f"Field '{name}' contain illegal attribute '{spec['shape']}'."
        return None
    return f"Field '{spec}' contains illegal attributes."


def _is_member(value, allowed):
    return isinstance(value, str) and value in allowed


def _check_shape(shape):
    """MindSpore's C++-side shape checks (MRMBuildSchemaError)."""
    for dim in shape:
        if isinstance(dim, bool) or not isinstance(dim, int) or (dim != -1 and dim <= 0):
            raise MRMBuildSchemaError(
                f"Invalid schema, the element of 'shape' value should be -1 or greater than 0 "
                f"but got: {dim}. Please check the input schema.")
    if sum(1 for dim in shape if dim == -1) > 1:
        raise MRMBuildSchemaError(
            f"Invalid schema, only 1 variable dimension(-1) allowed in 'shape' value but got: "
            f"{json.dumps(shape, separators=(',', ':'))}. Please check the input schema.")


def validate_schema(content):
    """Check a schema dict as MindSpore's add_schema does; first error wins.

    Returns a normalised copy: {name: {"type": T}} or {name: {"shape": [..], "type": T}},
    sorted by name (the order the header stores it in).
    """
    if not content:
        raise _field_error("Schema content is empty.")
    if not isinstance(content, dict):
        raise _field_error("Schema content should be dict.")
    for name, spec in content.items():
        error = _check_field(name, spec)
        if error:
            raise _field_error(error)
    for spec in content.values():
        if "shape" in spec:
            _check_shape(spec["shape"])
    normalised = {}
    for name in sorted(content):
        spec = content[name]
        if "shape" in spec:
            normalised[name] = {"shape": [int(d) for d in spec["shape"]], "type": spec["type"]}
        else:
            normalised[name] = {"type": spec["type"]}
    return normalised


def is_blob(spec):
    """Blob fields: every bytes field and every field with a shape (section 3)."""
    return "shape" in spec or spec["type"] == "bytes"


def blob_fields(schema):
    """Blob field names in stored order (sorted by name)."""
    return sorted(name for name, spec in schema.items() if is_blob(spec))


def raw_fields(schema):
    """Scalar (raw) field names in stored order (sorted by name)."""
    return sorted(name for name, spec in schema.items() if not is_blob(spec))


def compresses_int_arrays(schema):
    """Integer-array compression is on iff some int32/int64 field has a shape (section 5.3)."""
    return any("shape" in spec and spec["type"] in INTEGER_TYPES for spec in schema.values())


def default_index_fields(schema):
    """Without add_index every scalar field is indexed, in sorted-name order."""
    return raw_fields(schema)


def shape_accepts(shape, size):
    """Whether a flat array of `size` elements can be reshaped to `shape` (numpy rules)."""
    known = 1
    for dim in shape:
        if dim != -1:
            known *= dim
    if -1 in shape:
        return known > 0 and size % known == 0
    return size == known


def schema_json(schema):
    """Compact JSON of the field map as MindSpore prints it (sorted keys, no spaces)."""
    return json.dumps(schema, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
