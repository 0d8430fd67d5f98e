"""Dataset.save: write a pipeline's rows to MindRecord files through mindrecord.FileWriter,
with MindSpore's type mapping (columns are narrowed to the types MindRecord stores)."""
import numpy as np

_CHUNK = 1000


def _field_spec(name, a):
    """MindRecord schema entry for a column whose first value is ``a``."""
    kind, ndim = a.dtype.kind, a.ndim
    if kind == "U":
        if ndim:
            raise TypeError(f"save: column {name!r} is an array of strings; MindRecord stores "
                            f"one string per field")
        return {"type": "string"}, "string"
    if kind == "S" or (a.dtype == np.uint8 and ndim >= 1):
        return {"type": "bytes"}, "bytes"   # uint8 arrays become bytes (shape dropped)
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


def _convert(a, how):
    if how == "string":
        return str(a)
    if how == "bytes":
        return a.tobytes() if a.dtype.kind != "S" else bytes(a.item())
    if a.ndim == 0:
        return a.item()
    return a.astype(how, copy=False)


def save_dataset(ds, file_name, num_files=1, file_type="mindrecord"):
    from mindrecord import FileWriter
    if not isinstance(file_name, str) or not file_name:
        raise TypeError("file_name must be a non-empty str")
    if isinstance(num_files, bool) or not isinstance(num_files, int):
        raise TypeError(f"num_files must be of type int, got {type(num_files).__name__}")
    if not 1 <= num_files <= 1000:
        raise ValueError(f"num_files {num_files} is not within the required interval of "
                         f"[1, 1000]")
    if file_type != "mindrecord":
        raise ValueError(f"file_type {file_type!r} is not supported; only 'mindrecord'")
    names = ds.get_col_names()
    it = ds.create_tuple_iterator(num_epochs=1, output_numpy=True)
    writer = None
    try:
        hows = None
        chunk = []
        for row in it:
            if writer is None:
                schema, hows = {}, []
                for n, a in zip(names, row):
                    spec, how = _field_spec(n, a)
                    schema[n] = spec
                    hows.append(how)
                writer = FileWriter(file_name, shard_num=num_files, overwrite=False)
                writer.add_schema(schema, "saved by minddata")
            chunk.append({n: _convert(a, h) for n, a, h in zip(names, row, hows)})
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
