"""tools/training_vs_mindspore.py's cells of several inputs: the image cells (SSIM, MSSSIM, PSNR,
ImageGradients, CentralCrop), ClipByNorm, TimeDistributed (around a Dense, Flatten or ReLU) and
TripletMarginWithDistanceLoss: how they are drawn and run.

A case builds the cell (every argument drawn, now and then a wrong one), sets its parameters to
fixed values (TimeDistributed's layer's; the image cells' Gaussian windows stay MindSpore's) and
gives three steps: the outputs, the gradients of sum(output * fixed weights) with respect to
each input (float inputs only) and each trainable parameter by name, then each parameter's
place and shape by name. MindSpore 2.10 runs SSIM, MSSSIM and PSNR in graph mode only (in
PyNative mode every call raises ValueError 'ScalarCast', measured): their cases run there in
graph mode. Run in MindSpore's interpreter this module imports numpy only."""
import importlib

import numpy as np

from training_attention_cases import gradients_and_places
from training_nn_cases import fixed_values, output_weights, tensor

IMAGE_CELLS = ["SSIM", "MSSSIM", "PSNR", "ImageGradients", "CentralCrop", "ClipByNorm",
               "TimeDistributed", "TripletMarginWithDistanceLoss"]
GRAPH_MODE_ONLY = ("SSIM", "MSSSIM", "PSNR")


def images(d, shape, dtype):
    """Two image batches in [0, 1] (in [0, 255] for an integer dtype), the second a noisy
    copy of the first."""
    first = d.rng.random(shape)
    second = np.clip(first + d.rng.normal(0, d.r.choice([0.05, 0.2]), shape), 0, 1)
    if np.dtype(dtype).kind in "iu":
        return (first * 255).astype(dtype), (second * 255).astype(dtype)
    return first.astype(dtype), second.astype(dtype)


def window_kwargs(d, sizes):
    c = d.r.choice
    kwargs = {"filter_size": c(sizes)}
    for name, values in (("max_val", [1.0, 255, 2.0, 0, True]), ("filter_sigma", [1.5, 0.8, 1]),
                         ("k1", [0.01, 0.05, 1]), ("k2", [0.03, 0.1])):
        if d.r.random() < 0.3:
            kwargs[name] = c(values)
    return kwargs


def image_pair_case(d, name):
    c = d.r.choice
    dtypes = {"SSIM": [np.float32] * 4 + [np.float16, np.float64, np.uint8],
              "MSSSIM": [np.float32] * 3 + [np.float16, np.float64, np.uint8, np.int32],
              "PSNR": [np.float32] * 3 + [np.float64, np.uint8, np.int32, np.float16]}[name]
    shape = (c([1, 2]), c([1, 2, 3]), c([5, 6, 8, 12]), c([5, 7, 8, 12]))
    if name == "PSNR":
        kwargs = {"max_val": c([1.0, 255, 2.0, 0, "1"])} if d.r.random() < 0.5 else {}
    elif name == "SSIM":
        kwargs = window_kwargs(d, [3, 4, 5, 7, 11, 0])
    else:
        kwargs = window_kwargs(d, [2, 3])
        levels = d.r.randint(1, 3)
        kwargs["power_factors"] = c([tuple, list])(np.round(d.rng.random(levels), 2).tolist())
        if d.r.random() < 0.05:
            kwargs["power_factors"] = np.ones(2)
    first, second = images(d, shape, c(dtypes))
    if d.r.random() < 0.1:
        second = c([second[:, :1], second[0], second.astype(np.float64)])
    if d.r.random() < 0.05:
        first, second = first[0], second[0]
    return (), kwargs, [first, second]


def single_input_case(d, name):
    c = d.r.choice
    if name == "ImageGradients":
        shape = (c([1, 2]), c([1, 2]), c([1, 3, 4]), c([1, 2, 5]))[d.r.random() < 0.1:]
        return (), {}, [d.rng.standard_normal(shape).astype(c([np.float32, np.float32,
                                                               np.int32, np.float64]))]
    fraction = c([0.3, 0.5, 0.75, 0.99, 1.0, 1, 0.0, 1.5])
    shape = (c([1, 2]), c([1, 3]), c([4, 5, 7]), c([4, 6, 9]))[d.r.random() < 0.3:]
    return (fraction,), {}, [d.rng.standard_normal(shape[d.r.random() < 0.05:]).astype(
        np.float32)]


def clip_by_norm_case(d):
    c = d.r.choice
    shape = (c([2, 3]), c([1, 4]), c([2, 3]))[:d.r.randint(1, 3)]
    x = (d.rng.standard_normal(shape) * c([0.5, 3.0])).astype(c([np.float32] * 3 + [np.float16,
                                                                                  np.float64]))
    kwargs = {"axis": c([None, None, 0, -1, (0,), [0, -1], len(shape), 1.0])} \
        if d.r.random() < 0.7 else {}
    norm_shape = c([(), (), (1,), shape[-1:]])
    clip_norm = np.full(norm_shape, c([0.5, 1.0, 4.0]), c([np.float32] * 4 + [np.float16,
                                                                             np.int32]))
    if x.dtype == np.float16 and clip_norm.dtype == np.float32 and d.r.random() < 0.5:
        clip_norm = clip_norm.astype(np.float16)
    return (), kwargs, [x, clip_norm]


def time_distributed_case(d):
    """TimeDistributed's layer as (name, args), built with fixed parameters when run."""
    c = d.r.choice
    layer = c([("Dense", (3, 2)), ("Flatten", ()), ("ReLU", ())])
    shape = (2, c([1, 3]), 3) if layer[0] != "Flatten" else (2, c([1, 3]), 2, 2)
    if d.r.random() < 0.1:
        shape = shape[:2]
    kwargs = {"reshape_with_axis": c([0, 1, -1, 2, 1.5])} if d.r.random() < 0.5 else {}
    x = d.rng.standard_normal(shape).astype(np.float32)
    return (layer, c([0, 1, 1, -1, 2])), kwargs, [x]


def triplet_case(d):
    c = d.r.choice
    kwargs = {}
    for name, values in (("swap", [False, True, 1]), ("margin", [1.0, 0.5, 2.0, 1]),
                         ("reduction", ["mean", "sum", "none", "avg"])):
        if d.r.random() < 0.5:
            kwargs[name] = c(values)
    shape = c([(3, 4), (2, 5), (4, 2, 3), (3,)])
    return (), kwargs, [(d.rng.standard_normal(shape) * c([0.5, 2.0])).astype(np.float32)
                        for _ in range(3)]


def image_case(d):
    """("image", name, args, kwargs, (inputs, salt)): inputs a list of arrays."""
    name = d.r.choice(IMAGE_CELLS)
    if name in GRAPH_MODE_ONLY:
        args, kwargs, inputs = image_pair_case(d, name)
    elif name in ("ImageGradients", "CentralCrop"):
        args, kwargs, inputs = single_input_case(d, name)
    elif name == "ClipByNorm":
        args, kwargs, inputs = clip_by_norm_case(d)
    elif name == "TimeDistributed":
        args, kwargs, inputs = time_distributed_case(d)
    else:
        args, kwargs, inputs = triplet_case(d)
    return ("image", name, args, kwargs, ([tensor(x) for x in inputs], d.r.randrange(100)))


def build(lib, name, args, kwargs, salt):
    if name == "TimeDistributed":
        (layer_name, layer_args), time_axis = args
        layer = getattr(lib.nn, layer_name)(*layer_args)
        for param_name, param in layer.parameters_and_names():
            param.set_data(lib.Tensor(fixed_values(param_name, param.shape, salt)))
        return lib.nn.TimeDistributed(layer, time_axis, **kwargs)
    return getattr(lib.nn, name)(*args, **kwargs)


def run_image(lib, case, plain, error):
    """The outputs, the gradients by name ("input0", ... and the parameters'), then each
    parameter's place and shape; SSIM, MSSSIM and PSNR in MindSpore's graph mode."""
    _, name, args, kwargs, (inputs, salt) = case
    root = importlib.import_module(lib.nn.__name__.split(".")[0])
    graph = name in GRAPH_MODE_ONLY and root.__name__ == "mindspore"
    if graph:
        root.set_context(mode=root.GRAPH_MODE)
    made = []
    try:
        cell = build(lib, name, args, kwargs, salt)
        values = [lib.input(x[1]) for x in inputs]

        def call(*given):
            result = cell(*given)
            return tuple(result) if isinstance(result, tuple) else (result,)
        results = call(*values)
        made.append(("ok", ("list", [plain(r) for r in results])))
        if all(x[1].dtype.kind == "f" for x in inputs):
            weights = [lib.input(output_weights(tuple(r.shape))) for r in results]

            def weighted_sum(*given):
                total = 0
                for r, w in zip(call(*given), weights):
                    total = total + (r * w).sum()
                return total
            made += gradients_and_places(lib, cell, weighted_sum, values, [
                f"input{i}" for i in range(len(values))], plain)
    except Exception as exc:         # an outcome to compare, like a value
        made.append(error(exc))
    finally:
        if graph:
            root.set_context(mode=root.PYNATIVE_MODE)
    return made


def described_image(case):
    _, name, args, kwargs, (inputs, _) = case
    return f"{name}{args} {kwargs} on " + ", ".join(f"{x[1].dtype}{x[1].shape}" for x in inputs)


def documented_image(case, why):
    """The README's word for a difference it lists as a deviation, or None."""
    _, name, args, kwargs, (inputs, _) = case
    axis = kwargs.get("axis")
    rank = inputs[0][1].ndim
    named_twice = isinstance(axis, (tuple, list)) and rank and \
        len({a % rank for a in axis}) < len(axis)
    rules = [
        (name == "ClipByNorm" and axis is not None and "largest difference" in why,
         "ClipByNorm(axis) scales each slice by its own norm, as documented (MindSpore 2.10's "
         "CPU kernel divides slices by other slices' norms)"),
        (name == "ClipByNorm" and named_twice and "in MindSpore only" in why,
         "ClipByNorm with an axis named twice has a gradient (MindSpore 2.10's raises "
         "RuntimeError 'dim=0 appears multiple times')"),
    ]
    return next((word for applies, word in rules if applies), None)
