"""tools/training_nn_cases.py's wider layers (activations, pooling, padding, dropout, shuffles,
normalizations, 3-D and transposed convolutions): how each one's arguments and input are drawn
(some arguments wrong). training_nn_cases.layer_case asks ``more_layer_case`` for the layers of
MORE_LAYERS and runs them as it runs its own. Run in MindSpore's interpreter this module
imports numpy only."""
import numpy as np

ACTIVATIONS = ["ELU", "SiLU", "Mish", "SeLU", "CELU", "Softsign", "LogSigmoid", "Hardtanh",
               "HShrink", "SoftShrink", "Threshold", "Tanhshrink", "Softmin", "GLU", "RReLU",
               "FastGelu", "Identity", "Softmax2d"]
POOLS = ["MaxPool1d", "AvgPool1d", "MaxPool3d", "AvgPool3d", "LPPool1d", "LPPool2d"]
ADAPTIVE_POOLS = ["AdaptiveAvgPool1d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
                  "AdaptiveAvgPool3d", "AdaptiveMaxPool3d"]
PADS = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad2d", "ReflectionPad1d",
        "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
        "ReplicationPad3d"]
DROPOUTS = ["Dropout1d", "Dropout2d", "Dropout3d"]
REARRANGING = ["PixelShuffle", "PixelUnshuffle", "ChannelShuffle", "Unflatten", "Tril", "Triu",
               "Roll"]
NORMALIZATIONS = ["BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]
MORE_LAYERS = ACTIVATIONS + POOLS + ADAPTIVE_POOLS + PADS + DROPOUTS + REARRANGING + \
    NORMALIZATIONS + ["Conv1dTranspose", "Conv3d", "Upsample", "Norm", "OneHot"] + \
    ["Conv2dBnAct", "DenseBnAct"] + ["Conv3dTranspose", "EmbeddingLookup", "Unfold"]
# the layers whose case runs in training mode now and then
TRAINED = tuple(DROPOUTS + NORMALIZATIONS) + ("Conv2dBnAct", "DenseBnAct")


def drawn_input(d, shape):
    """Mostly float32, now and then float64, or int32 (that float-only layers refuse)."""
    kind = d.r.random()
    values = d.rng.standard_normal(shape) * d.r.choice([1.0, 3.0])
    if kind < 0.05:
        return np.round(values).astype(np.int32)
    return values.astype(np.float64 if kind < 0.15 else np.float32)


ACTIVATION_ARGUMENTS = {    # name: {argument: values, the last one wrong}
    "ELU": {"alpha": [1.0, 1.0, 0.5, 1]},
    "CELU": {"alpha": [1.0, 2.0, -1.5, 0.0, 1]},
    "HShrink": {"lambd": [0.5, 1.0, 0.0, -1.0, 1, "a"]},
    "SoftShrink": {"lambd": [0.5, 1.0, 0.0, 1, -1.0]},
    "Softmin": {"axis": [-1, 0, 1, (0, 1), 1.0]},
    "GLU": {"axis": [-1, 0, 1, 1.0]},
}


def activation_case(d, name):
    c = d.r.choice
    x = drawn_input(d, c([(2, 4), (2, 3, 4), (1, 2, 2, 3), (4,)]))
    args, kwargs = (), {}
    for argument, values in ACTIVATION_ARGUMENTS.get(name, {}).items():
        if d.r.random() < 0.7:
            kwargs[argument] = c(values)
    if name == "Hardtanh":
        low, high = c([-1.0, -0.5, 0, -2]), c([1.0, 0.5, 2, -1.0])
        args = (low, high) if d.r.random() < 0.5 else ()
    elif name == "Threshold":
        args = (c([0.0, 0.5, -1.0, 1]), c([0.0, 7.0, -2, "a"]))
    elif name == "RReLU":      # random unless lower == upper (MindSpore draws at every call)
        low = c([0.1, 0.25, 0, 1])
        args = c([(low, low), (low, low), (0.5, 0.1), ("a", 1.0)])
    elif name == "Identity":
        args, kwargs = c([(), (3,), ("x", 2)]), c([{}, {"a": 1}])
    elif name == "Softmax2d":
        x = drawn_input(d, c([(2, 3, 2), (1, 3, 2, 2), (2, 3)]))
    return args, kwargs, x


def pooling_case(d, name):
    """MaxPool1d/3d, AvgPool1d/3d (every option now and then, now and then one MindSpore
    refuses: padding past half the kernel, wrong types, MaxPool's options outside 'pad' mode)
    and LPPool1d/2d."""
    c = d.r.choice
    dims = 3 if name.endswith("3d") else 1
    batch = (c([1, 2]), c([1, 2])) if d.r.random() < 0.8 else (c([1, 2]),)
    if name.startswith("LPPool"):
        dims = 1 if name == "LPPool1d" else 2
        kernel = c([2, 3] + [(2, 3)] * (dims == 2))
        batch = (c([1, 2]), c([1, 2])) if dims == 2 or d.r.random() < 0.8 else batch
        x = np.abs(normal_input(d, batch + tuple(c([4, 5, 7]) for _ in range(dims)))) + 0.1
        norm = c([1, 2, 3, 1.5])
        if norm == 2 and d.r.random() < 0.3:    # (negative values, but no NaN: x^p of a
            x = x - 1.0     # negative x and a fractional p is NaN, its gradient not MindSpore's)
        args = (norm, kernel)
        return args, {"stride": c([None, 1, 2]), "ceil_mode": c([False, True])}, x
    wrong = d.r.random() < 0.2
    sized = [1, 2, 3] + ([(3, 2, 1)] if dims == 3 or name == "AvgPool1d" else [])
    args = (c(sized + [0, (2,)] * wrong), c([1, 2]))
    kwargs = {"pad_mode": c(["valid", "same", "pad", "pad"])}
    options = {"padding": [1] + [2, 1.0, -1] * wrong, "ceil_mode": [True] + [1] * wrong}
    if name.startswith("Max"):
        options.update({"dilation": [2] + [0] * wrong, "return_indices": [True]})
        if kwargs["pad_mode"] != "pad" and not wrong:
            options = {}
    else:
        options["count_include_pad"] = [False] + [1] * wrong
        if dims == 3:
            options["divisor_override"] = [2] + [0, 1.5] * wrong
    now_and_then(d, kwargs, options)
    return args, kwargs, normal_input(d, batch + tuple(c([3, 4, 5, 7][dims == 3:])
                                                       for _ in range(dims)))


def adaptive_pooling_case(d, name):
    c = d.r.choice
    dims = int(name[-2])
    if dims == 1:       # (an int that divides L: MindSpore's 1-D forms)
        return (c([1, 2, 3, (2,), 0]),), {}, normal_input(d, (c([1, 2]), 2, c([4, 6, 7])))
    sizes = [1, 2, 3, (2, None, 3)[:dims] if dims == 3 else (None, 2), (3, 2, 1)[:dims]]
    kwargs = {}
    if "Max" in name:
        now_and_then(d, kwargs, {"return_indices": [True, True, 1]}, 0.5)
    shape = (c([1, 2]), 2)[d.r.random() < 0.2:] + tuple(c([3, 4, 6]) for _ in range(dims))
    return (c(sizes),), kwargs, normal_input(d, shape)


def padding_case(d, name):
    """An int or a tuple of (before, after) pairs (negative ones crop), now and then a wrong
    one; inputs of one to five axes."""
    c = d.r.choice
    dims = int(name[-2])
    if d.r.random() < 0.3:
        padding = c([0, 1, 2, -1])
    else:
        padding = tuple(c([0, 1, 2, 2, -1]) for _ in range(2 * d.r.randint(1, dims)))
    if d.r.random() < 0.05:
        padding = c([1.0, (1, 2, 1), [1, 1]])
    args = (padding,) if not name.startswith("Constant") else \
        (padding, c([0.5, 0, -1.5, 2] + ["a"] * (d.r.random() < 0.05)))
    rank = d.r.randint(max(dims - 1, 1), min(dims + 2, 5))
    return args, {}, drawn_input(d, tuple(c([2, 3, 4]) for _ in range(rank)))


def dropout_case(d, name):
    """p 0 or 1 (a training-mode dropout is random otherwise), now and then a wrong one;
    inputs of 2 to 5 axes."""
    c = d.r.choice
    args = (c([0.0, 1.0, 1.0] + [1, 1.5] * (d.r.random() < 0.1)),)
    return args, {}, normal_input(d, tuple(c([2, 3]) for _ in range(d.r.randint(2, 5))))


def rearranging_case(d, name):
    c = d.r.choice
    if name in ("PixelShuffle", "PixelUnshuffle"):
        r = c([1, 2, 3])
        if name == "PixelShuffle":
            shape = (c([1, 2]), c([1, 2]) * r * r * c([1, 1, 1, 2]) // c([1, 1, 1, 2]),
                     c([2, 3]), c([1, 2]))
        else:
            shape = (c([1, 2]), c([1, 2]), r * c([1, 2]), r * c([1, 2, 3]) + c([0, 0, 0, 1]))
        return (c([r, r, r, 0, 2.0]),), {}, normal_input(d, shape[d.r.random() < 0.2:])
    if name == "ChannelShuffle":
        groups = c([1, 2, 3])
        shape = (c([1, 2]), groups * c([1, 2]) + c([0, 0, 0, 1])) + tuple(
            c([2, 3]) for _ in range(d.r.randint(0, 2)))
        return (c([groups] * 4 + [0, 2.0]),), {}, drawn_input(d, shape)
    if name == "Unflatten":
        x = normal_input(d, (2, 6, c([1, 4])))
        return (c([1, 1, -2, 0, 3, 1.0]), c([(2, 3), (3, -1), [6], (-1, 2), (4, 2), 6])), {}, x
    if name == "Roll":
        return c([(1, 0), ((1, -2), (0, 1)), (3, -1), (1, (0, 1)), (1.0, 0)]), {}, \
            drawn_input(d, (c([2, 3]), c([2, 4]), c([1, 3])))
    return (), {}, drawn_input(d, tuple(c([1, 2, 3, 4]) for _ in range(d.r.randint(1, 4))))


def normalization_case(d, name):
    c = d.r.choice
    channels, rank = c([2, 3]), 5 if name.endswith("3d") else int(name[-2]) + 2
    if name == "BatchNorm3d":
        kwargs = {"eps": c([1e-5, 1e-3]), "momentum": c([0.9, 0.5, 0.1])}
        now_and_then(d, kwargs, {"affine": [False], "use_batch_statistics": [True, False]}, 0.2)
    else:
        kwargs = {"eps": c([1e-5, 1e-3, 1]), "momentum": c([0.1, 0.5, 1.5])}
        now_and_then(d, kwargs, {"affine": [False]}, 0.2)
    # (spatial sizes of 3 or more: two elements normalize to -1 and 1 whatever they are, a
    # gradient of float32 rounding noise)
    shape = (c([2, 3]), channels + (d.r.random() < 0.1)) + tuple(
        c([3, 4]) for _ in range(rank - 2 - (d.r.random() < 0.1)))
    return (channels,), kwargs, normal_input(d, shape)


def transposed_conv1d_case(d):
    c = d.r.choice
    group = c([1, 1, 2])
    cin, cout, kernel = group * c([1, 2]), group * c([1, 2]), c([1, 2, 3])
    mode = c(["same", "valid", "pad"])
    kwargs = {"stride": c([1, 2]), "pad_mode": mode, "has_bias": c([False, True]),
              "group": group, "dilation": c([1, 2])}
    if mode == "pad" or d.r.random() < 0.05:
        kwargs["padding"] = c([0, 1, 2])
    if d.r.random() < 0.4:
        from training_nn_cases import tensor
        kwargs["weight_init"] = tensor(normal_input(d, (cin, cout // group, kernel)))
    return (cin, cout, kernel), kwargs, normal_input(d, (c([1, 2]), cin, c([4, 6])))


def conv3d_case(d):
    c = d.r.choice
    group = c([1, 1, 2])
    cin, cout = group * c([1, 2]), group * c([1, 2])
    kernel = c([1, 2, (2, 1, 2), 3])
    mode = c(["same", "valid", "pad"])
    kwargs = {"stride": c([1, 2, (1, 2, 1)]), "pad_mode": mode, "has_bias": c([False, True]),
              "group": group, "dilation": c([1, (1, 2, 1)])}
    if mode == "pad" or d.r.random() < 0.05:
        kwargs["padding"] = c([0, 1, (1, 0, 1, 0, 0, 1)])
    if d.r.random() < 0.4:
        from training_nn_cases import tensor
        sizes = (kernel,) * 3 if isinstance(kernel, int) else kernel
        kwargs["weight_init"] = tensor(normal_input(d, (cout, cin // group) + sizes))
    shape = (c([1, 2]), cin) + tuple(c([3, 4]) for _ in range(3))
    return (cin, cout, kernel), kwargs, normal_input(d, shape[d.r.random() < 0.05:])


def conv3d_transpose_case(d):
    """Conv3d's draw with output_padding in 'pad' mode (now and then one MindSpore refuses) and
    now and then a depth dilation (MindSpore takes 1 only)."""
    args, kwargs, x = conv3d_case(d)
    if kwargs["pad_mode"] == "pad" and d.r.random() < 0.5:
        kwargs["output_padding"] = d.r.choice([1, (0, 1, 0), (1, 0, 1)])
    if d.r.random() < 0.1:
        kwargs["dilation"] = (2, 1, 1)
    if "weight_init" in kwargs:     # (in_channels, out_channels / group, *kernel)
        cin, cout, group = args[0], args[1], kwargs["group"]
        weights = kwargs["weight_init"][1]
        kwargs["weight_init"] = (kwargs["weight_init"][0], weights.reshape(
            (cin, cout // group) + weights.shape[2:]))
    return args, kwargs, x


def embedding_lookup_case(d):
    """Indices inside and outside the table (a row of zeros on the 'CPU' target), now and then
    max_norm, the 'DEVICE' target or a wrong argument."""
    c = d.r.choice
    vocab = c([4, 6])
    kwargs = {}
    now_and_then(d, kwargs, {"target": ["DEVICE", "CPU", "cpu"], "sparse": [True, False, 1],
                             "max_norm": [0.5, 1.0, 2.0, 1], "slice_mode": ["table_row_slice"]})
    indices = d.rng.integers(-1 if d.r.random() < 0.3 else 0, vocab + c([0, 0, 2]),
                             c([(3,), (2, 3)]))
    return (vocab, c([2, 3])), kwargs, indices.astype(c([np.int32, np.int64, np.int32,
                                                        np.float32]))


def unfold_case(d):
    """Unfold's arguments, now and then wrong (MindSpore 2.10's CPU cannot run a right one)."""
    c = d.r.choice
    ksizes = [1, c([1, 2, 3]), c([1, 2]), 1]
    strides, rates = [1, c([1, 2]), c([1, 2]), 1], [1, c([1, 2]), 1, 1]
    wrong = c([None] * 4 + ["ksizes", "strides", "rates"])
    bad = c([[2, 2], (1, 0, 1, 1), [1, 1.5, 1, 1], 2])
    chosen = {"ksizes": ksizes, "strides": strides, "rates": rates}
    if wrong:
        chosen[wrong] = bad
    return (chosen["ksizes"], chosen["strides"], chosen["rates"]), \
        {"padding": c(["valid", "same", "SAME", "full"])}, normal_input(d, (1, 2, 5, 5))


def upsample_case(d):
    """A mode, a size (now and then a scale factor, align_corners) and an input of 3 to 5
    axes (now and then one the mode does not take)."""
    c = d.r.choice
    mode = c(["nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area"])
    rank = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}.get(mode, c([3, 4, 5]))
    if d.r.random() < 0.1:
        rank = c([3, 4, 5])
    spatial = tuple(c([2, 3, 4]) for _ in range(rank - 2))
    kwargs = {"mode": mode}
    if d.r.random() < 0.2:
        kwargs["scale_factor"] = c([2.0, (2.0,) * len(spatial), 0.5])
    else:
        kwargs["size"] = tuple(c([1, 2, 3, 5, 6]) for _ in spatial)
    now_and_then(d, kwargs, {"align_corners": [True, False]}, 0.3)
    return (), kwargs, normal_input(d, (c([1, 2]), c([1, 2])) + spatial)


def now_and_then(d, kwargs, options, chance=0.3):
    """training_nn_cases.now_and_then (imported at the call: that module imports this one)."""
    from training_nn_cases import now_and_then as adds
    adds(d, kwargs, options, chance)


def normal_input(d, shape):
    return (d.rng.standard_normal(shape) * d.r.choice([1.0, 3.0])).astype(np.float32)


def more_layer_case(d, name):
    """(args, kwargs, input) of one layer of MORE_LAYERS."""
    c = d.r.choice
    if name in POOLS:
        return pooling_case(d, name)
    if name in ADAPTIVE_POOLS:
        return adaptive_pooling_case(d, name)
    if name in PADS:
        return padding_case(d, name)
    if name in DROPOUTS:
        return dropout_case(d, name)
    if name in REARRANGING:
        return rearranging_case(d, name)
    if name in NORMALIZATIONS:
        return normalization_case(d, name)
    if name == "Conv1dTranspose":
        return transposed_conv1d_case(d)
    if name == "Upsample":
        return upsample_case(d)
    if name == "Conv3d":
        return conv3d_case(d)
    if name == "Conv3dTranspose":
        return conv3d_transpose_case(d)
    if name == "EmbeddingLookup":
        return embedding_lookup_case(d)
    if name == "Unfold":
        return unfold_case(d)
    if name in ("Conv2dBnAct", "DenseBnAct"):
        cin, cout = c([1, 2, 3]), c([1, 2, 3])
        kwargs = {"has_bn": c([False, True, 1]), "has_bias": c([False, True]),
                  "activation": c([None, "relu", "leakyrelu", "sigmoid", "mish", "hswish",
                                   "unknown"])}
        if name == "DenseBnAct":
            return (cin, cout), kwargs, normal_input(d, (c([2, 3]), cin))
        kwargs.update(stride=c([1, 2]), pad_mode=c(["same", "valid"]))
        return (cin, cout, c([1, 3])), kwargs, normal_input(d, (c([2, 3]), cin, 4, 5))
    if name == "Norm":
        return (), {"axis": c([(), 0, 1, (0, 1), -1, 1.0]), "keep_dims": c([False, True])}, \
            drawn_input(d, (c([2, 3]), c([1, 3])))
    if name == "OneHot":
        kwargs = {"depth": c([1, 3, 4]), "axis": c([-1, 0, 1]), "on_value": c([1.0, 5.0]),
                  "off_value": c([0.0, -1.0])}
        indices = d.rng.integers(-1, 5, c([(3,), (2, 3)]))
        return (), kwargs, indices.astype(c([np.int32, np.int64, np.int32, np.float32]))
    return activation_case(d, name)


AVG_POOL_CEIL = ("AvgPool1d/2d/3d(ceil_mode=True) run where the ceiling adds a window (MindSpore "
                 "2.10's CPU kernels refuse it: oneDNN's RuntimeError 'could not create a "
                 "descriptor for a pooling forward propagation primitive' in 'valid' mode, "
                 "'Unknown Error!' from the gradient in 'pad' mode)")


def avg_pool_ceil_refused(name, kwargs, why):
    """Whether MindSpore's oneDNN refused an average pool's ceil_mode (AVG_POOL_CEIL)."""
    return name in ("AvgPool1d", "AvgPool2d", "AvgPool3d") and kwargs.get("ceil_mode") is \
        True and "raises RuntimeError in MindSpore only" in why and (
            "Unknown Error" in why or "could not create a descriptor" in why)


def avg_pool1d_same_shortcut(args, kwargs, x):
    """Whether MindSpore 2.10's AvgPool1d takes its plain path in 'same' mode (no padding,
    ceil_mode or count_include_pad=False) on an input of L - kernel_size < stride, where it
    averages the first kernel_size elements whatever the mode."""
    kernel = args[0][0] if isinstance(args[0], tuple) else args[0]
    stride = args[1] if len(args) > 1 else kwargs.get("stride", 1)
    plain = not kwargs.get("padding") and not kwargs.get("ceil_mode") and \
        kwargs.get("count_include_pad", True)
    return str(kwargs.get("pad_mode", "valid")).lower() == "same" and plain and \
        isinstance(kernel, int) and x.shape[-1] - kernel < stride


def largest_difference(why):
    """The number after 'largest difference' in a difference's words (inf if none)."""
    if "largest difference " not in why:
        return float("inf")
    return float(why.split("largest difference ", 1)[1].split()[0])


def documented_layer(case, why):
    """The README's word for a difference of one of MORE_LAYERS it lists as a deviation, or
    None."""
    _, name, args, kwargs, payload = case
    gradient = "x: largest difference" in why
    rules = [
        (name == "SeLU" and gradient,
         "SeLU's gradient below zero is scale * alpha * exp(x) (MindSpore 2.10's CPU kernel "
         "gives scale * (1 + SeLU(x)), negative for x < -0.9)"),
        ((name == "Mish" or kwargs.get("activation") == "mish") and "step 1" in why and
         largest_difference(why) < 1e-2,
         "Mish's gradient is exact (MindSpore's float32 kernel is off by up to 8e-4 for x in "
         "[3, 7], where 1 - tanh^2 cancels)"),
        (avg_pool_ceil_refused(name, kwargs, why), AVG_POOL_CEIL),
        (name == "AvgPool1d" and avg_pool1d_same_shortcut(args, kwargs, payload[1][1]) and
         ("raises ValueError in MindSpore only" in why or "in MindSpore" in why and
          "largest difference" not in why),
         "AvgPool1d(pad_mode='same') on an input shorter than kernel_size + stride gives "
         "ceil(L / stride) windows, as documented (MindSpore 2.10's AvgPool1d averages the first "
         "kernel_size elements into one, or raises ValueError for L < kernel_size: a shortcut "
         "that ignores 'same')"),
        (name == "AvgPool3d" and kwargs.get("divisor_override") and
         kwargs.get("count_include_pad") is False and "step 1: x: largest difference" in why,
         "AvgPool3d(count_include_pad=False, divisor_override=d) has its forward's gradient "
         "(MindSpore's is not the derivative of its own output)"),
        (name == "ChannelShuffle" and "raises ValueError here only" in why and
         "divisible by groups" in why,
         "ChannelShuffle refuses channels that groups does not divide (MindSpore reshapes with "
         "C // groups: the input back unchanged, or a reshape error)"),
        (name.startswith("InstanceNorm") and "raises RuntimeError in MindSpore only" in why,
         "InstanceNorm1d/2d/3d run (MindSpore 2.10's CPU has no InstanceNorm kernel: "
         "RuntimeError)"),
        (name in ("Conv3d", "Conv2dBnAct") and "raises ValueError here only" in why and
         "dilated kernel" in why,
         "a dilated kernel larger than the padded input is a ValueError, as MindSpore's for an "
         "undilated one (MindSpore gives an empty output)"),
        (name == "Roll" and "raises RuntimeError in MindSpore only" in why,
         "Roll runs (MindSpore 2.10's CPU has no Roll kernel: RuntimeError 'The kernel Roll "
         "unregistered')"),
        (name == "Conv3dTranspose" and "raises RuntimeError in MindSpore only" in why and
         "primitive descriptor" in why,
         "Conv3dTranspose runs every shape its checks take (MindSpore 2.10's CPU kernel "
         "refuses some dilated or output-padded ones: oneDNN's RuntimeError 'could not create "
         "a primitive descriptor')"),
        (name == "Unfold" and "raises RuntimeError in MindSpore only" in why,
         "Unfold runs (MindSpore 2.10's CPU has no ExtractImagePatches kernel: RuntimeError)"),
        (name == "EmbeddingLookup" and kwargs.get("target") == "DEVICE" and
         kwargs.get("sparse", True) and "raises RuntimeError in MindSpore only" in why,
         "EmbeddingLookup(target='DEVICE') runs with sparse=True (MindSpore 2.10's CPU has no "
         "SparseGatherV2 kernel: RuntimeError)"),
        (name == "EmbeddingLookup" and "embedding_table" in why and "step 1" in why,
         "EmbeddingLookup's table gradient is the dense sum over the rows looked up "
         "(MindSpore 2.10's PyNative grad gives its sparse gradient's values, one row per "
         "index, as if they were the table's rows)"),
        (name == "EmbeddingLookup" and kwargs.get("max_norm") and "step 0" in why and
         "largest difference" in why,
         "EmbeddingLookup(max_norm) clips each row by its own norm (MindSpore 2.10's "
         "ClipByNorm kernel divides rows by other rows' norms)"),
        (name == "Tanhshrink" and largest_difference(why) < 1e-3,
         "tanh is exact (MindSpore's is off by up to 1e-4)"),
    ]
    return next((word for applies, word in rules if applies), None)
