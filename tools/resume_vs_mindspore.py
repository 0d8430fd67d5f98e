"""Resuming a dataset run part-way (``set_init_step``, ``Model.train(initial_epoch=...)``)
against MindSpore 2.10, and this package's own exactness rule for resumes.

Each case builds a deterministic pipeline: a NumpySlicesDataset, GeneratorDataset or MindDataset
(over a file FileWriter writes) of 0 to 30 rows whose column "id" is the row's number, then 0 to
4 random ops (map adding 100, on 1 or 2 threads or processes; batch with or without
drop_remainder, some with a per_batch_map adding 10000 times the batch's epoch number; repeat,
take, skip, filter, project, concat and zip with sources whose ids start at 1000 and 2000).
Sources are not shuffled, except in some cases (shuffle=True, or a shuffle op) run under
``ds.config.set_seed``, which are compared only with this package's own uninterrupted run.
Under ``ds.config.set_fast_recovery(True/False)`` it sets an init step on the pipeline (or on its
source, which MindSpore's pipeline above it inherits): none, 0, inside the first epoch, exactly
at an epoch's end, inside a later epoch, past the whole run, negative, or of a wrong type
(float, str, None, bool), drawn from the pipeline's ``get_dataset_size()``. Then either an
iterator with num_epochs -1 (3 epochs read), 1, 2 or 3 is read to its end and once more, or
``Model.train(epochs, data, initial_epoch=k, dataset_sink_mode=..., sink_size=...)`` runs a
network that records the batches it is given (MindSpore in PyNative mode).

Recorded as events: set_init_step's outcome, get_init_step, get_dataset_size, every epoch's
rows as ids (training: the batches of each training epoch, with its number), errors (type,
where) and get_fast_recovery afterwards. Compared with MindSpore event by event (as
tools/iterators_vs_mindspore.py does: other error types count apart as "error type", an error
at another event as "error elsewhere"), except shuffled cases and sink runs whose sink_size is
not the dataset's size (MindSpore's CPU build trains those without sink). On this side alone,
every case whose init step is a valid step also checks the exactness rule ("exact"): the
resumed run, built again with other worker counts (1 or 2, threads or processes), serves
exactly the tail of the uninterrupted run of the same pipeline (init step s: epoch s //
dataset_size from its row s % dataset_size, then the epochs after it); and ``Model.train(E,
data, initial_epoch=k)`` after ``data.set_init_step(k * steps_per_epoch)`` trains epochs k+1..E
on exactly the batches the uninterrupted run trained them on. Counted apart too: differences
the README documents ("documented") and cases that kill or hang MindSpore's interpreter.

    .venv/bin/python tools/resume_vs_mindspore.py [--seed 1] [--cases 150]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]
        [--show-documented] [--case N ...]

Prints each undocumented difference and a count per outcome; exits 1 if there is one. The
MindSpore interpreter runs this file alone (numpy only: it never imports this package).
"""
import importlib
import logging
import os
import random
import sys
import tempfile
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import iterators_vs_mindspore as iterators                          # noqa: E402
import pipelines_vs_mindspore as pipelines                          # noqa: E402

CASE_TIMEOUT_S = 60         # a case of the reference interpreter that runs longer hangs
MAX_ITEMS = 400             # an epoch read to at most this many items
READ_ENDLESS = 3            # epochs read of an iterator made with num_epochs=-1
WRONG_STEPS = {"negative": -1, "float": 2.0, "str": "3", "None": None, "bool": True}


# --- the functions the ops call (module level: worker processes pickle them) -----------------


def plus_hundred(x):
    return x + np.int64(100)


def tag_epoch(ids, batch_info):
    """per_batch_map: each id plus 10000 times the epoch the batch belongs to."""
    return ([np.asarray(value) + np.int64(10000 * batch_info.get_epoch_num())
             for value in ids],)


# --- drawing cases ---------------------------------------------------------------------------


def random_workers(r):
    return r.choice([(1, False), (2, False), (2, True), (1, False)])


def random_ops(r, shuffled):
    """0-4 ops as dicts; with ``shuffled`` maybe a shuffle op among them."""
    ops = []
    for _ in range(r.choice([0, 1, 1, 2, 2, 3, 4])):
        kind = r.choice(["map", "batch", "batch", "repeat", "take", "skip", "filter",
                         "project", "concat", "zip"] + (["shuffle"] if shuffled else []))
        op = {"op": kind}
        if kind in ("map", "batch"):
            op["workers"] = random_workers(r)
        if kind == "batch":
            op.update(size=r.randint(1, 4), drop=r.random() < 0.4, tag=r.random() < 0.3)
        elif kind in ("repeat", "take", "skip"):
            op["count"] = {"repeat": r.randint(1, 3), "take": r.randint(1, 12),
                           "skip": r.randint(0, 5)}[kind]
        elif kind == "filter":
            op["modulus"] = r.randint(2, 4)
        elif kind in ("concat", "zip"):
            op["rows"] = r.randint(1, 8)
        elif kind == "shuffle":
            op["buffer"] = r.choice([2, 4, 10])
        ops.append(op)
    return ops


def random_init(r):
    """Where the init step goes: a kind resolved against the dataset's size when run."""
    kind = r.choice(["none", "zero", "inside", "inside", "epoch end", "later", "later", "past",
                     "resume"] + list(WRONG_STEPS) * (r.random() < 0.3))
    return {"kind": kind, "fraction": round(r.random(), 2), "epoch": r.randint(1, 2),
            "extra": r.randint(0, 2), "on": "source" if r.random() < 0.15 else "pipeline"}


def random_case(r):
    shuffled = r.random() < 0.2
    source = {"kind": r.choice(["numpy", "numpy", "generator", "mindrecord"]),
              "rows": r.choice([0] + list(range(1, 31)) * 3),
              "shuffle": shuffled and r.random() < 0.5}
    case = {"source": source, "ops": random_ops(r, shuffled), "init": random_init(r),
            "fast_recovery": r.random() < 0.6, "seed": r.randint(1, 999),
            "alternative": [random_workers(r) for _ in range(4)], "shuffled": shuffled}
    if r.random() < 0.3:
        epochs = r.randint(1, 3)
        case["train"] = {"epochs": epochs, "initial": r.choice(
            [r.randint(0, epochs - 1)] * 9 + [epochs, -1]), "sink": r.random() < 0.4,
            "sink_size": r.choice([-1, -1, 1, 2, 3])}
    else:
        case["epochs"] = r.choice([-1, 1, 2, 3, 3])
    return case


def cases(seed, count):
    r = random.Random(seed)
    return [random_case(r) for _ in range(count)]


def read_epochs(case):
    """The epochs an iterator case reads (all of them, or READ_ENDLESS of an endless one)."""
    return READ_ENDLESS if case["epochs"] == -1 else case["epochs"]


def steps_per_epoch(case, size):
    train = case["train"]
    return train["sink_size"] if train["sink"] and train["sink_size"] > 0 else size


def init_value(case, size):
    """The init step a case sets, from the pipeline's ``size`` (None: it sets none)."""
    init, size = case["init"], max(size, 0)
    kind = init["kind"]
    if kind in WRONG_STEPS:
        return WRONG_STEPS[kind]
    inside = min(size - 1, max(1, round(init["fraction"] * size))) if size > 1 else 0
    total = (case["train"]["epochs"] if "train" in case else read_epochs(case)) * size
    return {"none": None, "zero": 0, "inside": inside, "epoch end": init["epoch"] * size,
            "later": init["epoch"] * size + inside, "past": total + init["extra"],
            "resume": case["train"]["initial"] * steps_per_epoch(case, size) if "train" in case
            else size}[kind]


# --- running a case in one library -----------------------------------------------------------


class Library:
    """``mindspore`` or this package (``minddata``, ``mindrecord`` and ``training``)."""

    def __init__(self, name):
        self.name = name
        self.ds, self.file_writer = pipelines.library(name)
        self._training = None

    def source(self, spec, directory):
        rows, kwargs = spec["rows"], {"shuffle": spec["shuffle"]}
        if spec["kind"] == "generator":
            return self.ds.GeneratorDataset(iterators.Rows(rows, ["id"]), column_names=["id"],
                                            python_multiprocessing=False, **kwargs)
        if spec["kind"] == "numpy":
            return self.numbers(rows, "id", 0, spec["shuffle"])
        path = os.path.join(directory, "rows.mindrecord")
        if not os.path.exists(path):
            writer = self.file_writer(path, shard_num=1)
            writer.add_schema({"id": {"type": "int64"}}, "resume")
            if rows:
                writer.write_raw_data([{"id": i} for i in range(rows)])
            writer.commit()
        return self.ds.MindDataset(path, **kwargs)

    def numbers(self, rows, column, first, shuffle=False):
        return self.ds.NumpySlicesDataset({column: np.arange(first, first + rows,
                                                             dtype=np.int64)}, shuffle=shuffle)

    def columns(self, rows, names, first):
        """Rows of numbers from ``first`` in columns ``names`` (what a concat appends)."""
        data = self.numbers(rows, names[0], first)
        for name in names[1:]:
            data = data.zip(self.numbers(rows, name, first))
        return data

    def build(self, case, directory, workers=None):
        """(the pipeline, its source); ``workers`` replaces the ops' (workers, processes)."""
        data = source = self.source(case["source"], directory)
        workers = iter(workers or [op.get("workers") for op in case["ops"]])
        for op in case["ops"]:
            kind = op["op"]
            count, processes = next(workers) if kind in ("map", "batch") else (1, False)
            if kind == "map":
                data = data.map(plus_hundred, input_columns=["id"], num_parallel_workers=count,
                                python_multiprocessing=processes)
            elif kind == "batch":
                extra = {"per_batch_map": tag_epoch, "input_columns": ["id"]} if op["tag"] \
                    else {}
                data = data.batch(op["size"], drop_remainder=op["drop"],
                                  num_parallel_workers=count, python_multiprocessing=processes,
                                  **extra)
            elif kind in ("repeat", "take", "skip"):
                data = getattr(data, kind)(op["count"])
            elif kind == "shuffle":
                data = data.shuffle(op["buffer"])
            elif kind == "filter":
                data = data.filter(iterators.KeepIf(op["modulus"]), input_columns=["id"])
            elif kind == "project":
                data = data.project(list(reversed(data.get_col_names())))
            elif kind == "concat":
                data = data.concat(self.columns(op["rows"], data.get_col_names(), 1000))
            else:
                data = data.zip(self.numbers(op["rows"], "z%d" % len(data.get_col_names()),
                                             2000))
        return data, source

    def training(self):
        """(Model, Cell, Callback) of ``mindspore`` (PyNative mode) or ``training``."""
        if self._training is None:
            if self.name == "mindspore":
                mindspore = importlib.import_module("mindspore")
                mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
                train = importlib.import_module("mindspore.train")
                self._training = (train.Model, mindspore.nn.Cell, train.Callback)
            else:
                training = importlib.import_module("training")
                self._training = (training.Model, training.nn.Cell,
                                  importlib.import_module("training.train").Callback)
        return self._training


def ids(value):
    """A row's or batch's column as plain ints (nested lists for a batch)."""
    return np.asarray(value.asnumpy() if hasattr(value, "asnumpy") else value).tolist()


def read_all(iterator, count):
    """Events of ``count`` epochs read from ``iterator``: ("epoch", rows) each, or the error
    that ended the reading."""
    events = []
    for _ in range(count):
        rows = []
        try:
            for row in iterator:
                rows.append([ids(value) for value in row])
                if len(rows) > MAX_ITEMS:
                    break
        except Exception as exc:                # an outcome to compare, like a row
            return events + [iterators.failure(exc)]
        events.append(("epoch", rows))
    return events


def set_init(case, data, source, size):
    """Sets the case's init step; its event."""
    value = init_value(case, size)
    if case["init"]["kind"] == "none":
        return ("set_init_step", "not called")
    target = source if case["init"]["on"] == "source" else data
    outcome = pipelines.attempt(lambda: target.set_init_step(value))
    return ("set_init_step", "ok") if outcome[0] == "ok" else iterators.failure_of(outcome)


def iterate(library, case, data):
    """Events of creating an iterator for the case's num_epochs and reading its epochs (and
    one item more of an iterator made for a number of epochs)."""
    try:
        iterator = data.create_tuple_iterator(num_epochs=case["epochs"], output_numpy=True)
    except Exception as exc:
        return [iterators.failure(exc)]
    events = [("created",)] + read_all(iterator, read_epochs(case))
    if case["epochs"] != -1 and events[-1][0] == "epoch":
        outcome = pipelines.attempt(lambda: next(iterator))
        events.append(("one more", "a row" if outcome[0] == "ok" else outcome[1]))
    pipelines.attempt(iterator.stop)
    return events


def train(library, case, data):
    """Events of ``Model.train``: ("epoch", its number, the batches its steps trained on) at
    each training epoch's end, or the error."""
    model_class, cell_class, callback_class = library.training()
    seen, events = [], []

    class Recorder(cell_class):
        def construct(self, *inputs):
            seen.append([ids(value) for value in inputs])
            return inputs[0]

    class EpochEnds(callback_class):
        def on_train_epoch_end(self, run_context):
            events.append(("epoch", run_context.original_args().cur_epoch_num, list(seen)))
            seen.clear()

    spec = case["train"]
    try:
        model_class(Recorder()).train(spec["epochs"], data, callbacks=[EpochEnds()],
                                      initial_epoch=spec["initial"],
                                      dataset_sink_mode=spec["sink"], sink_size=spec["sink_size"])
        events.append(("trained",))
    except Exception as exc:
        events.append(iterators.failure(exc))
    return events


def event_of(label, outcome):
    """(label, value) of an outcome, or its error event."""
    return (label, repr(outcome[1])) if outcome[0] == "ok" else iterators.failure_of(outcome)


def run_case(library, case, directory, exact):
    """[(item, outcome)]: "build", or "events" (and, with ``exact``, "exact": the exactness
    rule's verdict)."""
    ds = library.ds
    before = ds.config.get_seed(), ds.config.get_fast_recovery()
    ds.config.set_seed(case["seed"])
    ds.config.set_fast_recovery(case["fast_recovery"])
    try:
        built = pipelines.attempt(lambda: library.build(case, directory))
        if built[0] == "error":
            return [("build", built)]
        data, source = built[1]
        size = pipelines.attempt(data.get_dataset_size)
        events = [set_init(case, data, source, size[1] if size[0] == "ok" else 0),
                  event_of("get_init_step", pipelines.attempt(data.get_init_step)),
                  event_of("get_dataset_size", size)]
        events += (train if "train" in case else iterate)(library, case, data)
        events.append(("get_fast_recovery", ds.config.get_fast_recovery()))
        outcomes = [("events", ("ok", events))]
        if exact:
            outcomes.append(("exact", ("ok", exactness(library, case, directory, size))))
    finally:
        ds.config.set_seed(before[0])
        ds.config.set_fast_recovery(before[1])
    return outcomes


# --- the exactness rule (this package alone) -------------------------------------------------


def exactness(library, case, directory, size):
    """None where a resume serves exactly what the uninterrupted run serves from its step on
    (or the case has no valid step to resume at), else why not."""
    if size[0] != "ok" or size[1] <= 0:
        return None
    if "train" in case:
        return training_exactness(library, case, directory, size[1])
    resumed, step = run_again(library, case, directory, init_value(case, size[1]),
                              case["alternative"])
    if not isinstance(step, int) or not 0 < step < size[1] * read_epochs(case):
        return None                             # no step to resume at (or a refused one)
    uninterrupted = run_again(library, case, directory, None)[0]
    if any(event[0] != "epoch" for event in uninterrupted):
        return None                             # a run that fails has no tail to serve
    epoch, position = divmod(step, size[1])
    tail = [("epoch", uninterrupted[epoch][1][position:])] + uninterrupted[epoch + 1:]
    return None if resumed[:len(tail)] == tail else (
        f"resumed at step {step} with workers {case['alternative']}: "
        f"{pipelines.summary(resumed)}; the uninterrupted run's tail: {pipelines.summary(tail)}")


def run_again(library, case, directory, step, workers=None):
    """(the epochs a fresh build of the case reads after ``set_init_step(step)`` where the
    case sets it (None: none set), the step the pipeline then starts at)."""
    library.ds.config.set_seed(case["seed"])
    data, source = library.build(case, directory, workers)
    if step is not None:
        (source if case["init"]["on"] == "source" else data).set_init_step(step)
    events = [event for event in iterate(library, case, data) if event[0] != "created"]
    return events[:read_epochs(case)], data.get_init_step()


def training_exactness(library, case, directory, size):
    spec = case["train"]
    first = spec["initial"]
    if not 0 < first < spec["epochs"]:
        return None
    steps = steps_per_epoch(case, size)
    library.ds.config.set_seed(case["seed"])
    uninterrupted = train(library, dict(case, train=dict(spec, initial=0)),
                          library.build(case, directory)[0])
    library.ds.config.set_seed(case["seed"])
    data = library.build(case, directory, case["alternative"])[0]
    data.set_init_step(first * steps)
    resumed = train(library, case, data)
    if uninterrupted[-1] != ("trained",):
        return None
    tail = [event for event in uninterrupted if event[0] != "epoch" or event[1] > first]
    return None if resumed == tail else (
        f"Model.train(initial_epoch={first}) after set_init_step({first * steps}), workers "
        f"{case['alternative']}: {pipelines.summary(resumed)}; the uninterrupted run's epochs "
        f"after {first}: {pipelines.summary(tail)}")


def outcomes(library_name, seed, count, start=0, exact=False):
    """Each case's outcomes from case ``start`` on (a generator: a crash loses no case before
    it); with ``exact`` each also checks the exactness rule."""
    warnings.simplefilter("ignore")
    logging.getLogger("minddata").setLevel(logging.ERROR)
    library = Library(library_name)
    for case in cases(seed, count)[start:]:
        with tempfile.TemporaryDirectory() as directory:
            yield run_case(library, case, directory, exact)


# --- comparing -------------------------------------------------------------------------------


def compared_with_mindspore(case, ours):
    """Whether MindSpore's run is the contract for this case: not for a shuffled one (other
    permutations), nor for a sink run whose sink_size is not the dataset's size (MindSpore's
    CPU build trains without sink, an epoch a pass)."""
    if case["shuffled"]:
        return False
    spec = case.get("train")
    if not spec or not spec["sink"]:
        return True
    size = dict(event[:2] for event in dict(ours).get("events", ("ok", []))[1]
                if len(event) >= 2).get("get_dataset_size")
    if size is None or not size.isdigit():
        return True
    step = init_value(case, int(size))
    # MindSpore moves a step inside a sink chunk back to the chunk's start (on a device;
    # its CPU build trains without sink)
    return spec["sink_size"] in (-1, int(size)) and not (
        isinstance(step, int) and int(size) and step % int(size))


def case_differences(case, ours, theirs):
    """[(kind, item, why)] of a case, hard ones first."""
    mine = dict(ours)
    found = []
    if mine.get("exact", ("ok", None))[1]:
        found.append(("different", "exact", mine["exact"][1]))
    if not compared_with_mindspore(case, ours):
        return found
    if theirs[0][0] == "crash":
        return found + [("MindSpore crashed", "crash", theirs[0][1][2])]
    reference = dict(theirs)
    if "build" in mine or "build" in reference:
        kind, why = pipelines.difference(mine.get("build", ("ok",)),
                                         reference.get("build", ("ok",)))
        found += [(kind, "build", why)] if kind else []
    else:
        found += iterators.event_differences(mine["events"][1], reference["events"][1])
    found.sort(key=lambda item: ("different", "error type", "error elsewhere",
                                 "MindSpore crashed").index(item[0]))
    return found


def classify(case, ours, theirs):
    return differential_reference.first_undocumented(
        case, ours, theirs, case_differences(case, ours, theirs), documented)


def documented(case, item, ours, theirs):
    """The README's word for a difference in ``item``, or None (the dataset API's "Deviations
    from MindSpore")."""
    reference = str(theirs)
    rules = [
        (case.get("epochs") == -1 and "num_epochs: -1" in reference,
         "an iterator made with num_epochs=-1 starts at the init step (MindSpore 2.10 refuses "
         "every init step but 0 there: 'reset step must be less than dataset_size * "
         "num_epochs', a bound it computes with -1)"),
        (case["source"]["rows"] == 0 and "data row of input source must not be 0" in reference,
         "a pipeline with no rows iterates as empty (MindSpore 2.10 refuses a NumpySlicesDataset "
         "or GeneratorDataset source of no rows: RuntimeError)"),
        ("There are no samples" in reference, "a source with no rows is empty (MindSpore 2.10 "
         "refuses a MindDataset of no rows, or a concat of one, when built)"),
    ]
    return next((reason for applies, reason in rules if applies and item != "exact"), None)


def describe(case, limit=500):
    source = case["source"]
    ops = "".join(f".{op['op']}({', '.join(f'{k}={v}' for k, v in op.items() if k != 'op')})"
                  for op in case["ops"])
    init = case["init"]
    run = (f"train{case['train']}" if "train" in case else f"num_epochs={case['epochs']}")
    text = (f"{source['kind']}({source['rows']} rows, shuffle={source['shuffle']}){ops} "
            f"seed {case['seed']}, fast_recovery={case['fast_recovery']}, init {init['kind']} "
            f"on the {init['on']} ({init['fraction']}, epoch {init['epoch']}, +{init['extra']}), "
            f"{run}")
    return text if len(text) <= limit else text[:limit] + "..."


def main():
    args = differential_reference.command_line(__doc__.split("\n\n")[0], 150)
    if args.emit:                       # the reference interpreter's part
        differential_reference.emit_outcomes(
            outcomes(args.emit[0], args.seed, args.cases, args.start), args.emit[1],
            CASE_TIMEOUT_S)
        return 0
    reference = differential_reference.reference_outcomes(
        __file__, args, args.cases, lambda path: ["--seed", str(args.seed), "--cases",
                                                  str(args.cases), "--emit", args.reference,
                                                  path])
    return differential_reference.print_report(
        args, cases(args.seed, args.cases), outcomes("minddata", args.seed, args.cases,
                                                     exact=True),
        reference, classify, lambda case, full=None: describe(case, full or 500),
        soft=("error type", "error elsewhere"), full=2000)


if __name__ == "__main__":
    sys.exit(main())
