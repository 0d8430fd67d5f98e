"""TFRecordToMR: a TFRecord file of tf.train.Example records -> MindRecord, without TensorFlow.

``feature_dict`` maps feature names to :class:`FixedLenFeature` (ours, or TensorFlow's
``tf.io.FixedLenFeature``: anything with ``shape``, ``dtype`` and ``default_value``). As in
MindSpore: shape ``[]`` -> scalar field (string -> "string", or "bytes" for a name in
``bytes_fields``), shape ``[n]`` -> ndarray field of shape ``[n]`` (not for strings); integer
types -> int32/int64, floats -> float32/float64; names have punctuation and spaces replaced
by "_"; desc "TFRecord to MindRecord"; every scalar field indexed (FileWriter's default).
"""
import string
from dataclasses import dataclass

import numpy as np

from .bad_input import BadItem, ConversionError
from .conversion import ConversionSpec, ItemLoader
from .converter import Converter
from .params import check_destination_arg, check_partition_number, check_path_arg
from .tfrecord import FramingError, parse_example, read_record, scan_records

# TensorFlow dtype name -> MindRecord type (MindSpore's table).
TF_TO_MR = {"string": "string", "int8": "int32", "int16": "int32", "int32": "int32",
            "int64": "int64", "uint8": "int32", "uint16": "int32", "uint32": "int64",
            "uint64": "int64", "float16": "float32", "half": "float32", "float32": "float32",
            "float": "float32", "float64": "float64", "double": "float64", "bool": "int32"}
_NUMPY = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}
_SPECIAL = set(string.punctuation + " ") - {"_"}
_LIST_KIND = {"string": "bytes", "int": "int64", "float": "float"}   # Feature oneof per kind


@dataclass(frozen=True)
class FixedLenFeature:
    """Stand-in for ``tf.io.FixedLenFeature(shape, dtype, default_value=None)``; ``dtype`` is a
    name ("string", "int64", "float32", ...), a numpy dtype or a TensorFlow DType."""
    shape: list
    dtype: object
    default_value: object = None


def cast_name(key):
    """MindSpore's field name for a feature: punctuation and spaces become '_'."""
    return "".join("_" if c in _SPECIAL else c for c in key)


def dtype_name(dtype):
    if isinstance(dtype, str):
        name = dtype
    elif hasattr(dtype, "name") and isinstance(dtype.name, str):
        name = dtype.name                      # tf.DType or numpy dtype
    else:
        name = np.dtype(dtype).name
    if name in ("bytes", "object", "str"):
        name = "string"
    if name not in TF_TO_MR:
        raise ValueError(f"Type {name} is not supported in MindRecord.")
    return name


@dataclass(frozen=True)
class _Field:
    feature: str        # name in the TFRecord
    name: str           # MindRecord field name
    kind: str           # "string", "int", "float"
    mr_type: str
    length: int         # None for scalars
    as_bytes: bool
    default: object


class TFRecordLoader(ItemLoader):
    """Items are (path, record index, data offset, length)."""

    def __init__(self, fields):
        self.fields = fields

    def load_chunk(self, items):
        out = []
        by_file = {}
        for item in items:
            by_file.setdefault(item[0], None)
        handles = {path: open(path, "rb") for path in by_file}
        try:
            for path, index, offset, length in items:
                try:
                    data = read_record(handles[path], path, index, offset, length)
                    out.append(self._row(data, f"{path} record {index}"))
                except BadItem as bad:
                    out.append(bad)
        finally:
            for f in handles.values():
                f.close()
        return out

    def _row(self, data, where):
        try:
            features = parse_example(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise BadItem(where, f"not a tf.train.Example ({exc})") from None
        row = {}
        for field in self.fields:
            kind, values = features.get(field.feature, (None, None))
            if kind is None:
                if field.default is None:
                    raise BadItem(where, f"feature {field.feature!r} is missing and has no "
                                         "default_value")
                values = list(np.ravel(field.default)) if field.length else [field.default]
            elif kind != _LIST_KIND[field.kind]:
                raise BadItem(where, f"feature {field.feature!r} holds a {kind}_list, "
                                     f"feature_dict says {field.mr_type}")
            expected = field.length or 1
            if len(values) != expected:
                raise BadItem(where, f"feature {field.feature!r} has {len(values)} values, "
                                     f"feature_dict expects {expected}")
            if field.length:
                row[field.name] = np.asarray(values, dtype=_NUMPY[field.mr_type])
            elif field.kind == "string":
                value = values[0]
                if field.as_bytes:
                    row[field.name] = bytes(value) if not isinstance(value, str) \
                        else value.encode()
                else:
                    try:
                        row[field.name] = value if isinstance(value, str) \
                            else value.decode("utf-8")
                    except UnicodeDecodeError:
                        raise BadItem(where, f"feature {field.feature!r} is not UTF-8 text; "
                                             "list it in bytes_fields") from None
            elif field.kind == "int":
                row[field.name] = int(values[0])
            else:
                row[field.name] = float(values[0])
        return row


class TFRecordToMR(Converter):
    """Convert TFRecord to MindRecord (``mindspore.mindrecord.TFRecordToMR``), no TensorFlow.

    Args:
        source (str): the TFRecord file (a list of files is also accepted).
        destination (str): MindRecord file to write.
        feature_dict (dict[str, FixedLenFeature]): features to convert.
        bytes_fields (list[str]): string features stored as bytes (e.g. encoded images).
        partition_number (int, keyword-only): number of shard files. Default 1.
    """

    def __init__(self, source, destination, feature_dict, bytes_fields=None, *,
                 partition_number=1):
        sources = [source] if isinstance(source, str) else source
        if not isinstance(sources, list) or not sources or \
                not all(isinstance(s, str) for s in sources):
            raise ValueError("Parameter source must be string.")
        for s in sources:
            check_path_arg(s, "source", "file")
        self.sources = sources
        self.destination = check_destination_arg(destination)
        self.partition_number = check_partition_number(partition_number)
        if feature_dict is None or not isinstance(feature_dict, dict) or not feature_dict:
            raise ValueError("Parameter feature_dict is None or not dict.")
        if bytes_fields is not None:
            if not isinstance(bytes_fields, list):
                raise ValueError(f"Parameter bytes_fields: {bytes_fields} must be list(str).")
            for item in bytes_fields:
                if not isinstance(item, str):
                    raise ValueError(f"Parameter bytes_fields's item: {item} is not str.")
                if item not in feature_dict:
                    raise ValueError(f"Parameter bytes_fields's item: {item} is not in "
                                     f"feature_dict: {feature_dict}.")
        self.fields = self._parse_feature_dict(feature_dict, set(bytes_fields or []))
        self.schema = {}
        for f in self.fields:
            self.schema[f.name] = {"type": f.mr_type, "shape": [f.length]} if f.length \
                else {"type": "bytes" if f.as_bytes else f.mr_type}

    @staticmethod
    def _parse_feature_dict(feature_dict, bytes_fields):
        fields, names = [], set()
        for key, val in feature_dict.items():
            if not isinstance(key, str) or not all(hasattr(val, a) for a in ("shape", "dtype")):
                raise ValueError(f"Parameter feature_dict: {feature_dict} only support "
                                 "FixedLenFeature.")
            dtype = dtype_name(val.dtype)
            mr_type = TF_TO_MR[dtype]
            shape = list(val.shape) if val.shape is not None else []
            name = cast_name(key)
            if name in names:
                raise ValueError(f"Parameter feature_dict: two features map to field {name!r}.")
            names.add(name)
            if key in bytes_fields and (shape or dtype != "string"):
                raise ValueError(f"Parameter bytes_field: {key} should be a scalar string "
                                 "feature in feature_dict.")
            length = None
            if shape:
                if len(shape) != 1:
                    raise ValueError(f"Parameter len(feature_dict[{key}].shape) should be 1.")
                if not isinstance(shape[0], int) or shape[0] < 1:
                    raise ValueError(f"Parameter feature_dict[{key}].shape[0] should > 0")
                if dtype == "string":
                    raise ValueError(f"Parameter feature_dict[{key}].dtype is tf.string which "
                                     "shape[0] is not None. It is not supported.")
                length = shape[0]
            kind = "string" if dtype == "string" else ("float" if mr_type.startswith("float")
                                                        else "int")
            fields.append(_Field(key, name, kind, mr_type, length, key in bytes_fields,
                                 getattr(val, "default_value", None)))
        return fields

    def _build_specs(self):
        items, skipped = [], []
        for path in self.sources:
            try:
                records = scan_records(path)
            except FramingError as exc:
                if not self.skip_bad:
                    raise ConversionError(f"bad input: {exc}") from None
                # Framing lost: the records before the break are kept, the rest is skipped.
                records = exc.records
                skipped.append((f"{path} record {exc.index} (byte {exc.offset})",
                                f"{str(exc).split(': ', 1)[1]}; the rest of the file is skipped"))
            except OSError as exc:
                raise ConversionError(f"{path}: cannot read: {exc}") from None
            items.extend((path, i, off, n) for i, (off, n) in enumerate(records))
        return [ConversionSpec(self.destination, self.schema, "TFRecord to MindRecord", items,
                               TFRecordLoader(self.fields), self.partition_number,
                               pre_skipped=skipped)]
