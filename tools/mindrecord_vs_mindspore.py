"""The MindRecord writer and readers against MindSpore 2.10: random FileWriter sessions run by
both libraries, the files they leave compared byte for byte, and each library's files read by
both libraries' FileReader, MindPage and MindDataset.

Each case draws a FileWriter session: a file name (one file, or ``shard_num`` 2 to 4), an
existing data or ``.db`` file at its path or not with ``overwrite`` True or False,
``set_header_size``/``set_page_size`` of valid values, edges, values out of range, not a
multiple of 4 or of the wrong type, ``add_schema`` of a random schema (int32, int64, float32,
float64, string, bytes, numeric arrays of shapes such as ``[-1]``, ``[2, 2]``, ``[-1, 2]``, and
bad ones: empty, bad names, unknown types, shapes on strings, 0 or two -1 in a shape, nested
dicts, extra keys; a ``desc`` or not), ``add_index`` of valid and invalid fields (blob fields,
missing names, duplicates, a str, an empty list) or none, 1 to 3 ``write_raw_data`` calls of 0 to
5 rows (right values, numpy scalars of the schema dtype, and wrong ones: Python ints past int32
and int64, floats for ints, ints for floats, numpy scalars and arrays of another dtype or shape,
str for bytes and bytes for str, bool, None, lists, missing and extra fields, rows that are not
dicts, an empty list, a raw_data that is not a list), ``parallel_writer`` True or False,
``commit`` once or twice, a write after commit, ``FileWriter.open_for_append`` with more rows,
and calls in the wrong order (a write or an index before the schema, a schema after a write).
Both libraries run the same calls (MindSpore in its own interpreter, ``--mindspore-python``)
and every call's outcome is compared (both raise, or neither: another error type is counted
apart), then which files exist afterwards, each data file byte for byte and each ``.db`` by
its SQL content (tables, rows, SHARD_NAME), and what both libraries' readers give on both
libraries' files: ``FileReader(columns, num_consumer)``'s ``len()``, ``schema()`` and every
``get_next()`` row (keys in order, Python and numpy types, dtypes, shapes, exact values),
MindPage's ``candidate_fields``, ``read_category_info()``, ``read_at_page_by_id`` and
``read_at_page_by_name``, and ``MindDataset(shuffle=False, columns_list)``'s rows through a
dict iterator (``output_numpy=True``). Where MindSpore gives the rows of a call over several
shards at random (a call whose rows do not divide evenly), the files are not compared byte
for byte and rows are compared sorted. Counted apart: differences the README documents
("documented"), other error types where both raise ("error type"), an error raised by another
call of the session ("error elsewhere"), and cases that kill or hang MindSpore's interpreter
("MindSpore crashed", tried once more in a new process).

    .venv/bin/python tools/mindrecord_vs_mindspore.py [--seed 1] [--cases 300]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]
        [--show-documented] [--case N ...]

Prints each undocumented difference and a count per outcome; exits 1 if there is one. The
MindSpore interpreter runs this file alone (numpy only: it never imports this package).
"""
import gc
import hashlib
import importlib
import json
import logging
import os
import random
import shutil
import sqlite3
import struct
import sys
import tempfile
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import pipelines_vs_mindspore as pipelines                          # noqa: E402

CASE_TIMEOUT_S = 10         # a case of the reference interpreter that runs longer hangs
SCALARS = ["int32", "int64", "float32", "float64", "string", "bytes"]
NUMERIC = ["int32", "int64", "float32", "float64"]
SHAPES = [[-1], [2], [2, 2], [-1, 2], [2, -1], [3], [1], [1, -1, 2]]
NAMES = ["label", "a", "b2", "name", "data", "vec", "mat", "x_y", "Z9"]
SMALL_INTS = [0, 1, -1, 7, -100, 300, 70000]
EDGE_INTS = {"int32": [2 ** 31 - 1, -2 ** 31], "int64": [2 ** 63 - 1, -2 ** 63, 2 ** 40]}
FLOATS = [0.0, 1.5, -2.25, 0.1, 3.0, -0.0, 1e10, 1e300, 3.4028234663852886e38, 1e-45]
WORDS = ["", "a", "bc", "d\u00e9j\u00e0", "x y", "\u65e5\u672c", "nul\x00mid", "q\"uote"]
BYTES = [b"\x01\x02\x03", b"xyz!", b"\x00", b"ab\x00", b"\xff\xfe", b"long" * 10]
SIZES = {"header": [16384, 16384, 16384, 32768, 134217728, 16383, 16386, 134217732, 0, -4,
                    "16384", 16384.0, None],
         "page": [32768, 32768, 32768, 65536, 268435456, 32764, 32770, 268435460, 0, -4,
                  "32768", 32768.0, None]}


# --- drawing a case ------------------------------------------------------------------------------


def field_spec(r):
    if r.random() < 0.35:
        return {"type": r.choice(NUMERIC), "shape": list(r.choice(SHAPES))}
    return {"type": r.choice(SCALARS)}


BAD_SCHEMAS = [
    ("empty", lambda s: {}),
    ("not a dict", lambda s: list(s)),
    ("bad name", lambda s: dict(s, **{"a-b": {"type": "int32"}})),
    ("name with a newline", lambda s: dict(s, **{"a\n": {"type": "int32"}})),
    ("spec not a dict", lambda s: dict(s, bad="int32")),
    ("empty spec", lambda s: dict(s, bad={})),
    ("unknown type", lambda s: dict(s, bad={"type": "int16"})),
    ("string with a shape", lambda s: dict(s, bad={"type": "string", "shape": [-1]})),
    ("bytes with a shape", lambda s: dict(s, bad={"type": "bytes", "shape": [2]})),
    ("shape not a list", lambda s: dict(s, bad={"type": "int32", "shape": -1})),
    ("shape 0", lambda s: dict(s, bad={"type": "int32", "shape": [0]})),
    ("two -1", lambda s: dict(s, bad={"type": "float32", "shape": [-1, -1]})),
    ("shape []", lambda s: dict(s, bad={"type": "int64", "shape": []})),
    ("extra key", lambda s: dict(s, bad={"type": "int32", "x": 1})),
    ("no type", lambda s: dict(s, bad={"shape": [2]})),
    ("nested dict", lambda s: dict(s, bad={"type": {"type": "int32"}})),
    ("nested fields", lambda s: dict(s, bad={"inner": {"type": "int32"}})),
    ("int name", lambda s: {**s, 1: {"type": "int32"}}),
]


def draw_schema(r):
    """(the schema given to add_schema, the valid fields rows are drawn from, what is bad)."""
    fields = {name: field_spec(r) for name in r.sample(NAMES, r.randint(1, 4))}
    if r.random() < 0.12:
        bad, make = r.choice(BAD_SCHEMAS)
        return make(fields), fields, bad
    return fields, fields, None


def shape_of(r, shape):
    """A concrete shape for a schema shape (-1 resolved at random)."""
    return tuple(r.choice([0, 1, 2, 3]) if d == -1 else d for d in shape)


def numbers(r, kind, count):
    if kind.startswith("int"):
        return [r.choice(SMALL_INTS) for _ in range(count)]
    return [r.choice(FLOATS[:6]) for _ in range(count)]


def good_value(r, spec):
    kind = spec["type"]
    if "shape" in spec:
        shape = shape_of(r, spec["shape"])
        return np.array(numbers(r, kind, int(np.prod(shape))), kind).reshape(shape)
    if kind == "string":
        return r.choice(WORDS)
    if kind == "bytes":
        return r.choice(BYTES + [b""] * (r.random() < 0.1))
    if kind.startswith("int"):
        value = r.choice(SMALL_INTS + EDGE_INTS[kind] * (r.random() < 0.3))
    else:
        value = r.choice(FLOATS if r.random() < 0.3 else FLOATS[:6])
    if r.random() < 0.1:                    # a numpy scalar of the schema's dtype
        with np.errstate(over="ignore"):
            return np.array(value, kind)[()]
    return value


def bad_value(r, spec):
    """A value MindSpore's FileWriter drops the row for (or that it stores wrongly)."""
    kind = spec["type"]
    choices = ["bool", "none", "list"]
    if "shape" in spec:
        choices += ["other dtype", "wrong shape", "scalar"]
    elif kind.startswith("int"):
        choices += ["beyond int32", "beyond int64", "float", "other numpy int", "str"]
    elif kind.startswith("float"):
        choices += ["int", "other numpy float", "numpy int", "str", "nan"]
    else:
        choices += ["str for bytes" if kind == "bytes" else "bytes for str", "int"]
    choice = r.choice(choices)
    if choice == "other dtype":
        other = r.choice([t for t in NUMERIC + ["uint8", "float16"] if t != kind])
        return choice, good_value(r, spec).astype(other)
    if choice == "wrong shape":
        return choice, np.zeros((5, 5) if len(spec["shape"]) == 1 else (7,), kind)
    if choice == "scalar":
        return choice, np.array(1, kind)[()]
    if choice == "other numpy int":
        return choice, r.choice([np.int8(3), np.int64(4) if kind == "int32" else np.int32(4),
                                 np.uint16(5)])
    if choice == "other numpy float":
        return choice, np.float16(1.5) if kind == "float64" else np.float64(
            r.choice([0.1, 2.0]))
    return choice, {
        "bool": True, "none": None, "list": [1, 2],
        "beyond int32": r.choice([2 ** 31, -2 ** 31 - 1]), "beyond int64": r.choice(
            [2 ** 63, -2 ** 63 - 1, 2 ** 64]), "float": r.choice([1.0, 2.5]),
        "str": "1", "int": r.choice([1, -3]), "numpy int": np.int32(2),
        "nan": r.choice([float("nan"), float("inf")]), "str for bytes": "ab",
        "bytes for str": b"ab"}[choice]


def draw_row(r, fields, marks):
    row = {name: good_value(r, spec) for name, spec in fields.items()}
    if r.random() < 0.05 and row:
        name = r.choice(sorted(row))
        mark, row[name] = bad_value(r, fields[name])
        marks.add(mark)
    if r.random() < 0.03 and row:
        row.pop(r.choice(sorted(row)))
        marks.add("missing field")
    if r.random() < 0.04:
        row["extra"] = 1
        marks.add("extra field")
    if r.random() < 0.01:
        marks.add("not a dict")
        return [1, 2]
    return row


def draw_write(r, fields, parallel, marks):
    count = r.choice([0, 1, 2, 3, 4, 5, 5]) if r.random() < 0.1 else r.randint(1, 5)
    rows = [draw_row(r, fields, marks) for _ in range(count)]
    if r.random() < 0.01:
        marks.add("raw_data not a list")
        return ("write", tuple(rows), parallel)
    return ("write", rows, parallel)


def draw_index(r, fields):
    scalars = [n for n, spec in fields.items() if "shape" not in spec and spec["type"] != "bytes"]
    blobs = [n for n in fields if n not in scalars]
    choice = r.random()
    if choice < 0.45:
        return None
    if choice < 0.8 and scalars:
        return r.sample(scalars, r.randint(1, len(scalars)))
    return r.choice([blobs[:1] or ["zz"], ["zz"], scalars[:1] * 2 or [[]], (scalars + ["zz"])[0],
                     [], [1], None if not scalars else [scalars[0], "zz"]])


def draw_ops(r):
    """The calls of a session, in order."""
    schema, fields, bad_schema = draw_schema(r)
    marks = {"bad schema: " + bad_schema} if bad_schema else set()
    shard_num = r.choice([1, 1, 1, 2, 3, 4])
    if r.random() < 0.03:
        shard_num = r.choice([0, 1001, "2", None])
    ops = [("create", shard_num, r.random() < 0.5)]
    for which in ("header", "page"):
        if r.random() < 0.9:
            value = r.choice(SIZES[which])
            ops.append(("size", which, value))
    ops.append(("schema", schema, r.choice([None, None, "", "tiny", "d\u00e9\"sc"])))
    index = draw_index(r, fields)
    if index is not None:
        ops.append(("index", index))
    parallel = r.random() < 0.12
    for _ in range(r.choice([1, 1, 2, 3])):
        ops.append(draw_write(r, fields, parallel if r.random() < 0.97 else not parallel, marks))
    if r.random() < 0.9:
        ops.append(("commit",))
        if r.random() < 0.1:
            ops.append(("commit",))
        if r.random() < 0.05:
            ops.append(draw_write(r, fields, parallel, marks))
    if r.random() < 0.08:           # calls in the wrong order
        i, j = r.sample(range(1, len(ops)), 2) if len(ops) > 2 else (1, 1)
        ops[i], ops[j] = ops[j], ops[i]
        marks.add("wrong order")
    if ops[-1] == ("commit",) and r.random() < 0.2:
        ops.append(("append",))
        if r.random() < 0.2:
            ops.append(("size", "page", 65536))
        for _ in range(r.choice([1, 1, 2])):
            ops.append(draw_write(r, fields, r.random() < 0.15, marks))
        ops.append(("commit",))
    return ops, fields, marks


def random_case(r):
    ops, fields, marks = draw_ops(r)
    names = sorted(fields)
    return {"ops": ops, "fields": fields, "marks": sorted(marks),
            "existing": r.choice([None] * 12 + ["data", "db", "both"]),
            "columns": None if r.random() < 0.6 else r.sample(names, r.randint(1, len(names))) +
            (["zz"] if r.random() < 0.05 else []),
            "num_consumer": r.choice(["default", 1, 1, 2, 2, 0, "2"]),
            "category": r.random()}


def cases(seed, count):
    r = random.Random(seed)
    return [random_case(r) for _ in range(count)]


# --- running a case in one library ---------------------------------------------------------------


def plain_value(value):
    """A value of a FileReader row as comparable data (Python type, numpy dtype and shape)."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "US":
            return ("ndarray", value.dtype.str, value.shape, value.tolist())
        return ("ndarray", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, bool) or not isinstance(value, (int, float, str, bytes)):
        return (type(value).__name__, repr(value))
    if isinstance(value, float):
        return ("float", struct.pack(">d", value).hex())
    return (type(value).__name__, value)


class Library:
    """FileWriter, FileReader, MindPage and MindDataset of ``mindspore`` or this package."""

    def __init__(self, name):
        mindspore = name == "mindspore"
        self.mr = importlib.import_module("mindspore.mindrecord" if mindspore else "mindrecord")
        self.ds = importlib.import_module("mindspore.dataset" if mindspore else "minddata")
        self.mindspore = mindspore

    def write(self, case, base):
        """[(call, outcome)] of the session's calls; whether its last commit held."""
        done, writer, committed, writers = [], None, False, []
        for number, op in enumerate(case["ops"]):
            writers.append(writer)
            label = f"{number} {op[0]}"
            if op[0] == "create":
                writer = None
                outcome = pipelines.attempt(lambda: self.mr.FileWriter(base, op[1], op[2]))
                if outcome[0] == "ok":
                    writer, outcome = outcome[1], ("ok", None)
            elif op[0] == "append":
                writer = None
                outcome = pipelines.attempt(lambda: self.mr.FileWriter.open_for_append(
                    first_file(base, case)))
                if outcome[0] == "ok":
                    writer, outcome = outcome[1], ("ok", None)
            elif writer is None:
                outcome = ("error", "no writer", "no writer", ("no writer",))
            else:
                outcome = pipelines.attempt(lambda: self.call(writer, op))
                if outcome[0] == "error" and op[0] == "write" and not self.mindspore and \
                        outcome[1] == "MRMValidateDataError":
                    # MindSpore drops the rows it refuses; so does skip_bad_rows (documented)
                    again = pipelines.attempt(lambda: writer.write_raw_data(
                        op[1], op[2], skip_bad_rows=True))
                    outcome = outcome + (again,)
            if op[0] == "commit":
                committed = outcome[0] == "ok"
            elif op[0] in ("write", "append", "create"):
                committed = False
            done.append((label, outcome))
        for each in writers + [writer]:
            stop_workers(each)
        writer = writers = None
        gc.collect()
        return done, committed

    def call(self, writer, op):
        if op[0] == "size":
            getattr(writer, f"set_{op[1]}_size")(op[2])
        elif op[0] == "schema":
            writer.add_schema(op[1], op[2])
        elif op[0] == "index":
            writer.add_index(op[1])
        elif op[0] == "write":
            writer.write_raw_data(op[1], op[2])
        else:
            writer.commit()

    def read(self, case, path, rows_order):
        """[(item, outcome)] of each reader on the dataset whose first file is ``path``."""
        found = []
        kwargs = {} if case["num_consumer"] == "default" else {
            "num_consumer": case["num_consumer"]}

        def file_reader():
            reader = self.mr.FileReader(path, columns=case["columns"], **kwargs)
            try:
                rows = [[(k, plain_value(v)) for k, v in row.items()]
                        for row in reader.get_next()]
                return [reader.len(), reader.schema(), in_order(rows, rows_order)]
            finally:
                reader.close()
        found.append(("FileReader", pipelines.attempt(file_reader)))
        found.extend(self.pages(case, path, rows_order))

        def mind_dataset():
            data = self.ds.MindDataset(path, columns_list=case["columns"], shuffle=False)
            rows = [[(k, pipelines.plain(v)) for k, v in row.items()] for row in
                    data.create_dict_iterator(num_epochs=1, output_numpy=True)]
            return [sorted(data.get_col_names()), in_order(rows, rows_order)]
        found.append(("MindDataset", pipelines.attempt(mind_dataset)))
        return found

    def pages(self, case, path, rows_order):
        page = pipelines.attempt(lambda: self.mr.MindPage(path))
        found = [("MindPage", page if page[0] == "error" else ("ok", None))]
        if page[0] == "error":
            return found
        page = page[1]
        fields = pipelines.attempt(lambda: list(page.candidate_fields))
        found.append(("MindPage.candidate_fields", fields))
        if fields[0] == "error" or not fields[1]:
            return found
        field = fields[1][int(case["category"] * len(fields[1]))]

        def info():
            page.category_field = field
            return json.loads(page.read_category_info())
        categories = pipelines.attempt(info)
        found.append(("MindPage.read_category_info", categories))
        if categories[0] == "error" or not categories[1].get("categories"):
            return found
        first = categories[1]["categories"][0]
        rows = lambda got: in_order([[(k, plain_value(v)) for k, v in row.items()]  # noqa: E731
                                     for row in got], rows_order)
        size = 3 if rows_order == "as read" else 1000     # a whole group where the rows
        # of a shard are MindSpore's random share
        found.append(("MindPage.read_at_page_by_id", pipelines.attempt(
            lambda: rows(page.read_at_page_by_id(first["id"], 0, size)))))
        found.append(("MindPage.read_at_page_by_name", pipelines.attempt(
            lambda: rows(page.read_at_page_by_name(first["name"], 0, size)))))
        return found


def stop_workers(writer):
    """Ends the worker processes MindSpore's parallel writer left running (a session that did
    not commit: they would spin on their queues for ever)."""
    for name in ("_workers", "_index_workers"):
        for process in getattr(writer, name, None) or ():
            if process is not None and process.is_alive():
                process.terminate()
                process.join(5)


def in_order(rows, order):
    return rows if order == "as read" else sorted(rows, key=repr)


def shard_count(case):
    count = case["ops"][0][1]
    return count if isinstance(count, int) and 1 <= count <= 4 else 1


def first_file(base, case):
    count = shard_count(case)
    return base if count == 1 else base + "0" * len(str(count - 1))


def rows_order(case):
    """"as read", or "sorted" where MindSpore gives a call's rows to shards at random (a
    call whose rows do not divide evenly, or may not once MindSpore dropped some)."""
    count = shard_count(case)
    writes = [op for op in case["ops"] if op[0] == "write"]
    if count == 1:
        return "as read"
    if case["marks"] or any(op[2] for op in writes) or any(len(op[1]) % count for op in writes):
        return "sorted"
    return "as read"


def case_folder(folder, number, library):
    return os.path.join(folder, f"case{number}", library)


def prepare(case, directory):
    """An empty folder for the case, with the existing files the case draws."""
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    base = os.path.join(directory, "set.mindrecord")
    first = first_file(base, case)
    for path in {"data": [first], "db": [first + ".db"], "both": [first, first + ".db"],
                 None: []}[case["existing"]]:
        with open(path, "wb") as f:
            f.write(b"old file, not a mindrecord")
    return base


def written(library, case, folder, number):
    """This library's session of the case, in its own folder; marks a committed dataset."""
    directory = case_folder(folder, number, library.name)
    base = prepare(case, directory)
    done, committed = library.write(case, base)
    marker = directory + ".committed"
    if committed:
        open(marker, "w").close()
    elif os.path.exists(marker):
        os.remove(marker)
    return done


def reads(library, case, folder, number):
    """{writer: [(item, outcome)]}: this library's readers on both libraries' files."""
    found = {}
    for writer in WRITERS:
        directory = case_folder(folder, number, writer)
        if os.path.exists(directory + ".committed"):
            found[writer] = library.read(case, first_file(os.path.join(
                directory, "set.mindrecord"), case), rows_order(case))
    return found


WRITERS = ("minddata", "mindspore")


def emit(library_name, seed, count, folder, start=0):
    """The reference side's outcomes: (its session, its reads of both writers' files), a case
    at a time."""
    warnings.simplefilter("ignore")
    library = Library(library_name)
    library.name = "mindspore"
    for number, case in enumerate(cases(seed, count)[start:], start):
        done = written(library, case, folder, number)
        yield done, reads(library, case, folder, number)


# --- the files ------------------------------------------------------------------------------------


def db_contents(path):
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return (connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                                   "ORDER BY name").fetchall(),
                connection.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall(),
                connection.execute("SELECT * FROM SHARD_NAME").fetchall())
    finally:
        connection.close()


def file_outcomes(directory, order):
    """[(item, outcome)]: the names of the files in the folder, then each file's content: a
    data file's header and bytes (unless its rows went to the shards at random), a .db file's
    SQL content."""
    names = sorted(os.listdir(directory)) if os.path.isdir(directory) else []
    found = [("files", ("ok", names))]
    for name in names:
        path = os.path.join(directory, name)
        if name.endswith(".db"):
            found.append((name, pipelines.attempt(lambda: db_contents(path)) if order ==
                          "as read" else ("ok", "not compared")))
            continue
        with open(path, "rb") as f:
            data = f.read()
        header = data[8:8 + int.from_bytes(data[:8], "little")] if len(data) >= 8 else b""
        if order != "as read":
            header = pipelines.attempt(lambda: {
                k: v for k, v in json.loads(header).items() if k in (
                    "header_size", "index_fields", "page_size", "schema", "shard_addresses",
                    "shard_id", "version")})
            found.append((name, header))
        else:
            found.append((name, ("ok", (len(data), header, hashlib.sha256(data).hexdigest()))))
    return found


# --- comparing -----------------------------------------------------------------------------------


def differences(case, ours, theirs):
    """[(kind, item, why)]: every call, the files, each reader on both writers' files and both
    readers on each writer's files."""
    if theirs[0][0] == "crash":
        return [("MindSpore crashed", "crash", theirs[0][1][2])]
    (calls_here, read_here, files), (calls_there, read_there) = ours, theirs
    found = []
    if calls_here[0][1][0] == "error" and calls_there[0][1][0] == "ok":
        calls_here, calls_there = calls_here[:1], calls_there[:1]   # nothing more to compare
    for (label, mine), (_, reference) in zip(calls_here, calls_there):
        kind, why = pipelines.difference(mine[:4] if mine[0] == "error" else mine, reference)
        if kind:
            found.append((kind, "call " + label, why))
    elsewhere(found, calls_here, calls_there)
    mine, reference = files
    for (label, a), (_, b) in zip_items(mine, reference):
        kind, why = pipelines.difference(a, b)
        if kind:
            found.append((kind, "file " + label, why))
    for reader, reads_of in (("here", read_here), ("in MindSpore", read_there)):
        if set(reads_of) == set(WRITERS):
            for (label, a), (_, b) in zip_items(reads_of["minddata"], reads_of["mindspore"]):
                kind, why = pipelines.difference(a, b)
                if kind:
                    found.append((kind, f"{label} {reader} (files here vs MindSpore's)", why))
    for writer in WRITERS:
        if writer in read_here and writer in read_there:
            for (label, a), (_, b) in zip_items(read_here[writer], read_there[writer]):
                kind, why = pipelines.difference(a, b)
                if kind:
                    found.append((kind, f"{label} of {writer}'s files here vs in MindSpore",
                                  why))
    order = ("different", "error type", "error elsewhere")
    return sorted(found, key=lambda item: order.index(item[0]))


def elsewhere(found, calls_here, calls_there):
    """Marks as "error elsewhere" the calls that raise on one side only where the other side
    raises in another call of the session that passes on this side (MindSpore's parallel
    writer raises a bad call's error at commit())."""
    only = {"here": False, "there": False}
    for (_, mine), (_, reference) in zip(calls_here, calls_there):
        if (mine[0] == "error") != (reference[0] == "error"):
            only["here" if mine[0] == "error" else "there"] = True
    if only["here"] and only["there"]:
        for index, (kind, item, why) in enumerate(found):
            if kind == "different" and "raises" in why:
                found[index] = ("error elsewhere", item, why)


def zip_items(mine, reference):
    """Both lists of (item, outcome) item by item; an item one side lacks stands as absent."""
    a, b = dict(mine), dict(reference)
    labels = list(a) + [label for label in b if label not in a]
    return [((label, a.get(label, ABSENT)), (label, b.get(label, ABSENT))) for label in labels]


ABSENT = ("error", "absent", "not there", ("absent",))


#: numeric scalars this writer takes and MindSpore drops the row for (README: "numeric scalars")
TAKEN_HERE = {"other numpy int", "numpy int", "other numpy float", "int"}


def committed(calls):
    """Whether a session's calls end with a commit that held."""
    held = False
    for label, outcome in calls:
        name = label.split(" ", 1)[1]
        if name == "commit":
            held = outcome[0] == "ok"
        elif name in ("write", "append", "create"):
            held = False
    return held


def one_blob_field_empty(case):
    """Whether a row gives an empty bytes or array value where the schema has one blob field."""
    blobs = [name for name, spec in case["fields"].items()
             if "shape" in spec or spec["type"] == "bytes"]
    return len(blobs) == 1 and any(
        isinstance(row, dict) and isinstance(row.get(blobs[0]), (bytes, np.ndarray)) and
        len(row[blobs[0]].reshape(-1) if isinstance(row[blobs[0]], np.ndarray) else
            row[blobs[0]]) == 0
        for op in case["ops"] if op[0] == "write" for row in op[1])


def row_values(case, kind):
    return [value for op in case["ops"] if op[0] == "write" for row in op[1]
            if isinstance(row, dict) for value in row.values() if isinstance(value, kind)]


def float_quirk(outcome, order):
    """An outcome of FileReader rows with every number as MindSpore's FileReader may give it:
    a float at most 1e-6 from an integer (MindSpore's gives that int: 3.0 -> 3, 1e-10 -> 0,
    3.0000001 -> 3) and one beyond the int64 range (MindSpore's: -2**63) as that int."""
    def value(v):
        if isinstance(v, tuple) and len(v) == 2 and v[0] in ("float", "int"):
            number = v[1] if v[0] == "int" else struct.unpack(">d", bytes.fromhex(v[1]))[0]
            if v[0] == "int" or number == number and abs(number) != float("inf") and (
                    abs(number) >= 2 ** 63 or abs(number - round(number)) < 1e-6):
                return ("number", int(round(number)) if abs(number) < 2 ** 63 else -2 ** 63)
        if isinstance(v, list):
            items = [value(x) for x in v]
            rows = items and all(isinstance(x, list) for x in items)
            return sorted(items, key=repr) if rows and order != "as read" else items
        if isinstance(v, tuple):
            return tuple(value(x) for x in v)
        return v
    return value(outcome)


def documented(case, item, ours, theirs):
    """The README's reason for a difference in ``item``, or None."""
    marks = set(case["marks"])
    calls_here, calls_there = dict(ours[0]), dict(theirs[0])
    create = case["ops"][0]
    parallel = any(op[0] == "write" and op[2] for op in case["ops"])
    sizes_set = any(label.endswith(" size") and outcome[0] == "ok"
                    for label, outcome in ours[0])
    without_schema = next((int(label.split()[0]) for label, outcome in ours[0]
                           if outcome[1:2] == ("MRMGetMetaError",) and
                           label.endswith((" write", " commit"))), None)
    rules = [
        (parallel and shard_count(case) > 1 and not item.startswith("call "),
         "parallel_writer=True with several shards: MindSpore writes each shard as a dataset "
         "of its own (its header lists only itself; each call's rows go to one shard in turn)"),
        (parallel and sizes_set and not item.startswith("call "),
         "parallel_writer=True: MindSpore ignores set_header_size and set_page_size"),
        (item.startswith("call ") and item.endswith(" commit") and any(
            label.endswith(" commit") and outcome[0] == "ok" and int(label.split()[0]) <
            int(item.split()[1]) for label, outcome in ours[0]),
         "a second commit() is a no-op (MindSpore: RuntimeError 'Failed to seekp file' or "
         "AttributeError)"),
        (item.startswith("file ") and without_schema is not None or item.startswith("call ")
         and without_schema is not None and int(item.split()[1]) > without_schema,
         "a write_raw_data or commit() before add_schema (a RuntimeError in both) leaves the "
         "writer usable (MindSpore's write_raw_data then refuses 'flushed MindRecord files' "
         "after such a commit, its commit() fails 'The pointer[shard_header_] is null' and its "
         "files stay empty)"),
        (case["existing"] and create[2] is False and calls_here["0 create"][0] == "error",
         "an existing data or .db file with overwrite=False is a RuntimeError already at "
         "FileWriter(...) (MindSpore: at the first write or commit)"),
        (item.startswith("call ") and item.endswith(" write") and
         calls_here[item[5:]][1:2] == ("MRMValidateDataError",) and
         calls_here[item[5:]][4:5] == (calls_there[item[5:]],),
         "a row that does not match the schema is an MRMValidateDataError naming it "
         "(MindSpore drops it with a warning; skip_bad_rows=True gives MindSpore's files)"),
        (item.startswith("file ") and not committed(theirs[0]),
         "a session that fails or ends before commit() leaves no file (MindSpore leaves "
         "partial files, and deletes the old ones at once with overwrite=True)"),
        ("beyond int32" in marks,
         "an int32 value out of range is refused (MindSpore stores it)"),
        ("beyond int64" in marks,
         "an int64 value out of range is an MRMValidateDataError naming the row (MindSpore: "
         "RuntimeError 'Unable to cast Python instance')"),
        (marks & TAKEN_HERE,
         "numeric scalars of another numpy type (and ints for float fields) are taken "
         "(MindSpore drops the row)"),
        (one_blob_field_empty(case),
         "an empty bytes or array value in a schema of one blob field is stored (MindSpore "
         "drops the row or fails the call)"),
        (item.startswith(("FileReader ", "MindPage.read_at_page")) and (
            item.endswith(" in MindSpore (files here vs MindSpore's)") or
            item.endswith(" here vs in MindSpore")) and float_quirk(
                reads_of(ours, theirs, item)[0], rows_order(case)) == float_quirk(
                    reads_of(ours, theirs, item)[1], rows_order(case)),
         "FileReader returns floats as floats (MindSpore's: an integral float as an int)"),
        (item.startswith("MindPage.read_at_page") and shard_count(case) > 1 and
         "Failed to get Page" in str(reads_of(ours, theirs, item)[1]),
         "MindSpore's MindPage.read_at_page_by_id/_by_name raise 'Failed to get Page' for "
         "rows of a shard other than the first"),
        (item.startswith(("MindDataset ", "FileReader ")) and "in MindSpore" in item and
         case["columns"] and all(name in case["fields"] and "shape" not in case["fields"][name]
                                 and case["fields"][name]["type"] != "bytes"
                                 for name in case["columns"]),
         "FileReader and MindDataset read the data pages (MindSpore's, given columns of index "
         "fields only, read their values from the .db: 0.1 in a float32 field as "
         "0.10000000149011612, -0.0 as 0, a string cut at a NUL, an int32 out of range as "
         "2147483647)"),
        (item.startswith("file ") and any(
            op[0] == "size" and any(o[0] == "append" for o in case["ops"][:number])
            for number, op in enumerate(case["ops"])),
         "set_header_size/set_page_size after open_for_append are ignored with a warning "
         "(MindSpore 2.10 gives a dataset without rows the new page size, and aborts the "
         "process when it has rows)"),
        (item.startswith("call ") and item.endswith(" write") and
         case["ops"][int(item.split()[1])][2] is True and calls_here[item[5:]][0] == "error"
         and calls_there.get(item[5:], ("",))[0] == "ok",
         "parallel_writer=True checks the call's rows when it is made (MindSpore's worker "
         "processes check them: a bad call kills its worker, and commit() raises RuntimeError "
         "'Worker process(pid:N) has stopped abnormally' or hangs)"),
        (item.startswith("call ") and item.endswith(" write") and any(
            op[0] == "append" for op in case["ops"][:int(item.split()[1])]) and
         "already exist" in str(calls_there.get(item[5:])),
         "open_for_append, then write_raw_data(parallel_writer=True) appends (MindSpore 2.10: "
         "RuntimeError 'mindrecord files already exist')"),
        ("scalar" in marks,
         "a numpy scalar for an array field is an MRMValidateDataError naming the row (MindSpore "
         "2.10 refuses the whole call: TypeError \"object of type 'numpy.int32' has no len()\")"),
        (item.startswith("MindDataset ") and "in MindSpore" in item and any(
            np.size(v) == 0 for v in row_values(case, np.ndarray)),
         "MindDataset serves an empty array field as the stored empty array (MindSpore 2.10: "
         "a 0-d value of memory it never wrote)"),
        ((item.endswith(".db") or item.startswith("MindPage.")) and any(
            "\0" in v for v in row_values(case, str)),
         "the .db keeps an index string with a NUL whole (MindSpore cuts it at the NUL)"),
    ]
    return next((reason for applies, reason in rules if applies), None)


def reads_of(ours, theirs, item):
    """The two outcomes an item of the reads compares."""
    label = item.split(" ", 1)[0]
    if item.endswith("(files here vs MindSpore's)"):
        side = ours[1] if " here " in item else theirs[1]
        pair = side.get("minddata", ()), side.get("mindspore", ())
    else:
        writer = "minddata" if "of minddata's" in item else "mindspore"
        pair = ours[1].get(writer, ()), theirs[1].get(writer, ())
    return tuple(dict(reads).get(label, ABSENT) for reads in pair)


def classify(case, ours, theirs):
    return differential_reference.first_undocumented(case, ours, theirs,
                                                     differences(case, ours, theirs), documented)


def describe(case, limit=400):
    ops = "; ".join(f"{op[0]}{op[1:]!r:.{limit // 4}}" for op in case["ops"])
    return (f"[{ops}] existing={case['existing']} columns={case['columns']} "
            f"num_consumer={case['num_consumer']} marks={case['marks']}")[:limit * 3]


def reference_outcomes(args, folder):
    return differential_reference.reference_outcomes(
        __file__, args, args.cases, lambda path: [
            "--seed", str(args.seed), "--cases", str(args.cases), "--emit", args.reference,
            path, folder])


def main():
    args = differential_reference.command_line(__doc__.split("\n\n")[0], 300,
                                               ("LIBRARY", "FILE", "FOLDER"))
    if args.emit:                       # the reference interpreter's part
        library, path, folder = args.emit
        differential_reference.emit_outcomes(emit(library, args.seed, args.cases, folder,
                                                  args.start), path, CASE_TIMEOUT_S)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        warnings.simplefilter("ignore")
        logging.disable(logging.WARNING)        # skip_bad_rows' warnings
        library, all_cases = Library("minddata"), cases(args.seed, args.cases)
        library.name = "minddata"
        calls = [written(library, case, folder, number) for number, case in enumerate(all_cases)]
        reference = reference_outcomes(args, folder)
        ours = []
        for number, case in enumerate(all_cases):
            ours.append((calls[number], reads(library, case, folder, number),
                         tuple(file_outcomes(case_folder(folder, number, writer),
                                             rows_order(case)) for writer in WRITERS)))
        return differential_reference.print_report(
            args, all_cases, ours, reference, classify, describe,
            soft=("error type", "error elsewhere"), full=2000)


if __name__ == "__main__":
    sys.exit(main())
