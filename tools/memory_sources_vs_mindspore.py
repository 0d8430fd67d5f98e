"""NumpySlicesDataset, GeneratorDataset and PaddedDataset against MindSpore 2.10, on random
Python data: how each form of Python value is turned into columns.

Each case draws in-memory data of one form. NumpySlicesDataset: a list, a tuple or a dict of
columns (``column_names`` given or not, sometimes of the wrong length), a column being a list
of Python ints (past int32 and int64 too), floats, bools, strs or bytes, a list mixing ints,
floats and bools or mixing those with strs and bytes, a list of lists (ragged ones too), a list
of numpy arrays, an array of any dtype (bool, int8 to uint64, float16 to float64, str_, bytes_,
object), of numpy arrays or scalars of one dtype or several; or an empty list or dict, a lone
int or str, a 0-d array, a list of dicts, a dict with an int key, tuples of tuples (pandas is
not installed in either interpreter: no DataFrame). GeneratorDataset: a generator function, a
random-access object, an iterable or the list itself, whose rows are tuples, lists, dicts, lone
values of a one-column dataset or tuples of the wrong length, whose values are numpy arrays,
Python ints, floats, bools, strs, bytes, lists, numpy scalars, 0-d arrays, dicts, None or rarer
values (complex, dates, a bytearray, tuples), with dtypes, shapes or kinds that vary between
rows or not, ``column_types`` (MindSpore's types or numpy's) or a ``schema`` given or not, read
by one worker, two threads or two processes. PaddedDataset: a list of dicts of such values, a
later dict's keys sometimes in another order, or one too many or too few. A case then reads the
dataset as it is, through ``batch(2)`` (which stacks Python scalars) or through a ``map`` of an
identity function (on 2 processes too), and records the column names, ``output_types()``, ``output_shapes()``,
``get_dataset_size()`` and every row of an epoch of a tuple iterator and of a dict iterator
(``output_numpy=True``; sometimes a tuple iterator of Tensors too, compared by ``asnumpy()``
and the type of each item). The same cases run here and in MindSpore's own interpreter
(``--mindspore-python``), and the outcomes are compared item by item with
``tools/pipelines_vs_mindspore.py``'s rules: both raise (another type of error counted apart as
"error type"), or the same dtype, shape and values exactly (dicts key by key). Counted apart:
differences the README documents as deviations ("documented"), errors raised at another step
("error elsewhere": when built here, when iterated there, or metadata of a pipeline whose rows
fail on both sides), and cases that kill MindSpore's interpreter or hang it ("MindSpore
crashed": tried once more in a new process).

    .venv/bin/python tools/memory_sources_vs_mindspore.py [--seed 1] [--cases 300]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]
        [--show-documented] [--case N ...]

Prints each undocumented difference and a count per outcome; exits 1 if there is one. The
MindSpore interpreter runs this file alone (numpy only: it never imports this package).
"""
import importlib
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import pipelines_vs_mindspore as pipelines                          # noqa: E402

CASE_TIMEOUT_S = 30         # a case of the reference interpreter that runs longer hangs
SMALL_INTS = [0, 1, 2, -3, 7, 100]
BIG_INTS = [127, 128, 255, 256, -129, 2 ** 31 - 1, 2 ** 31, -2 ** 31 - 1, 2 ** 32, 2 ** 40,
            2 ** 63 - 1, 2 ** 63, -2 ** 63, 2 ** 64 - 1, 2 ** 64]
FLOATS = [0.0, 1.5, -2.25, 3.0, 1e10, 1e-3, 65504.0, 1e300, float("nan"), float("inf")]
WORDS = ["", "a", "bb", "d\u00e9j\u00e0", "x y", "\u65e5\u672c", "nul\x00mid"]
BYTES = [b"", b"a", b"bc", b"\x00b", b"xy\x00", b"\xff\xfe"]
NUMERIC = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64"]
DTYPES = NUMERIC + ["str", "bytes", "object"]
#: the column types a case may name: MindSpore's (``mstype``) or numpy's
TYPE_NAMES = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
              "float16", "float32", "float64", "string"]
PYTHON_KINDS = ["int", "big int", "float", "bool", "str", "bytes", "mixed", "mixed text"]
VALUE_KINDS = ["array", "array", "array", "int", "big int", "float", "bool", "str", "bytes",
               "list", "numpy scalar", "0-d", "dict", "none", "rare"]
#: values numpy converts that the dataset may refuse: complex, dates, bytearray, tuples
RARE = [1 + 2j, np.complex64(1j), np.datetime64("2020-01-02"), np.timedelta64(3, "s"),
        bytearray(b"ab"), (1, 2), (1.5, "a"), np.str_("np"), np.bytes_(b"np"), np.float16(2.5)]


# --- drawing Python data -------------------------------------------------------------------------


def python_scalar(r, kind):
    """A Python value of ``kind`` (one of PYTHON_KINDS)."""
    if kind == "mixed":
        kind = r.choice(["int", "float", "bool"])
    elif kind == "mixed text":
        kind = r.choice(["int", "float", "bool", "str", "str", "bytes", "bytes"])
    return {"int": lambda: r.choice(SMALL_INTS), "big int": lambda: r.choice(BIG_INTS),
            "float": lambda: r.choice(FLOATS), "bool": lambda: r.random() < 0.5,
            "str": lambda: r.choice(WORDS), "bytes": lambda: r.choice(BYTES)}[kind]()


def array(r, dtype, shape):
    """A numpy array built from Python values in range (the same in numpy 1 and 2)."""
    size = int(np.prod(shape))
    if dtype == "str":
        return np.array([r.choice(WORDS) for _ in range(size)], np.str_).reshape(shape)
    if dtype == "bytes":
        return np.array([r.choice(BYTES) for _ in range(size)], np.bytes_).reshape(shape)
    if dtype == "object":
        values = np.empty(size, object)
        for i in range(size):
            values[i] = r.choice([1, "a", 2.5, None, b"x"])
        return values.reshape(shape)
    if dtype == "bool":
        return np.array([r.random() < 0.5 for _ in range(size)], np.bool_).reshape(shape)
    if dtype.startswith("float"):
        with np.errstate(over="ignore"):        # 1e10 is inf in float16, on purpose
            return np.array([r.choice(FLOATS[:7]) for _ in range(size)], np.float64).astype(
                dtype).reshape(shape)
    info = np.iinfo(dtype)
    return np.array([r.randint(max(info.min, -100), min(info.max, 300)) for _ in range(size)],
                    np.int64).astype(dtype).reshape(shape)


def row_value(r, kind, dtype, shape):
    """One row's value of a generator or padded column of ``kind`` (VALUE_KINDS)."""
    if kind == "array":
        return array(r, dtype, shape)
    if kind in PYTHON_KINDS:
        return python_scalar(r, kind)
    if kind == "list":
        inner = r.choice(["int", "float", "str", "mixed", "bool", "mixed text"])
        return [python_scalar(r, inner) for _ in range(r.choice([0, 1, 2, 3]))]
    if kind == "numpy scalar":
        return array(r, dtype if dtype != "object" else "int32", ())[()]
    if kind == "0-d":
        return array(r, dtype, ())
    if kind == "dict":
        return {"k": r.choice(SMALL_INTS), "v": array(r, r.choice(NUMERIC), (2,))}
    if kind == "rare":
        return r.choice(RARE)
    return None


def random_shape(r):
    return r.choice([(), (1,), (3,), (2, 2), (0,), (2, 0)])


def column_spec(r):
    """How a generated column's values are drawn: kind, dtype, shape, and whether dtype and
    shape (or kind) vary between rows."""
    return {"kind": r.choice(VALUE_KINDS), "dtype": r.choice(DTYPES if r.random() < 0.2 else
                                                             NUMERIC + ["str", "bytes"]),
            "shape": random_shape(r), "varies": r.choice([None, None, None, "dtype", "shape",
                                                         "kind"])}


def column_values(r, spec, rows):
    values = []
    for _ in range(rows):
        kind, dtype, shape = spec["kind"], spec["dtype"], spec["shape"]
        if spec["varies"] == "dtype":
            dtype = r.choice(NUMERIC)
        elif spec["varies"] == "shape":
            shape = random_shape(r)
        elif spec["varies"] == "kind":
            kind = r.choice(VALUE_KINDS)
        values.append(row_value(r, kind, dtype, shape))
    return values


def slices_column(r, rows):
    """One column of NumpySlicesDataset's data, of ``rows`` rows, and the form it was drawn
    in."""
    form = r.choice(["python", "python", "lists", "arrays", "array", "array", "array"])
    if form == "python":
        kind = r.choice(PYTHON_KINDS)
        return form, [python_scalar(r, kind) for _ in range(rows)]
    if form == "lists":
        inner = r.choice(["int", "float", "str", "mixed", "mixed text", "big int"])
        width = r.choice([0, 1, 2, 3])
        ragged = r.random() < 0.3
        return form, [[python_scalar(r, inner) for _ in range(r.randint(1, 3) if ragged
                                                              else width)]
                      for _ in range(rows)]
    dtype = r.choice(DTYPES)
    if form == "arrays":        # numpy arrays or scalars, their dtype the same or not
        shape = r.choice([(), (2,), (2, 3)])
        ragged, varies, scalars = r.random() < 0.25, r.random() < 0.3, r.random() < 0.2
        values = [array(r, r.choice(NUMERIC) if varies else dtype,
                        (r.randint(1, 3),) if ragged else shape) for _ in range(rows)]
        return form, [v[()] if scalars and v.dtype != object else v for v in values]
    return form, array(r, dtype, (rows,) + r.choice([(), (), (2,), (2, 3), (1, 0)]))


def numpy_case(r):
    rows = r.choice([1, 2, 3, 4, 5])
    layout = r.choice(["list", "list", "tuple", "dict", "dict", "oddity"])
    count = 1 if layout == "list" else r.randint(1, 3)
    columns = [slices_column(r, rows if r.random() < 0.95 else rows + 1) for _ in range(count)]
    names = [r.choice(["b", "a", "z", "col"]) + str(i) for i in range(count)]
    if layout == "oddity":
        data = r.choice([("empty list", []), ("empty dict", {}), ("int", 5),
                         ("0-d array", np.array(3)), ("str", "abc"), ("tuple of ints", (1, 2)),
                         ("list of dicts", [{"a": 1}, {"a": 2}]),
                         ("dict of an int key", {1: [1, 2], "b": [3, 4]}),
                         ("tuple of tuples", ((1, 2), (3, 4))),
                         ("tuple of a list and a tuple", ([1, 2], (3, 4)))])
        return {"kind": "numpy", "form": data[0], "data": data[1], "kwargs": {"shuffle": False}}
    data = [values for _, values in columns]
    data = {"list": lambda: data[0], "tuple": lambda: tuple(data),
            "dict": lambda: dict(zip(names, data))}[layout]()
    kwargs = {"shuffle": False}
    if layout != "dict" or r.random() < 0.4:
        kwargs["column_names"] = ["c%d" % i for i in range(count)]
        if r.random() < 0.08:
            kwargs["column_names"] = kwargs["column_names"] + ["extra"]
    return {"kind": "numpy", "form": f"{layout} of {[form for form, _ in columns]}",
            "data": data, "kwargs": kwargs}


def type_spec(r, values):
    """A column type for ``values``: most often the dtype the first value has, from MindSpore's
    types or numpy's."""
    name = r.choice(TYPE_NAMES)
    first = values[0] if values else None
    if r.random() < 0.6 and first is not None and not isinstance(first, dict):
        try:
            kind = np.asarray(first).dtype
        except (ValueError, UnicodeDecodeError):     # ragged, or bytes beside strs
            kind = np.dtype(object)
        if kind.kind == "U":
            name = "string"
        elif kind.kind in "biuf":
            name = "bool_" if kind.kind == "b" else kind.name
    return (r.choice(["mstype", "mstype", "numpy"]), name)


def generator_case(r):
    rows = r.choice([0, 1, 2, 3, 4, 5]) if r.random() < 0.1 else r.randint(1, 5)
    count = r.choice([1, 1, 2, 3])
    specs = [column_spec(r) for _ in range(count)]
    columns = [column_values(r, spec, rows) for spec in specs]
    names = ["g%d" % i for i in range(count)]
    shaping = r.choice(["tuple", "tuple", "tuple", "list", "dict"] + (
        ["single"] * 3 if count == 1 else []) + ["wrong length"])
    table = []
    for i in range(rows):
        row = [column[i] for column in columns]
        if shaping == "single":
            table.append(row[0])
        elif shaping == "list":
            table.append(row)
        elif shaping == "dict":         # a dict row: one value (MindSpore 2.x), a dict column
            table.append(dict(zip(names, row)))
        elif shaping == "wrong length" and i == rows - 1:
            table.append(tuple(row[:-1]) if r.random() < 0.5 else tuple(row) + (np.array(1),))
        else:
            table.append(tuple(row))
    kwargs = {"column_names": names, "shuffle": False, "python_multiprocessing": False}
    choice = r.random()
    if choice < 0.25:
        kwargs["column_types"] = [type_spec(r, column) for column in columns]
        if r.random() < 0.2:
            kwargs["column_types"][-1] = None
    elif choice < 0.35:
        kwargs["schema"] = [(name, type_spec(r, column), r.choice([None, [2], [-1]]))
                            for name, column in zip(names, columns)]
    form = r.choice(["function", "random access", "iterable", "list"])
    if form in ("random access", "list") and r.random() < 0.3:    # threads or processes
        kwargs.update(num_parallel_workers=2, python_multiprocessing=r.random() < 0.4)
    return {"kind": "generator", "form": form, "specs": specs, "shaping": shaping,
            "table": table, "kwargs": kwargs}


def padded_case(r):
    count = r.randint(1, 3)
    names = r.sample(["image", "label", "b", "a", "text"], count)
    specs = [dict(column_spec(r), varies=r.choice([None, None, "dtype", "shape"]))
             for _ in range(count)]
    for spec in specs:
        if spec["kind"] in ("dict", "none", "list") and r.random() < 0.7:
            spec["kind"] = "array"
    rows = r.randint(1, 4)
    columns = [column_values(r, spec, rows) for spec in specs]
    samples = []
    for i in range(rows):
        order = list(zip(names, columns))
        if i and r.random() < 0.3:      # a later sample's keys in another order
            r.shuffle(order)
        samples.append({name: column[i] for name, column in order})
        if i and r.random() < 0.05:     # one key too many or too few
            samples[-1].pop(names[0]) if r.random() < 0.5 else samples[-1].update(extra=1)
    return {"kind": "padded", "specs": specs, "samples": samples, "kwargs": {}}


def random_case(r):
    case = r.choice([numpy_case, numpy_case, generator_case, generator_case, generator_case,
                     padded_case])(r)
    case["after"] = r.choice([None, None, None, "batch", "batch", "map", "map",
                              "map on 2 processes"])
    case["tensors"] = r.random() < 0.3
    return case


def cases(seed, count):
    r = random.Random(seed)
    return [random_case(r) for _ in range(count)]


# --- running a case in one library ---------------------------------------------------------------


class RandomAccess:
    def __init__(self, table):
        self.table = table

    def __getitem__(self, index):
        return self.table[index]

    def __len__(self):
        return len(self.table)


class Iterable:
    def __init__(self, table):
        self.table = table

    def __iter__(self):
        return iter(list(self.table))


def rows_of(table):
    def rows():
        yield from table
    return rows


def identity(x):
    return x


class Library:
    """The dataset module and the type modules of ``mindspore`` or ``minddata``."""

    def __init__(self, name):
        mindspore = name == "mindspore"
        self.ds = importlib.import_module("mindspore.dataset" if mindspore else "minddata")
        self.mstype = importlib.import_module("mindspore.common.dtype" if mindspore
                                              else "minddata.mstype")

    def data_type(self, spec):
        if spec is None:
            return None
        library, name = spec
        if library == "numpy":
            return {"string": np.str_}.get(name) or getattr(np, name)
        return getattr(self.mstype, name)

    def build(self, case):
        ds, kwargs = self.ds, dict(case["kwargs"])
        if case["kind"] == "numpy":
            data = ds.NumpySlicesDataset(case["data"], **kwargs)
        elif case["kind"] == "padded":
            data = ds.PaddedDataset(case["samples"])
        else:
            if "column_types" in kwargs:
                kwargs["column_types"] = [self.data_type(t) for t in kwargs["column_types"]]
            if "schema" in kwargs:
                schema = ds.Schema()
                for name, type_spec, shape in kwargs["schema"]:
                    schema.add_column(name, de_type=self.data_type(type_spec), shape=shape)
                kwargs["schema"] = schema
            source = {"function": rows_of, "random access": RandomAccess, "iterable": Iterable,
                      "list": list}[case["form"]](case["table"])
            data = ds.GeneratorDataset(source, **kwargs)
        if case["after"] == "batch":
            data = data.batch(2)
        elif case["after"] in ("map", "map on 2 processes"):
            processes = case["after"] != "map"
            data = data.map(identity, input_columns=[data.get_col_names()[0]],
                            num_parallel_workers=2 if processes else 1,
                            python_multiprocessing=processes)
        return data


def plain(value):
    """pipelines.plain, dicts key by key (and lists, which may come out of them)."""
    if isinstance(value, dict):
        return ("dict", sorted((str(k), plain(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return ("list", [plain(v) for v in value])
    if value is None or isinstance(value, np.ndarray) and value.dtype == object:
        return ("object", repr(value))
    return pipelines.plain(value)


def run_case(library, case):
    """[(item, outcome)]: "build", or the metadata and the rows of each iterator."""
    built = pipelines.attempt(lambda: library.build(case))
    if built[0] == "error":
        return [("build", built)]
    data = built[1]
    tuple_row = lambda row: [plain(v) for v in row]                              # noqa: E731
    typed_row = lambda row: [(type(v).__name__, plain(v)) for v in row]          # noqa: E731
    dict_row = lambda row: [(k, plain(v)) for k, v in row.items()]             # noqa: E731
    found = [
        ("get_col_names", pipelines.attempt(lambda: list(data.get_col_names()))),
        ("output_types", pipelines.attempt(lambda: [np.dtype(t).str
                                                    for t in data.output_types()])),
        ("output_shapes", pipelines.attempt(lambda: [list(s) for s in data.output_shapes()])),
        ("get_dataset_size", pipelines.attempt(data.get_dataset_size)),
        ("tuple iterator", pipelines.attempt(lambda: [tuple_row(row) for row in
                                                      data.create_tuple_iterator(
                                                          num_epochs=1, output_numpy=True)])),
        ("dict iterator", pipelines.attempt(lambda: [dict_row(row) for row in
                                                     data.create_dict_iterator(
                                                         num_epochs=1, output_numpy=True)])),
    ]
    if case["tensors"]:
        found.append(("tensor iterator", pipelines.attempt(lambda: [
            typed_row(row) for row in data.create_tuple_iterator(num_epochs=1,
                                                                 output_numpy=False)])))
    return found


outcomes = differential_reference.case_by_case(Library, cases, run_case)


CRASH = differential_reference.CRASH



# --- comparing -----------------------------------------------------------------------------------

ITEMS = ("get_col_names", "output_types", "output_shapes", "get_dataset_size", "tuple iterator",
         "dict iterator", "tensor iterator")
ROWS = ("tuple iterator", "dict iterator", "tensor iterator")


def case_differences(ours, theirs):
    """[(kind, item, why)] of every item two outcomes differ in, hard ones first. A side that
    failed when built stands for that error in every item; where the other side built and
    fails in every iterator, the error came at another step ("error elsewhere")."""
    if theirs[0][0] == "crash":
        return [("MindSpore crashed", "crash", theirs[0][1][2])]
    mine, reference = dict(ours), dict(theirs)
    if ("build" in mine) != ("build" in reference):
        built = reference if "build" in mine else mine
        if all(outcome[0] == "error" for label, outcome in built.items() if label in ROWS):
            return [("error elsewhere", "build", "fails when built " + (
                "here" if "build" in mine else "in MindSpore") + ", when iterated in the other")]
    if "build" in mine or "build" in reference:
        labels = [label for label in ITEMS if label in mine or label in reference] or ["build"]
        mine = {label: mine.get(label, mine.get("build")) for label in labels}
        reference = {label: reference.get(label, reference.get("build")) for label in labels}
    return differential_reference.item_differences(
        [(label, outcome, reference[label]) for label, outcome in mine.items()], ROWS,
        pipelines.difference)


def classify(case, ours, theirs):
    """(kind, item, why): the first undocumented hard difference ("different"), else
    "documented" where every hard one is, else the first soft one; (None, None, None) if the
    same."""
    return differential_reference.first_undocumented(case, ours, theirs,
                                                     case_differences(ours, theirs), documented)


def row_values(case):
    """Each column of a case as the values of its rows (as given, before any conversion)."""
    if case["kind"] == "numpy":
        return [list(column) for column in slices_columns(case)
                if isinstance(column, (list, tuple)) or np.ndim(column)]
    if case["kind"] == "padded":
        return [[sample.get(name) for sample in case["samples"]] for name in case["samples"][0]]
    rows = [row if isinstance(row, (tuple, list)) else (row,) for row in case["table"]]
    width = max([len(row) for row in rows] or [0])
    return [[row[k] for row in rows if k < len(row)] for k in range(width)]


def holds_object_array(value):
    """Whether a dict value holds an object array."""
    return isinstance(value, dict) and any(isinstance(v, np.ndarray) and v.dtype == object
                                           for v in value.values())


def value_kind(value):
    """numpy's dtype kind of a value ("dict" for a dict, "?" where numpy fails)."""
    if isinstance(value, dict):
        return "dict"
    try:
        return np.asarray(value).dtype.kind
    except (ValueError, UnicodeDecodeError):
        return "?"


def documented(case, item, ours, theirs):
    """The README's word for a difference in ``item``, or None (the dataset API's "Deviations
    from MindSpore")."""
    mine, reference = dict(ours), dict(theirs)
    failed = reference.get(item, reference.get("build", ("",)))
    rules = [
        (case["kind"] == "generator" and not case["table"] and no_rows(mine),
         "a pipeline with no rows iterates as empty"),
        (case["kind"] == "numpy" and any(mixed_python_column(column)
                                         for column in slices_columns(case)),
         "NumpySlicesDataset gives each column one dtype: a list mixing Python ints and floats "
         "is float64 in every row (MindSpore converts each row alone)"),
        (numpy_column_types(case, "column_types") and
         failed[:2] == ("error", "NotImplementedError"),
         "numpy types and dtypes are column types too (MindSpore raises NotImplementedError)"),
        (case["kind"] == "generator" and case["kwargs"].get("num_parallel_workers", 1) > 1
         and any(isinstance(row, list) for row in case["table"]),
         "a list row holds one value per column with any number of workers (MindSpore 2.10's "
         "workers take the whole list as the one column's value)"),
        (case["kind"] == "padded" and any(set(sample) != set(case["samples"][0])
                                           for sample in case["samples"]),
         "PaddedDataset refuses samples without the first one's keys when built (MindSpore "
         "fails when it reads a row with a missing key and ignores extra keys)"),
        (("data type is unknown" in str(failed) or "Execute user Python code failed" in str(
            failed) and case["kwargs"].get("python_multiprocessing")) and any(
            value_kind(value) == "c" for column in row_values(case) for value in column),
         "complex values are carried as numpy's complex types (MindSpore 2.10: RuntimeError "
         "'Failed to create tensor from numpy array, data type is unknown')"),
        (case["kind"] == "generator" and any(isinstance(row, bytearray)
                                             for row in case["table"]),
         "a row that is no tuple or list is the one column's value (MindSpore 2.10 iterates a "
         "bytearray row as the row's columns)"),
        ("unsupported type detected: object" in str(failed) and any(
            holds_object_array(value) for column in row_values(case) for value in column),
         "dicts travel as they are given (MindSpore 2.10 refuses an object array inside one "
         "when its iterator converts it)"),
        (case["kind"] == "numpy" and isinstance(case["data"], tuple) and isinstance(
            case["data"][0], tuple) and "Argument data[0]" in str(failed),
         "a tuple's first column may be a tuple, taken as a list (MindSpore 2.10: TypeError)"),
        (numpy_column_types(case, "schema") and failed[:3] == ("error", "TypeError",
                                                               "Unknown column type."),
         "Schema.add_column takes numpy types and dtypes (MindSpore: TypeError)"),
    ]
    return next((reason for applies, reason in rules if applies), None)


def no_rows(outcomes):
    rows = outcomes.get("tuple iterator", ("error",))
    return rows[0] == "ok" and not rows[1]


def slices_columns(case):
    """The columns of a NumpySlicesDataset case's data."""
    data = case["data"]
    if isinstance(data, dict):
        return list(data.values())
    return list(data) if isinstance(data, tuple) else [data]


def mixed_python_column(column):
    """Whether a column given as a Python list holds rows numpy converts, each alone, to more
    than one kind (bool, int, float)."""
    if not isinstance(column, list):
        return False
    kinds = set()
    for value in column:
        try:
            kinds.add(np.asarray(value).dtype.kind)
        except (ValueError, UnicodeDecodeError):      # ragged, or bytes beside strs
            return False
    return len(kinds) > 1 and kinds <= set("biuf") and not kinds <= set("iu")


def numpy_column_types(case, argument):
    """Whether a generator case names numpy types in ``argument`` (column_types or schema)."""
    named = case["kwargs"].get(argument) or []
    if argument == "schema":
        named = [spec for _, spec, _ in named]
    return any(spec and spec[0] == "numpy" for spec in named)


def describe(case, limit=300):
    if case["kind"] == "numpy":
        text = f"NumpySlicesDataset({case['form']}: {case['data']!r:.{limit}}, {case['kwargs']})"
    elif case["kind"] == "padded":
        text = f"PaddedDataset({case['samples']!r:.{limit}})"
    else:
        text = (f"GeneratorDataset({case['form']} of {case['shaping']} rows "
                f"{case['table']!r:.{limit}}, {case['kwargs']})")
    return text + {None: "", "batch": ".batch(2)", "map": ".map(identity)",
                   "map on 2 processes": ".map(identity, on 2 processes)"}[case["after"]]


def main():
    return differential_reference.run_tool(__doc__.split("\n\n")[0], 300, __file__, cases,
                                           outcomes, classify, describe,
                                           CASE_TIMEOUT_S)


if __name__ == "__main__":
    sys.exit(main())
