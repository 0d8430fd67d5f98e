"""Top-level `mindspore.*` names ported MindSpore 2.3-2.10 scripts use: dtype aliases and
conversions, set_device / set_deterministic / set_recursion_limit, from_numpy / is_tensor, the
random generator functions, run_check and the Dirac initializer; behaviour measured in
MindSpore 2.10."""
import numpy as np
import pytest

import training as ms
from training.common import device, seed as seed_module
from training.common.initializer import Dirac, initializer


@pytest.mark.parametrize("alias, expected", [
    ("float", np.float32), ("half", np.float16), ("double", np.float64), ("single", np.float32),
    ("int", np.int32), ("long", np.int64), ("short", np.int16), ("byte", np.int8),
    ("ubyte", np.uint8), ("bool", np.bool_), ("intc", np.int32), ("intp", np.int64),
    ("ushort", np.uint16), ("uintc", np.uint32), ("uintp", np.uint64),
    ("cfloat", np.complex64), ("cdouble", np.complex128)])
def test_dtype_aliases_as_mindspore(alias, expected):
    assert getattr(ms, alias) is expected
    assert ms.Tensor([1, 0], getattr(ms, alias)).dtype == expected


@pytest.mark.parametrize("generic", ["float_", "int_", "uint", "number"])
def test_generic_types_are_no_tensor_dtype(generic):
    """MindSpore's float_/int_/uint/number are type categories: Tensor(x, float_) is a
    TypeError there, and here."""
    with pytest.raises(TypeError):
        ms.Tensor(np.array([1.5, 2.0]), getattr(ms, generic))


@pytest.mark.parametrize("name", ["bfloat16", "float8_e4m3fn", "hifloat8"])
def test_types_numpy_cannot_hold_say_so(name):
    with pytest.raises(AttributeError, match="numpy has no"):
        getattr(ms, name)
    with pytest.raises(AttributeError, match="numpy has no"):
        getattr(ms.dtype, name)


def test_type_conversions_as_mindspore():
    assert ms.pytype_to_dtype(int) is np.int64
    assert ms.pytype_to_dtype(float) is np.float64         # (was float32 here)
    assert ms.pytype_to_dtype(bool) is np.bool_
    assert ms.pytype_to_dtype(np.float16) is np.float16
    assert ms.dtype_to_pytype(ms.float32) is float
    assert ms.dtype_to_pytype(ms.int8) is int
    assert ms.dtype_to_pytype(ms.bool_) is bool
    assert ms.dtype_to_nptype(ms.float32) is np.float32
    assert ms.get_py_obj_dtype(1) is np.int64
    assert ms.get_py_obj_dtype(1.0) is np.float64
    assert ms.get_py_obj_dtype(True) is np.bool_
    assert ms.get_py_obj_dtype(np.int32(1)) is np.int32
    assert ms.get_py_obj_dtype(ms.Tensor([1.0])) is np.float32
    with pytest.raises(NotImplementedError):
        ms.get_py_obj_dtype(np.array([1, 2]))


def test_from_numpy_shares_memory_and_is_tensor():
    array = np.array([1.0, 2.0], np.float32)
    tensor = ms.from_numpy(array)
    array[0] = 9.0
    assert tensor.asnumpy()[0] == 9.0
    with pytest.raises(TypeError):
        ms.from_numpy([1, 2])
    assert ms.is_tensor(tensor) and ms.is_tensor(ms.Parameter(ms.Tensor([1.0])))
    assert not ms.is_tensor(array) and not ms.is_tensor(1)


def test_is_tensor_takes_the_torch_backends_tensors():
    torch = pytest.importorskip("torch")
    assert ms.is_tensor(torch.ones(2))


@pytest.fixture
def fresh_device(monkeypatch):
    """set_device and set_deterministic take one setting per process, as in MindSpore."""
    monkeypatch.setattr(device, "_device", [])
    monkeypatch.setattr(device, "_deterministic", [])
    saved = {key: ms.get_context(key) for key in ("device_target", "device_id", "deterministic")}
    explicit = set(ms.context._explicit)
    yield
    ms.context._context.update(saved)
    ms.context._explicit.clear()
    ms.context._explicit.update(explicit)


def test_set_device_is_set_context(fresh_device):
    ms.set_device("CPU", 2)
    assert ms.get_context("device_target") == "CPU" and ms.get_context("device_id") == 2
    assert ms.get_current_device() == ("CPU", 2)
    ms.set_device("CPU", 2)         # the same again: accepted
    with pytest.raises(RuntimeError, match="can not be modified"):
        ms.set_device("CPU", 1)


def test_set_device_without_an_id_leaves_the_id_unset(fresh_device):
    ms.set_device("CPU")
    assert not ms.context.is_set("device_id")


@pytest.mark.parametrize("args, error", [
    (("cpu",), ValueError), (("TPU",), ValueError), ((1,), TypeError),
    (("CPU", -1), ValueError), (("CPU", 1.5), TypeError)])
def test_set_device_checks_as_mindspore(fresh_device, args, error):
    with pytest.raises(error):
        ms.set_device(*args)


def test_set_deterministic_once(fresh_device):
    with pytest.raises(TypeError):
        ms.set_deterministic(1)
    ms.set_deterministic(True)
    assert ms.get_context("deterministic") == "ON"
    with pytest.raises(RuntimeError, match="repeatedly"):
        ms.set_deterministic(False)


def test_set_recursion_limit_checks():
    ms.set_recursion_limit(2000)
    with pytest.raises(ValueError):
        ms.set_recursion_limit(0)
    with pytest.raises(TypeError):
        ms.set_recursion_limit(1.5)


@pytest.fixture
def fresh_generator(monkeypatch):
    monkeypatch.setattr(seed_module, "default_generator", seed_module.Generator(
        np.random.default_rng()))
    return seed_module.default_generator


def test_generator_functions_as_mindspore(fresh_generator):
    assert ms.initial_seed() == 0
    assert ms.manual_seed(5) is fresh_generator
    assert ms.initial_seed() == 5
    ms.manual_seed(-1)              # MindSpore takes any int64
    assert ms.initial_seed() == -1
    with pytest.raises(TypeError):
        ms.manual_seed(1.5)
    chosen = ms.seed()
    assert ms.initial_seed() == chosen


def test_rng_state_round_trips(fresh_generator):
    ms.manual_seed(7)
    state = ms.get_rng_state()
    assert state.dtype == np.uint8
    first = initializer("normal", (4,), ms.float32).asnumpy().copy()
    ms.set_rng_state(state)
    assert np.array_equal(initializer("normal", (4,), ms.float32).asnumpy(), first)
    assert ms.initial_seed() == 7
    with pytest.raises(RuntimeError):
        ms.set_rng_state(np.array([1, 2]))


def test_manual_seed_makes_initial_values_repeat(fresh_generator):
    ms.manual_seed(3)
    first = initializer("uniform", (5,), ms.float32).asnumpy().copy()
    ms.manual_seed(3)
    assert np.array_equal(initializer("uniform", (5,), ms.float32).asnumpy(), first)


def test_a_new_generator_starts_from_seed_0():
    a, b = ms.Generator(), ms.Generator()
    assert a.initial_seed() == 0
    assert np.array_equal(a.get_state().asnumpy(), b.get_state().asnumpy())


def test_run_check_prints_the_multiplication_check(capsys):
    ms.run_check()
    out = capsys.readouterr().out
    assert "The result of multiplication calculation is correct" in out


@pytest.mark.parametrize("shape, groups, ones", [
    ((2, 2, 3), 1, [[0, 0, 1], [1, 1, 1]]),
    ((4, 2, 3, 3), 2, [[0, 0, 1, 1], [1, 1, 1, 1], [2, 0, 1, 1], [3, 1, 1, 1]]),
    ((3, 2, 3), 1, [[0, 0, 1], [1, 1, 1]]),
    ((4, 2, 1, 2, 2), 2, [[0, 0, 0, 1, 1], [1, 1, 0, 1, 1], [2, 0, 0, 1, 1], [3, 1, 0, 1, 1]]),
    ((6, 2, 3), 3, [[0, 0, 1], [1, 1, 1], [2, 0, 1], [3, 1, 1], [4, 0, 1], [5, 1, 1]])])
def test_dirac_as_mindspore(shape, groups, ones):
    values = initializer(Dirac(groups), shape, ms.float32).asnumpy()
    assert np.argwhere(values).tolist() == ones and values.sum() == len(ones)


@pytest.mark.parametrize("shape, groups", [((2, 2), 1), ((3, 2, 3), 2)])
def test_dirac_refuses_as_mindspore(shape, groups):
    with pytest.raises(ValueError):
        initializer(Dirac(groups), shape, ms.float32).asnumpy()
