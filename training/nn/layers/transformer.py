"""Attention layers as MindSpore 2.10's: MultiheadAttention, TransformerEncoderLayer,
TransformerEncoder, TransformerDecoderLayer, TransformerDecoder and Transformer.

Parameters carry MindSpore's names, shapes, order and initial distributions so checkpoints
interchange: `in_proj_weight` (3 * embed_dim, embed_dim) XavierUniform, or, where kdim or vdim
differ from embed_dim, `q_proj_weight`, `k_proj_weight`, `v_proj_weight` (embed_dim, its dim);
`in_proj_bias` (3 * embed_dim,) zeros; `bias_k`, `bias_v` (1, 1, embed_dim) XavierNormal; then
`out_proj.weight` / `out_proj.bias` (a Dense's defaults). The layers hold `self_attn` (and, in
a decoder layer, `multihead_attn`), `dense1`, `dense2`, `norm1`, `norm2` (`norm3`) with gamma /
beta. As in MindSpore, TransformerEncoder / TransformerDecoder build their `layers` as copies of
one new layer made with the given layer's arguments (so every layer starts with the same
values), and Transformer redraws every parameter of two or more axes XavierUniform."""
import copy

import numpy as np

from training.backends.dispatch import is_torch
from training.nn.cell import Cell
from training.nn.layers import transformer_kernels as kernels
from training.nn.layers.basic import Dense, Dropout
from training.nn.layers.container import CellList
from training.nn.layers.normalization import LayerNorm
from training.common import initializer as init_lib
from training.tensor import Parameter


def _dtype_of(value):
    return np.dtype(str(value.dtype).replace("torch.", ""))


def _init(init, shape, dtype, name):
    return Parameter(init_lib.initializer(init, shape, dtype).data, name=name)


def _swap01(x):
    return x.transpose(0, 1) if is_torch(x) else x.transpose((1, 0) + tuple(range(2, x.ndim)))


class MultiheadAttention(Cell):
    """Attention of `num_heads` heads over (length, batch, embed_dim) inputs (batch first with
    `batch_first`), or unbatched (length, embed_dim). Returns (output, weights), the weights
    averaged over the heads with `average_attn_weights`, or (output,) without `need_weights`."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, dtype=np.float32):
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self.num_heads, self.dropout, self.batch_first = num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads      # ZeroDivisionError for 0 heads, as MindSpore
        if self.head_dim * num_heads != embed_dim:
            raise ValueError("The init argument 'embed_dim' must be divisible by 'num_heads'.")
        dtype = np.float32 if dtype is None else dtype
        self._packed = self.kdim == embed_dim and self.vdim == embed_dim
        if self._packed:
            self.in_proj_weight = _init("xavier_uniform", (3 * embed_dim, embed_dim), dtype,
                                        "in_proj_weight")
        else:
            self.q_proj_weight = _init("xavier_uniform", (embed_dim, embed_dim), dtype,
                                       "q_proj_weight")
            self.k_proj_weight = _init("xavier_uniform", (embed_dim, self.kdim), dtype,
                                       "k_proj_weight")
            self.v_proj_weight = _init("xavier_uniform", (embed_dim, self.vdim), dtype,
                                       "v_proj_weight")
        self.in_proj_bias = _init("zeros", (3 * embed_dim,), dtype, "in_proj_bias") \
            if has_bias else None
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias, dtype=dtype)
        if add_bias_kv:
            self.bias_k = _init("xavier_normal", (1, 1, embed_dim), dtype, "bias_k")
            self.bias_v = _init("xavier_normal", (1, 1, embed_dim), dtype, "bias_v")
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn, self.dtype = add_zero_attn, dtype

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True,
                  attn_mask=None, average_attn_weights=True):
        if key_padding_mask is not None and \
                kernels.mask_kind(key_padding_mask) not in ("bool", "float"):
            raise ValueError("only bool and floating types of key_padding_mask are supported")
        batched = self._check_ranks(query, key, value, key_padding_mask, attn_mask)
        if self.batch_first and batched:
            query, key, value = _swap01(query), _swap01(key), _swap01(value)
        if not batched:
            query, key, value = (x.reshape((x.shape[0], 1, x.shape[1]))
                                 for x in (query, key, value))
            if key_padding_mask is not None:
                key_padding_mask = key_padding_mask.reshape((1,) + tuple(key_padding_mask.shape))
        tgt, batch, embed = query.shape
        self._check_inputs(query, key, value)
        k_ = kernels.Kernels(is_torch(query))
        mask = self._mask(attn_mask, key_padding_mask, tgt, key.shape[0], batch,
                          _dtype_of(query))
        bias_kv = None if self.bias_k is None else (k_.weight(self.bias_k), k_.weight(self.bias_v))
        dropout_p = self.dropout if self.training else 0.0
        out, weights = kernels.attention(
            k_, query, key, value, self._projections(k_), (k_.weight(self.out_proj.weight),
                                                           k_.weight(self.out_proj.bias)),
            bias_kv, self.add_zero_attn, self.num_heads, mask, dropout_p)
        if self.batch_first and batched:
            out = _swap01(out)
        if average_attn_weights:
            weights = weights.sum(axis=1) / self.num_heads
        if not batched:
            out = out.reshape((out.shape[0], out.shape[2]))
            weights = weights.reshape(tuple(weights.shape[1:]))
        return (out, weights) if need_weights else (out,)

    def _check_ranks(self, query, key, value, key_padding_mask, attn_mask):
        """Whether the inputs are batched; MindSpore's rank checks (ValueError)."""
        if query.ndim not in (2, 3):
            raise ValueError(f"The `query` should be unbatched 2D or batched 3D tensor, but got "
                             f"`query` with {query.ndim}D.")
        batched = query.ndim == 3
        kind = "batched" if batched else "unbatched"
        if key.ndim != query.ndim or value.ndim != query.ndim:
            raise ValueError(f"For {kind} `query`, the `key` and `value` must be {query.ndim}D "
                             f"tensor, but got `key` with {key.ndim}D and `value` with "
                             f"{value.ndim}D.")
        if key_padding_mask is not None and key_padding_mask.ndim != query.ndim - 1:
            raise ValueError(f"For {kind} `query`, the `key_padding_mask` must be `None` or "
                             f"{query.ndim - 1}D, but got `key_padding_mask` with "
                             f"{key_padding_mask.ndim}D.")
        if attn_mask is not None:
            if attn_mask.ndim not in (2, 3):
                raise ValueError(f"For {kind} `query`, the `attn_mask` must be `None`, 2-D or "
                                 f"3-D, but got `attn_mask` with {attn_mask.ndim}D.")
            expected = (self.num_heads, query.shape[0], key.shape[0])
            if not batched and attn_mask.ndim == 3 and tuple(attn_mask.shape) != expected:
                raise ValueError(f"The shape of `attn_mask` must to be {expected}, but got "
                                 f"{tuple(attn_mask.shape)}.")
        return batched

    def _check_inputs(self, query, key, value):
        if query.shape[2] != self.embed_dim:
            raise ValueError(f"The `embed_dim` should be {self.embed_dim}, but got "
                             f"{query.shape[2]}.")
        if self._packed and tuple(key.shape) != tuple(value.shape):
            raise ValueError(f"The shape of `key` {tuple(key.shape)} does not match `value` "
                             f"{tuple(value.shape)}.")
        if not self._packed and tuple(key.shape[:2]) != tuple(value.shape[:2]):
            raise ValueError(f"The sequence length and batch dims of `key`: "
                             f"{tuple(key.shape[:2])} do not match `value`: "
                             f"{tuple(value.shape[:2])}.")
        for name, x, dim in (("query", query, self.embed_dim), ("key", key, self.kdim),
                             ("value", value, self.vdim)):
            if x.shape[2] != dim:
                # MindSpore: its MatMul's RuntimeError with the packed weight, else a ValueError
                error = RuntimeError if self._packed else ValueError
                raise error(f"For 'MultiheadAttention', the last dimension of '{name}' must be "
                            f"{dim}, but got {x.shape[2]}.")
            if _dtype_of(x) != np.dtype(self.dtype):    # MindSpore's MatMul refuses a mix
                raise TypeError(f"For 'MatMulExt', the type of 'x2' should be same as 'x1', "
                                f"but got 'x1' with type {_dtype_of(x)} and 'x2' with type "
                                f"{np.dtype(self.dtype)}.")

    def _mask(self, attn_mask, key_padding_mask, tgt, src, batch, dtype):
        """The additive mask (or None) after MindSpore's dtype and shape checks."""
        if attn_mask is not None:
            if kernels.mask_kind(attn_mask) not in ("bool", "uint8", "float"):
                raise ValueError(f"`attn_mask` only support float, byte, and bool types, but got "
                                 f"not {attn_mask.dtype}.")
            expected = (tgt, src) if attn_mask.ndim == 2 else \
                (batch * self.num_heads, tgt, src)
            if tuple(attn_mask.shape) != expected:
                raise ValueError(f"The shape of the `attn_mask` should be {expected}, but got "
                                 f"{tuple(attn_mask.shape)}.")
        if key_padding_mask is not None and tuple(key_padding_mask.shape) != (batch, src):
            raise ValueError(f"The shape of `key_padding_mask` should be {(batch, src)}, but "
                             f"got {tuple(key_padding_mask.shape)}.")
        return kernels.combined_mask(
            None if attn_mask is None else kernels.mask_array(attn_mask),
            None if key_padding_mask is None else kernels.mask_array(key_padding_mask),
            batch, self.num_heads, dtype,
            (self.bias_k is not None) + bool(self.add_zero_attn))

    def _projections(self, k_):
        e = self.embed_dim
        bias = k_.weight(self.in_proj_bias)
        biases = (None,) * 3 if bias is None else (bias[:e], bias[e:2 * e], bias[2 * e:])
        if self._packed:
            w = k_.weight(self.in_proj_weight)
            weights = (w[:e], w[e:2 * e], w[2 * e:])
        else:
            weights = tuple(k_.weight(p) for p in (self.q_proj_weight, self.k_proj_weight,
                                                   self.v_proj_weight))
        return tuple(zip(weights, biases))


def _activation(activation):
    """MindSpore's rule: 'relu' / 'gelu' or ops.relu / ops.gelu themselves (Cells refused)."""
    from training import ops
    if isinstance(activation, str):
        if activation not in ("relu", "gelu"):
            raise ValueError(f"The activation must be relu/gelu, but get {activation}")
        return getattr(ops, activation)
    if isinstance(activation, Cell):
        from training.nn.layers.activation import GELU, ReLU
        if not isinstance(activation, (ReLU, GELU)):
            raise ValueError(f"The argument 'activation' must be nn.ReLU or nn.GELU instance, "
                             f"but get {activation}.")
    if not callable(activation):
        raise ValueError(f"The argument 'activation' must be str, callable or Cell instance, "
                         f"but get {activation}.")
    if activation is not ops.relu and activation is not ops.gelu:
        raise ValueError(f"The argument 'activation' must be ops.relu or ops.gelu instance, "
                         f"but get {activation}.")
    return activation


def _check_padding_mask(mask):
    if mask is not None and kernels.mask_kind(mask) not in ("bool", "float"):
        raise AssertionError("only bool and floating types of key_padding_mask are supported")


class _Layer(Cell):
    """What the encoder and decoder layers share: the feed-forward block and the arguments a
    TransformerEncoder / TransformerDecoder builds its copies from."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                 batch_first, norm_first, dtype, attentions, norms):
        super().__init__()
        for name in attentions:
            setattr(self, name, MultiheadAttention(d_model, nhead, dropout=dropout,
                                                   batch_first=batch_first, dtype=dtype))
        self.dense1 = Dense(d_model, dim_feedforward, dtype=dtype)
        self.dropout = Dropout(p=dropout)
        self.dense2 = Dense(dim_feedforward, d_model, dtype=dtype)
        for index in range(1, norms + 1):
            setattr(self, f"norm{index}", LayerNorm((d_model,), epsilon=layer_norm_eps,
                                                    dtype=dtype))
        for index in range(1, norms + 1):
            setattr(self, f"dropout{index}", Dropout(p=dropout))
        self.activation1 = activation
        self.activation = _activation(activation)
        self.d_model, self.nhead, self.dim_feedforward = d_model, nhead, dim_feedforward
        self.dropout_num, self.layernorm_eps = dropout, layer_norm_eps
        self.batch_first, self.norm_first, self.dtype = batch_first, norm_first, dtype

    def _arguments(self):
        return (self.d_model, self.nhead, self.dim_feedforward, self.dropout_num,
                self.activation1, self.layernorm_eps, self.batch_first, self.norm_first)

    def _attend(self, attention, dropout, x, memory, attn_mask, key_padding_mask):
        out = attention(x, memory, memory, attn_mask=attn_mask,
                        key_padding_mask=key_padding_mask, need_weights=False)[0]
        return dropout(out)

    def _residual(self, x, block, norm):
        """x + block(norm(x)) (norm_first) or norm(x + block(x))."""
        return x + block(norm(x)) if self.norm_first else norm(x + block(x))

    def _feed_forward(self, x, dropout):
        return dropout(self.dense2(self.dropout(self.activation(self.dense1(x)))))


class TransformerEncoderLayer(_Layer):
    """Self-attention then a feed-forward block, each with a residual and a LayerNorm."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, dtype=np.float32):
        super().__init__(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                         batch_first, norm_first, dtype, ("self_attn",), 2)

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        _check_padding_mask(src_key_padding_mask)
        x = self._residual(src, lambda y: self._attend(
            self.self_attn, self.dropout1, y, y, src_mask, src_key_padding_mask), self.norm1)
        return self._residual(x, lambda y: self._feed_forward(y, self.dropout2), self.norm2)


class TransformerDecoderLayer(_Layer):
    """Self-attention, attention over the encoder's memory, then a feed-forward block."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, dtype=np.float32):
        super().__init__(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                         batch_first, norm_first, dtype, ("self_attn", "multihead_attn"), 3)

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        x = self._residual(tgt, lambda y: self._attend(
            self.self_attn, self.dropout1, y, y, tgt_mask, tgt_key_padding_mask), self.norm1)
        x = self._residual(x, lambda y: self._attend(
            self.multihead_attn, self.dropout2, y, memory, memory_mask,
            memory_key_padding_mask), self.norm2)
        return self._residual(x, lambda y: self._feed_forward(y, self.dropout3), self.norm3)


def _copies(layer_class, layer, num_layers):
    """`num_layers` copies of one new layer made with `layer`'s arguments (MindSpore's rule)."""
    made = layer_class(*layer._arguments(), dtype=layer.dtype)
    return CellList([copy.deepcopy(made) for _ in range(num_layers)])


class TransformerEncoder(Cell):
    """`num_layers` encoder layers, then `norm` (if given)."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _copies(TransformerEncoderLayer, encoder_layer, num_layers)
        self.num_layers, self.norm = num_layers, norm

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        _check_padding_mask(src_key_padding_mask)
        for layer in self.layers:
            src = layer(src, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return src if self.norm is None else self.norm(src)


class TransformerDecoder(Cell):
    """`num_layers` decoder layers, then `norm` (if given)."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _copies(TransformerDecoderLayer, decoder_layer, num_layers)
        self.num_layers, self.norm = num_layers, norm

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        for layer in self.layers:
            tgt = layer(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                        tgt_key_padding_mask=tgt_key_padding_mask,
                        memory_key_padding_mask=memory_key_padding_mask)
        return tgt if self.norm is None else self.norm(tgt)


class Transformer(Cell):
    """An encoder (over `src`) and a decoder (over `tgt` and the encoder's memory), each ending
    in a LayerNorm; `custom_encoder` / `custom_decoder` replace them."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation="relu", custom_encoder=None,
                 custom_decoder=None, layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 dtype=np.float32):
        super().__init__()
        arguments = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                     batch_first, norm_first)
        self.encoder = custom_encoder if custom_encoder is not None else TransformerEncoder(
            TransformerEncoderLayer(*arguments, dtype=dtype), num_encoder_layers,
            LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        self.decoder = custom_decoder if custom_decoder is not None else TransformerDecoder(
            TransformerDecoderLayer(*arguments, dtype=dtype), num_decoder_layers,
            LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        for _, param in self.parameters_and_names():
            if len(param.shape) > 1:
                param.set_data(init_lib.initializer("xavier_uniform", param.shape, param.dtype))
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def construct(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                  src_key_padding_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        batch_axis = 0 if self.batch_first else 1
        if src.ndim == 3 and tgt.ndim == 3 and src.shape[batch_axis] != tgt.shape[batch_axis]:
            raise ValueError("The number of batch size for 'src' and 'tgt' must be equal.")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise ValueError("The number of features for 'src' and 'tgt' must be equal to "
                             "`d_model`.")
        memory = self.encoder(src, src_mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)
