"""tools/training_vs_mindspore.py: its plumbing (the reference interpreter's run, the step-by-step
comparison, this package's numpy and torch backends) checked without MindSpore, this package
standing in as the reference, and the comparison's rules on outcomes made here."""
import os
import subprocess
import sys

import numpy as np
import pytest

import training

from tests.conftest import PROJECT_ROOT, load_script
from tests.training import faulty_reference

TOOL = PROJECT_ROOT / "tools" / "training_vs_mindspore.py"
tool = load_script(TOOL)


def test_this_package_against_itself_has_no_difference():
    done = subprocess.run([sys.executable, str(TOOL), "--cases", "120", "--seed", "7",
                           "--mindspore-python", sys.executable, "--reference", "training"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("120 same, 0 documented, 0 error type, 0 error "
                                        "elsewhere, 0 MindSpore crashed, 0 different")


def test_a_reference_that_crashes_or_hangs_is_counted_and_the_run_goes_on(tmp_path):
    """MindSpore died of SIGSEGV on some loss cases and hung on a layer case: each such case is
    tried once more in a new process, then counted as "MindSpore crashed", the run going on
    from the next case in a new process (the cases after it compared as usual)."""
    done = subprocess.run(
        [sys.executable, str(TOOL), "--cases", "6", "--seed", "7", "--only", "metric",
         "--case-timeout", "3", "--mindspore-python", faulty_reference.interpreter(tmp_path),
         "--reference", "training"], capture_output=True, text=True, timeout=120,
        env=dict(os.environ, FAULTY_REFERENCE_CRASH="1", FAULTY_REFERENCE_HANG="3"))
    assert done.returncode == 0, done.stdout + done.stderr      # crashes are no difference
    crashed = [line.split(":")[0] for line in done.stdout.splitlines() if line.startswith("case")]
    assert crashed == ["case 1", "case 3"], done.stdout
    assert done.stdout.strip().endswith("4 same, 0 documented, 0 error type, 0 error "
                                        "elsewhere, 2 MindSpore crashed, 0 different")


def ok(value, kind="Tensor"):
    return ("ok", (kind, np.asarray(value)))


def test_the_comparison_flags_what_differs():
    value = ok(np.float32(2.0))
    assert tool.difference([value], [value]) is None
    assert tool.difference([value], [ok(np.float32(2.00001))]) is None      # within 1e-5
    assert tool.difference([value], [ok(np.float32(2.5))]).startswith("largest difference 0.5 ")
    assert tool.difference([value], [ok(np.float64(2.0))]) == \
        "float32() here, float64() in MindSpore"
    assert tool.difference([ok(2.0, "number")], [ok(np.float32(2.0), "number")]) is None
    assert tool.difference([value], [ok(2.0, "number")]) == "Tensor here, number in MindSpore"
    assert tool.difference([ok([np.nan, 1.0])], [ok([np.nan, 1.0])]) is None
    assert tool.difference([ok([0.5])], [ok([np.nan])]).startswith("NaN at other places")
    # one outcome per step: an error stops the steps; both raising is the same outcome
    error = ("error", "ValueError", "bad shape")
    assert tool.difference([value, error], [value, ("error", "TypeError", "x")]) is None
    assert tool.difference([value, value], [value, error]) == \
        "step 1: raises ValueError in MindSpore only: bad shape"
    assert tool.difference([error], [value, value]) == "raises ValueError here only: bad shape"
    # parameters and states by name: values first, then the names one side lacks
    states = ("ok", ("dict", {"w": ("Tensor", np.ones(2, np.float32)),
                              "moments.w": ("Tensor", np.zeros(2, np.float32))}))
    moved = ("ok", ("dict", {"w": ("Tensor", np.full(2, 0.5, np.float32))}))
    assert tool.difference([states], [states]) is None
    assert tool.difference([states], [moved]).startswith("w: largest difference 0.5")
    assert tool.difference([moved], [states]).startswith("w: largest difference 0.5")
    assert tool.difference([states], [("ok", ("dict", {**states[1][1], "vhat.w": states[1][1][
        "w"]}))]) == "names only in MindSpore: vhat.w"
    listed = ("ok", ("list", [("array", np.zeros(2)), ("array", np.ones(3))]))
    shorter = ("ok", ("list", [("array", np.zeros(2))]))
    assert tool.difference([listed], [shorter]) == "list of 2 here, list of 1 in MindSpore"


def test_documented_deviations_are_recognised():
    ties = np.array([[1.0, 2.0, 2.0]], np.float32)
    top = ("metric", "Top1CategoricalAccuracy", (), {},
           [("update", (tool.tensor(ties), np.array([2], np.int32))), ("eval", {})])
    assert "first class" in tool.documented(top, "step 1: largest difference 1")
    assert tool.documented(top, "step 1: raises ValueError here only: x") is None
    lr = ("lr_schedule", "NaturalExpDecayLR", (0.1, 0.9, 4, False), {}, [])
    assert "p = step / decay_steps" in tool.documented(lr, "largest difference 0.01")
    assert tool.documented(("lr_schedule", "WarmUpLR", (0.1, 4), {}, []),
                           "largest difference 0.01") is None
    adagrad = ("optimizer", "Adagrad", (), {"update_slots": False}, ([], None, []))
    assert "keeps its accumulators" in tool.documented(adagrad, "step 0: accum.w: largest "
                                                                "difference 1")
    assert tool.documented(adagrad, "step 0: raises TypeError here only: x") is None
    nesterov = ("optimizer", "Momentum", (), {"use_nesterov": True}, ([], None, []))
    assert "Nesterov" in tool.documented(nesterov, "step 1: w: largest difference 0.1")
    pool = ("layer", "AvgPool2d", (2, 2), {"count_include_pad": False, "divisor_override": 2},
            (False, None, 0))
    assert "forward's gradient" in tool.documented(pool, "step 1: x: largest difference 1.5")
    assert tool.documented(pool, "step 0: largest difference 1.5") is None      # the forward


def test_documented_average_pooling_deviations_are_recognised():
    x = tool.tensor(np.zeros((1, 1, 3), np.float32))
    same = ("layer", "AvgPool1d", (2, 2), {"pad_mode": "same"}, (False, x, 0))
    shapes = "float32(1, 1, 2) here, float32(1, 1, 1) in MindSpore"
    assert "ignores 'same'" in tool.documented(same, f"step 0: {shapes}")
    valid = ("layer", "AvgPool1d", (2, 2), {"pad_mode": "valid"}, (False, x, 0))
    assert tool.documented(valid, f"step 0: {shapes}") is None
    for name in ("AvgPool2d", "AvgPool3d"):
        ceil = ("layer", name, (2, 2), {"ceil_mode": True}, (False, x, 0))
        assert "oneDNN" in tool.documented(ceil, "raises RuntimeError in MindSpore only: could "
                                                 "not create a descriptor for a pooling forward")


def test_cases_repeat_for_a_seed():
    first, again = tool.cases(3, 60), tool.cases(3, 60)
    assert [tool.described(case) for case in first] == [tool.described(case) for case in again]
    assert {case[0] for case in first} >= {"metric", "lr_function", "lr_schedule", "loss", "layer",
                                           "optimizer", "rnn", "loss_function", "attention"}


def _case(maker, kind, name):
    """The first case ``maker`` draws of ``name`` whose keyword arguments are all right: floats
    >= 0 and bools (no arrays, no per-step rate lists that may fall short, no wrong ints)."""
    return next(case for case in (maker(tool.Draw(seed)) for seed in range(2000))
                if case[:2] == (kind, name) and all(
                    isinstance(v, (float, bool)) and v >= 0 for v in case[3].values()))


@pytest.mark.parametrize("torch", [False, True])
def test_layer_and_optimizer_cases_give_each_step(torch):
    """A layer's output, gradients by name and parameters after; an optimizer's parameters and
    states by name after each step; on the numpy backend and on torch tensors."""
    library = tool.Library("training", torch)
    try:
        layer = tool.run_case(library, _case(tool.layer_case, "layer", "BatchNorm2d"))
        assert [step[0] for step in layer] == ["ok", "ok", "ok"]
        assert {"x", "gamma", "beta"} <= set(layer[1][1][1])
        assert {"moving_mean", "moving_variance"} <= set(layer[2][1][1])
        adam = _case(tool.optimizer_case, "optimizer", "Adam")
        steps = tool.run_case(library, adam)
        assert len(steps) == len(adam[4][2])
        names = {key for key, _ in adam[4][0]}
        assert {"beta1_power", *names, *(f"moment1.{key}" for key in names)} <= set(
            steps[-1][1][1])
    finally:
        training.set_backend(None)


def test_documented_loss_deviations_are_recognised():
    x, y = tool.tensor(np.zeros((2, 3), np.float32)), tool.tensor(np.ones((2, 3), np.float32))
    triplet = ("loss", "TripletMarginLoss", (), {}, (x, x, x))
    assert "no CPU kernel" in tool.documented(
        triplet, "raises RuntimeError in MindSpore only: Unsupported op [TripletMarginLoss]")
    assert tool.documented(triplet, "step 0: largest difference 0.5") is None
    one = tool.tensor(np.array([0.3], np.float32))
    bce = ("loss_function", "binary_cross_entropy", (), {"reduction": "Mean"}, (one, one))
    assert "doubles" in tool.documented(bce, "step 0: largest difference 1.2")
    # (MindSpore runs synchronously: another op's error is no longer taken as a leftover)
    hinge = ("loss_function", "hinge_embedding_loss", (), {}, (x, y))
    assert tool.documented(hinge, "raises RuntimeError in MindSpore only: The kernel "
                                  "SoftMarginLoss unregistered.") is None
    mse = ("loss", "MSELoss", (), {}, (x, y))
    assert tool.documented(mse, "raises ValueError in MindSpore only: For 'MSELoss', x") is None
    # a loss of float16 inputs is compared to float16's precision
    half = tool.tensor(np.zeros(2, np.float16))
    assert tool.case_tolerance(("loss", "KLDivLoss", (), {}, (half, half))) == 2e-3
    assert tool.case_tolerance(("loss", "KLDivLoss", (), {}, (x, y))) == 1e-5
