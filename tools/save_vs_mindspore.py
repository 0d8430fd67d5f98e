"""Dataset.save against MindSpore 2.10: the MindRecord files each library writes, read back by
both libraries' MindDataset.

Each case draws a small NumpySlicesDataset (columns of fixed shapes) or GeneratorDataset (a
list of rows, shapes that may vary between rows) of 0 to 4 rows and 1 to 3 columns of any
numpy dtype (bool, int8 to uint64, float16 to float64, str, bytes), 0-d, 1-D or 2-D, empty
arrays too; sometimes read through ``batch(2)`` or a ``map`` of an identity function; and
``num_files`` 1 to 3. Each library saves it (MindSpore in its own interpreter,
``--mindspore-python``; a case that kills or hangs it is recorded as a crash), then each
library's ``MindDataset(shuffle=False)`` reads both libraries' files: the column names,
``output_types()``, ``output_shapes()`` and every row of a dict iterator (dtype, shape and
values; sorted where ``num_files`` > 1, as the README documents that rows go to the files in
another order). Compared with ``tools/pipelines_vs_mindspore.py``'s rules: the save itself
(both raise or neither; another error type counted apart), each reader on the two libraries'
files, and the two readers on each file. Counted apart: differences the README documents.

    .venv/bin/python tools/save_vs_mindspore.py [--seed 1] [--cases 100]
        [--mindspore-python /work/msvenv/bin/python] [--show-documented] [--case N ...]

Prints each undocumented difference and a count per outcome; exits 1 if there is one.
"""
import glob
import importlib
import os
import random
import sys
import tempfile
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import memory_sources_vs_mindspore as memory                        # noqa: E402
import pipelines_vs_mindspore as pipelines                          # noqa: E402

CASE_TIMEOUT_S = 30         # a case of the reference interpreter that runs longer hangs
DTYPES = memory.NUMERIC + ["str", "bytes"]
SHAPES = [(), (1,), (3,), (2, 2), (0,), (2, 0), "varying", "varying rank"]
WRITERS = ("minddata", "mindspore")


def column(r, rows):
    dtype, shape = r.choice(DTYPES), r.choice(SHAPES)
    if shape == "varying":
        return [memory.array(r, dtype, (r.choice([0, 1, 2, 3]), 2)) for _ in range(rows)]
    if shape == "varying rank":
        return [memory.array(r, dtype, r.choice([(2,), (1, 2), ()])) for _ in range(rows)]
    return [memory.array(r, dtype, shape) for _ in range(rows)]


def random_case(r):
    rows, width = r.choice([0, 1, 2, 3, 4]), r.choice([1, 2, 3])
    columns = [column(r, rows) for _ in range(width)]
    fixed = all(len({c.shape for c in col}) <= 1 for col in columns)
    kind = "numpy" if fixed and rows and r.random() < 0.5 else "generator"
    return {"kind": kind, "names": [f"c{i}" for i in range(width)],
            "table": [tuple(col[i] for col in columns) for i in range(rows)],
            "after": r.choice([None, None, "batch", "map"]), "num_files": r.choice([1, 2, 3])}


def cases(seed, count):
    """The cases of a seed, drawn in turn from one generator."""
    return [random_case(r) for r in [random.Random(seed)] for _ in range(count)]


class Library:
    def __init__(self, name):
        self.name = name
        self.ds = importlib.import_module("mindspore.dataset" if name == "mindspore"
                                          else "minddata")

    def build(self, case):
        ds = self.ds
        if case["kind"] == "numpy":
            data = ds.NumpySlicesDataset(
                {n: np.stack([row[i] for row in case["table"]])
                 for i, n in enumerate(case["names"])}, shuffle=False)
        else:
            data = ds.GeneratorDataset(memory.rows_of(case["table"]), case["names"],
                                       shuffle=False)
        if case["after"] == "batch":
            data = data.batch(2)
        elif case["after"] == "map":
            data = data.map(memory.identity, input_columns=[case["names"][0]])
        return data

    def save(self, case, path):
        return pipelines.attempt(lambda: self.build(case).save(path, case["num_files"]))

    def read(self, case, path):
        """The file's schema and rows as this library's MindDataset reads them."""
        first = path if case["num_files"] == 1 else path + "0"
        if not os.path.exists(first):
            return ("error", "absent", "no file written", ("absent",))
        order = "as read" if case["num_files"] == 1 else "sorted"

        def read():
            data = self.ds.MindDataset(first, shuffle=False)
            rows = [sorted((k, memory.plain(v)) for k, v in row.items()) for row in
                    data.create_dict_iterator(num_epochs=1, output_numpy=True)]
            return (sorted(data.get_col_names()),
                    sorted(zip(data.get_col_names(), [np.dtype(t).str for t in
                                                      data.output_types()],
                               [list(s) if order == "as read" else "first row's"
                                for s in data.output_shapes()])),    # of another row where
            # the files hold the rows in another order (documented)
                    pipelines.in_order(rows, order))
        return pipelines.attempt(read)


def case_path(folder, writer, number):
    return os.path.join(folder, f"{writer}{number}.mindrecord")


def emit(library_name, seed, count, folder, start=0):
    """This library's outcomes: (its save, then its reads of both writers' files), a case at
    a time (a generator: a crash loses no case before it)."""
    warnings.simplefilter("ignore")
    library = Library(library_name)
    for number, case in enumerate(cases(seed, count)[start:], start):
        for leftover in glob.glob(case_path(folder, "mindspore", number) + "*"):
            os.remove(leftover)             # of a try that crashed
        saved = library.save(case, case_path(folder, "mindspore", number))   # the reference side
        yield saved, {writer: library.read(case, case_path(folder, writer, number))
                      for writer in WRITERS}


def reference_outcomes(args, folder):
    """The reference interpreter's outcomes (differential_reference's run: a case that kills or
    hangs it twice running is recorded as a crash, and a new process goes on after it)."""
    return differential_reference.reference_outcomes(
        __file__, args, args.cases,
        lambda path: ["--seed", str(args.seed), "--cases", str(args.cases), "--emit",
                      args.reference, path, folder])


def differences(ours, theirs):
    """[(kind, item, why)]: the saves, each reader on both files, both readers on each file."""
    if theirs == differential_reference.CRASH:
        return [("MindSpore crashed", "crash", "killed by a signal or hung")]
    (saved_here, read_here), (saved_there, read_there) = ours, theirs
    found = [("save",) + pipelines.difference(saved_here, saved_there)]
    if saved_here[0] == "error" or saved_there[0] == "error":
        return [(kind, item, why) for item, kind, why in found if kind]   # a failed save's
        # leftovers (MindSpore leaves an empty file) are not compared
    for label, reads in (("read here", read_here), ("read in MindSpore", read_there)):
        found.append((label + " (files here vs MindSpore's)",)
                     + pipelines.difference(reads["minddata"], reads["mindspore"]))
    for writer in WRITERS:
        found.append((f"{writer}'s file read here vs in MindSpore",)
                     + pipelines.difference(read_here[writer], read_there[writer]))
    return [(kind, item, why) for item, kind, why in found if kind]


def documented(case, item, why):
    """The README's reason for a difference, or None."""
    shapes = [{row[i].shape for row in case["table"]} for i in range(len(case["names"]))]
    ranks = [{len(s) for s in column} for column in shapes]
    if case["after"] != "batch" and any(len(r) > 1 for r in ranks) and (
            item == "save" or "files here vs" in item):
        return "a row of another rank is refused here (MindSpore saves it flattened)"
    if any(value.size == 0 for row in case["table"] for value in row) and (
            item == "read in MindSpore (files here vs MindSpore's)"
            or item.endswith("read here vs in MindSpore")):
        return "MindDataset serves an empty array field as the stored empty array (MindSpore " \
            "2.10: a 0-d value of memory it never wrote)"
    return None


def classify(case, ours, theirs):
    found = differences(ours, theirs)
    for kind, item, why in found:
        if kind == "different" and not documented(case, item, why):
            return kind, item, why
    hard = [f for f in found if f[0] == "different"]
    if hard:
        return "documented", hard[0][1], documented(case, hard[0][1], hard[0][2])
    return found[0] if found else (None, None, None)


def describe(case, limit=300):
    return (f"{case['kind']} {case['names']} rows {case['table']!r:.{limit}} after "
            f"{case['after']}, num_files={case['num_files']}")


def main():
    args = differential_reference.command_line(__doc__.split("\n\n")[0], 100,
                                               ("LIBRARY", "FILE", "FOLDER"))
    if args.emit:                       # the reference interpreter's part
        library, path, folder = args.emit
        differential_reference.emit_outcomes(
            emit(library, args.seed, args.cases, folder, args.start), path, CASE_TIMEOUT_S)
        return 0
    counts = {}
    with tempfile.TemporaryDirectory() as folder:
        library, all_cases = Library("minddata"), cases(args.seed, args.cases)
        here_saves = [library.save(case, case_path(folder, "minddata", number))
                      for number, case in enumerate(all_cases)]
        reference = reference_outcomes(args, folder)
        for number, case in enumerate(all_cases):
            mine = (here_saves[number], {writer: library.read(
                case, case_path(folder, writer, number)) for writer in WRITERS})
            theirs = reference[number]
            if number in (args.case or ()):
                print(f"case {number} in full: {describe(case, 2000)}\n    here: {mine}\n"
                      f"    MindSpore: {theirs}")
            kind, item, why = classify(case, mine, theirs)
            kind = kind or "same"
            counts[kind] = counts.get(kind, 0) + 1
            shown = {"different", "MindSpore crashed"} | (
                {"error type"} if args.show_error_types else set()) | (
                {"documented"} if args.show_documented else set())
            if kind in shown:
                print(f"case {number}: {describe(case)}\n    {item}: {why}")
    print(f"{args.cases} cases, seed {args.seed}: " + ", ".join(
        f"{counts.get(k, 0)} {k}" for k in ("same", "documented", "error type",
                                            "MindSpore crashed", "different")))
    return 1 if counts.get("different") else 0


if __name__ == "__main__":
    sys.exit(main())
