"""save_checkpoint / load_checkpoint / load_param_into_net / count_params in MindSpore's .ckpt
format (see ckpt_proto.py), plus a bridge to and from torch `state_dict`s.

Writes are atomic: the file is written under a temporary name in the same directory, flushed to
disk and renamed, so a crash never leaves a truncated checkpoint under the final name. Tensors
larger than SLICE_BYTES are written as consecutive Values with the same tag (MindSpore's way of
keeping each protobuf message under 2 GB); reading joins them again."""
import atexit
import math
import mmap
import os
import tempfile
import threading
from collections import OrderedDict

import numpy as np

from training import ckpt_proto
from training.tensor import Parameter, Tensor

SLICE_BYTES = 512 * 1024 * 1024  # MindSpore splits tensors above 512 MiB

# MindSpore (BatchNorm) parameter names <-> torch buffer/parameter names.
_MS_TO_TORCH_SUFFIX = {"gamma": "weight", "beta": "bias", "moving_mean": "running_mean",
                       "moving_variance": "running_var"}

_async_threads = []
_async_lock = threading.Lock()


def _to_numpy(value, name):
    if isinstance(value, Tensor):
        return value.data
    if hasattr(value, "detach") and hasattr(value, "cpu"):  # torch.Tensor
        return value.detach().cpu().numpy()
    if isinstance(value, (np.ndarray, np.generic, int, float, bool)):
        return np.asarray(value)
    raise TypeError(f"For 'save_checkpoint', the value of '{name}' must be a Tensor, Parameter, "
                    f"numpy array or number, but got {type(value).__name__}")


def _is_torch_module(obj):
    return type(obj).__module__.startswith("torch") or any(
        c.__module__.startswith("torch.nn") for c in type(obj).__mro__)


def _collect(save_obj, append_dict, choice_func):
    """Ordered (name, array) pairs from a Cell, a torch Module, a dict or a list of dicts."""
    from training.nn.cell import Cell
    if isinstance(save_obj, Cell):
        items = [(n, p.data) for n, p in save_obj.parameters_and_names()]
    elif _is_torch_module(save_obj) and hasattr(save_obj, "state_dict"):
        items = list(from_torch_state_dict(save_obj.state_dict()).items())
        items = [(n, p.data) for n, p in items]
    elif isinstance(save_obj, dict):
        items = [(str(n), _to_numpy(v, n)) for n, v in save_obj.items()]
    elif isinstance(save_obj, list):
        items = []
        for entry in save_obj:
            if not isinstance(entry, dict) or "name" not in entry or "data" not in entry:
                raise TypeError("For 'save_checkpoint', a list 'save_obj' must hold dicts with "
                                f"'name' and 'data' keys, but got {entry!r:.80}")
            items.append((str(entry["name"]), _to_numpy(entry["data"], entry["name"])))
    else:
        raise TypeError(f"For 'save_checkpoint', 'save_obj' must be a Cell, a torch Module, a "
                        f"dict or a list of dicts, but got {type(save_obj).__name__}")
    if choice_func is not None:
        items = [(n, a) for n, a in items if choice_func(n)]
    for name, value in (append_dict or {}).items():
        if not isinstance(value, (int, float, bool, str, Tensor, np.ndarray)):
            raise TypeError(f"For 'save_checkpoint', 'append_dict' values must be int, float, bool "
                            f"or Tensor, but '{name}' is {type(value).__name__}")
        arr = np.asarray(value.data if isinstance(value, Tensor) else value)
        if arr.dtype == np.float64 and isinstance(value, float):
            arr = arr.astype(np.float32)
        elif arr.dtype == np.int64 and isinstance(value, int) and not isinstance(value, bool):
            arr = arr.astype(np.int64)
        items.append((str(name), arr))
    seen = set()
    for name, arr in items:
        if name in seen:
            raise ValueError(f"For 'save_checkpoint', the parameter name '{name}' appears twice")
        seen.add(name)
        if np.dtype(arr.dtype) not in ckpt_proto.DTYPE_TO_TYPE:
            raise TypeError(f"For 'save_checkpoint', '{name}' has dtype {arr.dtype}, which the "
                            f"checkpoint format cannot hold")
    return items


def _write_file(path, items):
    directory = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix=".tmp-" + os.path.basename(path) + "-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            for name, arr in items:
                arr = np.asarray(arr)
                arr = arr if arr.flags.c_contiguous else arr.copy()  # keeps 0-d arrays 0-d
                if arr.dtype.byteorder == ">":
                    arr = arr.astype(arr.dtype.newbyteorder("<"))
                ttype = ckpt_proto.DTYPE_TO_TYPE[np.dtype(arr.dtype)]
                dims = list(arr.shape)
                if arr.nbytes > SLICE_BYTES and arr.ndim:
                    pieces = np.array_split(arr, -(-arr.nbytes // SLICE_BYTES))
                else:
                    pieces = [arr]
                for piece in pieces:
                    # Raw little-endian bytes, written from the array's own buffer (no copy
                    # for contiguous arrays; empty and 0-d arrays included).
                    raw = np.ascontiguousarray(piece).reshape(-1).view(np.uint8)
                    f.write(ckpt_proto.value_header(name, dims, ttype, raw.nbytes))
                    f.write(raw.data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def wait_async_save():
    """Block until every checkpoint started with async_save=True is on disk."""
    with _async_lock:
        threads = list(_async_threads)
        _async_threads.clear()
    for t in threads:
        t.join()
    errors = [t.error for t in threads if t.error is not None]
    if errors:
        raise errors[0]


atexit.register(lambda: [t.join() for t in list(_async_threads)])


class _SaveThread(threading.Thread):
    def __init__(self, path, items):
        super().__init__(name=f"ckpt-save-{os.path.basename(path)}", daemon=False)
        self.path, self.items, self.error = path, items, None

    def run(self):
        try:
            _write_file(self.path, self.items)
        except BaseException as exc:  # reported by wait_async_save()
            self.error = exc


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False,
                    append_dict=None, enc_key=None, enc_mode="AES-GCM", choice_func=None,
                    crc_check=False, format="ckpt", **kwargs):
    """Write `save_obj` (Cell, torch Module, dict name->tensor, or list of {"name", "data"})
    to `ckpt_file_name` in MindSpore's .ckpt format (".ckpt" appended if missing)."""
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError(f"For 'save_checkpoint', 'ckpt_file_name' must be a str, but got "
                        f"{type(ckpt_file_name).__name__}")
    if format != "ckpt":
        raise ValueError(f"For 'save_checkpoint', 'format' must be 'ckpt' (safetensors is not "
                         f"supported), but got {format!r}")
    if enc_key is not None:
        raise NotImplementedError("For 'save_checkpoint', encrypted checkpoints (enc_key) are not "
                                  "supported")
    if crc_check:
        raise NotImplementedError("For 'save_checkpoint', crc_check=True is not supported")
    if append_dict is not None and not isinstance(append_dict, dict):
        raise TypeError("For 'save_checkpoint', 'append_dict' must be a dict or None")
    path = os.path.abspath(os.fspath(ckpt_file_name))
    if not path.endswith(".ckpt"):
        path += ".ckpt"
    directory = os.path.dirname(path)
    if not os.path.isdir(directory):
        raise ValueError(f"For 'save_checkpoint', the directory {directory!r} does not exist")
    items = _collect(save_obj, append_dict, choice_func)
    if async_save:
        # Copies decouple the file from later in-place updates of the parameters.
        thread = _SaveThread(path, [(n, np.array(a, copy=True)) for n, a in items])
        with _async_lock:
            _async_threads.append(thread)
        thread.start()
    else:
        wait_async_save()  # an older async write of the same file must not land after this one
        _write_file(path, items)


_MAX_DIMS = 32   # numpy's limit is 64; MindSpore tensors have at most 8
_MAX_ARRAY_BYTES = np.iinfo(np.intp).max


def _checked_count(path, tag, dims, ttype, total):
    """Element count of parameter `tag`'s declared shape `dims`, after checking (with Python
    ints, before anything is allocated) that numpy can hold an array of that shape and that
    the `total` content bytes are exactly its size. Raises ValueError naming the file."""
    where = f"Failed to read the checkpoint file {path!r}: parameter '{tag}'"
    itemsize = np.dtype(ckpt_proto.TYPE_TO_DTYPE[ttype]).itemsize
    if len(dims) > _MAX_DIMS:
        raise ValueError(f"{where} declares {len(dims)} dimensions (at most {_MAX_DIMS})")
    if any(d < 0 for d in dims):
        raise ValueError(f"{where} declares a negative dimension in shape {dims}")
    # numpy refuses a shape whose nonzero dimensions multiply past its index range, even when
    # another dimension is 0 ("array is too big").
    if math.prod(d for d in dims if d) * itemsize > _MAX_ARRAY_BYTES:
        raise ValueError(f"{where} declares shape {dims} of {ttype}, too large for an array "
                         f"(more than {_MAX_ARRAY_BYTES} bytes)")
    count = math.prod(dims)
    if count * itemsize != total:
        raise ValueError(f"{where} declares shape {dims} of {ttype} ({count * itemsize} bytes) "
                         f"but holds {total} bytes")
    return count


def _read_arrays(path):
    """OrderedDict name -> numpy array of a .ckpt file (slices of one tag joined)."""
    if not os.path.isfile(path):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file {path!r} does not exist")
    size = os.path.getsize(path)
    if size == 0:
        raise ValueError(f"For 'load_checkpoint', the checkpoint file {path!r} is empty")
    out = OrderedDict()
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as buf:
        pending_tag, pending = None, []

        def flush():
            if pending_tag is None:
                return
            dims, ttype = pending[0][0], pending[0][1]
            dtype = ckpt_proto.TYPE_TO_DTYPE[ttype]
            total = sum(stop - start for _, _, (start, stop) in pending)
            count = _checked_count(path, pending_tag, dims, ttype, total)
            # Copy straight from the memory map into the final array: one copy, no bytes
            # temporaries (a multi-gigabyte tensor must not need twice its size in memory).
            arr = np.empty(count, dtype=dtype)
            dst = arr.view(np.uint8)
            pos = 0
            for _, _, (start, stop) in pending:
                src = np.frombuffer(buf, dtype=np.uint8, count=stop - start, offset=start)
                dst[pos:pos + stop - start] = src
                del src  # no view may outlive the map
                pos += stop - start
            out[pending_tag] = arr.reshape(dims)

        try:
            for tag, dims, ttype, content in ckpt_proto.iter_values(buf):
                if ttype not in ckpt_proto.TYPE_TO_DTYPE:
                    raise ValueError(f"Failed to read the checkpoint file {path!r}: parameter "
                                     f"'{tag}' has unsupported tensor_type {ttype!r}")
                if tag == pending_tag and dims == pending[0][0] and ttype == pending[0][1]:
                    pending.append((dims, ttype, content))
                    continue
                flush()
                if tag in out:
                    raise ValueError(f"Failed to read the checkpoint file {path!r}: parameter "
                                     f"'{tag}' appears twice")
                pending_tag, pending = tag, [(dims, ttype, content)]
            flush()
        except (ckpt_proto.CheckpointFormatError, UnicodeDecodeError) as exc:
            # (a parameter name that is not UTF-8 is damage too)
            raise ValueError(f"Failed to read the checkpoint file {path!r}: it is not a valid "
                             f"MindSpore checkpoint ({exc})") from None
    if not out:
        raise ValueError(f"Failed to read the checkpoint file {path!r}: no parameters found")
    return out


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None,
                    dec_key=None, dec_mode="AES-GCM", specify_prefix=None, choice_func=None,
                    crc_check=False, remove_redundancy=False, format="ckpt"):
    """dict name -> Parameter from a .ckpt file; loaded into `net` too when given."""
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError(f"For 'load_checkpoint', 'ckpt_file_name' must be a str, but got "
                        f"{type(ckpt_file_name).__name__}")
    if format != "ckpt":
        raise ValueError(f"For 'load_checkpoint', 'format' must be 'ckpt', but got {format!r}")
    if dec_key is not None:
        raise NotImplementedError("For 'load_checkpoint', encrypted checkpoints are not supported")
    arrays = _read_arrays(os.path.abspath(os.fspath(ckpt_file_name)))
    filters = _prefixes(filter_prefix, "filter_prefix")
    specify = _prefixes(specify_prefix, "specify_prefix")
    params = OrderedDict()
    for name, arr in arrays.items():
        if filters and any(name.startswith(p) for p in filters):
            continue
        if specify and not any(name.startswith(p) for p in specify):
            continue
        if choice_func is not None and not choice_func(name):
            continue
        params[name] = Parameter(arr, name=name)
    if net is not None:
        load_param_into_net(net, params, strict_load=strict_load)
    return params


def _prefixes(value, arg):
    if value is None:
        return ()
    if isinstance(value, str):
        value = (value,)
    if not all(isinstance(v, str) and v for v in value):
        raise TypeError(f"For 'load_checkpoint', '{arg}' must be a non-empty str or a list of them")
    return tuple(value)


def load_param_into_net(net, parameter_dict, strict_load=False, remove_redundancy=False):
    """Copy values into the network's parameters by name.

    Returns (params_not_loaded, ckpt_params_not_loaded) as MindSpore 2.x does. A shape mismatch
    raises RuntimeError naming the parameter; with strict_load, so does a dtype mismatch."""
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"For 'load_param_into_net', 'parameter_dict' must be a dict, but got "
                        f"{type(parameter_dict).__name__}")
    if _is_torch_module(net):
        return _load_into_torch(net, parameter_dict, strict_load)
    from training.nn.cell import Cell
    if not isinstance(net, Cell):
        raise TypeError(f"For 'load_param_into_net', 'net' must be a Cell or a torch Module, but "
                        f"got {type(net).__name__}")
    not_loaded, used = [], set()
    for name, param in net.parameters_and_names():
        if name not in parameter_dict:
            not_loaded.append(name)
            continue
        src = parameter_dict[name]
        arr = np.asarray(src.data if isinstance(src, Tensor) else _to_numpy(src, name))
        if arr.shape != param.shape and not (arr.size == 1 and param.size == 1):
            raise RuntimeError(f"For 'load_param_into_net', the shape of parameter '{name}' in the "
                               f"network is {param.shape}, but {arr.shape} in the checkpoint")
        if strict_load and arr.dtype != param.dtype:
            raise RuntimeError(f"For 'load_param_into_net', parameter '{name}' is {param.dtype} in "
                               f"the network but {arr.dtype} in the checkpoint (strict_load)")
        param.set_data(arr.astype(param.dtype, copy=False))
        used.add(name)
    ckpt_not_loaded = [n for n in parameter_dict if n not in used]
    return not_loaded, ckpt_not_loaded


def count_params(net):
    """Number of trainable scalars in a Cell or torch Module."""
    if _is_torch_module(net):
        return int(sum(p.numel() for p in net.parameters() if p.requires_grad))
    return int(sum(p.size for p in net.trainable_params()))


# --- torch bridge --------------------------------------------------------------------------
def to_torch_name(name):
    head, _, last = name.rpartition(".")
    mapped = _MS_TO_TORCH_SUFFIX.get(last)
    return f"{head}.{mapped}" if mapped and head else name


def _is_batchnorm_key(name, keys):
    head = name.rpartition(".")[0]
    return f"{head}.running_mean" in keys


def from_torch_state_dict(state_dict):
    """OrderedDict of MindSpore-named Parameters from a torch state_dict (BatchNorm weight/bias/
    running_mean/running_var become gamma/beta/moving_mean/moving_variance; num_batches_tracked
    is dropped)."""
    keys = set(state_dict)
    back = {v: k for k, v in _MS_TO_TORCH_SUFFIX.items()}
    out = OrderedDict()
    for name, value in state_dict.items():
        head, _, last = name.rpartition(".")
        if last == "num_batches_tracked":
            continue
        if _is_batchnorm_key(name, keys) and last in back:
            name = f"{head}.{back[last]}"
        out[name] = Parameter(_to_numpy(value, name).copy(), name=name)
    return out


def to_torch_state_dict(parameter_dict):
    """A torch state_dict (OrderedDict name -> torch.Tensor) from MindSpore-named parameters."""
    import torch
    bn_heads = {n.rpartition(".")[0] for n in parameter_dict if n.endswith(".moving_mean")}
    out = OrderedDict()
    for name, value in parameter_dict.items():
        arr = np.asarray(value.data if isinstance(value, Tensor) else value)
        key = to_torch_name(name) if name.rpartition(".")[0] in bn_heads else name
        out[key] = torch.from_numpy(np.array(arr, copy=True))
    return out


def _load_into_torch(module, parameter_dict, strict_load):
    import torch
    converted = to_torch_state_dict(parameter_dict)
    own = module.state_dict()
    not_loaded = [k for k in own if k not in converted and not k.endswith("num_batches_tracked")]
    ckpt_not_loaded = [k for k in converted if k not in own]
    with torch.no_grad():
        for key, value in converted.items():
            if key not in own:
                continue
            if tuple(own[key].shape) != tuple(value.shape):
                raise RuntimeError(f"For 'load_param_into_net', the shape of parameter '{key}' in "
                                   f"the network is {tuple(own[key].shape)}, but "
                                   f"{tuple(value.shape)} in the checkpoint")
            own[key].copy_(value.to(own[key].dtype))
    return not_loaded, ckpt_not_loaded
