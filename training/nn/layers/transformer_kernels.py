"""Multi-head attention's arithmetic, written once for both backends.

The body uses only what numpy-backend Tensors and torch tensors share (`@`, `+`, `/`, `reshape`,
slicing, `sum`) and a few per-backend kernels picked by `Kernels` (linear, concatenation,
permutation, softmax, dropout), so the numpy backend records its gradients through the existing
differentiable Tensor ops and the torch backend through autograd. Masks carry no gradient: they
are worked on as arrays of the backend (numpy arrays or torch tensors) and added as constants.

MindSpore's rules, measured in 2.10: a bool mask's True (and a uint8 mask's non-zero) masks a
position (-inf before the softmax); a float mask is added; a key padding mask is combined with
the attention mask (logical or for two bool masks, else a sum); a bias_kv and a zero-attention
column extend both masks with an unmasked column; q and k are each divided by head_dim ** 0.25."""
import numpy as np

from training.backends.dispatch import is_torch
from training.backends.numpy import functional as F
from training.nn import initializer
from training.ops.array_kernels import concat
from training.tensor import Tensor


class Kernels:
    """The few operations whose spelling differs between the backends."""

    def __init__(self, torch_inputs):
        self.torch = torch_inputs
        if torch_inputs:
            import torch
            from training.backends.torch_cells import param
            self._t, self._param = torch, param

    def weight(self, parameter):
        """A Parameter as the backend computes with it (torch: its bound torch tensor)."""
        if parameter is None or not self.torch:
            return parameter
        return self._param(parameter)

    def linear(self, x, weight, bias):
        if self.torch:
            return self._t.nn.functional.linear(x, weight, bias)
        return F.dense(x, weight, bias)

    def cat(self, parts, axis):
        return self._t.cat(parts, axis) if self.torch else concat(parts, axis)

    def permute(self, x, axes):
        return x.permute(*axes) if self.torch else x.transpose(axes)

    def softmax(self, x):
        return self._t.softmax(x, -1) if self.torch else F.softmax(x, -1)

    def dropout(self, x, p):
        if self.torch:
            return self._t.nn.functional.dropout(x, p, True)
        return F.dropout(x, 1.0 - p, initializer.rng())

    def zeros(self, shape, like):
        if self.torch:
            return self._t.zeros(shape, dtype=like.dtype, device=like.device)
        return Tensor(np.zeros(shape, like.dtype))

    def constant(self, array, like):
        """A mask array (numpy or torch) as an operand of `like`'s backend."""
        if self.torch:
            return self._t.as_tensor(array, dtype=like.dtype, device=like.device)
        return Tensor(np.asarray(array, like.dtype))


def mask_array(mask):
    """A mask's values as an array of its backend (numpy for Tensors)."""
    return mask if is_torch(mask) else np.asarray(mask.asnumpy() if hasattr(mask, "asnumpy")
                                                  else mask)


def mask_kind(mask):
    """'float' for a floating dtype, else the dtype's name ('bool', 'uint8', 'int32', ...)."""
    name = str(mask.dtype).replace("torch.", "")
    return "float" if name.startswith(("float", "bfloat")) else name


def _pad_column(mask):
    """One more (unmasked, zero) key column on the last axis."""
    if is_torch(mask):
        import torch
        return torch.nn.functional.pad(mask, (0, 1))
    return np.pad(mask, [(0, 0)] * (mask.ndim - 1) + [(0, 1)])


def _additive(mask, dtype):
    """A bool mask as 0 / -inf of `dtype`; a float mask as it is."""
    if str(mask.dtype).replace("torch.", "") != "bool":
        return mask
    if is_torch(mask):
        import torch
        zeros = torch.zeros(mask.shape, dtype=getattr(torch, dtype.name), device=mask.device)
        return zeros.masked_fill(mask, float("-inf"))
    return np.where(mask, np.asarray(-np.inf, dtype), np.asarray(0, dtype))


def _as_bool(mask):
    return mask.bool() if is_torch(mask) else mask.astype(bool)


def combined_mask(attn_mask, key_padding_mask, batch, heads, dtype, extra_columns):
    """The additive mask (of numpy `dtype`) of shape (1 or batch, 1 or heads, tgt or 1, src)
    or None, from an attention mask of shape (tgt, src) or (batch * heads, tgt, src) and a key
    padding mask of shape (batch, src), each extended by `extra_columns` unmasked key
    columns."""
    masks = []
    for mask in (attn_mask, key_padding_mask):
        if mask is not None:
            if str(mask.dtype).replace("torch.", "") == "uint8":
                mask = _as_bool(mask)
            for _ in range(extra_columns):
                mask = _pad_column(mask)
        masks.append(mask)
    attn, padding = masks
    if attn is not None:
        attn = attn.reshape((1, 1) + tuple(attn.shape)) if attn.ndim == 2 else \
            attn.reshape((batch, heads) + tuple(attn.shape[1:]))
    if padding is not None:
        padding = padding.reshape((batch, 1, 1, padding.shape[-1]))
        if attn is None:
            attn = padding
        elif str(attn.dtype).replace("torch.", "") == "bool" and \
                str(padding.dtype).replace("torch.", "") == "bool":
            attn = attn | padding
        else:
            attn = _additive(attn, dtype) + _additive(padding, dtype)
    return None if attn is None else _additive(attn, dtype)


def attention(k_, query, key, value, projections, out_proj, bias_kv, add_zero_attn, heads,
              mask, dropout_p):
    """(output (tgt, batch, embed), weights (batch, heads, tgt, src)) for inputs of shape
    (length, batch, features); `projections` ((w_q, b_q), (w_k, b_k), (w_v, b_v)) and
    `out_proj` (weight, bias) in the backend's form; `mask` additive or None; dropout_p > 0
    only in training."""
    tgt, batch, embed = query.shape
    head_dim = embed // heads
    q, k, v = (k_.linear(x, w, b) for x, (w, b) in zip((query, key, value), projections))
    if bias_kv is not None:
        k = k_.cat([k, bias_kv[0].reshape((1, 1, embed)) + k_.zeros((1, batch, embed), k)], 0)
        v = k_.cat([v, bias_kv[1].reshape((1, 1, embed)) + k_.zeros((1, batch, embed), v)], 0)

    def heads_first(x):     # (length, batch, embed) -> (batch, heads, length, head_dim)
        return k_.permute(x.reshape((x.shape[0], batch, heads, head_dim)), (1, 2, 0, 3))
    q, k, v = heads_first(q), heads_first(k), heads_first(v)
    if add_zero_attn:
        k = k_.cat([k, k_.zeros((batch, heads, 1, head_dim), k)], 2)
        v = k_.cat([v, k_.zeros((batch, heads, 1, head_dim), v)], 2)
    # MindSpore divides both q and k by head_dim ** 0.25 (its rounding, kept)
    scale = np.sqrt(np.sqrt(np.asarray(head_dim, np.dtype(str(q.dtype).replace("torch.", "")))))
    scores = (q / float(scale)) @ k_.permute(k / float(scale), (0, 1, 3, 2))
    if mask is not None:
        scores = scores + k_.constant(mask, scores)
    weights = k_.softmax(scores)
    if dropout_p > 0:
        weights = k_.dropout(weights, dropout_p)
    out = k_.permute(weights @ v, (2, 0, 1, 3)).reshape((tgt * batch, embed))
    out = k_.linear(out, *out_proj).reshape((tgt, batch, embed))
    return out, weights
