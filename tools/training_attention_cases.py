"""tools/training_vs_mindspore.py's attention cases: how they are drawn and run.

A case builds one of ``nn.MultiheadAttention`` (random heads and head sizes, bias or not,
add_bias_kv, add_zero_attn, kdim / vdim, batch_first, unbatched inputs),
``nn.TransformerEncoderLayer``, ``nn.TransformerDecoderLayer`` (relu / gelu, norm_first,
batch_first), ``nn.TransformerEncoder``, ``nn.TransformerDecoder`` (1-3 layers, a final
LayerNorm or none) or ``nn.Transformer``, sets every parameter by name to fixed values, and calls
it on random inputs with, now and then, an attention mask (2-D or 3-D; bool, uint8 or float) and
a key padding mask (bool or float), need_weights and average_attn_weights drawn. A bool mask
never masks the first key, so no row is masked whole (MindSpore's weights for such a row are
garbage, its output NaN). Dropout is 0, or 0.1 in eval mode. Now and then one argument or input
is wrong (heads that do not divide embed_dim, an activation MindSpore refuses, an int mask, a
mask or input of the wrong shape, float64 inputs). The steps: the outputs, the gradients of
sum(output * weights) with respect to each input and every parameter by name, then each
parameter's place and shape by name. Run in MindSpore's interpreter this module imports numpy
only."""
import numpy as np

from training_nn_cases import fixed_values, now_and_then, output_weights, tensor

ATTENTION = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder",
             "TransformerDecoderLayer", "TransformerDecoder", "Transformer"]
# each name's inputs, in call order
INPUTS = {"MultiheadAttention": ("query", "key", "value"),
          "TransformerEncoderLayer": ("src",), "TransformerEncoder": ("src",),
          "TransformerDecoderLayer": ("tgt", "memory"), "TransformerDecoder": ("tgt", "memory"),
          "Transformer": ("src", "tgt")}


def normal(d, shape):
    return (d.rng.standard_normal(shape) * d.r.choice([0.5, 1.0, 2.0])).astype(np.float32)


def mask(d, shape, kinds=("bool", "float")):
    """A mask of `shape` whose bool kind never masks the first key (the last axis)."""
    kind = d.r.choice(kinds)
    if kind == "float":
        return tensor(normal(d, shape))
    masked = d.rng.random(shape) < 0.4
    masked[..., 0] = False
    return tensor(masked.astype(np.uint8) if kind == "uint8" else masked)


def attention_case(d):
    """("attention", name, args, kwargs, (train, inputs, call_kwargs, layers, salt)): inputs a
    dict of input arrays by name, layers (num_layers, norm) for the stacks."""
    c = d.r.choice
    name = c(ATTENTION * 2 + ["MultiheadAttention"] * 2)
    heads, head_dim = c([1, 2, 3]), c([1, 2, 3])
    embed, batch, tgt, src = heads * head_dim, c([1, 2, 3]), c([1, 2, 3, 4]), c([1, 2, 3, 4])
    kwargs, call, layers = {}, {}, None
    batch_first = d.r.random() < 0.4
    kwargs["batch_first"] = batch_first
    if name == "MultiheadAttention":
        args = (embed, heads)
        now_and_then(d, kwargs, {"has_bias": [False], "add_bias_kv": [True],
                                 "add_zero_attn": [True], "kdim": [1, 2, 4],
                                 "vdim": [1, 3, 4]}, 0.3)
        batched = d.r.random() < 0.8
        dims = {"query": embed, "key": kwargs.get("kdim", embed),
                "value": kwargs.get("vdim", embed)}
        lengths = {"query": tgt, "key": src, "value": src}
        now_and_then(d, call, {"need_weights": [False, True],
                               "average_attn_weights": [False, True]}, 0.4)
        masks = {"attn_mask": (tgt, src) if not batched or d.r.random() < 0.6 else
                 (batch * heads, tgt, src), "key_padding_mask": (batch, src)}
        if not batched:
            masks["key_padding_mask"] = (src,)
            if d.r.random() < 0.3:
                masks["attn_mask"] = (heads, tgt, src)
    else:
        args = (embed, heads, c([1, 3, 4]))
        kwargs["dropout"] = c([0.0, 0.1])
        now_and_then(d, kwargs, {"activation": ["relu", "gelu"], "norm_first": [True],
                                 "layer_norm_eps": [1e-3]}, 0.4)
        batched = True
        dims = {role: embed for role in INPUTS[name]}
        lengths = {"src": src, "tgt": tgt, "memory": src}
        masks = {}
        if "src" in dims:
            masks.update(src_mask=(src, src), src_key_padding_mask=(batch, src))
        if "tgt" in dims:
            masks.update(tgt_mask=(tgt, tgt), tgt_key_padding_mask=(batch, tgt),
                         memory_mask=(tgt, src), memory_key_padding_mask=(batch, src))
        if name == "Transformer":
            kwargs.update(num_encoder_layers=c([1, 2]), num_decoder_layers=c([1, 2]))
        if name in ("TransformerEncoder", "TransformerDecoder"):
            layers = (c([1, 2, 3]), d.r.random() < 0.5)
    for key, shape in masks.items():
        if d.r.random() < 0.3:
            call[key] = mask(d, shape, ("bool", "float", "uint8") if "padding" not in key
                             else ("bool", "float"))
    shapes = {}
    for role, dim in dims.items():
        length = lengths[role]
        shapes[role] = (((batch, length) if batch_first else (length, batch)) if batched
                        else (length,)) + (dim,)
    dtype = np.float32
    if d.r.random() < 0.15:
        args, kwargs, shapes, call, dtype = wrong_argument(d, name, args, kwargs, shapes, call)
    train = d.r.random() < 0.3 and not kwargs.get("dropout")
    inputs = {role: tensor(normal(d, shape).astype(dtype)) for role, shape in shapes.items()}
    return ("attention", name, args, kwargs, (train, inputs, call, layers, d.r.randrange(100)))


def wrong_argument(d, name, args, kwargs, shapes, call):
    """One argument or input MindSpore refuses."""
    kind = d.r.choice(["heads", "activation", "int mask", "mask shape", "input shape",
                       "float64"])
    dtype = np.float32
    if kind == "heads":
        args = (args[0], args[0] + 1) + args[2:]
    elif kind == "activation" and name != "MultiheadAttention":
        kwargs["activation"] = d.r.choice(["tanh", "RELU", 3])
    elif kind == "int mask" and call:
        key = d.r.choice(sorted(call))
        if key not in ("need_weights", "average_attn_weights"):
            call[key] = tensor(np.zeros(call[key][1].shape, np.int32))
    elif kind == "mask shape" and call:
        key = d.r.choice(sorted(call))
        if key not in ("need_weights", "average_attn_weights"):
            call[key] = tensor(call[key][1][..., :-1] if call[key][1].shape[-1] > 1 else
                               np.concatenate([call[key][1]] * 2, axis=-1))
    elif kind == "input shape":
        role = d.r.choice(sorted(shapes))
        shapes[role] = shapes[role][:-1] + (shapes[role][-1] + 1,)
    else:
        dtype = np.float64
    return args, kwargs, shapes, call, dtype


def build(lib, name, args, kwargs, layers):
    if name in ("TransformerEncoder", "TransformerDecoder"):
        layer = getattr(lib.nn, name + "Layer")(*args, **kwargs)
        norm = lib.nn.LayerNorm((args[0],)) if layers[1] else None
        return getattr(lib.nn, name)(layer, layers[0], norm)
    if name == "Transformer":
        return lib.nn.Transformer(args[0], args[1], dim_feedforward=args[2], **kwargs)
    return getattr(lib.nn, name)(*args, **kwargs)


def fresh_graphs(lib):
    """MindSpore's PyNative autodiff reuses what it recorded for an earlier case's attention
    cell (measured: a MultiheadAttention's in_proj_weight gradient after a TransformerDecoder
    case was 1.5 times off, right when run alone): cleared before each case."""
    if lib.nn.__name__.startswith("mindspore"):
        from mindspore.common.api import _pynative_executor
        _pynative_executor.clear_res()


def gradients_and_places(lib, cell, weighted_sum, values, input_names, plain):
    """Two steps: the gradients of `weighted_sum` at `values` by name (`input_names`, then the
    trainable parameters'), then each parameter's place and shape by name."""
    trainable = cell.trainable_params()
    # (MindSpore gives a one-position tuple's gradient bare)
    positions = tuple(range(len(values))) if len(values) > 1 else 0
    _, (input_grads, param_grads) = lib.value_and_grad(
        weighted_sum, positions, trainable)(*values)
    input_grads = input_grads if positions else (input_grads,)
    path = {id(p): key for key, p in cell.parameters_and_names()}
    names = list(input_names) + [path[id(p)] for p in trainable]
    grads = tuple(input_grads) + tuple(param_grads)
    return [("ok", ("dict", {key: plain(g) for key, g in zip(names, grads)})),
            ("ok", ("dict", {key: ("array", np.asarray((order,) + p.shape, np.int64))
                             for order, (key, p) in enumerate(cell.parameters_and_names())}))]


def run_attention(lib, case, plain, error):
    """The outputs, the gradients by name (the inputs' and the parameters'), then each
    parameter's place and shape by name (MindSpore's names and order)."""
    _, name, args, kwargs, (train, inputs, call_kwargs, layers, salt) = case
    made = []
    fresh_graphs(lib)
    try:
        cell = build(lib, name, args, kwargs, layers)
        for param_name, param in cell.parameters_and_names():
            scale = np.sqrt(param.shape[-1]) if len(param.shape) > 1 else 2.0
            param.set_data(lib.Tensor(fixed_values(param_name, param.shape, salt) / scale))
        cell.set_train(train)
        roles = [role for role in INPUTS[name] if role in inputs]
        values = [lib.input(inputs[role][1]) for role in roles]
        options = {key: lib.input(value[1]) if isinstance(value, tuple) else value
                   for key, value in call_kwargs.items()}

        def call(*given):
            result = cell(*given, **options)
            return tuple(result) if isinstance(result, tuple) else (result,)

        results = call(*values)
        made.append(("ok", ("list", [plain(r) for r in results])))
        weights = [lib.input(output_weights(tuple(r.shape))) for r in results]

        def weighted_sum(*given):
            return sum((r * w).sum() for r, w in zip(call(*given), weights))
        made += gradients_and_places(lib, cell, weighted_sum, values, roles, plain)
    except Exception as exc:         # an outcome to compare, like a value
        made.append(error(exc))
    return made


def described_attention(case):
    _, name, args, kwargs, (train, inputs, call, layers, _) = case
    parts = [f"{role} {value[1].dtype}{value[1].shape}" for role, value in inputs.items()]
    parts += [f"{key} {value[1].dtype}{value[1].shape}" if isinstance(value, tuple) else
              f"{key}={value}" for key, value in call.items()]
    stack = f" x{layers[0]}{' + norm' if layers[1] else ''}" if layers else ""
    return f"{name}{args}{stack} {kwargs}{' in training mode' if train else ''} on " \
           f"{', '.join(parts)}"


# A LayerNorm over a few features amplifies float32 rounding in its gradients (measured: this
# package's two backends differ by 1.2e-4 of the largest gradient for d_model 3)
ATTENTION_RTOL = 1e-3
MASK_PAIRS = [("attn_mask", "key_padding_mask"), ("src_mask", "src_key_padding_mask"),
              ("tgt_mask", "tgt_key_padding_mask"), ("memory_mask", "memory_key_padding_mask")]


def mixed_masks(call):
    """Whether an attention mask and its key padding mask are one bool, one float."""
    kinds = {key: value[1].dtype.kind for key, value in call.items() if isinstance(value, tuple)}
    return any({kinds.get(a), kinds.get(b)} in ({"b", "f"}, {"u", "f"}) for a, b in MASK_PAIRS)


def single_position(inputs):
    """Whether a batch or a sequence has one element (an input unbatched or with an axis of
    size 1 before its features)."""
    return any(value[1].ndim < 3 or 1 in value[1].shape[:2] for value in inputs.values())


def documented_attention(case, why):
    """The README's word for an attention case's documented difference, or None."""
    _, _, _, _, (_, inputs, call, _, _) = case
    if mixed_masks(call) and why.startswith("step 0:"):
        return "a bool mask with a float key padding mask (or the other way round) masks as " \
               "each mask's kind says (MindSpore ors a float padding mask into a bool one, " \
               "every non-zero masking, and adds a bool padding mask to a float one as 1.0)"
    # (a gradient step that raises leaves MindSpore one outcome short: no step number)
    gradients = why.startswith("step 1:") or "in MindSpore only" in why and \
        ("'MatMulExt'" in why or "'Transpose'" in why)
    if gradients and single_position(inputs):
        return "attention gradients where a batch or a sequence has one element (MindSpore's " \
               "PyNative gradients raise or disagree with its own finite differences; " \
               "its forward is right)"
    return None
