"""Dataset.save: write a pipeline's rows to MindRecord files through mindrecord.FileWriter,
with MindSpore's type mapping (columns are narrowed to the types MindRecord stores)."""
import numpy as np

from ..graph.checks import wrong_type

_CHUNK = 1000


def _field_spec(name, a):
    """MindRecord schema entry for a column whose first value is ``a`` (MindSpore 2.10's
    table: bool and the integers up to 16 bits, uint8 too, become int32; uint32 and uint64
    int64; float16 float32)."""
    if not isinstance(a, np.ndarray):
        raise RuntimeError(f"save: column {name!r} holds {type(a).__name__} values. Invalid "
                           f"type, unsupported data type: {type(a).__name__}")
    kind, ndim = a.dtype.kind, a.ndim
    # One string or bytes value per field (a MindRecord bytes field reads back as shape (1,)).
    if kind == "U":
        # MindSpore 2.10 (measured) refuses a str array of any rank above 0, one of shape (1,)
        # too, where it takes bytes of shape (1,).
        if a.ndim != 0:
            raise RuntimeError(f"save: column {name!r} is an array of strings; MindRecord "
                               f"stores one string per field. Invalid data, mindrecord can not "
                               f"support multi-dimensional string tensor.")
        return {"type": "string"}, "string"
    if kind == "S":
        # MindSpore 2.10 (measured) takes bytes of shape () or (1,), and refuses (1, 1) too
        if a.ndim > 1 or a.size != 1:
            raise RuntimeError(f"save: column {name!r} is an array of bytes; MindRecord stores "
                               f"one bytes value per field. Currently, multi-dimensional bytes "
                               f"cannot be converted to MindRecord.")
        return {"type": "bytes"}, "bytes"
    if kind in "biu":
        t = "int64" if a.dtype.itemsize == 8 or a.dtype == np.uint32 else "int32"
    elif kind == "f":
        t = "float64" if a.dtype == np.float64 else "float32"
    else:
        raise TypeError(f"save: column {name!r} has dtype {a.dtype}, which MindRecord cannot "
                        f"store")
    if ndim == 0:
        return {"type": t}, t
    shape = [-1] + list(a.shape[1:])
    return {"type": t, "shape": shape}, t


def _convert(name, a, spec, how):
    """A value of the column as FileWriter takes it; a row that does not fit the schema the
    first row gave is refused, not reshaped or reinterpreted."""
    if how in ("string", "bytes"):
        _field_spec(name, a)      # a later row of several values is refused as the first one
        return str(a.item()) if how == "string" else bytes(a.item())
    if not np.can_cast(a.dtype, how, casting="same_kind"):
        raise RuntimeError(f"save: column {name!r} is {how} in the first row and {a.dtype} in "
                           f"a later one; MindRecord stores one type per field")
    if a.ndim == 0:        # a bool or float16 scalar as the field's type (MindSpore saves them)
        return a.astype(how).item()
    if a.shape[1:] != tuple(spec.get("shape", [None])[1:]):
        raise RuntimeError(f"save: column {name!r} has rows of shapes {a.shape} and "
                           f"{spec.get('shape')} (-1: any). Tensor with dynamic shape do not "
                           f"currently support saving. Except for the shape of dimension 0, the "
                           f"other dimension shapes must be fixed.")
    return a.astype(how, copy=False)


def _check_save_args(file_name, num_files, file_type):
    """MindSpore's checks, types and words."""
    if not isinstance(file_name, str):
        raise wrong_type("file_name", file_name, str)
    if not file_name:
        raise ValueError("file_name must be a non-empty path")
    if isinstance(num_files, bool) or not isinstance(num_files, int):
        raise wrong_type("num_files", num_files, int)
    if not 1 <= num_files <= 1000:
        raise ValueError(f"num_files {num_files} is not within the required interval of "
                         f"[1, 1000]: num_files should between 0 and 1000.")
    if not isinstance(file_type, str):
        raise wrong_type("file_type", file_type, str)
    if file_type != "mindrecord":
        raise ValueError(f"file_type {file_type!r}: {file_type} dataset format is not "
                         f"supported.")


def save_dataset(ds, file_name, num_files=1, file_type="mindrecord", rows=None):
    """Writes one epoch of ``ds``, read by ``rows(ds)`` (an iterator of numpy rows; the
    dataset gives one that starts at its first row whatever set_init_step says, as
    MindSpore 2.10 saves every row)."""
    from mindrecord import MindRecordException
    _check_save_args(file_name, num_files, file_type)
    try:
        _save(ds, file_name, num_files, rows)
    except MindRecordException as exc:      # MindSpore raises RuntimeError for these
        raise RuntimeError(f"save: {exc}") from exc


def _save(ds, file_name, num_files, rows):
    from mindrecord import FileWriter
    names = ds.get_col_names()
    it = rows(ds) if rows else ds.create_tuple_iterator(num_epochs=1, output_numpy=True)
    writer = None
    try:
        schema, hows = {}, []
        chunk = []
        for row in it:
            if writer is None:
                for n, a in zip(names, row):
                    spec, how = _field_spec(n, a)
                    schema[n] = spec
                    hows.append(how)
                writer = FileWriter(file_name, shard_num=num_files, overwrite=False)
                writer.add_schema(schema, "saved by minddata")
            chunk.append({n: _convert(n, a, schema[n], h) for n, a, h in zip(names, row, hows)})
            if len(chunk) >= _CHUNK:
                writer.write_raw_data(chunk)
                chunk = []
        if writer is None:
            raise RuntimeError("save: the dataset has no rows, nothing to write")
        if chunk:
            writer.write_raw_data(chunk)
        writer.commit()
        writer = None
    finally:
        it.close()
        if writer is not None:
            abort = getattr(writer, "_abort", None)
            if abort is not None:
                try:
                    abort()
                except Exception:
                    pass
