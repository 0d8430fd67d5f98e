"""Eager data transforms against MindSpore 2.10, on random inputs and arguments.

Each case is an op of ``minddata.transforms`` (Fill, Mask, OneHot, TypeCast, PadEnd, Slice,
Concatenate, Duplicate, Unique; Compose, RandomApply with prob 0 or 1, RandomChoice and
RandomOrder of one op; chains of these) built with random arguments and called eagerly on a
random input: a scalar or a 0-D to 3-D array of bool, int8 to uint64, float16 to float64, str_
or bytes_ (empty ones too), or a Python list, int, float or str. Types are passed by name and
resolved in each library: numpy's types in both, MindSpore's ``mindspore.common.dtype`` there
against this project's ``minddata.mstype`` or ``training.common.dtype`` here. The same cases run
in this interpreter and in MindSpore's (its own venv: ``--mindspore-python``), and every pair of
outcomes is compared: both raise, or both give the same number of outputs, each of the same
dtype, shape and values (strings by kind, str or bytes, and value). Differences the README
documents as deviations (MindSpore wrong, or taken here on purpose) are counted apart; two
errors of different types are counted apart too, as a softer difference.

    .venv/bin/python tools/data_ops_vs_mindspore.py [--seed 1] [--cases 400]
        [--mindspore-python /work/msvenv/bin/python]

Prints each undocumented difference (and each error type that differs) and a count per outcome;
exits 1 if there is an undocumented difference. The MindSpore interpreter runs this file alone
(numpy only: it never imports this package); should it die on a case (MindSpore corrupts its
heap on some inputs), the case is recorded as a crash and the run goes on in a new process.
"""
import argparse
import importlib
import os
import pickle
import random
import subprocess
import sys
import tempfile
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402

OP, TYPE, RELATION = "__op__", "__type__", "__relation__"
TYPE_NAMES = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
              "float16", "float32", "float64", "complex64", "string", "bytes_"]
#: numpy's name for what the type libraries call string; bytes_ is numpy's only
NUMPY_NAMES = {"string": "str_"}
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "str", "bytes"]
INTS = [0, 1, 2, 3, 7, -1, -5, 127, 128, 255, 300, -129, 65535, 70000, 2 ** 31, -2 ** 40]
FLOATS = [0.0, 0.5, -0.5, 1.0, 2.5, -2.7, 127.6, 255.9, 300.25, -129.5, 1e10, -1e10,
          float("nan"), float("inf"), float("-inf")]
WORDS = ["", "a", "ab", "abc", "hello", "\u00e9t\u00e9", "x y"]


def op(name, *args, **kwargs):
    """An op to build in each library (its arguments may hold ops, types and relations)."""
    return (OP, name, args, kwargs)


def data_type(r):
    """A type by name, with the library it is taken from ("numpy", "mstype" or "training"), or
    "name": numpy's name of it as a str ("int32")."""
    name = r.choice(TYPE_NAMES)
    library = r.choice(["numpy", "numpy", "name"]) if name == "bytes_" else \
        r.choice(["numpy", "numpy", "mstype", "training", "name"])
    return (TYPE, library, name)


def random_array(r, dtype=None, shape=None):
    """A numpy array built from Python values (the same in numpy 1 and 2)."""
    dtype = dtype or r.choice(DTYPES)
    if shape is None:
        shape = r.choice([(), (1,), (3,), (5,), (2, 3), (1, 4), (3, 1), (2, 2, 2), (1, 3, 2)]
                         if r.random() < 0.9 else [(0,), (2, 0)])
    size = int(np.prod(shape))
    if dtype in ("str", "bytes"):
        words = [r.choice(WORDS) for _ in range(size)]
        values = np.array(words, np.str_) if dtype == "str" else \
            np.array([w.encode() for w in words], np.bytes_)
    elif dtype == "bool":
        values = np.array([r.random() < 0.5 for _ in range(size)], np.bool_)
    elif dtype.startswith("float"):
        pool = FLOATS if r.random() < 0.5 else FLOATS[:10]
        with np.errstate(over="ignore"):        # 1e10 is inf in float16, on purpose
            values = np.array([r.choice(pool) for _ in range(size)], np.float64).astype(dtype)
    else:
        pool = INTS if r.random() < 0.3 else INTS[:5]
        values = np.array([r.choice(pool) for _ in range(size)], np.int64).astype(dtype)
    return values.reshape(shape)


def random_input(r):
    """An array, or a Python value MindSpore's eager call turns into one."""
    kind = r.random()
    if kind < 0.8:
        return random_array(r)
    return r.choice([
        lambda: [r.choice(INTS[:6]) for _ in range(r.randint(1, 4))],
        lambda: [r.choice(FLOATS[:8]) for _ in range(r.randint(1, 4))],
        lambda: [r.choice(WORDS[1:]) for _ in range(r.randint(1, 3))],
        lambda: [[1, 2], [3, 4]],
        lambda: r.choice(INTS[:8]),
        lambda: r.choice(FLOATS[:8]),
        lambda: r.choice(WORDS[1:]),
        lambda: r.choice(WORDS[1:]).encode(),
        lambda: r.random() < 0.5,
        lambda: [r.random() < 0.5 for _ in range(r.randint(1, 3))],
        lambda: tuple(r.choice(INTS[:6]) for _ in range(r.randint(1, 3))),
        lambda: [[r.choice(WORDS[1:]) for _ in range(2)] for _ in range(2)],
        lambda: np.array(r.choice(INTS[:6])).astype(
            r.choice(["int8", "uint16", "int64", "float32", "float64"]))[()],   # a numpy scalar
    ])()


def random_labels(r):
    """Labels for OneHot: a scalar, 1-D or 2-D, sometimes negative or too large."""
    shape = r.choice([(), (1,), (4,), (3, 1), (1, 1), (2, 3), (0,)])
    dtype = r.choice(["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                      "int64", "int32", "float32", "bool"])
    pool = [0, 1, 2, 3, 4] + ([-1, 9, 300] if r.random() < 0.3 else [])
    values = np.array([r.choice(pool) for _ in range(int(np.prod(shape)))], np.int64)
    return values.astype(dtype).reshape(shape)


def scalar(r, like):
    """A constant, fill or pad value: most often of the kind of ``like`` (the input), else of
    any type."""
    if r.random() < 0.3:
        return r.choice([0, 1, 3, -1, 300, 2.7, -0.5, True, False, "a", "xyz", b"b", b"",
                         float("nan")])
    kind = like.dtype.kind
    if kind in "US":
        word = r.choice(WORDS)
        return word if kind == "U" else word.encode()
    if kind == "b":
        return r.random() < 0.5
    return r.choice([0, 1, 3, -1, 300, 2.7, -0.5, float("nan")] if kind == "f" else
                    [0, 1, 2, 3, 7, -1, 300, 2.7])


def slice_argument(r, size):
    """One index of Slice, most often inside a dimension of ``size``."""
    inside = [i for i in range(-size, size)] or [0]
    return r.choice([
        lambda: r.choice(inside if r.random() < 0.8 else [5, -7]),
        lambda: [r.choice(inside) for _ in range(r.randint(0, 3))],
        lambda: slice(r.choice([None, 0, 1, -2, 7]), r.choice([None, 2, -1, 10]),
                      r.choice([None, 1, 2, -1])),
        lambda: slice(r.choice(inside), r.choice(inside + [size])),
        lambda: None,
        lambda: Ellipsis,
        lambda: r.choice([True, False]),
    ])()


def same_kind_array(r, like):
    """A 1-D array for Concatenate: most often of the input's dtype."""
    if r.random() < 0.7 and like.dtype.kind in "biufUS":
        kind = {"U": "str", "S": "bytes"}.get(like.dtype.kind, like.dtype.name)
    else:
        kind = r.choice(["int64", "int32", "float64", "str", "bytes", "uint8"])
    return random_array(r, kind, r.choice([(2,), (1,), (2,), (0,), (1, 2)]))


def wrong_arguments(r):
    """Makers of ops built with an argument of the wrong type or value."""
    return [
        lambda: op("OneHot", r.choice([0, -1, 2.5, "3", None, True])),
        lambda: op("OneHot", 3, smoothing_rate=r.choice([1.5, -0.1, "0.1", None])),
        lambda: op("Fill", r.choice([[1], None, (1, 2), np.array([1])])),
        lambda: op("Mask", r.choice([(RELATION, "EQ"), 0, "EQ"]), r.choice([[1], None, 1])),
        lambda: op("TypeCast", r.choice([None, 3, "junk", [np.int32]])),
        lambda: op("PadEnd", r.choice([[0], [-1], [2.5], 3, "3", [True], None])),
        lambda: op("PadEnd", [2], r.choice([[1], (1,), None])),
        lambda: op("Slice", r.choice(["a", 1.5, (1, 2), [1.5], [True]])),
        lambda: op("Concatenate", r.choice([1, -2, 0.0, "0", None])),
        lambda: op("Concatenate", 0, r.choice([[1, 2], (1,), 3, "ab"])),
        lambda: op("RandomApply", [op("Duplicate")], prob=r.choice([1.5, -0.5, "1", None])),
        lambda: op(r.choice(["Compose", "RandomChoice", "RandomOrder", "RandomApply"]),
                   r.choice([[], None, op("Duplicate"), [1]])),
    ]


LEAVES = ["Fill", "Mask", "OneHot", "TypeCast", "PadEnd", "Slice", "Concatenate", "Duplicate",
          "Unique"]


def leaf_input(r, name):
    """An input for op ``name``: labels for OneHot most often, a 1-D or 2-D array for Unique and
    Concatenate often, else any input."""
    if name == "OneHot" and r.random() < 0.8:
        return random_labels(r)
    if name in ("Unique", "Concatenate") and r.random() < 0.6:
        return random_array(r, r.choice(DTYPES), r.choice([(4,), (3,), (2, 3), (0,)]))
    return random_input(r)


def random_leaf(r, like=None):
    """(op, input) of one data transform with random arguments, most often ones that suit the
    input (``like``, when given, is the input; else one is drawn)."""
    if r.random() < 0.1:
        return r.choice(wrong_arguments(r))(), like if like is not None else random_input(r)
    name = r.choice(LEAVES)
    value = leaf_input(r, name) if like is None else like
    x = np.asarray(value)
    relations = ["EQ", "NE", "GT", "GE", "LT", "LE"]
    rank = x.ndim if r.random() < 0.7 else r.randint(0, 3)
    makers = {
        "Fill": lambda: op("Fill", scalar(r, x)),
        "Mask": lambda: op("Mask", (RELATION, r.choice(relations)), scalar(r, x),
                           **({"dtype": data_type(r)} if r.random() < 0.6 else {})),
        "OneHot": lambda: op("OneHot", r.choice([1, 2, 3, 5, 10]),
                             **({"smoothing_rate": r.choice([0.0, 0.1, 0.5, 1.0])}
                                if r.random() < 0.5 else {})),
        "TypeCast": lambda: op("TypeCast", data_type(r)),
        "PadEnd": lambda: op("PadEnd", [r.choice([1, 2, 3, 4, None]) for _ in range(rank)],
                             *([scalar(r, x)] if r.random() < 0.7 else [])),
        "Slice": lambda: op("Slice", *[slice_argument(r, x.shape[i] if i < x.ndim else 1)
                                       for i in range(r.choice([0, 1, 1, 2, rank]))]),
        "Concatenate": lambda: op("Concatenate", r.choice([0, 0, -1, 1]),
                                  *[r.choice([None, None, same_kind_array(r, x)])
                                    for _ in range(2)]),
        "Duplicate": lambda: op("Duplicate"),
        "Unique": lambda: op("Unique"),
    }
    return makers[name](), value


def random_case(r):
    """(op, input): one transform, one wrapped in a composite, or a chain of two or three."""
    leaf, value = random_leaf(r)
    kind = r.random()
    if kind < 0.6:
        return leaf, value
    if kind < 0.8:
        wrapper = r.choice([
            lambda: op("Compose", [leaf]),
            lambda: op("RandomApply", [leaf], **({"prob": r.choice([0, 1.0])})),
            lambda: op("RandomChoice", [leaf]),
            lambda: op("RandomOrder", [leaf])])
        return wrapper(), value
    chain = [leaf] + [random_leaf(r, value)[0] for _ in range(r.randint(1, 2))]
    return op("Compose", chain), value


def cases(seed, count):
    r = random.Random(seed)
    return [random_case(r) for _ in range(count)]


def steps(spec, value, library):
    """(plain op, the arrays it is given) for each op a case runs, in order, its inputs computed
    here (a composite's random draws are fixed: one op, or a probability of 0 or 1); the walk
    stops where an op raises."""
    found = []

    def walk(spec, arrays):
        _, name, args, kwargs = spec
        if name in ("Compose", "RandomChoice", "RandomOrder") or (
                name == "RandomApply" and kwargs.get("prob", 0.5) == 1):
            for member in args[0]:
                arrays = walk(member, arrays)
            return arrays
        if name == "RandomApply":       # prob 0: nothing runs
            return arrays
        found.append((spec, arrays))
        return library.resolve(spec).apply(arrays, 0)

    try:
        walk(spec, (np.asarray(value),))
    except Exception:       # noqa: BLE001 (the ops up to it are what the rules read)
        pass
    return found


def plain_ops(spec):
    """Every plain op of a case's op (inside its composites), run or not."""
    _, name, args, _ = spec
    if name in ("Compose", "RandomApply", "RandomChoice", "RandomOrder"):
        return [leaf for member in args[0] for leaf in plain_ops(member)]
    return [spec]


def slice_refused(s):
    """Whether MindSpore 2.10 refuses this slice object when Slice is built (measured: "Wrong
    slice object" without a stop, or without a start but with a step, or with a step of 0;
    slice(None): a SystemError)."""
    return s.step == 0 or s.stop is None or (s.start is None and s.step is not None)


def slice_mindspore_wrong(s, size):
    """Whether MindSpore 2.10 gets this slice object of a dimension of ``size`` wrong when it
    runs (measured: "Not a valid index" for a negative step from past the end; a negative step
    running past the start stops at 1; an empty slice of step 2 or more gives uninitialised
    values)."""
    step = s.step or 1
    if step < 0 and (s.start >= size or s.stop < -size):
        return True
    return abs(step) > 1 and len(range(*s.indices(size))) == 0


def float32_rounds(value, dtype):
    """Whether a number differs once rounded to float32 and cast to ``dtype``."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or dtype.kind not in "iuf":
        return False
    with np.errstate(all="ignore"):
        exact, rounded = np.array(value).astype(dtype), np.float32(value).astype(dtype)
    return not np.array_equal(exact, rounded, equal_nan=True)


def documented(spec, value, library=None):
    """The README's word for a difference this case may show, or None (see "Deviations from
    MindSpore" under Image transforms)."""
    for op_spec in plain_ops(spec):
        _, name, args, kwargs = op_spec
        if name == "Mask" and kwargs.get("dtype", (TYPE, "mstype"))[1] in ("numpy", "name"):
            return "Mask takes numpy types and names for dtype (MindSpore its own types only)"
        if name == "Slice" and any(a is False or isinstance(a, slice) and slice_refused(a)
                                   for a in args):
            return "Slice takes Python's slices and False (MindSpore refuses some when built)"
        if any(isinstance(a, tuple) and a[:1] == (TYPE,) and a[2] == "complex64"
               for a in list(args) + list(kwargs.values())):
            return "complex types refused when the op runs (MindSpore: KeyError when built)"
        if name == "Concatenate" and any(isinstance(a, np.ndarray) and a.size == 0
                                         and a.dtype.kind not in "US" for a in args[1:]):
            return "Concatenate takes an empty prepend/append (MindSpore fails)"
    for op_spec, arrays in steps(spec, value, library or Library("minddata")):
        why = op_rule(op_spec, np.asarray(arrays[0]))
        if why:
            return why
    return None


def op_rule(spec, x):
    """The README's word for what this op does with input ``x`` apart from MindSpore, or None."""
    _, name, args, kwargs = spec
    if name in ("Fill", "Unique", "OneHot", "PadEnd") and x.size == 0:
        return "Fill, Unique, OneHot and PadEnd take empty arrays (MindSpore's kernels fail)"
    if name == "OneHot":
        labels = np.squeeze(x)
        rules = [(x.dtype.kind == "i" and x.size and x.min() < 0,
                  "OneHot refuses negative labels (MindSpore writes them outside the row)"),
                 (args[0] == 1, "OneHot(1) keeps the class axis (MindSpore drops it)"),
                 (kwargs.get("smoothing_rate", 0) > 0 and labels.ndim == 1 and labels.size > 1,
                  "OneHot smooths every row (MindSpore the last one only)")]
    elif name == "Unique":
        rules = [(x.ndim == 1 or x.dtype.kind in "USb", "Unique takes 1-D input, strings, bools")]
    elif name == "Fill":
        rules = [(x.dtype == np.float16, "Fill fills float16 (MindSpore cannot)")]
    elif name == "PadEnd":
        rules = [(x.ndim == 0, "PadEnd refuses a 0-d input (MindSpore returns it)"),
                 (None in args[0], "PadEnd keeps a dimension given as None"),
                 (len(args) > 1 and float32_rounds(args[1], x.dtype),
                  "PadEnd pads with the value (MindSpore rounds it to float32 first)")]
    elif name == "Slice":
        rules = [(not args and x.ndim == 0, "Slice() of a 0-d input (MindSpore crashes)"),
                 (any(isinstance(a, slice) and axis < x.ndim and not slice_refused(a)
                      and slice_mindspore_wrong(a, x.shape[axis])
                      for axis, a in enumerate(args)),
                  "Slice takes Python's slices (MindSpore 2.10 gets some wrong)")]
    else:
        rules = []
    return next((why for applies, why in rules if applies), None)


class Library:
    """Resolves a case's op in ``mindspore`` or ``minddata``."""

    def __init__(self, name):
        if name == "mindspore":
            self.transforms = importlib.import_module("mindspore.dataset.transforms")
            mstype = importlib.import_module("mindspore.common.dtype")
            self.types = {"mstype": mstype, "training": mstype}
        else:
            self.transforms = importlib.import_module("minddata.transforms")
            self.types = {"mstype": importlib.import_module("minddata.mstype"),
                          "training": importlib.import_module("training.common.dtype")}

    def resolve(self, value):
        if isinstance(value, tuple) and value and value[0] == OP:
            _, name, args, kwargs = value
            return getattr(self.transforms, name)(*[self.resolve(a) for a in args],
                                                  **{k: self.resolve(v) for k, v in kwargs.items()})
        if isinstance(value, tuple) and value and value[0] == TYPE:
            _, library, name = value
            if library == "numpy":
                return getattr(np, NUMPY_NAMES.get(name, name))
            if library == "name":
                return NUMPY_NAMES.get(name, name)
            return getattr(self.types[library], name)
        if isinstance(value, tuple) and value and value[0] == RELATION:
            return getattr(self.transforms.Relational, value[1])
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        return value


def outcome(library, spec, value):
    """("ok", kind, [arrays]) of the case (kind "array" or "tuple"), or ("error", type name,
    message)."""
    try:
        out = library.resolve(spec)(value.copy() if isinstance(value, (np.ndarray, list))
                                    else value)
        if isinstance(out, tuple):
            return ("ok", "tuple", [np.asarray(o) for o in out])
        return ("ok", type(out).__name__, [np.asarray(out)])
    except Exception as exc:        # an outcome to compare, like a result
        message = str(exc).split("[ERROR] ", 1)[-1]     # MindSpore's banner dropped
        return ("error", type(exc).__name__, message.split("\n")[0][:200])


def emit(library_name, seed, count, start, path):
    """The reference interpreter's part: each case's outcome from ``start`` on, appended to
    ``path`` one pickle at a time (what was written survives a crash)."""
    warnings.simplefilter("ignore")
    library = Library(library_name)
    with open(path, "ab") as f:
        for spec, value in cases(seed, count)[start:]:
            pickle.dump(outcome(library, spec, value), f)
            f.flush()


def reference_outcomes(args):
    """The reference interpreter's outcomes; a case it dies on is ("crash", ...) (run alone in
    a new process first, so that an earlier case's damage is not blamed on it)."""
    results, retried = [], set()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "reference.pkl")
        env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))) if args.reference == "minddata" else "")
        while len(results) < args.cases:
            open(path, "wb").close()
            done = subprocess.run(
                [args.mindspore_python, os.path.abspath(__file__), "--seed", str(args.seed),
                 "--cases", str(args.cases), "--emit", args.reference, path, str(len(results))],
                env=env, stderr=subprocess.DEVNULL)
            with open(path, "rb") as f:
                while True:
                    try:
                        results.append(pickle.load(f))
                    except (EOFError, pickle.UnpicklingError):
                        break
            if done.returncode != 0 and not results and not retried:
                differential_reference.check_importable(args.mindspore_python, args.reference,
                                                        env, done.returncode)
            if done.returncode != 0 and len(results) < args.cases:
                if len(results) in retried:
                    results.append(("crash", f"exit status {done.returncode}", ""))
                else:
                    retried.add(len(results))
    return results


def as_text(array):
    return [str(v) for v in array.ravel().tolist()]


def difference(ours, theirs):
    """Why ``ours`` and ``theirs`` (outcomes of one case) differ, or None."""
    if ours[0] == "error" and theirs[0] == "error":
        return None
    if ours[0] != theirs[0]:
        if theirs[0] == "crash":
            return f"MindSpore's interpreter dies ({theirs[1]})"
        failed, which = (ours, "here") if ours[0] == "error" else (theirs, "in MindSpore")
        return f"raises {failed[1]} {which} only: {failed[2][:150]}"
    if ours[1] != theirs[1] or len(ours[2]) != len(theirs[2]):
        return f"{len(ours[2])} outputs ({ours[1]}) here, {len(theirs[2])} ({theirs[1]}) there"
    for a, b in zip(ours[2], theirs[2]):
        if (a.dtype.kind in "US") != (b.dtype.kind in "US") or a.shape != b.shape or (
                a.dtype.kind not in "US" and a.dtype != b.dtype) or (
                a.dtype.kind in "US" and a.dtype.kind != b.dtype.kind):
            return f"{a.dtype}{a.shape} here, {b.dtype}{b.shape} in MindSpore"
        if a.dtype.kind in "US":
            same = as_text(a) == as_text(b)
        else:
            same = np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
        if not same:
            return f"values differ: {a.ravel()[:8]} here, {b.ravel()[:8]} in MindSpore"
    return None


def classify(spec, value, mine, theirs, library):
    """(kind, what to print or None): kind "same", "error type differs" (both raise, another
    type of error), "documented" or "different"."""
    why = difference(mine, theirs)
    if why is None and mine[0] == "error" and mine[1] != theirs[1]:
        if documented(spec, value, library):
            return "documented", None
        return "error type differs", f"{mine[1]} here, {theirs[1]} in MindSpore ({theirs[2][:100]})"
    if why is None:
        return "same", None
    if documented(spec, value, library):
        return "documented", None
    return "different", why


def describe(spec):
    """An op as it reads in Python."""
    if isinstance(spec, tuple) and spec and spec[0] == OP:
        _, name, args, kwargs = spec
        parts = [describe(a) for a in args] + [f"{k}={describe(v)}" for k, v in kwargs.items()]
        return f"{name}({', '.join(parts)})"
    if isinstance(spec, tuple) and spec and spec[0] == TYPE:
        return f"{spec[1]}.{spec[2]}"
    if isinstance(spec, tuple) and spec and spec[0] == RELATION:
        return f"Relational.{spec[1]}"
    if isinstance(spec, list):
        return f"[{', '.join(describe(s) for s in spec)}]"
    if isinstance(spec, np.ndarray):
        return f"array({spec.tolist()!r}, {spec.dtype})"
    return repr(spec)


def describe_input(value):
    if isinstance(value, np.ndarray):
        return f"{value.dtype}{value.shape} {value.ravel()[:6].tolist()!r}"
    return repr(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=400)
    parser.add_argument("--mindspore-python", default="/work/msvenv/bin/python")
    parser.add_argument("--reference", default="mindspore",
                        help="the library the reference interpreter runs (minddata: a self-check)")
    parser.add_argument("--emit", nargs=3, metavar=("LIBRARY", "FILE", "START"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.emit:
        emit(args.emit[0], args.seed, args.cases, int(args.emit[2]), args.emit[1])
        return 0
    reference = reference_outcomes(args)
    warnings.simplefilter("ignore")
    library = Library("minddata")
    counts, results = {}, 0
    for (spec, value), theirs in zip(cases(args.seed, args.cases), reference):
        mine = outcome(library, spec, value)
        kind, why = classify(spec, value, mine, theirs, library)
        counts[kind] = counts.get(kind, 0) + 1
        results += kind == "same" and mine[0] == "ok"
        if why:
            print(f"{describe(spec)} on {describe_input(value)}: {why}")
    print(f"{args.cases} cases, seed {args.seed}: {counts.get('same', 0)} same ({results} "
          f"with a result), " +
          ", ".join(f"{counts.get(k, 0)} {k}"
                    for k in ("error type differs", "documented", "different")))
    return 1 if counts.get("different") else 0


if __name__ == "__main__":
    sys.exit(main())
