"""The argument checks of the dataset ops and of ``ds.config`` against MindSpore 2.10, on
random arguments, each valid or wrong.

Each case builds a small NumpySlicesDataset (columns "a", int64 scalars, and "b", float32
vectors of 2; 5 rows, not shuffled) and calls ONE op on it with random arguments, each drawn
valid or wrong (a wrong type, a bool for an int, negative, zero, huge, None, a float, a str, a
list of wrong items, an unknown column name, an empty list): ``batch`` (batch_size,
drop_remainder, num_parallel_workers, per_batch_map, input_columns, output_columns,
python_multiprocessing, max_rowsize), ``padded_batch`` (pad_info), ``bucket_batch_by_length``,
``shuffle``, ``repeat``, ``take``, ``skip``, ``project``, ``rename``, ``map`` (operations,
input_columns, output_columns, num_parallel_workers, python_multiprocessing, max_rowsize),
``filter``, ``zip``, ``concat``, ``split`` (sizes, randomize), ``create_tuple_iterator`` and
``create_dict_iterator`` (columns, num_epochs, output_numpy, do_copy); then reads one epoch and
``get_dataset_size()``. Or a case calls one ``ds.config`` setter with a random value, valid or
wrong, reads it back with its getter and sets the value it had before. The same cases run here
and in MindSpore's own interpreter (``--mindspore-python``) and are compared item by item
(building the op, the rows of the epoch, the size; the setter, the read-back value): where it
raises and the type of error (another type counted apart as "error type", another step as
"error elsewhere"), whether MindSpore's message's key words (argument names, values, bounds)
appear in ours (counted apart as "error words", shown with ``--show-error-types``), else the
rows' dtype, shape and values (sorted after a shuffle, counted after a random split) and the
read-back value. Counted apart too: differences the README documents ("documented") and cases
that kill or hang MindSpore's interpreter ("MindSpore crashed").

    .venv/bin/python tools/op_arguments_vs_mindspore.py [--seed 1] [--cases 300]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]
        [--show-documented] [--case N ...]

Prints each undocumented difference and a count per outcome; exits 1 if there is one. The
MindSpore interpreter runs this file alone (numpy only: it never imports this package).
"""
import importlib
import os
import random
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import pipelines_vs_mindspore as pipelines                          # noqa: E402

CASE_TIMEOUT_S = 30         # a case of the reference interpreter that runs longer hangs
ROW_COUNT = 5
MAX_ROWS = 30               # an epoch read to at most this many rows (repeat(None) never ends)
INT32_MAX = 2 ** 31 - 1
#: the wrong values of an int argument
WRONG_INTS = [-1, 0, True, False, None, 1.5, 2.0, "2", [2], 2 ** 31, 2 ** 63, -2 ** 40]
WRONG_BOOLS = [1, 0, "True", None, [True], 1.0]
WRONG_COLUMNS = [["zz"], [], [1], 1, None, "", ["a", "a"], ("a",), [["a"]]]
WORKERS = [1, 2]


# --- the functions a case passes (module level: worker processes pickle them) ------------------


def plus_one(x):
    return x + 1


def two_outputs(x):
    return x, x * 2


def both_plus_one(x, y):
    return x + 1, y + 1


def per_batch_same(*columns):
    """per_batch_map: the columns as given (the last argument is the BatchInfo)."""
    return tuple(columns[:-1])


def per_batch_first(*columns):
    """per_batch_map that returns one column only."""
    return (columns[0],)


def keep_even(*columns):
    return bool(np.asarray(columns[0]).sum() % 2 == 0)


def length_of(value):
    return int(np.asarray(value).size)


FUNCTIONS = {f.__name__: f for f in (plus_one, two_outputs, both_plus_one, per_batch_same,
                                     per_batch_first, keep_even, length_of)}


def fn(name):
    return ("fn", name)


# --- drawing cases ------------------------------------------------------------------------------

#: per op: [(argument, required, valid values, wrong values)]
OPS = {
    "batch": [
        ("batch_size", True, [1, 2, 3, 5], WRONG_INTS + [INT32_MAX + 1]),
        ("drop_remainder", False, [True, False], WRONG_BOOLS),
        ("num_parallel_workers", False, WORKERS, WRONG_INTS + [10000]),
        ("per_batch_map", False, [fn("per_batch_same"), fn("per_batch_first")],
         ["x", 1, [fn("per_batch_same")]]),
        ("input_columns", False, [["a"], "b", ["a", "b"]], WRONG_COLUMNS),
        ("output_columns", False, [["x"], "y", ["x", "y"]], WRONG_COLUMNS),
        ("python_multiprocessing", False, [False, False, True], WRONG_BOOLS),
        ("max_rowsize", False, [16, -1, [4, 4]], [0, -2, "16", 1.5, None, [1, 2, 3], True]),
    ],
    "padded_batch": [
        ("batch_size", True, [1, 2, 3], WRONG_INTS),
        ("drop_remainder", False, [True, False], WRONG_BOOLS),
        ("num_parallel_workers", False, WORKERS, WRONG_INTS),
        ("pad_info", False, [None, {"b": ([3], 0)}, {"b": (None, -1)}, {"a": ([2], 0)},
                             {"b": ([4], 1.5), "a": (None, 0)}],
         [{"zz": ([3], 0)}, {"b": ([1], 0)}, [1], {"b": "x"}, {"b": ([3],)}, {"b": ([-2], 0)},
          {1: ([3], 0)}, {"b": ("3", 0)}, {"b": ([3], "x")}, "b"]),
    ],
    "bucket_batch_by_length": [
        ("column_names", True, [["b"]], WRONG_COLUMNS + [["a", "b"]]),
        ("bucket_boundaries", True, [[2, 4], [3], [1, 2, 3]],
         [[4, 2], [0, 2], [], [-1], "x", [1.5], [2, 2], None, 3]),
        ("bucket_batch_sizes", True, [[1, 2, 3], [2, 2, 2]],
         [[1, 2], [0, 1, 1], [-1, 1, 1], "x", [1.5, 1, 1], None, [1, 2, 3, 4]]),
        ("element_length_function", False, [None, fn("length_of")], ["x", 1]),
        ("pad_info", False, [None, {"b": ([3], 0)}], [{"zz": ([3], 0)}, [1], {"b": ([1], 0)}]),
        ("pad_to_bucket_boundary", False, [False, True], WRONG_BOOLS),
        ("drop_remainder", False, [False, True], WRONG_BOOLS),
    ],
    "shuffle": [("buffer_size", True, [2, 3, 10, 10000], WRONG_INTS + [1, INT32_MAX + 1])],
    "repeat": [("count", False, [None, 1, 2, -1], [0, -2, True, "2", 1.5, 2 ** 31, [2]])],
    "take": [("count", False, [-1, 1, 3, 10], [0, -2, True, "1", 1.5, None, 2 ** 63])],
    "skip": [("count", True, [0, 1, 3, 10], [-1, True, "1", 1.5, None, 2 ** 63, [1]])],
    "project": [("columns", True, [["a"], ["b", "a"], "a"], WRONG_COLUMNS)],
    "rename": [
        ("input_columns", True, [["a"], "a", ["a", "b"]], WRONG_COLUMNS),
        ("output_columns", True, [["x"], "x", ["x", "y"]], WRONG_COLUMNS + [["b"]]),
    ],
    "map": [
        ("operations", True, [fn("plus_one"), [fn("plus_one"), fn("plus_one")],
                              fn("two_outputs"), fn("both_plus_one")],
         ["x", 1, [], None, [1], [fn("plus_one"), "x"]]),
        ("input_columns", False, [None, ["a"], "b", ["a", "b"]], WRONG_COLUMNS),
        ("output_columns", False, [None, ["x"], ["x", "y"], "a"], WRONG_COLUMNS),
        ("num_parallel_workers", False, WORKERS, WRONG_INTS + [10000]),
        ("python_multiprocessing", False, [False, False, True], WRONG_BOOLS),
        ("max_rowsize", False, [16, -1, [4, 4]], [0, -2, "16", 1.5, None, [1, 2, 3], True]),
    ],
    "filter": [
        ("predicate", True, [fn("keep_even")], ["x", 1, None, [fn("keep_even")]]),
        ("input_columns", False, [None, ["a"], "b", ["a", "b"]], WRONG_COLUMNS),
        ("num_parallel_workers", False, WORKERS, WRONG_INTS),
    ],
    "zip": [("datasets", True, [("other",), ("tuple", "other")],
             [("self",), 1, ("list", "other"), ("tuple",), None, "x", ("tuple", "self")])],
    "concat": [("datasets", True, [("same columns",), ("list", "same columns")],
                [("other",), 1, ("list",), None, "x", ("list", "other"), ("tuple", "other")])],
    "split": [
        ("sizes", True, [[2, 3], [0.4, 0.6], [1, 4], [1, 1, 3], [0.2, 0.8]],
         [[2, 2], [0.5, 0.6], [0, 5], [], [-1, 6], "x", [1.5, 3.5], [0.0, 1.0], None, [5],
          [True, 4], [2, 3.0]]),
        ("randomize", False, [False, False, True], WRONG_BOOLS),
    ],
    "create_tuple_iterator": [
        ("columns", False, [None, ["a"], "b", ["b", "a"]], WRONG_COLUMNS),
        ("num_epochs", False, [-1, 1, 2], [0, -2, True, "1", 1.5, None]),
        ("output_numpy", False, [False, True], WRONG_BOOLS),
        ("do_copy", False, [False, True], WRONG_BOOLS),
    ],
    "create_dict_iterator": [
        ("num_epochs", False, [-1, 1, 2], [0, -2, True, "1", 1.5, None]),
        ("output_numpy", False, [False, True], WRONG_BOOLS),
        ("do_copy", False, [False, True], WRONG_BOOLS),
    ],
}

INT_SETTING_WRONG = [-1, 0, True, 1.5, "1", None, 2 ** 31, 2 ** 63, [1]]
BOOL_SETTING_WRONG = [1, 0, "True", None, 1.0]
#: per ds.config setter: (getter, valid values, wrong values)
SETTINGS = {
    "set_seed": ("get_seed", [0, 1, 2 ** 32 - 1], [-1, 2 ** 32, True, 1.5, "1", None]),
    "set_num_parallel_workers": ("get_num_parallel_workers", [1, 2, 8],
                                 INT_SETTING_WRONG + [10000]),
    "set_prefetch_size": ("get_prefetch_size", [1, 16, 1000], INT_SETTING_WRONG),
    "set_monitor_sampling_interval": ("get_monitor_sampling_interval", [0, 10, 1000],
                                      INT_SETTING_WRONG),
    "set_callback_timeout": ("get_callback_timeout", [1, 60], INT_SETTING_WRONG),
    "set_enable_shared_mem": ("get_enable_shared_mem", [True, False], BOOL_SETTING_WRONG),
    "set_autotune_interval": ("get_autotune_interval", [0, 10, 100], INT_SETTING_WRONG),
    "set_sending_batches": (None, [0, 10], INT_SETTING_WRONG),      # no getter: reset to 0
    "set_error_samples_mode": ("get_error_samples_mode",
                               [("mode", "RETURN"), ("mode", "REPLACE"), ("mode", "SKIP")],
                               [0, "return", None, True, "RETURN"]),
    "set_debug_mode": ("get_debug_mode", [True, False], BOOL_SETTING_WRONG),
    "set_multiprocessing_timeout_interval": ("get_multiprocessing_timeout_interval", [1, 300],
                                             INT_SETTING_WRONG),
    "set_auto_num_workers": ("get_auto_num_workers", [True, False], BOOL_SETTING_WRONG),
    "set_enable_watchdog": ("get_enable_watchdog", [True, False], BOOL_SETTING_WRONG),
    "set_fast_recovery": ("get_fast_recovery", [True, False], BOOL_SETTING_WRONG),
    "set_numa_enable": ("get_numa_enable", [True, False], BOOL_SETTING_WRONG),
    "set_auto_offload": ("get_auto_offload", [True, False], BOOL_SETTING_WRONG),
}


def draw(r, valid, wrong, wrong_chance):
    """A value of an argument and whether it was drawn wrong."""
    if r.random() < wrong_chance:
        return r.choice(wrong), True
    return r.choice(valid), False


def random_case(r):
    if r.random() < 0.2:
        setter = r.choice(sorted(SETTINGS))
        _, valid, wrong = SETTINGS[setter]
        value, wrong_drawn = draw(r, valid, wrong, 0.6)
        return {"kind": "config", "setter": setter, "value": value, "wrong": wrong_drawn}
    op = r.choice(sorted(OPS))
    wrong_chance = r.choice([0.0, 0.15, 0.3, 0.5])
    args, wrong_names = {}, []
    for name, required, valid, wrong in OPS[op]:
        if required or r.random() < 0.5:
            args[name], wrong_drawn = draw(r, valid, wrong, wrong_chance)
            if wrong_drawn:
                wrong_names.append(name)
    return {"kind": "op", "op": op, "args": args, "wrong": wrong_names}


def cases(seed, count):
    r = random.Random(seed)
    return [random_case(r) for _ in range(count)]


# --- running a case in one library --------------------------------------------------------------


class Library:
    """``mindspore.dataset`` or ``minddata``."""

    def __init__(self, name):
        self.ds = importlib.import_module("mindspore.dataset" if name == "mindspore"
                                          else "minddata")

    def source(self, names=("a", "b")):
        a = np.arange(ROW_COUNT, dtype=np.int64)
        b = np.arange(ROW_COUNT * 2, dtype=np.float32).reshape(ROW_COUNT, 2) / 4
        return self.ds.NumpySlicesDataset({names[0]: a, names[1]: b}, shuffle=False)

    def resolve(self, value, data):
        """A drawn value as the argument itself: functions, datasets, modes."""
        if isinstance(value, tuple) and value and value[0] == "fn":
            return FUNCTIONS[value[1]]
        if isinstance(value, tuple) and value and value[0] == "mode":
            return getattr(self.ds.config.ErrorSamplesMode, value[1])
        if isinstance(value, list):
            return [self.resolve(v, data) for v in value]
        return value

    def datasets(self, value, data):
        """zip's and concat's argument."""
        if not isinstance(value, tuple):
            return value
        one = {"other": lambda: self.source(("c", "d")), "self": lambda: data,
               "same columns": self.source}
        if value[0] in ("tuple", "list"):
            parts = [one[v]() for v in value[1:]]
            return tuple(parts) if value[0] == "tuple" else parts
        return one[value[0]]()

    def apply(self, case, data):
        """The op called on ``data``: a dataset, a list of them (split) or an iterator."""
        op, args = case["op"], dict(case["args"])
        if op in ("zip", "concat"):
            return getattr(data, op)(self.datasets(args["datasets"], data))
        args = {k: self.resolve(v, data) for k, v in args.items()}
        return getattr(data, op)(**args)


def plain(value):
    return pipelines.plain(value)


def attempt(function):
    """pipelines.attempt, an error's whole message (on one line) kept after the rest: this
    package's messages put MindSpore's words after its own, past the "[ERROR] " that
    pipelines.error cuts at."""
    try:
        return ("ok", function())
    except Exception as exc:            # an outcome to compare, like a value
        return pipelines.error(exc) + (" ".join(str(exc).split())[:600],)


def epoch(case, result):
    """The rows of one epoch of what the op gave (sorted after a shuffle)."""
    op = case["op"]
    if op == "create_tuple_iterator":
        return [[plain(v) for v in row] for _, row in zip(range(MAX_ROWS), result)]
    if op == "create_dict_iterator":
        return [sorted((k, plain(v)) for k, v in row.items())
                for _, row in zip(range(MAX_ROWS), result)]
    if op == "split":
        parts = [epoch({"op": "part"}, part) for part in result]
        return [len(part) for part in parts] if case["args"].get("randomize", True) else parts
    iterator = result.create_tuple_iterator(num_epochs=1, output_numpy=True)
    rows = [[plain(v) for v in row] for _, row in zip(range(MAX_ROWS), iterator)]
    return sorted(rows, key=repr) if op == "shuffle" else rows


def run_case(library, case):
    """[(item, outcome)]: "build", "rows" and "size" of an op; "set" and "get" of a setter."""
    if case["kind"] == "config":
        return run_setting(library, case)
    data = library.source()
    built = attempt(lambda: library.apply(case, data))
    if built[0] == "error":
        return [("build", built)]
    result = built[1]
    found = [("build", ("ok", None)), ("rows", attempt(lambda: epoch(case, result)))]
    sized = result if case["op"] not in ("create_tuple_iterator", "create_dict_iterator") \
        else data
    size = (lambda: [part.get_dataset_size() for part in sized]) if case["op"] == "split" \
        else sized.get_dataset_size
    found.append(("size", attempt(size)))
    return found


def read_back(value):
    return value.name if hasattr(value, "name") else value


def run_setting(library, case):
    config = library.ds.config
    getter, _, _ = SETTINGS[case["setter"]]
    before = getattr(config, getter)() if getter else 0
    try:
        found = [("set", attempt(lambda: getattr(config, case["setter"])(
            library.resolve(case["value"], None)) and None))]
        if getter:
            found.append(("get", attempt(lambda: read_back(getattr(config, getter)()))))
    finally:
        getattr(config, case["setter"])(before)
    return found


outcomes = differential_reference.case_by_case(Library, cases, run_case)


CRASH = differential_reference.CRASH


# --- comparing ----------------------------------------------------------------------------------

ROWS = ("rows",)
KEEP = ("set", "get")
COMMON_WORDS = {"with", "value", "the", "but", "got", "must", "should", "class", "that", "this",
                "from", "than", "for", "and", "not", "are", "was", "its", "into", "argument",
                "type", "types", "input", "of", "is", "be", "in", "or", "to", "an", "a"}


def key_words(message):
    """The words of an error message that carry its meaning: names, values, bounds."""
    message = re.sub(r"<[^<>]* object at 0x[0-9a-fA-F]+>", "", message)    # an address
    words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*|-?\d+", message.lower())
    return {word for word in words if word not in COMMON_WORDS and len(word) > 1}


def missing_words(ours, theirs):
    """MindSpore's key words that our message lacks, where more than half of them do."""
    wanted = key_words(theirs[2])
    missing = sorted(wanted - key_words(ours[4] if len(ours) > 4 else ours[2]))
    return missing if wanted and len(missing) * 2 > len(wanted) else []


def case_differences(ours, theirs):
    """[(kind, item, why)] of every item two outcomes differ in, hard ones first; where they
    are the same, errors whose words differ ("error words"). A side that failed when built
    stands for that error in its rows and size."""
    if theirs[0][0] == "crash":
        return [("MindSpore crashed", "crash", theirs[0][1][2])]
    mine, reference = dict(ours), dict(theirs)
    labels = [label for label in ("build", "rows", "size", "set", "get")
              if label in mine or label in reference]
    mine = {label: mine.get(label, mine.get("build")) for label in labels}
    reference = {label: reference.get(label, reference.get("build")) for label in labels}
    found = differential_reference.item_differences(
        [(label, mine[label], reference[label]) for label in labels], ROWS,
        pipelines.difference, keep=KEEP)
    if found:
        return found
    for label in labels:
        if mine[label][0] == reference[label][0] == "error":
            missing = missing_words(mine[label], reference[label])
            if missing:
                return [("error words", label, f"{missing} not in ours: {mine[label][2]!r}; "
                         f"MindSpore: {reference[label][2]!r}")]
            break
    return []


def classify(case, ours, theirs):
    return differential_reference.first_undocumented(case, ours, theirs,
                                                     case_differences(ours, theirs), documented)


def documented(case, item, ours, theirs):
    """The README's word for a difference in ``item``, or None (the dataset API's "Deviations
    from MindSpore")."""
    mine, reference = dict(ours), dict(theirs)
    failed_here = str(mine.get(item, mine.get("build", ("",))))
    failed = str(reference.get(item, reference.get("build", ("",))))
    args = case.get("args", {})
    rules = [
        (case.get("op") == "batch" and "per_batch_map" not in args and "output_columns can be "
         "specified only when per_batch_map is set" in failed_here,
         "batch(output_columns=...) without a per_batch_map is refused (MindSpore ignores the "
         "argument)"),
        (case.get("setter") == "set_num_parallel_workers" or "exceeds the boundary between 1 "
         "and" in failed or args.get("num_parallel_workers") == 10000,
         "set_num_parallel_workers takes up to max(512, CPUs) and defaults to 8 on any machine "
         "(MindSpore caps both at the CPU count)"),
        (args.get("per_batch_map") is not None and "signature of per_batch_map" in failed,
         "a per_batch_map taking *args takes any number of input_columns (MindSpore 2.10 counts "
         "*args as one parameter: ValueError)"),
        (any(isinstance(args.get(name), tuple) for name in COLUMN_ARGUMENTS) and
         "is not of type" in failed,
         "a tuple of column names is taken as a list (MindSpore 2.10: TypeError)"),
        (case.get("op") == "batch" and "per_batch_map must be callable" in failed_here and
         args.get("python_multiprocessing") is True,
         "a per_batch_map that is not callable is a TypeError when the batch is built (MindSpore "
         "2.10 with python_multiprocessing=True serves the batches without it)"),
        (case.get("op") == "map" and "would duplicate the existing column" in failed_here,
         "map: an output named like a column kept beside the outputs is a ValueError when the "
         "map is built (MindSpore 2.10 keeps both columns under one name and loses the "
         "output's values)"),
        (case.get("op") == "bucket_batch_by_length" and item in ("rows", "size") and
         args.get("element_length_function") is None and args.get("column_names") != ["a"],
         "bucket_batch_by_length without an element_length_function measures the first "
         "dimension of the column it names (MindSpore 2.10 measures the row's first column: "
         "here 'a', a scalar, so every row goes to the first bucket)"),
    ]
    return next((reason for applies, reason in rules if applies), None)


COLUMN_ARGUMENTS = ("input_columns", "output_columns", "columns", "column_names")


def describe(case, limit=300):
    if case["kind"] == "config":
        text = f"ds.config.{case['setter']}({case['value']!r})"
    else:
        args = ", ".join(f"{k}={v!r}" for k, v in case["args"].items())
        text = f"NumpySlicesDataset(a, b).{case['op']}({args})"
    return text[:limit] + (f"  [wrong: {case['wrong']}]" if case["wrong"] else "")


def main():
    return differential_reference.run_tool(
        __doc__.split("\n\n")[0], 300, __file__, cases, outcomes, classify, describe,
        CASE_TIMEOUT_S, soft=("error type", "error elsewhere", "error words"))


if __name__ == "__main__":
    sys.exit(main())
