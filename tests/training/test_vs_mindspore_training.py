"""The training package against a real MindSpore 2.10, in the same process, on identical inputs.

Runs only where `mindspore` imports (the project's .venv never has it):
    cd /work/main && PYTHONPATH=/work/main /work/msvenv/bin/python -m pytest -q \
        tests/training/test_vs_mindspore_training.py -p no:cacheprovider
float32 results are compared with rtol 1e-5 / atol 1e-6 unless a comment says why not.
"""
import math

import numpy as np
import pytest

ms = pytest.importorskip("mindspore")
from mindspore import nn as mnn, ops as mops  # noqa: E402

import training as T  # noqa: E402
from training import nn as tnn, ops as tops  # noqa: E402
from training.common import initializer as tinit  # noqa: E402
from mindspore.common import initializer as minit  # noqa: E402

RTOL, ATOL = 1e-5, 1e-6


def as_np(x):
    if isinstance(x, (list, tuple)):
        return [as_np(v) for v in x]
    return x.asnumpy() if hasattr(x, "asnumpy") else np.asarray(x)


def assert_same(ours, theirs, rtol=RTOL, atol=ATOL, check_dtype=True):
    a, b = as_np(ours), as_np(theirs)
    if isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y, rtol, atol, check_dtype)
        return
    assert a.shape == b.shape, (a.shape, b.shape)
    if check_dtype:
        assert a.dtype == b.dtype, (a.dtype, b.dtype)
    if a.dtype == np.float16:  # one float16 ulp (2**-10 relative): accumulation order differs
        rtol = max(rtol, 1e-3)
    np.testing.assert_allclose(a.astype(np.float64), b.astype(np.float64), rtol=rtol, atol=atol)


def rand(*shape, seed=0, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


# ---------------------------------------------------------------- nn.dynamic_lr

DYNAMIC_LR_CASES = [
    ("piecewise_constant_lr", ([2, 5, 10], [0.1, 0.05, 0.01])),
    ("exponential_decay_lr", (0.1, 0.9, 12, 2, 1)),
    ("exponential_decay_lr", (0.1, 0.9, 12, 2, 3, True)),
    ("natural_exp_decay_lr", (0.1, 0.9, 12, 2, 2)),
    ("natural_exp_decay_lr", (0.1, 0.9, 12, 2, 2, True)),
    ("inverse_decay_lr", (0.1, 0.5, 12, 2, 2)),
    ("inverse_decay_lr", (0.1, 0.5, 12, 2, 2, True)),
    ("cosine_decay_lr", (0.01, 0.1, 12, 2, 2)),
    ("polynomial_decay_lr", (0.1, 0.01, 12, 2, 2, 0.5)),
    ("polynomial_decay_lr", (0.1, 0.01, 12, 2, 2, 0.5, True)),
    ("warmup_lr", (0.1, 12, 2, 3)),
    ("exponential_decay_lr", (0.2, 0.7, 25, 3, 2, True)),
    ("cosine_decay_lr", (0.0, 0.05, 25, 3, 4)),
    ("polynomial_decay_lr", (0.1, 0.001, 25, 3, 2, 2.0)),
    ("polynomial_decay_lr", (0.1, 0.001, 25, 3, 2, 2.0, True)),
    ("warmup_lr", (0.05, 25, 3, 2)),
    ("piecewise_constant_lr", ([1, 7], [0.3, 0.2])),
]


@pytest.mark.parametrize("name,args", DYNAMIC_LR_CASES)
def test_dynamic_lr(name, args):
    ours = getattr(tnn.dynamic_lr, name)(*args)
    theirs = getattr(mnn.dynamic_lr, name)(*args)
    assert isinstance(ours, list) and len(ours) == len(theirs)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=0)  # both in Python floats


LR_SCHEDULE_CASES = [
    ("ExponentialDecayLR", (0.1, 0.9, 4)),
    ("ExponentialDecayLR", (0.1, 0.9, 4, True)),
    ("InverseDecayLR", (0.1, 0.5, 4)),
    ("InverseDecayLR", (0.1, 0.5, 4, True)),
    ("CosineDecayLR", (0.01, 0.1, 4)),
    ("PolynomialDecayLR", (0.1, 0.01, 4, 0.5)),
    ("PolynomialDecayLR", (0.1, 0.01, 4, 0.5, True)),
    ("WarmUpLR", (0.1, 4)),
]


@pytest.mark.parametrize("name,args", LR_SCHEDULE_CASES)
def test_learning_rate_schedule(name, args):
    ours_s = getattr(tnn.learning_rate_schedule, name)(*args)
    theirs_s = getattr(mnn.learning_rate_schedule, name)(*args)
    for step in [0, 1, 3, 4, 5, 9]:
        ours = ours_s(T.Tensor(np.array(step, np.int32)))
        theirs = theirs_s(ms.Tensor(np.array(step, np.int32)))
        assert_same(ours, theirs, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("is_stair", [False, True])
def test_natural_exp_decay_lr_follows_the_documented_formula(is_stair):
    """Deviation (README): MindSpore 2.10's NaturalExpDecayLR uses p = step (floored to a multiple
    of decay_steps when is_stair), not its documented p = step / decay_steps, which its own
    nn.dynamic_lr.natural_exp_decay_lr uses. Ours follows the documentation."""
    ours_s = tnn.NaturalExpDecayLR(0.1, 0.9, 4, is_stair)
    theirs_s = mnn.NaturalExpDecayLR(0.1, 0.9, 4, is_stair)
    for step in [0, 1, 3, 4, 5, 9]:
        p = step // 4 if is_stair else step / 4
        assert_same(ours_s(T.Tensor(np.array(step, np.int32))),
                    np.float32(0.1 * math.exp(-0.9 * p)))
        theirs_p = (step // 4) * 4 if is_stair else step  # what MindSpore computes
        assert_same(theirs_s(ms.Tensor(np.array(step, np.int32))),
                    np.float32(0.1 * math.exp(-0.9 * theirs_p)))


# ---------------------------------------------------------------- ops primitives

X34 = rand(3, 4)
X234 = rand(2, 3, 4, seed=1)
IDX = np.array([2, 0, 1, 2], np.int32)

PRIMITIVE_CASES = [
    ("Cast", lambda m, t: ((), (X34, ), (m.int32,))),
    ("Cast", lambda m, t: ((), (np.array([1, 0, 3], np.int32),), (m.float16,))),
    ("Concat", lambda m, t: ((1,), ((t(X34), t(X34 * 2)),), ())),
    ("Reshape", lambda m, t: ((), (X234,), ((6, 4),))),
    ("Reshape", lambda m, t: ((), (X234,), ((-1, 2),))),
    ("ReduceSum", lambda m, t: ((), (X234,), ())),
    ("ReduceSum", lambda m, t: ((True,), (X234,), (1,))),
    ("ReduceSum", lambda m, t: ((), (X234,), ((0, 2),))),
    ("ReduceMean", lambda m, t: ((), (X234,), (-1,))),
    ("ReduceMean", lambda m, t: ((True,), (X234,), ((0, 1),))),
    ("Transpose", lambda m, t: ((), (X234,), ((2, 0, 1),))),
    ("ExpandDims", lambda m, t: ((), (X34,), (1,))),
    ("ExpandDims", lambda m, t: ((), (X34,), (-1,))),
    ("OneHot", lambda m, t: ((), (IDX,), (3, t(np.float32(1.0)), t(np.float32(0.0))))),
    ("OneHot", lambda m, t: ((0,), (IDX,), (4, t(np.float32(5.0)), t(np.float32(-1.0))))),
    ("MatMul", lambda m, t: ((), (X34, rand(4, 5, seed=2)), ())),
    ("MatMul", lambda m, t: ((True, True), (rand(4, 3), rand(5, 4, seed=2)), ())),
    ("Squeeze", lambda m, t: ((), (rand(1, 3, 1, 2),), ())),
    ("Squeeze", lambda m, t: ((2,), (rand(1, 3, 1, 2),), ())),
    ("Tile", lambda m, t: ((), (X34,), ((2, 3),))),
    ("Tile", lambda m, t: ((), (X34,), ((2, 1, 1),))),
    ("Gather", lambda m, t: ((), (X34, IDX[:3]), (0,))),
    ("Gather", lambda m, t: ((), (X34, IDX), (1,))),
    ("Argmax", lambda m, t: ((), (X34,), ())),
    ("Argmax", lambda m, t: ((0,), (X34,), ())),
    ("Argmax", lambda m, t: ((0, m.int64), (X34,), ())),
    ("Softmax", lambda m, t: ((), (X34,), ())),
    ("Softmax", lambda m, t: ((0,), (X234,), ())),
    ("Sigmoid", lambda m, t: ((), (X34,), ())),
    ("ZerosLike", lambda m, t: ((), (X34,), ())),
    ("ZerosLike", lambda m, t: ((), (IDX,), ())),
    ("Ones", lambda m, t: ((), (), ((2, 3), m.float32))),
    ("Ones", lambda m, t: ((), (), (4, m.int32))),
    ("Zeros", lambda m, t: ((), (), ((2, 3), m.float16))),
    ("Split", lambda m, t: ((), (X234,), ())),
    ("Split", lambda m, t: ((1, 3), (X234,), ())),
    ("Split", lambda m, t: ((-1, 2), (X234,), ())),
    ("Stack", lambda m, t: ((), ((t(X34), t(X34 + 1)),), ())),
    ("Stack", lambda m, t: ((-1,), ((t(X34), t(X34 + 1), t(X34 - 1)),), ())),
    ("ReduceSum", lambda m, t: ((), (IDX.reshape(2, 2),), (1,))),
    ("ReduceMean", lambda m, t: ((), (X34.astype(np.float16),), (0,))),
    ("Cast", lambda m, t: ((), (X34,), (m.bool_,))),
    ("Cast", lambda m, t: ((), (X34 * 10,), (m.uint8,))),
    ("OneHot", lambda m, t: ((), (IDX.astype(np.int64),),
                             (3, t(np.float32(1.0)), t(np.float32(0.0))))),
    ("Concat", lambda m, t: ((), ((t(IDX), t(IDX)),), ())),
    ("Tile", lambda m, t: ((), (IDX,), ((3,),))),
    ("Transpose", lambda m, t: ((), (IDX.reshape(2, 2),), ((1, 0),))),
    ("Gather", lambda m, t: ((), (X234, np.array([[0, 1], [1, 1]], np.int32)), (0,))),
    ("Softmax", lambda m, t: ((), (X34.astype(np.float16),), ())),
]


def _run_primitive(mod, name, make_args):
    init, tensors, extra = make_args(mod, mod.Tensor)
    tensors = [mod.Tensor(a) if isinstance(a, np.ndarray) else a for a in tensors]
    return getattr(mod.ops, name)(*init)(*tensors, *extra)


@pytest.mark.parametrize("name,make_args", PRIMITIVE_CASES)
def test_primitive(name, make_args):
    ours = _run_primitive(T, name, make_args)
    theirs = _run_primitive(ms, name, make_args)
    assert_same(ours, theirs)


def test_shape_primitive_and_function():
    assert tops.Shape()(T.Tensor(X234)) == mops.Shape()(ms.Tensor(X234)) == (2, 3, 4)
    assert tops.shape(T.Tensor(X234)) == mops.shape(ms.Tensor(X234))


FUNCTION_CASES = [
    ("cast", lambda m: ((m.Tensor(X34), m.int32), {})),
    ("concat", lambda m: (((m.Tensor(X34), m.Tensor(X34)),), {"axis": 1})),
    ("reshape", lambda m: ((m.Tensor(X234), (4, 6)), {})),
    ("reduce_sum", lambda m: ((m.Tensor(X234), 1), {})),
    ("reduce_mean", lambda m: ((m.Tensor(X234),), {})),
    ("transpose", lambda m: ((m.Tensor(X234), (1, 2, 0)), {})),
    ("expand_dims", lambda m: ((m.Tensor(X34), 0), {})),
    ("one_hot", lambda m: ((m.Tensor(IDX), 3, m.Tensor(1.0, m.float32),
                            m.Tensor(0.0, m.float32)), {})),
    ("matmul", lambda m: ((m.Tensor(X34), m.Tensor(rand(4, 2, seed=3))), {})),
    ("squeeze", lambda m: ((m.Tensor(rand(1, 3, 1)),), {})),
    ("tile", lambda m: ((m.Tensor(X34), (1, 2)), {})),
    ("gather", lambda m: ((m.Tensor(X34), m.Tensor(IDX), 1), {})),
    ("argmax", lambda m: ((m.Tensor(X34),), {"dim": 1})),
    ("argmax", lambda m: ((m.Tensor(X34),), {"dim": 0, "keepdim": True})),
    ("softmax", lambda m: ((m.Tensor(X34),), {})),
    ("sigmoid", lambda m: ((m.Tensor(X34),), {})),
    ("zeros_like", lambda m: ((m.Tensor(X34),), {})),
    ("ones", lambda m: (((2, 3),), {"dtype": m.float32})),
    ("zeros", lambda m: (((2, 3),), {"dtype": m.int32})),
    ("split", lambda m: ((m.Tensor(X234), 2), {"axis": 2})),
    ("stack", lambda m: (((m.Tensor(X34), m.Tensor(X34)),), {"axis": 1})),
]


@pytest.mark.parametrize("name,make", FUNCTION_CASES)
def test_ops_function(name, make):
    a, kw = make(T)
    ours = getattr(tops, name)(*a, **kw)
    a, kw = make(ms)
    theirs = getattr(mops, name)(*a, **kw)
    if isinstance(theirs, tuple):
        theirs, ours = list(theirs), list(ours)
    assert_same(ours, theirs)


# ---------------------------------------------------------------- losses

LOGITS = rand(6, 5, seed=4)
LABELS = np.array([0, 3, 4, 1, 1, 2], np.int32)
TARGET = rand(6, 5, seed=5)

LOSS_CASES = [
    ("CrossEntropyLoss", {}, LOGITS, LABELS),
    ("CrossEntropyLoss", {"reduction": "sum", "label_smoothing": 0.1}, LOGITS, LABELS),
    ("CrossEntropyLoss", {"reduction": "none"}, LOGITS, LABELS),
    ("CrossEntropyLoss", {}, LOGITS, np.eye(5, dtype=np.float32)[LABELS]),
    ("SoftmaxCrossEntropyWithLogits", {"sparse": True, "reduction": "mean"}, LOGITS, LABELS),
    ("SoftmaxCrossEntropyWithLogits", {"sparse": True}, LOGITS, LABELS),
    ("SoftmaxCrossEntropyWithLogits", {}, LOGITS, np.eye(5, dtype=np.float32)[LABELS]),
    ("MSELoss", {}, LOGITS, TARGET),
    ("MSELoss", {"reduction": "none"}, LOGITS, TARGET),
    ("L1Loss", {}, LOGITS, TARGET),
    ("L1Loss", {"reduction": "sum"}, LOGITS, TARGET),
    ("CrossEntropyLoss", {"ignore_index": 1}, LOGITS, LABELS),
    ("CrossEntropyLoss", {"weight": "w"}, LOGITS, LABELS),
    ("CrossEntropyLoss", {"weight": "w", "label_smoothing": 0.2}, LOGITS, LABELS),
]


@pytest.mark.parametrize("name,kw,logits,labels", LOSS_CASES)
def test_loss(name, kw, logits, labels):
    weight = np.array([0.5, 1.0, 2.0, 1.5, 0.25], np.float32)
    tkw = {k: T.Tensor(weight) if v == "w" else v for k, v in kw.items()}
    mkw = {k: ms.Tensor(weight) if v == "w" else v for k, v in kw.items()}
    ours = getattr(tnn, name)(**tkw)(T.Tensor(logits), T.Tensor(labels))
    theirs = getattr(mnn, name)(**mkw)(ms.Tensor(logits), ms.Tensor(labels))
    assert_same(ours, theirs)


# ---------------------------------------------------------------- metrics

PROBS = np.array([[0.1, 0.7, 0.2], [0.6, 0.3, 0.1], [0.2, 0.2, 0.6], [0.5, 0.4, 0.1],
                  [0.3, 0.3, 0.4], [0.05, 0.9, 0.05]], np.float32)
CLS = np.array([1, 0, 1, 1, 2, 1], np.int32)
ML_PRED = np.array([[0.8, 0.2, 0.6], [0.3, 0.7, 0.1], [0.9, 0.4, 0.7], [0.1, 0.6, 0.2]], np.float32)
ML_TRUE = np.array([[1, 0, 1], [0, 1, 1], [1, 0, 0], [0, 1, 0]], np.int32)
REG_P = rand(8, 3, seed=6)
REG_T = rand(8, 3, seed=7)


def _metric_value(mod, name, kw, batches, wrap):
    metric = getattr(mod.nn, name)(**kw)
    metric.clear()
    for inputs in batches:
        metric.update(*[wrap(mod, x) for x in inputs])
    return metric.eval()


METRIC_CASES = [
    ("Accuracy", {}, [(PROBS, CLS), (PROBS[::-1], CLS)]),
    ("Accuracy", {"eval_type": "multilabel"}, [((ML_PRED > 0.5).astype(np.float32), ML_TRUE)]),
    ("Precision", {}, [(PROBS, CLS)]),
    ("Precision", {"eval_type": "multilabel"}, [((ML_PRED > 0.5).astype(np.float32), ML_TRUE)]),
    ("Recall", {}, [(PROBS, CLS)]),
    ("Recall", {"eval_type": "multilabel"}, [((ML_PRED > 0.5).astype(np.float32), ML_TRUE)]),
    ("F1", {}, [(PROBS, CLS)]),
    ("MAE", {}, [(REG_P, REG_T), (REG_T, REG_P * 2)]),
    ("MSE", {}, [(REG_P, REG_T)]),
    ("TopKCategoricalAccuracy", {"k": 2}, [(PROBS, CLS)]),
    ("Perplexity", {}, [(PROBS, CLS)]),
    ("Perplexity", {"ignore_label": 1}, [(PROBS, CLS)]),
    ("Loss", {}, [(np.float32(0.5),), (np.float32(1.5),), (np.float32(0.25),)]),
    ("Accuracy", {}, [(PROBS, np.eye(3, dtype=np.float32)[CLS])]),
    ("TopKCategoricalAccuracy", {"k": 1}, [(PROBS, np.eye(3, dtype=np.float32)[CLS])]),
    ("Top1CategoricalAccuracy", {}, [(PROBS, CLS)]),
    ("Top5CategoricalAccuracy", {}, [(np.tile(PROBS, 2), CLS)]),
    ("Fbeta", {"beta": 0.5}, [(PROBS, CLS)]),
    ("F1", {}, [(PROBS, CLS), (PROBS[::-1], CLS)]),
    ("ConfusionMatrix", {"num_classes": 3}, [(PROBS, CLS)]),
    ("ConfusionMatrix", {"num_classes": 3, "normalize": "target"}, [(PROBS, CLS)]),
]


@pytest.mark.parametrize("name,kw,batches", METRIC_CASES)
def test_metric(name, kw, batches):
    wrap = lambda mod, x: mod.Tensor(x)  # noqa: E731
    ours = _metric_value(T, name, kw, batches, wrap)
    theirs = _metric_value(ms, name, kw, batches, wrap)
    assert_same(np.asarray(ours, np.float64), np.asarray(theirs, np.float64), check_dtype=False)


@pytest.mark.parametrize("name", ["Precision", "Recall"])
@pytest.mark.parametrize("eval_type", ["classification", "multilabel"])
def test_precision_recall_average(name, eval_type):
    data = [(PROBS, CLS)] if eval_type == "classification" else \
        [((ML_PRED > 0.5).astype(np.float32), ML_TRUE)]
    values = []
    for mod in (T, ms):
        metric = getattr(mod.nn, name)(eval_type=eval_type)
        metric.clear()
        metric.update(*[mod.Tensor(x) for x in data[0]])
        values.append(metric.eval(average=True))
    assert_same(np.asarray(values[0], np.float64), np.asarray(values[1], np.float64),
                check_dtype=False)


def test_roc_binary():
    pred = np.array([0.1, 0.4, 0.35, 0.8, 0.65, 0.2], np.float32)
    true = np.array([0, 0, 1, 1, 1, 0], np.int32)
    ours = _metric_value(T, "ROC", {"pos_label": 1}, [(pred, true)], lambda m, x: m.Tensor(x))
    theirs = _metric_value(ms, "ROC", {"pos_label": 1}, [(pred, true)], lambda m, x: m.Tensor(x))
    for o, t in zip(ours, theirs):  # fpr, tpr, thresholds
        assert_same(np.asarray(o, np.float64), np.asarray(t, np.float64), check_dtype=False)


def test_dice_is_the_mean_coefficient_per_update():
    """Deviation (README): MindSpore 2.10's Dice adds one coefficient per update() but divides by
    the number of samples (a perfect batch of 4 scores 0.25). Ours averages over updates, so a
    single update gives MindSpore's value times the batch size."""
    batches = [(ML_PRED, ML_TRUE), (ML_PRED[::-1], ML_TRUE)]
    ours = _metric_value(T, "Dice", {}, batches, lambda m, x: m.Tensor(x))
    coefficients = [_metric_value(ms, "Dice", {}, [b], lambda m, x: m.Tensor(x)) * len(b[0])
                    for b in batches]
    assert_same(np.float64(ours), np.float64(np.mean(coefficients)))
    perfect = (ML_TRUE.astype(np.float32), ML_TRUE)
    assert _metric_value(T, "Dice", {}, [perfect], lambda m, x: m.Tensor(x)) == pytest.approx(1.0)


def test_roc_multiclass_is_one_vs_rest():
    """Deviation (README): MindSpore 2.10's multiclass ROC reshapes the (N, C) scores with numpy's
    transpose(0, 1) (a no-op) and reshape(C, -1), so each class is scored on scrambled values.
    Ours gives the documented one-vs-rest curves: MindSpore's binary ROC on column c."""
    labels = np.array([1, 0, 2, 1, 2, 0], np.int32)
    ours = _metric_value(T, "ROC", {"class_num": 3}, [(PROBS, labels)], lambda m, x: m.Tensor(x))
    assert len(ours) == 3 and all(len(part) == 3 for part in ours)  # fpr, tpr, thresholds lists
    for c in range(3):
        binary = (PROBS[:, c], (labels == c).astype(np.int32))
        theirs = _metric_value(ms, "ROC", {"pos_label": 1}, [binary], lambda m, x: m.Tensor(x))
        for part in range(3):
            assert_same(np.asarray(ours[part][c], np.float64),
                        np.asarray(theirs[part], np.float64), check_dtype=False)


@pytest.mark.parametrize("kw", [{}, {"similarity": "dot", "reduction": "sum"},
                                {"reduction": "mean", "zero_diagonal": False}])
def test_cosine_similarity_matrix(kw):
    x = rand(4, 6, seed=8)
    ours = _metric_value(T, "CosineSimilarity", kw, [(x,)], lambda m, v: v)
    theirs = _metric_value(ms, "CosineSimilarity", kw, [(x,)], lambda m, v: v)
    assert_same(np.asarray(ours, np.float64), np.asarray(theirs, np.float64), check_dtype=False)


# ---------------------------------------------------------------- layers with copied weights

def _copy_params(ours, theirs):
    """Give our cell MindSpore's (randomly initialised) parameter values, by attribute path."""
    src = dict(theirs.parameters_and_names())
    dst = dict(ours.parameters_and_names())
    assert sorted(dst) == sorted(src)
    for name, p in dst.items():
        p.set_data(T.Tensor(src[name].asnumpy().copy()))


LAYER_CASES = [
    ("Dense", (5, 3), {}, (4, 5)),
    ("Dense", (5, 3), {"activation": "relu", "has_bias": False}, (4, 5)),
    ("Conv2d", (3, 4, 3), {}, (2, 3, 8, 8)),
    ("Conv2d", (3, 4, 3), {"stride": 2, "pad_mode": "pad", "padding": 1, "has_bias": True},
     (2, 3, 9, 9)),
    ("Conv2d", (4, 4, 3), {"group": 2, "pad_mode": "valid", "dilation": 2}, (1, 4, 9, 9)),
    ("Conv2dTranspose", (3, 2, 3), {}, (2, 3, 5, 5)),
    ("Conv2dTranspose", (3, 2, 4), {"stride": 2, "has_bias": True}, (1, 3, 5, 5)),
    ("Conv2dTranspose", (3, 2, 3), {"stride": 2, "pad_mode": "valid"}, (1, 3, 5, 5)),
    ("Conv2dTranspose", (3, 2, 3), {"stride": 2, "pad_mode": "pad", "padding": 1}, (1, 3, 5, 5)),
    ("Conv1d", (3, 4, 3), {}, (2, 3, 10)),
    ("Conv1d", (3, 4, 3), {"stride": 2, "pad_mode": "valid", "has_bias": True}, (2, 3, 11)),
    ("LayerNorm", ((6,),), {}, (4, 6)),
    ("LayerNorm", ((3, 4),), {"begin_norm_axis": 1, "begin_params_axis": 1}, (2, 3, 4)),
    ("GroupNorm", (2, 4), {}, (2, 4, 3, 3)),
    ("BatchNorm2d", (3,), {}, (2, 3, 4, 4)),
    ("AdaptiveAvgPool2d", ((2, 3),), {}, (2, 3, 7, 8)),
    ("AdaptiveAvgPool2d", (1,), {}, (2, 3, 5, 5)),
    ("ReLU6", (), {}, (3, 7)),
    ("HSwish", (), {}, (3, 7)),
    ("PReLU", (), {}, (3, 7)),
    ("PReLU", (3,), {"w": 0.1}, (2, 3, 4)),
    ("LogSoftmax", (), {}, (3, 7)),
    ("LogSoftmax", (0,), {}, (3, 7)),
    ("Pad", (((0, 0), (1, 2)),), {}, (3, 4)),
    ("Pad", (((0, 0), (1, 1), (2, 1)),), {"mode": "REFLECT"}, (2, 4, 5)),
    ("Pad", (((1, 0), (1, 2)),), {"mode": "SYMMETRIC"}, (3, 4)),
    ("Dense", (5, 3), {"activation": "sigmoid"}, (2, 4, 5)),  # tanh: test_tanh_is_exact
    ("Conv2d", (3, 4, 3), {"stride": 2}, (2, 3, 8, 8)),
    ("Conv2d", (3, 4, (2, 3)), {"stride": (2, 1), "has_bias": True}, (1, 3, 7, 6)),
    ("Conv1d", (3, 4, 4), {"stride": 2}, (2, 3, 9)),
    ("Conv2dTranspose", (3, 2, 3), {"stride": 2, "dilation": 1, "has_bias": True}, (1, 3, 4, 4)),
    ("MaxPool2d", (3, 2), {"pad_mode": "same"}, (2, 3, 7, 7)),
    ("MaxPool2d", (2, 2), {}, (2, 3, 7, 7)),
    ("AvgPool2d", (3, 2), {"pad_mode": "same"}, (2, 3, 7, 7)),
    ("AvgPool2d", (2, 2), {}, (2, 3, 6, 6)),
    ("BatchNorm1d", (5,), {}, (4, 5)),
    ("Flatten", (), {}, (2, 3, 4)),
    ("Dropout", (), {"p": 0.5}, (3, 4)),
    ("Softmax", (), {}, (3, 7)),
    ("Sigmoid", (), {}, (3, 7)),
    ("GELU", (), {}, (3, 7)),
    ("LeakyReLU", (0.1,), {}, (3, 7)),
    ("HSigmoid", (), {}, (3, 7)),
    ("AdaptiveAvgPool2d", ((3, 3),), {}, (1, 2, 7, 5)),
    ("GroupNorm", (1, 3), {"eps": 1e-3}, (2, 3, 4, 4)),
]


@pytest.mark.parametrize("name,args,kw,in_shape", LAYER_CASES)
def test_layer_forward(name, args, kw, in_shape):
    x = rand(*in_shape, seed=9) * 3
    theirs_cell = getattr(mnn, name)(*args, **kw)
    ours_cell = getattr(tnn, name)(*args, **kw)
    _copy_params(ours_cell, theirs_cell)
    theirs_cell.set_train(False)
    ours_cell.set_train(False)
    # convolutions/normalisations sum tens of float32 products in a different order: 1e-5 relative
    # is kept, with atol 1e-5 for outputs near zero
    assert_same(ours_cell(T.Tensor(x)), theirs_cell(ms.Tensor(x)), atol=1e-5)


def test_tanh_is_exact():
    """Deviation (README): MindSpore 2.10's CPU Tanh is an approximation (absolute error up to
    ~1e-4, values just outside [-1, 1], e.g. tanh(-5) = -1.0000098). Ours is numpy's tanh."""
    x = np.array([-5.0, -3.0, -0.5, 0.0, 0.5, 4.0, 9.0], np.float32)
    ours = as_np(tnn.Tanh()(T.Tensor(x)))
    assert_same(ours, np.tanh(x))
    assert_same(ours, mnn.Tanh()(ms.Tensor(x)), atol=2e-4)


def test_batchnorm2d_eval_with_moving_statistics():
    x = rand(2, 3, 4, 4, seed=10)
    theirs_cell, ours_cell = mnn.BatchNorm2d(3), tnn.BatchNorm2d(3)
    rng = np.random.default_rng(11)
    for p in theirs_cell.get_parameters():
        value = rng.uniform(0.5, 1.5, p.shape).astype(np.float32)
        p.set_data(ms.Tensor(value))
    _copy_params(ours_cell, theirs_cell)
    theirs_cell.set_train(False)
    ours_cell.set_train(False)
    assert_same(ours_cell(T.Tensor(x)), theirs_cell(ms.Tensor(x)), atol=1e-5)


def test_conv1d_weight_has_mindspores_shape():
    assert tnn.Conv1d(6, 4, 3, group=2).weight.shape == mnn.Conv1d(6, 4, 3, group=2).weight.shape


def test_embedding_lookup():
    theirs_cell, ours_cell = mnn.Embedding(10, 4), tnn.Embedding(10, 4)
    _copy_params(ours_cell, theirs_cell)
    ids = np.array([[1, 9, 0], [3, 3, 7]], np.int32)
    assert_same(ours_cell(T.Tensor(ids)), theirs_cell(ms.Tensor(ids)))


# ---------------------------------------------------------------- initializers

EXACT_INITS = [("Zero", ()), ("One", ()), ("Constant", (0.25,)), ("Constant", (3,))]


@pytest.mark.parametrize("name,args", EXACT_INITS)
@pytest.mark.parametrize("dtype", ["float32", "float16", "int32"])
def test_exact_initializers(name, args, dtype):
    ours = tinit.initializer(getattr(tinit, name)(*args), (3, 4), getattr(T, dtype))
    theirs = minit.initializer(getattr(minit, name)(*args), (3, 4), getattr(ms, dtype))
    assert_same(ours.init_data() if hasattr(ours, "init_data") else ours, theirs.init_data())


STAT_INITS = [
    ("Normal", (0.02,)), ("Normal", (0.5, 1.0)), ("TruncatedNormal", (0.1,)),
    ("TruncatedNormal", (1.0, 0.0, -0.5, 0.5)), ("TruncatedNormal", (0.1, 1.0, 0.9, 1.2)),
    ("Uniform", (0.3,)),
    ("HeNormal", ()), ("HeUniform", ()), ("HeUniform", (0, "fan_out", "relu")),
    ("XavierUniform", ()), ("XavierUniform", (2.0,)), ("XavierNormal", ()),
    ("HeNormal", (0.1, "fan_out", "leaky_relu")), ("XavierNormal", (1.5,)),
    ("VarianceScaling", ()), ("VarianceScaling", (2.0, "fan_avg", "untruncated_normal")),
    ("VarianceScaling", (0.5, "fan_out", "uniform")),
    ("VarianceScaling", (0.01, "fan_in", "truncated_normal")),
]
STAT_SHAPE = (128, 64, 3, 3)  # 73,728 values: mean/std known to ~1% of std


@pytest.mark.parametrize("name,args", STAT_INITS)
def test_random_initializer_statistics(name, args):
    ours = as_np(tinit.initializer(getattr(tinit, name)(*args), STAT_SHAPE, T.float32))
    theirs = minit.initializer(getattr(minit, name)(*args), STAT_SHAPE, ms.float32).init_data()
    theirs = theirs.asnumpy()
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    std = theirs.std()
    assert abs(ours.std() - std) < 0.02 * std, (ours.std(), std)
    assert abs(ours.mean() - theirs.mean()) < 0.03 * std, (ours.mean(), theirs.mean())
    # bounded distributions: same support (the extremes of 73k draws sit within 0.1% of the bound)
    bounded = name.endswith("Uniform") or "uniform" in args
    if bounded or (name == "TruncatedNormal" and len(args) > 2):
        lo, hi = theirs.min(), theirs.max()
        slack = 0.002 * (hi - lo)
        assert lo - slack <= ours.min() <= lo + 5 * slack, (ours.min(), lo)
        assert hi - 5 * slack <= ours.max() <= hi + slack, (ours.max(), hi)


@pytest.mark.parametrize("alias", ["normal", "uniform", "truncatedNormal", "xavier_uniform",
                                   "he_uniform", "he_normal", "zeros", "ones"])
def test_initializer_names(alias):
    ours = as_np(tinit.initializer(alias, STAT_SHAPE, T.float32))
    theirs = minit.initializer(alias, STAT_SHAPE, ms.float32).init_data().asnumpy()
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    std = theirs.std()
    assert abs(ours.std() - std) <= 0.02 * std
    assert abs(ours.mean() - theirs.mean()) <= 0.03 * std + 1e-7


# ---------------------------------------------------------------- one optimizer step

OPTIMIZER_CASES = [
    ("Momentum", {"learning_rate": 0.1, "momentum": 0.9}),
    ("Momentum", {"learning_rate": 0.1, "momentum": 0.9, "weight_decay": 0.01}),
    ("Adam", {"learning_rate": 0.01}),
    ("Adam", {"learning_rate": 0.01, "weight_decay": 0.1, "use_nesterov": True}),
    ("AdamWeightDecay", {"learning_rate": 0.01, "weight_decay": 0.1}),
    ("RMSProp", {"learning_rate": 0.01}),
    ("RMSProp", {"learning_rate": 0.01, "momentum": 0.5, "centered": True}),
    ("Adagrad", {"learning_rate": 0.1}),
    ("SGD", {"learning_rate": 0.1, "momentum": 0.9, "dampening": 0.1}),
    ("SGD", {"learning_rate": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    ("SGD", {"learning_rate": 0.1}),
    ("Adam", {"learning_rate": 0.01, "beta1": 0.8, "beta2": 0.99, "eps": 1e-6}),
    ("AdamWeightDecay", {"learning_rate": 0.01, "weight_decay": 0.0, "beta1": 0.8}),
    ("RMSProp", {"learning_rate": 0.01, "decay": 0.8, "epsilon": 1e-6, "weight_decay": 0.1}),
    ("Adagrad", {"learning_rate": 0.1, "accum": 0.5, "weight_decay": 0.05}),
    ("Momentum", {"learning_rate": [0.1, 0.05], "momentum": 0.8}),
]


def _two_steps(mod, name, kw, w0, grads):
    params = [mod.Parameter(mod.Tensor(w.copy()), name=f"w{i}") for i, w in enumerate(w0)]
    opt = getattr(mod.nn, name)(params, **kw)
    for g in grads:
        opt(tuple(mod.Tensor(x) for x in g))
    return [p.asnumpy() if hasattr(p, "asnumpy") else as_np(p.data) for p in params]


@pytest.mark.parametrize("name,kw", OPTIMIZER_CASES)
def test_optimizer_two_steps(name, kw):
    w0 = [rand(3, 4, seed=12), rand(4, seed=13)]
    grads = [[rand(3, 4, seed=14), rand(4, seed=15)], [rand(3, 4, seed=16), rand(4, seed=17)]]
    ours = _two_steps(T, name, kw, w0, grads)
    theirs = _two_steps(ms, name, kw, w0, grads)
    assert_same(ours, theirs, atol=1e-6)


def test_momentum_nesterov_follows_the_documented_formula():
    """Deviation (README): MindSpore 2.10's CPU ApplyMomentum ignores use_nesterov (its result
    equals plain momentum). Ours applies the documented update
    accum = momentum * accum + grad; param -= lr * (grad + momentum * accum)."""
    w0 = [rand(3, 4, seed=12)]
    grads = [[rand(3, 4, seed=14)], [rand(3, 4, seed=16)]]
    kw = {"learning_rate": 0.1, "momentum": 0.9}
    ours = _two_steps(T, "Momentum", dict(kw, use_nesterov=True), w0, grads)
    w, acc = w0[0].copy(), np.zeros_like(w0[0])
    for (g,) in grads:
        acc = 0.9 * acc + g
        w = w - np.float32(0.1) * (g + 0.9 * acc)
    assert_same(ours, [w], atol=1e-6)
    assert_same(_two_steps(ms, "Momentum", dict(kw, use_nesterov=True), w0, grads),
                _two_steps(ms, "Momentum", kw, w0, grads))


# ---------------------------------------------------------------- gradients: training steps

class _Net:
    """conv -> relu -> flatten -> dense, built in either framework."""

    @staticmethod
    def build(mod):
        nn = mod.nn
        return nn.SequentialCell([nn.Conv2d(2, 3, 3, pad_mode="pad", padding=1, has_bias=True),
                                  nn.ReLU(), nn.Flatten(), nn.Dense(3 * 5 * 5, 4)])


@pytest.mark.parametrize("opt_name,kw", [("Momentum", {"learning_rate": 0.1, "momentum": 0.9}),
                                         ("Adam", {"learning_rate": 0.01})])
def test_train_one_step_cell(opt_name, kw):
    x = rand(6, 2, 5, 5, seed=20)
    y = np.array([0, 3, 1, 2, 2, 0], np.int32)
    results = []
    theirs_net = _Net.build(ms)
    ours_net = _Net.build(T)
    _copy_params(ours_net, theirs_net)
    for mod, net in ((T, ours_net), (ms, theirs_net)):
        loss = mod.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        opt = getattr(mod.nn, opt_name)(net.trainable_params(), **kw)
        step = mod.nn.TrainOneStepCell(mod.nn.WithLossCell(net, loss), opt)
        step.set_train()
        losses = [as_np(step(mod.Tensor(x), mod.Tensor(y))) for _ in range(3)]
        results.append((losses, {n: as_np(p) for n, p in net.parameters_and_names()}))
    assert_same(results[0][0], results[1][0], atol=1e-5)
    for name, value in results[1][1].items():
        assert_same(results[0][1][name], value, atol=1e-5)


@pytest.mark.parametrize("op", ["add", "sub", "mul", "truediv"])
@pytest.mark.parametrize("dtype,scalar", [(np.float32, 2), (np.float32, 0.5), (np.float16, 3.0),
                                          (np.int32, 2)])
def test_tensor_scalar_arithmetic_dtype(op, dtype, scalar):
    x = (np.arange(1, 7).reshape(2, 3)).astype(dtype)
    fn = getattr(__import__("operator"), op)
    assert_same(fn(T.Tensor(x), scalar), fn(ms.Tensor(x), scalar))
    assert_same(fn(T.Tensor(x).sum(), scalar), fn(ms.Tensor(x).sum(), scalar))


GRAD_CASES = [case for case in LAYER_CASES
              if case[0] not in ("Dropout", "Flatten", "MaxPool2d")] + [
    ("MaxPool2d", (2, 2), {}, (1, 2, 6, 6)),  # distinct values: one maximum per window
    ("Embedding", (10, 4), {}, None),
]


@pytest.mark.parametrize("name,args,kw,in_shape", GRAD_CASES)
def test_layer_gradients(name, args, kw, in_shape):
    """value_and_grad of sum(layer(x) * r) with respect to x and to the layer's parameters."""
    theirs_cell = getattr(mnn, name)(*args, **kw)
    ours_cell = getattr(tnn, name)(*args, **kw)
    _copy_params(ours_cell, theirs_cell)
    if in_shape is None:
        x, grad_position = np.array([[1, 9, 0], [3, 3, 7]], np.int32), None
    else:
        x, grad_position = rand(*in_shape, seed=21) * 3, 0
    results = []
    for mod, cell in ((T, ours_cell), (ms, theirs_cell)):
        cell.set_train(False)
        out_shape = as_np(cell(mod.Tensor(x))).shape
        r = mod.Tensor(rand(*out_shape, seed=22))
        weights = cell.trainable_params()

        def fn(inp, cell=cell, r=r):
            return (cell(inp) * r).sum()

        if not weights and grad_position is None:
            pytest.skip("nothing to differentiate")
        fn_grad = mod.value_and_grad(fn, grad_position, weights or None)
        value, grads = fn_grad(mod.Tensor(x))
        if weights and grad_position is not None:
            grads = [grads[0], *grads[1]]
        elif weights:
            grads = list(grads)
        else:
            grads = [grads]
        names = [n for n, p in cell.parameters_and_names() if p.requires_grad]
        results.append((value, grads, names))
    (ov, og, onames), (tv, tg, tnames) = results
    assert_same(ov, tv, atol=1e-4)  # a sum of many float32 terms
    theirs_by_name = dict(zip(["x"] * (grad_position is not None) + tnames, tg))
    for key, g in zip(["x"] * (grad_position is not None) + onames, og):
        assert_same(g, theirs_by_name[key], atol=1e-5)


@pytest.mark.parametrize("name,shape", [("BatchNorm2d", (4, 3, 5, 5)), ("BatchNorm1d", (8, 3))])
def test_batchnorm_training_step_updates_moving_statistics(name, shape):
    x = rand(*shape, seed=23) * 2 + 1
    theirs_cell = getattr(mnn, name)(3, momentum=0.8)
    ours_cell = getattr(tnn, name)(3, momentum=0.8)
    _copy_params(ours_cell, theirs_cell)
    outs = []
    for mod, cell in ((T, ours_cell), (ms, theirs_cell)):
        cell.set_train(True)
        outs.append([as_np(cell(mod.Tensor(x))) for _ in range(2)])
    assert_same(outs[0], outs[1], atol=1e-5)
    theirs = dict(theirs_cell.parameters_and_names())
    for key, p in ours_cell.parameters_and_names():
        assert_same(p, theirs[key], atol=1e-6)


def test_loss_scale_managers():
    for mod in (T, ms):
        assert mod.FixedLossScaleManager(64.0, drop_overflow_update=False).get_loss_scale() == 64.0
    ours = T.DynamicLossScaleManager(2 ** 10, scale_factor=2, scale_window=3)
    theirs = ms.DynamicLossScaleManager(2 ** 10, scale_factor=2, scale_window=3)
    for overflow in [False, False, False, True, False, True, True, False, False, False, False]:
        ours.update_loss_scale(overflow)
        theirs.update_loss_scale(overflow)
        assert ours.get_loss_scale() == theirs.get_loss_scale()


def test_model_train_and_eval_end_to_end():
    """Model.train over the same batches (no shuffle) and Model.eval: per-step losses, final
    weights and metrics agree."""
    import mindspore.dataset as mds
    from tests.training.conftest import classification_data, make_dataset
    x, y = classification_data(n=40, features=6, classes=3)
    results = []
    theirs_net = mnn.SequentialCell([mnn.Dense(6, 8), mnn.ReLU(), mnn.Dense(8, 3)])
    ours_net = tnn.SequentialCell([tnn.Dense(6, 8), tnn.ReLU(), tnn.Dense(8, 3)])
    _copy_params(ours_net, theirs_net)
    for mod, net in ((T, ours_net), (ms, theirs_net)):
        if mod is ms:
            data = mds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(8)
        else:
            data = make_dataset([x, y], 8, ["x", "y"])
        losses = []

        class Record(mod.Callback):
            def on_train_step_end(self, run_context):
                losses.append(float(as_np(run_context.original_args().net_outputs)))

        loss = mod.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        opt = mod.nn.Momentum(net.trainable_params(), 0.05, 0.9)
        model = mod.Model(net, loss, opt, metrics={"acc": mod.nn.Accuracy(), "loss": mod.nn.Loss()})
        model.train(2, data, callbacks=[Record()], dataset_sink_mode=False)
        metrics = model.eval(data, dataset_sink_mode=False)
        results.append((losses, metrics, {n: as_np(p) for n, p in net.parameters_and_names()}))
    assert len(results[0][0]) == len(results[1][0]) == 10
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-5, atol=1e-6)
    assert results[0][1]["acc"] == pytest.approx(results[1][1]["acc"])
    assert results[0][1]["loss"] == pytest.approx(results[1][1]["loss"], rel=1e-5)
    for name, value in results[1][2].items():
        assert_same(results[0][2][name], value, atol=1e-6)


def _conv_net(mod):
    nn = mod.nn
    return nn.SequentialCell([nn.Conv1d(3, 4, 3, has_bias=True), nn.ReLU(), nn.Flatten(),
                              nn.Dense(4 * 10, 2), nn.PReLU()])


def test_checkpoints_cross_load(tmp_path):
    """A checkpoint MindSpore writes loads into our network of the same layers, and back."""
    theirs_net, ours_net = _conv_net(ms), _conv_net(T)
    ms.save_checkpoint(theirs_net, str(tmp_path / "theirs.ckpt"))
    param_not_load, ckpt_not_load = T.load_param_into_net(
        ours_net, T.load_checkpoint(str(tmp_path / "theirs.ckpt")))
    assert not param_not_load and not ckpt_not_load
    x = rand(2, 3, 10, seed=24)
    assert_same(ours_net(T.Tensor(x)), theirs_net(ms.Tensor(x)), atol=1e-5)
    fresh = _conv_net(ms)
    T.save_checkpoint(ours_net, str(tmp_path / "ours.ckpt"))
    param_not_load, ckpt_not_load = ms.load_param_into_net(
        fresh, ms.load_checkpoint(str(tmp_path / "ours.ckpt")))
    assert not param_not_load and not ckpt_not_load
    assert_same(fresh(ms.Tensor(x)), theirs_net(ms.Tensor(x)))


PRIMITIVE_NAMES = sorted({case[0] for case in PRIMITIVE_CASES} | {"Shape"})


@pytest.mark.parametrize("name", PRIMITIVE_NAMES)
def test_primitives_under_ops_operations(name):
    """`from mindspore.ops import operations as P` code: the same classes under P."""
    from mindspore.ops import operations as mP
    from training.ops import operations as tP
    assert hasattr(mP, name)
    assert getattr(tP, name) is getattr(tops, name)


@pytest.mark.parametrize("name", sorted({case[0] for case in FUNCTION_CASES}))
def test_functions_under_ops_functional(name):
    from mindspore.ops import functional as mF
    from training.ops import functional as tF
    assert hasattr(mF, name) == hasattr(tF, name), name


@pytest.mark.parametrize("opt_name", ["Momentum", "Adam", "SGD"])
def test_optimizer_with_learning_rate_schedule(opt_name):
    """An optimizer driven by a LearningRateSchedule cell: the schedule is read at each step."""
    w0 = [rand(3, 4, seed=25)]
    grads = [[rand(3, 4, seed=26 + i)] for i in range(4)]
    results = []
    for mod in (T, ms):
        schedule = mod.nn.ExponentialDecayLR(0.1, 0.5, 1)
        kw = {"momentum": 0.9} if opt_name == "Momentum" else {}
        params = [mod.Parameter(mod.Tensor(w0[0].copy()), name="w")]
        opt = getattr(mod.nn, opt_name)(params, learning_rate=schedule, **kw)
        for g in grads:
            opt(tuple(mod.Tensor(x) for x in g))
        results.append(as_np(params[0]))
    assert_same(results[0], results[1])
