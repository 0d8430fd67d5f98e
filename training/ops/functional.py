"""`mindspore.ops` functions (`ops.functional`, imported as F in model code), with MindSpore 2.x
signatures. Each works on numpy-backend Tensors (recording gradients) and on torch tensors
(calling torch, so autograd and devices work as usual): the backend is chosen by the inputs."""
import builtins

import numpy as np

from training.backends.numpy import functional as NF
from training.ops import array_kernels as K
from training.tensor import Tensor, as_array
# element-wise math (add ... less too: MindSpore's type rules), reductions and searches,
# indexing and creation (MindSpore 2.10's names; max, range, ... shadow the builtins here)
from training.ops.elementwise import *  # noqa: F401,F403
from training.ops.elementwise import pow, round  # noqa: F401,A004
from training.ops.reductions import *  # noqa: F401,F403
from training.ops.reductions import all, any, max, min  # noqa: F401,A004
from training.ops.indexing import *  # noqa: F401,F403
from training.ops.indexing import range, slice  # noqa: F401,A004
from training.ops.losses import (binary_cross_entropy,  # noqa: F401  (ops.nll_loss, ...)
                                 binary_cross_entropy_with_logits, cosine_embedding_loss,
                                 cross_entropy, ctc_loss, gaussian_nll_loss, hinge_embedding_loss,
                                 huber_loss, kl_div, l1_loss, margin_ranking_loss, mse_loss,
                                 multi_margin_loss, multilabel_margin_loss,
                                 multilabel_soft_margin_loss, nll_loss, smooth_l1_loss,
                                 soft_margin_loss, triplet_margin_loss)
from training.ops.activations import *  # noqa: F401,F403  (ops.elu, ops.silu, ...: its __all__)
from training.ops.activations import check_log_softmax_axis as _check_log_softmax_axis  # noqa: E402
from training.ops.clip_unfold import clip_by_norm, unfold  # noqa: F401,E402


_torch_of = K.torch_of


def _as_torch(torch, value, *like):
    """`value` (a torch tensor, a numpy-backend Tensor, an array or a number) as a torch tensor
    on the device of the first torch tensor among `like`."""
    if _torch_of(value):
        return value
    device = next((v.device for v in like if _torch_of(v)), None)
    return torch.as_tensor(as_array(value), device=device)


def _np_dtype(dtype):
    if type(dtype).__module__ == "torch":  # DType() of a torch tensor, on the torch backend
        import torch
        return torch.empty(0, dtype=dtype).numpy().dtype
    return None if dtype is None else np.dtype(dtype)


def _torch_dtype(torch, dtype):
    return K.torch_dtype(torch, _np_dtype(dtype))


def _axes(axis):
    """MindSpore's () (every axis) as None; lists as tuples."""
    if axis is None or axis == ():
        return None
    return tuple(axis) if isinstance(axis, (list, tuple)) else axis


# --- shapes and types -------------------------------------------------------------------------
def cast(input, dtype):  # noqa: A002  (MindSpore's argument name)
    torch = _torch_of(input)
    if torch:
        return input.to(_torch_dtype(torch, dtype))
    return K.cast(K.as_tensor(input), _np_dtype(dtype))


def shape(input_x):
    return tuple(input_x.shape)


def reshape(input, shape):  # noqa: A002
    shape = tuple(shape)
    if _torch_of(input):
        return input.reshape(shape)
    return K.as_tensor(input).reshape(shape)


def transpose(input, input_perm):  # noqa: A002
    if _torch_of(input):
        return input.permute(*input_perm)
    return K.as_tensor(input).transpose(tuple(input_perm))


def expand_dims(input_x, axis):
    if _torch_of(input_x):
        return input_x.unsqueeze(axis)
    x = K.as_tensor(input_x)
    return x.reshape(np.expand_dims(np.empty(x.shape, np.bool_), axis).shape)


unsqueeze = expand_dims


def squeeze(input, axis=None):  # noqa: A002
    axis = _axes(axis)
    if _torch_of(input):
        return input.squeeze() if axis is None else input.squeeze(axis)
    x = K.as_tensor(input)
    return x.reshape(np.squeeze(np.empty(x.shape, np.bool_), axis).shape)


def flatten(input, start_dim=1, end_dim=-1):  # noqa: A002
    if _torch_of(input):
        return input.flatten(start_dim, end_dim)
    x = K.as_tensor(input)
    end = end_dim % x.ndim
    return x.reshape(x.shape[:start_dim] + (-1,) + x.shape[end + 1:])


def tile(input, dims):  # noqa: A002
    torch = _torch_of(input)
    if torch:
        return torch.tile(input, tuple(dims))
    return K.tile(K.as_tensor(input), dims)


def concat(tensors, axis=0):
    torch = _torch_of(tensors)
    if torch:
        return torch.cat(list(tensors), dim=axis)
    return K.concat(tensors, axis)


cat = concat


def stack(tensors, axis=0):
    torch = _torch_of(tensors)
    if torch:
        return torch.stack(list(tensors), dim=axis)
    return K.stack(tensors, axis)


def split(tensor, split_size_or_sections, axis=0):
    """Parts of `split_size_or_sections` rows each (the last may be shorter), or of the listed
    sizes."""
    if _torch_of(tensor):
        return tuple(tensor.split(split_size_or_sections, dim=axis))
    x = K.as_tensor(tensor)
    if isinstance(split_size_or_sections, int):
        size = x.shape[axis]
        chunk = split_size_or_sections
        split_size_or_sections = [chunk] * (size // chunk) + ([size % chunk] if size % chunk else [])
    return K.split(x, list(split_size_or_sections), axis)


def gather(input_params, input_indices, axis, batch_dims=0):
    if batch_dims:
        raise ValueError("For 'gather', only batch_dims=0 is provided")
    torch = _torch_of(input_params, input_indices)
    if torch:
        index = _as_torch(torch, input_indices, input_params).long()
        flat = torch.index_select(input_params, axis, index.reshape(-1))
        dim = axis % input_params.ndim
        return flat.reshape(input_params.shape[:dim] + index.shape + input_params.shape[dim + 1:])
    return K.gather(K.as_tensor(input_params), input_indices, axis)


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    torch = _torch_of(indices)
    if torch:
        hot = torch.nn.functional.one_hot(indices.long(), depth).movedim(-1, axis)
        on, off = _as_torch(torch, on_value, indices), _as_torch(torch, off_value, indices)
        return torch.where(hot.bool(), on, off)
    return K.one_hot(indices, depth, on_value, off_value, axis)


# --- creation ---------------------------------------------------------------------------------
def zeros(size, dtype=None):
    return Tensor(np.zeros(tuple(np.atleast_1d(size)) if not isinstance(size, int) else size,
                           _np_dtype(dtype) or np.float32))


def ones(shape, dtype=None):
    return Tensor(np.ones(tuple(np.atleast_1d(shape)) if not isinstance(shape, int) else shape,
                          _np_dtype(dtype) or np.float32))


def zeros_like(input, *, dtype=None):  # noqa: A002
    torch = _torch_of(input)
    if torch:
        return torch.zeros_like(input, dtype=None if dtype is None else _torch_dtype(torch, dtype))
    return Tensor(np.zeros_like(as_array(input), dtype=_np_dtype(dtype)))


def ones_like(input, *, dtype=None):  # noqa: A002
    torch = _torch_of(input)
    if torch:
        return torch.ones_like(input, dtype=None if dtype is None else _torch_dtype(torch, dtype))
    return Tensor(np.ones_like(as_array(input), dtype=_np_dtype(dtype)))


# --- math -------------------------------------------------------------------------------------
def matmul(input, other):  # noqa: A002
    if _torch_of(input, other):
        return input @ other
    from training.backends.numpy.functional import refuse_mixed_float16
    refuse_mixed_float16(K.as_tensor(input), K.as_tensor(other), "MatMulExt")
    return K.as_tensor(input) @ K.as_tensor(other)


def sum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A001,A002
    dim = _axes(dim)
    if _torch_of(input):
        every = tuple(builtins.range(input.dim()))  # sum() alone would drop keepdim
        out = input.sum(dim=every if dim is None else dim, keepdim=keepdim)
        return out if dtype is None else cast(out, dtype)
    out = K.as_tensor(input).sum(axis=dim, keepdims=keepdim)
    return out if dtype is None else cast(out, dtype)


def mean(x, axis=None, keep_dims=False):
    axis = _axes(axis)
    if _torch_of(x):
        every = tuple(builtins.range(x.dim()))  # mean() alone would drop keep_dims
        return x.mean(dim=every if axis is None else axis, keepdim=keep_dims)
    return K.as_tensor(x).mean(axis=axis, keep_dims=keep_dims)


def _extreme(input, axis, keepdims, which):  # noqa: A002
    """Max or min ('max' / 'min') over `axis` (every axis for None or ())."""
    axis = _axes(axis)
    if _torch_of(input):
        every = tuple(builtins.range(input.ndim))
        return getattr(input, "a" + which)(dim=every if axis is None else axis, keepdim=keepdims)
    return getattr(K.as_tensor(input), which)(axis=axis, keepdims=keepdims)


def amax(input, axis=None, keepdims=False):  # noqa: A002
    return _extreme(input, axis, keepdims, "max")


def amin(input, axis=None, keepdims=False):  # noqa: A002
    return _extreme(input, axis, keepdims, "min")


def assign(variable, value):
    """Write `value` into the Parameter `variable` in place; returns it."""
    if _torch_of(variable):
        with __import__("torch").no_grad():
            variable.copy_(value)
        return variable
    return variable.set_data(as_array(value))


def argmax(input, dim=None, keepdim=False):  # noqa: A002
    if _torch_of(input):
        return input.argmax() if dim is None else input.argmax(dim=dim, keepdim=keepdim)
    data = as_array(input)
    out = data.argmax() if dim is None else data.argmax(axis=dim)
    if keepdim and dim is not None:
        out = np.expand_dims(out, dim)
    return Tensor(np.asarray(out, np.int64))


def softmax(input, axis=-1):  # noqa: A002
    if _torch_of(input):
        return input.softmax(dim=axis)
    return NF.softmax(K.as_tensor(input), axis)


def log_softmax(logits, axis=-1):
    if _torch_of(logits):
        _check_log_softmax_axis(axis, logits.dim())
        return logits.log_softmax(dim=axis)
    logits = K.as_tensor(logits)
    _check_log_softmax_axis(axis, len(logits.shape))
    return NF.log_softmax(logits, axis)


def sigmoid(input):  # noqa: A002
    if _torch_of(input):
        return input.sigmoid()
    return NF.sigmoid(K.as_tensor(input))


def relu(input):  # noqa: A002
    if _torch_of(input):
        return input.relu()
    return NF.relu(K.as_tensor(input))


def tanh(input):  # noqa: A002
    if _torch_of(input):
        return input.tanh()
    return NF.tanh(K.as_tensor(input))


def stop_gradient(value):
    if _torch_of(value):
        return value.detach()
    return value.detach() if isinstance(value, Tensor) else value


def depend(value, expr):
    """MindSpore orders graph nodes with depend; eager execution already runs in order."""
    return value


# MindSpore 1.x functional names still common in model code.
tensor_add = add
tensor_sub = sub
tensor_mul = mul
tensor_div = div
reduce_sum = sum
reduce_mean = mean
reduce_max = amax
reduce_min = amin


def fill(type, shape, value):  # noqa: A002  (MindSpore's argument name)
    return Tensor(np.full(tuple(shape), value, dtype=_np_dtype(type)))


def dtype(input):  # noqa: A002
    return input.dtype


def select(cond, x, y):
    """x where cond, else y (gradients flow to the chosen input)."""
    torch = _torch_of(cond, x, y)
    if torch:
        return torch.where(_as_torch(torch, cond, x, y).bool(), _as_torch(torch, x, y),
                           _as_torch(torch, y, x))
    mask = np.asarray(as_array(cond)).astype(bool)
    return K.maximum(x, y, lambda a, b: np.broadcast_to(mask, np.broadcast(a, b).shape))


def __getattr__(name):
    from training.compat.names import missing_attribute
    raise missing_attribute("mindspore.ops.functional", name)
