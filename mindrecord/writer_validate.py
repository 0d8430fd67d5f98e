"""Why a row does not match the schema, in words.

The native encoder only says *which* row failed; this module re-checks that row field by
field in schema order (as MindSpore does) and returns both MindSpore's warning text (logged
when bad rows are skipped) and our error message (raised otherwise), which names the row,
the field, what was expected and what was given.
"""
import numpy as np

from .schema import INTEGER_TYPES, FLOAT_TYPES, shape_accepts

_INT_RANGES = {"int32": (-(1 << 31), (1 << 31) - 1), "int64": (-(1 << 63), (1 << 63) - 1)}
# Python types MindSpore knows at all; anything else is reported under its own type name.
_KNOWN_TYPES = {int: "int", float: "float", str: "str", bytes: "bytes",
                np.int32: "int32", np.int64: "int64", np.float32: "float32",
                np.float64: "float64", np.ndarray: "ndarray"}


def _expected(spec):
    if "shape" in spec:
        return f"numpy.ndarray of dtype {spec['type']} reshapeable to {spec['shape']}"
    return {"int32": "int32 (int or numpy integer in [-2**31, 2**31-1])",
            "int64": "int64 (int or numpy integer in [-2**63, 2**63-1])",
            "float32": "float32 (float or numpy floating)",
            "float64": "float64 (float or numpy floating)",
            "string": "string (str)", "bytes": "bytes"}[spec["type"]]


def _show(value):
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _field_problem(name, spec, value):
    """(mindspore_detail, our_detail) for one field, or None when the value is fine."""
    kind = spec["type"]
    pytype = type(value)
    if "shape" in spec:
        if not isinstance(value, np.ndarray):
            return (f"data type: '{_KNOWN_TYPES.get(pytype, pytype.__name__)}' for field: "
                    f"'{name}' is not matched.",
                    f"got {pytype.__name__} {_show(value)}")
        if value.dtype != np.dtype(kind):
            return (f"data type: '{value.dtype}' for field: '{name}' is not matched.",
                    f"got an array of dtype {value.dtype}")
        if not shape_accepts(spec["shape"], value.size):
            return (f"data shape: '{value.shape}' for field: '{name}' is not matched.",
                    f"got an array of shape {value.shape}")
        return None
    if kind in INTEGER_TYPES:
        ok = pytype is not bool and isinstance(value, (int, np.integer))
        if ok:
            low, high = _INT_RANGES[kind]
            if low <= int(value) <= high:
                return None
            return (f"data value: '{value}' for field: '{name}' is out of {kind} range.",
                    f"got {_show(value)}, outside the {kind} range [{low}, {high}]")
    elif kind in FLOAT_TYPES:
        if isinstance(value, (float, np.floating)):
            return None
        if pytype is not bool and isinstance(value, (int, np.integer)):
            try:
                if float(value) == value:
                    return None
            except OverflowError:
                pass
            return (f"data type: '{kind}' for field: '{name}' is not matched.",
                    f"got the integer {_show(value)}, which {kind} cannot hold exactly")
    elif kind == "string":
        if isinstance(value, str):
            try:
                value.encode("utf-8")
                return None
            except UnicodeEncodeError as exc:
                return (f"data type: 'string' for field: '{name}' is not matched.",
                        f"got a str that is not valid UTF-8 ({exc.reason})")
    elif kind == "bytes":
        if isinstance(value, (bytes, bytearray)):
            return None
    known = _KNOWN_TYPES.get(pytype)
    shown = kind if known is not None else pytype.__name__
    return (f"data type: '{shown}' for field: '{name}' is not matched.",
            f"got {pytype.__name__} {_show(value)}")


def describe_bad_row(row, index, schema_order, schema):
    """(MindSpore's warning text, our message) for the first problem of a rejected row.

    schema_order: field names in the order add_schema received them (MindSpore's check order).
    """
    for name in schema_order:
        spec = schema[name]
        if name not in row:
            warning = (f"for schema, {index} th data is wrong, there is not field: '{name}' "
                       f"in the raw data.")
            return warning, f"row {index}: field '{name}' is missing (expected {_expected(spec)})"
        problem = _field_problem(name, spec, row[name])
        if problem:
            detail, ours = problem
            return (f"for schema, {index} th data is wrong, {detail}",
                    f"row {index}: field '{name}' expected {_expected(spec)}, {ours}")
    return (f"for schema, {index} th data is wrong.",
            f"row {index} does not match the schema")
