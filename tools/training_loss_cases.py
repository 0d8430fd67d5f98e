"""tools/training_vs_mindspore.py's loss cases: how they are drawn and run.

A loss case is an ``nn`` loss cell (every one ``training.nn`` has) or a loss function of
``ops`` (``ops.nll_loss`` ...) with random options (reductions, weights, margins, ...; some of
them wrong), on random inputs of float16/float32 (ties and zeros now and then; sometimes of a
shape or dtype that does not fit). Its steps: the loss, then its gradient with respect to the
first input (of sum(loss * fixed weights) where the loss is not reduced). Run in MindSpore's
interpreter this module imports numpy only."""
import numpy as np

from training_nn_cases import is_tensor, output_weights, tensor

REDUCTION = ["mean", "sum", "none"]
# name: (the case's input family, the ops function of the same loss or None)
LOSSES = {
    "CrossEntropyLoss": ("classes", "cross_entropy"),
    "SoftmaxCrossEntropyWithLogits": ("classes", None),
    "NLLLoss": ("classes", "nll_loss"),
    "MultiMarginLoss": ("classes", "multi_margin_loss"),
    "FocalLoss": ("focal", None),
    "L1Loss": ("pair", "l1_loss"),
    "MSELoss": ("pair", "mse_loss"),
    "MAELoss": ("pair", None),
    "RMSELoss": ("pair", None),
    "SmoothL1Loss": ("pair", "smooth_l1_loss"),
    "HuberLoss": ("pair", "huber_loss"),
    "KLDivLoss": ("pair", "kl_div"),
    "BCELoss": ("probabilities", "binary_cross_entropy"),
    "BCEWithLogitsLoss": ("pair", "binary_cross_entropy_with_logits"),
    "SoftMarginLoss": ("signs", "soft_margin_loss"),
    "HingeEmbeddingLoss": ("signs", "hinge_embedding_loss"),
    "MultiLabelSoftMarginLoss": ("multilabel", "multilabel_soft_margin_loss"),
    "MultilabelMarginLoss": ("multilabel", "multilabel_margin_loss"),
    "PoissonNLLLoss": ("pair", None),
    "GaussianNLLLoss": ("gaussian", "gaussian_nll_loss"),
    "DiceLoss": ("pair", None),
    "MultiClassDiceLoss": ("pair", None),
    "MarginRankingLoss": ("ranking", "margin_ranking_loss"),
    "CosineEmbeddingLoss": ("cosine", "cosine_embedding_loss"),
    "TripletMarginLoss": ("triplet", "triplet_margin_loss"),
    "CTCLoss": ("ctc", "ctc_loss"),
}
# options: name -> {argument: (good values, wrong values)}
OPTIONS = {
    "CrossEntropyLoss": {"label_smoothing": ([0.0, 0.1, 0.3], [1.5, -0.1]),
                         "ignore_index": ([0, 1, -100], [1.5])},
    "SoftmaxCrossEntropyWithLogits": {"sparse": ([True, False], [1, "yes"])},
    "NLLLoss": {"ignore_index": ([0, 1, -100], [1.5, None])},
    "MultiMarginLoss": {"p": ([1, 2], [3, 0]), "margin": ([1.0, 0.5, 2.0], ["1"])},
    "FocalLoss": {"gamma": ([2.0, 1.0, 0.5, 0.0], [2, "2"])},
    "SmoothL1Loss": {"beta": ([1.0, 0.5, 2.0, 1, True], [0.0, -1.0, "1"])},
    "HuberLoss": {"delta": ([1.0, 0.5, 2.0, 2], [0.0, -1.0])},
    "KLDivLoss": {"reduction": (REDUCTION + ["batchmean"], ["avg"])},
    "HingeEmbeddingLoss": {"margin": ([1.0, 0.5, 2.0], ["1"])},
    "PoissonNLLLoss": {"log_input": ([True, False], []), "full": ([False, True], []),
                       "eps": ([1e-8, 0.1], [])},
    "GaussianNLLLoss": {"full": ([False, True], [1]), "eps": ([1e-6, 0.1], [0.0, -1.0])},
    "DiceLoss": {"smooth": ([1e-5, 0.5, 1.0], [0.0, -1.0, 1])},
    "MultiClassDiceLoss": {"activation": (["softmax", "sigmoid", "tanh", "relu", "relu6",
                                           "logsoftmax"], ["gelu", 1])},
    "MarginRankingLoss": {"margin": ([0.0, 0.5, 1.0], [1, "1"])},
    "CosineEmbeddingLoss": {"margin": ([0.0, 0.5, -0.3], [2.0, 1])},
    "CTCLoss": {"zero_infinity": ([False, True], [1])},
    "TripletMarginLoss": {"p": ([1, 2], []), "swap": ([False, True], []),
                          "margin": ([1.0, 0.5, 2.0], []), "eps": ([1e-6, 0.1], [])},
}
NO_REDUCTION = ("RMSELoss", "DiceLoss", "MultiClassDiceLoss", "KLDivLoss")
FUNCTION_ARGUMENTS = {"beta", "delta", "margin", "p", "eps", "swap", "full", "ignore_index",
                      "label_smoothing", "reduction", "weight", "pos_weight", "blank",
                      "zero_infinity"}


def loss_case(d):
    """("loss", name, (), kwargs, inputs) of a cell, or ("loss_function", name, ...)."""
    name = d.r.choice(sorted(LOSSES))
    family, function = LOSSES[name]
    dtype = d.r.choice([np.float32, np.float32, np.float16])
    kwargs = {}
    if name not in NO_REDUCTION:
        kwargs["reduction"] = d.r.choice(REDUCTION)
    for option, (good, _) in OPTIONS.get(name, {}).items():
        if d.r.random() < 0.6:
            kwargs[option] = d.r.choice(good)
    inputs = DRAW_INPUTS[family](d, dtype, name, kwargs)
    if d.r.random() < 0.08:      # one argument of a wrong value or type
        wrong = {option: bad for option, (_, bad) in OPTIONS.get(name, {}).items() if bad}
        if "reduction" in kwargs:
            wrong["reduction"] = ["avg", None, "Mean"]
        if wrong:
            option = d.r.choice(sorted(wrong))
            kwargs[option] = d.r.choice(wrong[option])
    if function and d.r.random() < 0.35 and set(kwargs) <= FUNCTION_ARGUMENTS:
        return ("loss_function", function, (), kwargs, inputs)
    return ("loss", name, (), kwargs, inputs)


def _shape(d):
    n = d.r.choice([1, 3, 6])
    return d.r.choice([(n, d.r.choice([2, 5])), (n, 2, 3), (n,)])


def _other_shape(d, shape):
    """The same shape, now and then one that does not fit."""
    return shape if d.r.random() < 0.92 else d.r.choice([(1,), (2, 7), shape + (2,)])


def pair_inputs(d, dtype, name, kwargs):
    shape = _shape(d)
    if name in ("MultiClassDiceLoss",) and len(shape) < 2:
        shape = shape + (3,)
    x, y = d.floats(shape, dtype), d.floats(_other_shape(d, shape), dtype)
    if name in ("KLDivLoss", "PoissonNLLLoss") or name == "BCEWithLogitsLoss" and \
            d.r.random() < 0.7:
        y = np.abs(y) if name != "BCEWithLogitsLoss" else d.rng.random(y.shape).astype(dtype)
    if name == "BCEWithLogitsLoss":
        for option in ("weight", "pos_weight"):
            if d.r.random() < 0.3:
                kwargs[option] = tensor((d.rng.random(shape[-1:]) + 0.5).astype(dtype))
    return tensor(x), tensor(y)


def probability_inputs(d, dtype, name, kwargs):
    shape = _shape(d)
    x = d.rng.random(shape).astype(dtype)
    if d.r.random() < 0.2:
        x.ravel()[0] = d.r.choice([0.0, 1.0, 1.5, -0.5])     # the ends, or out of [0, 1]
    y = d.rng.integers(0, 2, _other_shape(d, shape)).astype(dtype)
    if d.r.random() < 0.3:      # of x's shape: MindSpore's kernel reads past a smaller one's
        # end, giving garbage or a segmentation fault (README)
        kwargs["weight"] = tensor((d.rng.random(shape) + 0.5).astype(dtype))
    return tensor(x), tensor(y)


def sign_inputs(d, dtype, name, kwargs):
    shape = _shape(d)
    signs = d.rng.choice(np.array([-1, 1] + [0] * (d.r.random() < 0.2)), _other_shape(d, shape))
    return tensor(d.floats(shape, dtype)), tensor(signs.astype(dtype))


def class_inputs(d, dtype, name, kwargs):
    n, classes = d.r.choice([1, 3, 6]), d.r.choice([2, 5])
    spatial = (d.r.choice([2, 3]),) if name in ("NLLLoss", "CrossEntropyLoss") and \
        d.r.random() < 0.25 else ()
    x = d.floats((n, classes) + spatial, dtype)
    if name == "NLLLoss" and d.r.random() < 0.7:
        x = -np.abs(x)      # log-probabilities
    labels = d.rng.integers(0, classes, (n,) + spatial)
    if d.r.random() < 0.05:
        labels[0] = classes     # out of range
    label_dtype = d.r.choice([np.int32, np.int32, np.int64] + [np.float32] * (
        d.r.random() < 0.1))
    if name == "SoftmaxCrossEntropyWithLogits" and not kwargs.get("sparse", False) or \
            name == "CrossEntropyLoss" and not spatial and d.r.random() < 0.3:
        return tensor(x), tensor(np.eye(classes, dtype=dtype)[labels % classes])
    if name in ("CrossEntropyLoss", "NLLLoss", "MultiMarginLoss") and d.r.random() < 0.3:
        kwargs["weight"] = tensor((d.rng.random(classes) + 0.25).astype(dtype))
    return tensor(x), tensor(labels.astype(label_dtype))


def focal_inputs(d, dtype, name, kwargs):
    n, classes = d.r.choice([1, 3, 4]), d.r.choice([2, 4])
    spatial = d.r.choice([(), (3,), (2, 2)])
    x = d.floats((n, classes) + spatial, dtype)
    labels = d.rng.integers(0, classes, (n, 1) + spatial)
    if d.r.random() < 0.3:
        kwargs["weight"] = tensor((d.rng.random(classes) + 0.25).astype(np.float32))
    if d.r.random() < 0.5:
        one_hot = np.moveaxis(np.eye(classes, dtype=np.float32)[labels[:, 0]], -1, 1)
        return tensor(x), tensor(one_hot.astype(d.r.choice([np.float32, np.int32])))
    return tensor(x), tensor(labels.astype(d.r.choice([np.int32, np.int64])))


def multilabel_inputs(d, dtype, name, kwargs):
    n, classes = d.r.choice([1, 3, 6]), d.r.choice([2, 4])
    x = d.floats((n, classes), dtype)
    if name == "MultilabelMarginLoss":
        target = np.full((n, classes), -1, np.int32)
        for row in target:
            chosen = d.rng.permutation(classes)[:d.r.randint(0, classes)]
            row[:len(chosen)] = chosen
        return tensor(x), tensor(target)
    if d.r.random() < 0.3:
        kwargs["weight"] = tensor((d.rng.random(classes) + 0.5).astype(dtype))
    return tensor(x), tensor(d.rng.integers(0, 2, _other_shape(d, (n, classes))).astype(dtype))


def gaussian_inputs(d, dtype, name, kwargs):
    shape = _shape(d)
    var_shape = d.r.choice([shape, shape, shape[:-1] + (1,), shape[:-1], (7,)])
    var = np.abs(d.floats(var_shape, dtype))
    return tensor(d.floats(shape, dtype)), tensor(d.floats(shape, dtype)), tensor(var)


def ranking_inputs(d, dtype, name, kwargs):
    shape = _shape(d)
    signs = d.rng.choice(np.array([-1, 1]), _other_shape(d, shape)).astype(dtype)
    return tensor(d.floats(shape, dtype)), tensor(d.floats(shape, dtype)), tensor(signs)


def cosine_inputs(d, dtype, name, kwargs):
    n, size = d.r.choice([1, 3, 6]), d.r.choice([2, 4])
    signs = d.rng.choice(np.array([-1, 1]), (n,)).astype(d.r.choice([np.int32, np.float32]))
    return tensor(d.floats((n, size), dtype)), tensor(d.floats(
        _other_shape(d, (n, size)), dtype)), tensor(signs)


def triplet_inputs(d, dtype, name, kwargs):
    shape = (d.r.choice([1, 3, 6]), d.r.choice([2, 4]))
    return tuple(tensor(d.floats(shape, dtype)) for _ in range(3))


def ctc_inputs(d, dtype, name, kwargs):
    """log_softmax'ed scores (T, N, C), padded targets (N, S) without the blank, and lengths
    (now and then a target too long for its input: an infinite loss)."""
    steps, n, classes, longest = d.r.randint(3, 6), d.r.choice([1, 2, 3]), d.r.choice([3, 5]), \
        d.r.randint(1, 3)
    blank = d.r.choice([0, 0, classes - 1])
    if blank:
        kwargs["blank"] = blank
    x = d.floats((steps, n, classes), np.float32)
    log_probs = x - np.log(np.exp(x - x.max(-1, keepdims=True)).sum(-1, keepdims=True)) - \
        x.max(-1, keepdims=True)
    others = np.array([c for c in range(classes) if c != blank])
    targets = d.rng.choice(others, (n, longest)).astype(np.int32)
    target_lengths = d.rng.integers(1, longest + 1, n).astype(np.int32)
    input_lengths = d.rng.integers(max(1, steps - 2), steps + 1, n).astype(np.int32)
    if d.r.random() < 0.15:
        target_lengths[0], input_lengths[0] = longest, 1
    return tuple(tensor(value) for value in (log_probs.astype(np.float32), targets,
                                             input_lengths, target_lengths))


DRAW_INPUTS = {"pair": pair_inputs, "probabilities": probability_inputs, "signs": sign_inputs,
               "classes": class_inputs, "focal": focal_inputs, "multilabel": multilabel_inputs,
               "gaussian": gaussian_inputs, "ranking": ranking_inputs, "cosine": cosine_inputs,
               "triplet": triplet_inputs, "ctc": ctc_inputs}


def run_loss(lib, case, plain, error, raw):
    """The loss, then its gradient with respect to the first input (of sum(loss * fixed
    weights) where the loss is not reduced)."""
    kind, name, args, kwargs, payload = case
    made = []
    try:
        if kind == "loss":
            loss_of = getattr(lib.nn, name)(*args, **lib.resolve(kwargs))
        else:
            function, options = getattr(lib.ops, name), lib.resolve(kwargs)
            loss_of = lambda *values: function(*values, **options)   # noqa: E731
        first, *rest = (lib.input(raw(value)) for value in payload)
        loss = loss_of(first, *rest)
        made.append(("ok", plain(loss)))
        main = (lambda out: out[0]) if isinstance(loss, tuple) else (lambda out: out)
        weights = lib.input(output_weights(tuple(main(loss).shape)).astype(
            raw(payload[0]).dtype))
        _, grad = lib.value_and_grad(lambda z: (main(loss_of(z, *rest)) * weights).sum())(first)
        made.append(("ok", plain(grad)))
    except Exception as exc:         # an outcome to compare, like a value
        made.append(error(exc))
    return made


NO_CPU_KERNEL = ("SoftMarginLoss", "soft_margin_loss", "TripletMarginLoss",
                 "triplet_margin_loss", "MultilabelMarginLoss", "multilabel_margin_loss")


def documented_loss(case, why, raw):
    """The README's word for a loss case's difference it lists as a deviation, or None."""
    _, name, _, kwargs, payload = case
    inputs = [raw(value) for value in payload]
    ours_only = "raises" in why and "here only" in why
    theirs_only = "raises" in why and "in MindSpore only" in why
    rules = [
        (name in NO_CPU_KERNEL and theirs_only and "RuntimeError" in why,
         "SoftMarginLoss, TripletMarginLoss and MultilabelMarginLoss run on the CPU (MindSpore "
         "2.10 has no CPU kernel for them: RuntimeError)"),
        (name in ("BCELoss", "binary_cross_entropy") and not theirs_only and
         inputs[0].size == 1 and str(kwargs.get("reduction", "mean")).lower() in ("mean", "sum"),
         "a one-element binary_cross_entropy reduced by 'mean' or 'sum' is its loss "
         "(MindSpore's CPU kernel doubles it)"),
        (name in ("CTCLoss", "ctc_loss") and kwargs.get("zero_infinity") is True and
         "step 0" in why and "e+308" in why,      # MindSpore's inf, once compared
         "CTCLoss(zero_infinity=True) gives 0 for an impossible alignment, as documented "
         "(MindSpore: inf, its gradient 0)"),
        (name == "KLDivLoss" and inputs[0].dtype == np.float16 and "largest difference" in why
         and kwargs.get("reduction", "mean") != "none",
         "a float16 KLDivLoss sum rounds its terms in another order (MindSpore's differs by up "
         "to 1%)"),
        (name == "MultiClassDiceLoss" and kwargs.get("activation") == "tanh" and
         "largest difference" in why, "tanh is exact (MindSpore's is off by up to 1e-4)"),
        (name == "multi_margin_loss" and theirs_only and "weight_addr" in why,
         "ops.multi_margin_loss without a weight weighs every class 1 (MindSpore's CPU kernel: "
         "RuntimeError 'The pointer[weight_addr] is null')"),
        (name == "SoftmaxCrossEntropyWithLogits" and ours_only and kwargs.get("sparse") and
         inputs[1].max() >= inputs[0].shape[-1],
         "an out-of-range class index is a ValueError (MindSpore's CPU kernel gives a loss)"),
        (name == "SoftmaxCrossEntropyWithLogits" and theirs_only and
         inputs[0].dtype == np.float16,
         "sparse SoftmaxCrossEntropyWithLogits takes float16 logits (MindSpore: TypeError)"),
        (name == "CrossEntropyLoss" and theirs_only and inputs[1].dtype == np.int64,
         "CrossEntropyLoss takes int64 class indices too, torch's label dtype (MindSpore: "
         "TypeError)"),
        (name == "nll_loss" and ours_only and kwargs.get("reduction") not in REDUCTION,
         "nll_loss refuses a reduction other than 'mean', 'sum' and 'none' (MindSpore's takes "
         "any other as 'none')"),
    ]
    return next((word for applies, word in rules if applies), None)


def case_tolerance(case):
    """The relative tolerance of a case's values: float16's where a loss takes a float16
    input (MindSpore rounds its float16 steps in another order, even where the loss comes
    out float32)."""
    if case[0].startswith("loss") and any(
            is_tensor(value) and value[1].dtype == np.float16 for value in case[4]):
        return 2e-3
    return 1e-5
