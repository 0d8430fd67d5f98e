"""The iteration protocol and the dataset callbacks against MindSpore 2.10: what a training loop
sees, epoch by epoch.

Each case builds a small deterministic pipeline (a NumpySlicesDataset or GeneratorDataset of 0 to
12 rows whose column "id" is the row's number, some with a float column "x" too) and 0 to 4
random ops: batch (drop_remainder), repeat (1-3; -1 only with a take after it), take, skip,
filter, project, map (adding 100 to "id", or failing on one row), one of them with a
``DSCallback`` or ``WaitedDSCallback`` subclass as ``callbacks=`` (step_size 1-3), sync_wait;
under a random ``ds.config`` prefetch size, debug mode or error samples mode. It then drives
iteration: a tuple or dict iterator with num_epochs -1, 1, 2 or 3 and output_numpy True or
False; epochs read fully (as many as num_epochs, fewer, or one more), a few rows then a new
epoch, ``next`` after an epoch's end, ``stop()`` then reading again, a second iterator or a
plain ``for`` loop while the first is alive, ``len()`` of the dataset and of the iterator, the
iterator's get_col_names, and get_dataset_size, get_batch_size, get_repeat_count,
output_shapes, output_types, get_col_names before, between and after epochs. A pipeline with a
sync_wait gets a ``sync_update`` after each row read; one with a WaitedDSCallback is driven as
``Model.train`` drives it (``step_end`` after each batch, ``epoch_end`` after each epoch,
``end`` at the close).

Recorded per case: the ordered events the loop sees (rows as ids with their types, each
epoch's end, metadata values, sync_wait callbacks, exceptions with their type where they are
raised), each DSCallback hook's own sequence of (cur_epoch_num, cur_step_num_in_epoch,
cur_step_num), and the WaitedDSCallback's sync_epoch_begin/sync_step_begin calls (with the
training step or epoch that released them). MindSpore's map runs ahead of the loop, and its
hooks of different kinds interleave as its threads run: the hooks are compared per hook, in
full where every epoch of the iterator was read to its end, else only as far as the shorter
side went (one must be the other's start). Compared event by event: two errors at the same
event of another type count apart ("error type"), at another event as "error elsewhere";
differences the README documents count as "documented", cases that kill or hang MindSpore's
interpreter as "MindSpore crashed".

    .venv/bin/python tools/iterators_vs_mindspore.py [--seed 1] [--cases 200]
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

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import pipelines_vs_mindspore as pipelines                          # noqa: E402

CASE_TIMEOUT_S = 40         # a case of the reference interpreter that runs longer hangs
MAX_ROWS = 60               # an epoch read to at most this many rows
CALLBACK_TIMEOUT_S = 20     # a WaitedDSCallback's wait (the drives never leave one waiting)
CONDITION = "policy"        # the sync_wait's condition name
METADATA = ("get_dataset_size", "get_batch_size", "get_repeat_count", "output_shapes",
            "output_types", "get_col_names", "len")
ITERATOR_METADATA = ("iterator get_col_names", "iterator len")


# --- the functions the ops call (module level, the same in both interpreters) ------------------


def plus_hundred(x):
    return x + np.int64(100)


class FailAt:
    """A map operation raising ValueError on the row (or batch) holding id ``number``."""

    def __init__(self, number):
        self.number = number

    def __call__(self, x):
        if np.any(np.asarray(x) % 100 == self.number):
            raise ValueError(f"row {self.number} refused")
        return x


class KeepIf:
    """A filter predicate keeping the rows whose id is not a multiple of ``modulus``."""

    def __init__(self, modulus):
        self.modulus = modulus

    def __call__(self, x):
        return bool(np.all(np.asarray(x) % self.modulus != 0))


class Rows:
    """GeneratorDataset's random-access source."""

    def __init__(self, count, columns):
        self.count, self.columns = count, columns

    def __getitem__(self, index):
        row = (np.array(index, np.int64), np.array(index / 2, np.float32))
        return row[:len(self.columns)]

    def __len__(self):
        return self.count


# --- drawing cases ---------------------------------------------------------------------------


def random_source(r):
    return {"kind": r.choice(["numpy", "generator"]), "rows": r.choice(
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 5, 6]),
        "columns": r.choice([["id"], ["id", "x"]])}


def random_map(r, callback):
    operation = "plus_hundred" if r.random() < 0.85 else ("fail_at", r.randrange(8))
    return {"op": "map", "operation": operation, "callback": callback}


def plain_ops(r, callback, sync):
    """0-4 random ops; the map carrying ``callback`` among them (a map without one may come
    too); with ``sync`` a sync_wait followed only by ops that let every row through to the
    loop (its sync_update releases rows one read at a time)."""
    ops, mapped = [], False
    for _ in range(r.randint(0, 4)):
        kind = r.choice(["batch", "repeat", "take", "skip", "filter", "map", "map", "project"])
        if kind == "batch":
            ops.append({"op": "batch", "size": r.randint(1, 4), "drop": r.random() < 0.4})
        elif kind == "repeat":
            ops.append({"op": "repeat", "count": r.randint(1, 3)})
        elif kind in ("take", "skip"):
            ops.append({"op": kind, "count": r.randint(0 if kind == "skip" else 1, 8)})
        elif kind == "filter":
            ops.append({"op": "filter", "modulus": r.randint(2, 4)})
        elif kind == "project":
            ops.append({"op": "project"})
        else:
            ops.append(random_map(r, None if mapped else callback))
            mapped = True
    if not mapped and callback:
        ops.insert(r.randint(0, len(ops)), random_map(r, callback))
    if sync:
        tail = [op for op in ops if op["op"] in ("map", "project", "take")]
        if r.random() < 0.5:
            tail.insert(r.randint(0, len(tail)), {"op": "batch", "size": r.randint(1, 3),
                                                  "drop": False})
        ops = [op for op in ops if op not in tail] + [
            {"op": "sync_wait", "num_batch": r.randint(1, 2)}] + tail
    return ops


def waited_ops(r, callback):
    """Ops before the map with the WaitedDSCallback, then a batch of its step_size (one
    training step, as Model trains) unless the step is one row, then maybe project."""
    ops = [op for op in plain_ops(r, None, False) if op["op"] != "project"]
    ops.append({"op": "map", "operation": "plus_hundred", "callback": callback})
    if callback["step_size"] > 1 or r.random() < 0.5:
        ops.append({"op": "batch", "size": callback["step_size"], "drop": r.random() < 0.3})
    if r.random() < 0.3:
        ops.append({"op": "project"})
    return ops


def endless_ops(r, callback):
    """repeat(-1) and the take that ends it: MindSpore 2.10's take drains its input at the
    epoch's end, which never comes (it hangs), so these cases read within the first epoch."""
    ops = [random_map(r, callback)] if callback else []
    count = r.randint(1, 8)
    ops += [{"op": "repeat", "count": -1}, {"op": "take", "count": count}]
    if r.random() < 0.5:
        ops.append({"op": "batch", "size": r.randint(1, min(3, count)), "drop": False})
    return ops


def whole_batches(ops):
    """The items an endless case may read: its last batch, partial, waits for the epoch's
    end."""
    return ops[-2]["count"] // ops[-1]["size"] if ops[-1]["op"] == "batch" else ops[-1]["count"]


def random_callback(r, kind):
    return {"kind": kind, "step_size": r.randint(1, 3)}


def random_config(r, ops):
    config = {}
    if r.random() < 0.3:
        config["set_prefetch_size"] = r.choice([1, 2, 8])
    if r.random() < 0.1:
        config["set_debug_mode"] = True
    if any(op.get("operation", "plus_hundred") != "plus_hundred" for op in ops) and \
            r.random() < 0.5:
        config["set_error_samples_mode"] = r.choice(["RETURN", "SKIP", "REPLACE"])
    return config


def random_reads(r, sync):
    """What the loop does after creating the iterator (a plain pipeline)."""
    reads = []
    for _ in range(r.randint(1, 6)):
        kind = r.random()
        if kind < 0.45:
            reads.append(("epoch",))
        elif kind < 0.6:
            reads.append(("part", r.randint(0, 3)))
        elif kind < 0.67:
            reads.append(("next",))
        elif kind < 0.72:
            reads.append(("stop",))
        elif kind < 0.85:
            reads.append(("meta", r.choice(METADATA + ITERATOR_METADATA)))
        elif not sync:
            reads.append(r.choice([("second", r.choice(["tuple", "dict"])), ("for",)]))
    return reads


def random_case(r):
    source = random_source(r)
    shape = r.random()
    if shape < 0.2:
        callback = random_callback(r, "waited")
        ops = waited_ops(r, callback)
    elif shape < 0.27:
        source["rows"] = max(source["rows"], 1)
        callback = random_callback(r, "plain") if r.random() < 0.6 else None
        ops = endless_ops(r, callback)
    else:
        callback = random_callback(r, "plain") if r.random() < 0.7 else None
        ops = plain_ops(r, callback, sync=r.random() < 0.15)
    sync = any(op["op"] == "sync_wait" for op in ops)
    epochs = r.choice([-1, 1, 2, 3])
    before = [("meta", r.choice(METADATA)) for _ in range(r.choice([0, 0, 1, 2]))]
    if shape < 0.2:
        trained = epochs if epochs > 0 else r.randint(1, 2)
        reads = [("train epoch",)] * trained
        for _ in range(r.randint(0, 2)):
            reads.insert(r.randint(0, len(reads)), ("meta", r.choice(METADATA)))
    elif shape < 0.27:
        reads = [("part", r.randint(1, min(3, whole_batches(ops)))),
                 ("meta", r.choice(METADATA)), ("stop",)]
        epochs = r.choice([-1, 1, 2])
    else:
        reads = random_reads(r, sync)
    return {"source": source, "ops": ops, "config": random_config(r, ops),
            "iterator": r.choice(["tuple", "tuple", "dict", "for"]) if shape >= 0.27 else
            r.choice(["tuple", "dict"]), "epochs": epochs, "numpy": r.random() < 0.5,
            "drive": before + [("create",)] + reads}


def cases(seed, count):
    r = random.Random(seed)
    return [random_case(r) for _ in range(count)]


# --- running a case in one library -----------------------------------------------------------


class TrainingContext:
    """What Model hands a training callback: ``original_args()`` and the step or epoch it ended."""

    def __init__(self, label):
        self.label = label

    def original_args(self):
        return self


class Recording:
    """The events of one case: ``events`` the loop sees, ``hooks`` each DSCallback hook's
    calls, ``synced`` the WaitedDSCallback's."""

    def __init__(self):
        self.events, self.hooks, self.synced = [], {}, []

    def hook(self, name, context):
        self.hooks.setdefault(name, []).append(
            (context.cur_epoch_num, context.cur_step_num_in_epoch, context.cur_step_num))


def callback_classes(ds):
    """(DSCallback recording every hook, WaitedDSCallback recording its sync calls), made on
    ``ds``'s base classes."""

    class Hooks(ds.DSCallback):
        def __init__(self, step_size, recording):
            super().__init__(step_size)
            self.recording = recording

        def ds_begin(self, context):
            self.recording.hook("ds_begin", context)

        def ds_epoch_begin(self, context):
            self.recording.hook("ds_epoch_begin", context)

        def ds_epoch_end(self, context):
            self.recording.hook("ds_epoch_end", context)

        def ds_step_begin(self, context):
            self.recording.hook("ds_step_begin", context)

        def ds_step_end(self, context):
            self.recording.hook("ds_step_end", context)

    class Synced(ds.WaitedDSCallback):
        def __init__(self, step_size, recording):
            super().__init__(step_size)
            self.recording = recording

        def sync(self, name, train_context, context):
            self.recording.synced.append((name, context.cur_epoch_num,
                                          context.cur_step_num_in_epoch, context.cur_step_num,
                                          getattr(train_context, "label", None)))

        def sync_epoch_begin(self, train_context, context):
            self.sync("sync_epoch_begin", train_context, context)

        def sync_step_begin(self, train_context, context):
            self.sync("sync_step_begin", train_context, context)

    return Hooks, Synced


class Library:
    """``mindspore.dataset`` or ``minddata``."""

    def __init__(self, name):
        self.ds = importlib.import_module("mindspore.dataset" if name == "mindspore"
                                          else "minddata")
        self.hooks, self.synced = callback_classes(self.ds)
        logging.getLogger("minddata").setLevel(logging.ERROR)   # a skipped row's warning

    def source(self, spec):
        count, columns = spec["rows"], spec["columns"]
        if spec["kind"] == "generator":
            return self.ds.GeneratorDataset(Rows(count, columns), column_names=columns,
                                            shuffle=False)
        data = {"id": np.arange(count, dtype=np.int64),
                "x": np.arange(count, dtype=np.float32) / 2}
        return self.ds.NumpySlicesDataset({name: data[name] for name in columns},
                                          shuffle=False)

    def build(self, case, recording):
        """(the pipeline, its callback object or None)."""
        data, callback = self.source(case["source"]), None
        for op in case["ops"]:
            kind = op["op"]
            if kind == "batch":
                data = data.batch(op["size"], drop_remainder=op["drop"])
            elif kind in ("repeat", "take", "skip"):
                data = getattr(data, kind)(op["count"])
            elif kind == "filter":
                data = data.filter(KeepIf(op["modulus"]), input_columns=["id"],
                                   num_parallel_workers=1)
            elif kind == "project":
                data = data.project(list(reversed(case["source"]["columns"])))
            elif kind == "sync_wait":
                data = data.sync_wait(CONDITION, num_batch=op["num_batch"], callback=lambda
                                      value: recording.events.append(("sync callback", value)))
            else:
                operation = op["operation"]
                operation = plus_hundred if operation == "plus_hundred" else FailAt(
                    operation[1])
                callbacks = None
                if op["callback"]:
                    spec = op["callback"]
                    made = (self.synced if spec["kind"] == "waited" else self.hooks)
                    callback = made(spec["step_size"], recording)
                    callbacks = [callback]
                data = data.map(operation, input_columns=["id"], num_parallel_workers=1,
                                callbacks=callbacks)
        return data, callback

    def configure(self, settings):
        """Applies ``settings`` (setter -> value); returns what restores the ones before."""
        config = self.ds.config
        getters = {"set_prefetch_size": "get_prefetch_size", "set_debug_mode": "get_debug_mode",
                   "set_error_samples_mode": "get_error_samples_mode",
                   "set_callback_timeout": "get_callback_timeout"}
        before = {setter: getattr(config, getters[setter])() for setter in settings}
        for setter, value in settings.items():
            if setter == "set_error_samples_mode" and isinstance(value, str):
                value = getattr(config.ErrorSamplesMode, value)
            if setter == "set_debug_mode":      # without the hook that prints every row
                config.set_debug_mode(value, debug_hook_list=[])
            else:
                getattr(config, setter)(value)
        return before


def plain(value):
    """A value the loop got: its kind (a Tensor or a numpy array), dtype and values."""
    kind = "Tensor" if hasattr(value, "asnumpy") else type(value).__name__
    array = np.asarray(value.asnumpy() if hasattr(value, "asnumpy") else value)
    return (kind, array.dtype.str, array.tolist())


def row_of(row):
    if isinstance(row, dict):
        return ("row", [(name, plain(value)) for name, value in row.items()])
    return ("row", [plain(value) for value in row])


def failure(exc):
    """An error event: type, its bases' names (ours may be a subclass) and a message head."""
    return ("error",) + pipelines.error(exc)[1:]


class Driver:
    """Runs a case's drive, recording every event; an error ends the reading (MindSpore 2.10
    hangs when an iterator that raised is read again)."""

    def __init__(self, library, case, data, callback, recording):
        self.library, self.case, self.data = library, case, data
        self.callback, self.recording = callback, recording
        self.iterator, self.failed, self.items = None, False, 0
        self.sync = any(op["op"] == "sync_wait" for op in case["ops"])
        self.trained = isinstance(callback, library.ds.WaitedDSCallback)

    def emit(self, event):
        self.recording.events.append(event)

    def new_iterator(self, kind, epochs):
        if kind == "dict":
            return self.data.create_dict_iterator(num_epochs=epochs,
                                                  output_numpy=self.case["numpy"])
        if kind == "tuple":
            return self.data.create_tuple_iterator(num_epochs=epochs,
                                                   output_numpy=self.case["numpy"])
        return iter(self.data)     # a plain for loop's iterator: one epoch of Tensors

    def read(self, iterator, count=None):
        """Up to ``count`` items (an epoch's end or MAX_ROWS without); True at an epoch's end."""
        for _ in range(MAX_ROWS if count is None else count):
            try:
                row = next(iterator)
            except StopIteration:
                self.emit(("end",))
                return True
            self.emit(row_of(row))
            self.items += 1
            if self.sync:
                self.data.sync_update(CONDITION, data=self.items)
            if self.trained:
                self.callback.step_end(TrainingContext(("step", self.items)))
        if count is None:
            self.emit(("limit",))
        return False

    def metadata(self, name):
        if name == "iterator get_col_names":
            return list(self.iterator.get_col_names())
        if name == "iterator len":
            return len(self.iterator)
        if name == "len":
            return len(self.data)
        value = getattr(self.data, name)()
        if name == "output_shapes":
            return [list(shape) for shape in value]
        if name == "output_types":
            return [np.dtype(kind).str for kind in value]
        return list(value) if name == "get_col_names" else value

    def step(self, action):
        kind = action[0]
        if kind == "meta":
            outcome = pipelines.attempt(lambda: self.metadata(action[1]))
            self.emit((action[1],) + ((outcome[1],) if outcome[0] == "ok" else
                                      failure_of(outcome)))
        elif self.failed:
            return
        elif kind == "create":
            self.iterator = self.new_iterator(self.case["iterator"], self.case["epochs"])
            self.emit(("created",))
        elif kind in ("epoch", "train epoch"):
            self.read(self.iterator)
            if kind == "train epoch":
                self.callback.epoch_end(TrainingContext(("epoch", self.items)))
        elif kind == "part":
            self.read(self.iterator, action[1])
        elif kind == "next":
            self.read(self.iterator, 1)
        elif kind == "stop":
            self.iterator.stop()
            self.emit(("stopped",))
        else:                                   # a second iterator, or a for loop, meanwhile
            second = self.new_iterator(action[1] if kind == "second" else "for", 1)
            self.emit(("second",))
            self.read(second)
            if kind == "second":
                second.stop()

    def run(self):
        for action in self.case["drive"]:
            try:
                self.step(action)
            except Exception as exc:        # an outcome to compare, like a row
                self.emit(failure(exc))
                self.failed = True
        if self.trained:
            self.callback.end(TrainingContext(("end", self.items)))     # no wait left behind
        if self.iterator is not None:
            pipelines.attempt(self.iterator.stop)


def failure_of(outcome):
    return ("error",) + outcome[1:]


def hook_comparison(case, events):
    """How the callbacks' calls compare: "in full" where every epoch of the only iterator was
    read to its end and nothing raised (MindSpore has then made every call, none ahead of
    the loop); "as far as both went" where its map may have run ahead or been stopped; "not"
    where a second iterator ran the same callbacks meanwhile (whose calls interleave with the
    first's as their threads run)."""
    reads = [action for action in case["drive"] if action[0] not in ("meta", "create")]
    if any(action[0] in ("second", "for") for action in reads):
        return "not"
    epochs = 1 if case["iterator"] == "for" else case["epochs"]
    if epochs > 0 and not any(event[0] == "error" for event in events) and reads in (
            [("epoch",)] * epochs, [("train epoch",)] * epochs):
        return "in full"
    return "as far as both went"


def run_case(library, case):
    """[(item, outcome)]: "build", or "events", "hooks", "synced" and "compared" (how the
    hooks compare)."""
    recording = Recording()
    before = library.configure(dict(case["config"], set_callback_timeout=CALLBACK_TIMEOUT_S))
    try:
        built = pipelines.attempt(lambda: library.build(case, recording))
        if built[0] == "error":
            return [("build", built)]
        data, callback = built[1]
        Driver(library, case, data, callback, recording).run()
    finally:
        library.configure(before)
    return [("events", ("ok", recording.events)), ("hooks", ("ok", recording.hooks)),
            ("synced", ("ok", recording.synced)),
            ("compared", ("ok", hook_comparison(case, recording.events)))]


outcomes = differential_reference.case_by_case(Library, cases, run_case)


CRASH = differential_reference.CRASH


# --- comparing -------------------------------------------------------------------------------


def is_error(event):
    return "error" in event[:2]


def error_types_agree(mine, theirs):
    """Whether MindSpore's error type is ours or one of its bases (the events' 3rd last and
    last fields: the type's name and its bases' names)."""
    return theirs[-3] in mine[-1]


def event_differences(mine, theirs):
    """[(kind, "events", why)] of two event lists, walked together: two errors of other types
    at one event are "error type"; an error on one side where the other raises at another
    event is "error elsewhere" (the walk stops there); anything else "different"."""
    found = []
    for number, (ours, reference) in enumerate(zip(mine, theirs)):
        if ours == reference:
            continue
        where = f"event {number}: {pipelines.summary(ours)} here, " \
                f"{pipelines.summary(reference)} in MindSpore"
        if is_error(ours) and is_error(reference) and ours[0] == reference[0]:
            if not error_types_agree(ours, reference):
                found.append(("error type", "events", where))
            continue
        erring = [any(is_error(event) for event in side[number:]) for side in (mine, theirs)]
        return found + [("error elsewhere" if all(erring) and (
            is_error(ours) or is_error(reference)) else "different", "events", where)]
    shorter = min(len(mine), len(theirs))
    if len(mine) != len(theirs):
        longer, which = (mine, "here") if len(mine) > len(theirs) else (theirs, "in MindSpore")
        found.append(("different", "events", f"{len(longer) - shorter} more events {which}, "
                      f"from event {shorter}: {pipelines.summary(longer[shorter:])}"))
    return found


def sequence_difference(label, mine, theirs, compared):
    """Where two sequences of callback calls differ, as ``compared`` (hook_comparison)
    says: in full, or only where neither is the other's start."""
    shorter = min(len(mine), len(theirs))
    if mine == theirs or compared == "not" or (
            compared != "in full" and mine[:shorter] == theirs[:shorter]):
        return []
    return [("different", label, f"{pipelines.summary(mine)} here, "
             f"{pipelines.summary(theirs)} in MindSpore")]


def case_differences(ours, theirs):
    """[(kind, item, why)] of two cases' outcomes, hard ones first."""
    if theirs[0][0] == "crash":
        return [("MindSpore crashed", "crash", theirs[0][1][2])]
    mine, reference = dict(ours), dict(theirs)
    if "build" in mine or "build" in reference:
        if "build" in mine and "build" in reference:
            kind, why = pipelines.difference(mine["build"], reference["build"])
            return [(kind, "build", why)] if kind else []
        return [("different", "build", "fails when built " + (
            "here only: " + mine["build"][2] if "build" in mine else
            "in MindSpore only: " + reference["build"][2]))]
    found = event_differences(mine["events"][1], reference["events"][1])
    # where the loop saw other events (an error raised at another row: MindSpore's errors
    # overtake the rows before them), the callbacks' calls differ as a consequence
    compared = "not" if found else min(mine["compared"][1], reference["compared"][1],
                                       key=("not", "as far as both went", "in full").index)
    hooks_here, hooks_there = mine["hooks"][1], reference["hooks"][1]
    for hook in sorted(set(hooks_here) | set(hooks_there)):
        found += sequence_difference(hook, hooks_here.get(hook, []),
                                     hooks_there.get(hook, []), compared)
    found += sequence_difference("synced", mine["synced"][1], reference["synced"][1],
                                 compared)
    found.sort(key=lambda item: ("different", "error type", "error elsewhere").index(item[0]))
    return found


def classify(case, ours, theirs):
    return differential_reference.first_undocumented(case, ours, theirs,
                                                     case_differences(ours, theirs), documented)


def documented(case, item, ours, theirs):
    """The README's word for a difference in ``item``, or None (the dataset API's "Deviations
    from MindSpore")."""
    reference = str(dict(theirs).get("events"))
    kinds = [op["op"] if op["op"] != "map" or op["operation"] == "plus_hundred" else "failing"
             for op in case["ops"]]
    callback_map = next((i for i, op in enumerate(case["ops"]) if op.get("callback")), None)
    rules = [
        (case["source"]["rows"] == 0 and "data row of input source must not be 0" in reference,
         "a pipeline with no rows iterates as empty (MindSpore 2.10 refuses a NumpySlicesDataset "
         "or GeneratorDataset source of no rows: RuntimeError)"),
        (case["config"].get("set_debug_mode") and item != "events",
         "in debug mode a map's callbacks run as in a normal run (MindSpore 2.10 calls none)"),
        (item != "events" and case["config"].get("set_error_samples_mode") == "SKIP" and
         "failing" in kinds,
         "with ErrorSamplesMode.SKIP a skipped row is no step of the map's callbacks (MindSpore "
         "2.10 counts it in ds_step_begin's and ds_epoch_begin's cur_step_num but not in "
         "ds_step_end's nor ds_epoch_end's)"),
        (case["config"].get("set_debug_mode") and item == "events" and
         "timed out after" in str(dict(ours).get("events")) and "timed out" not in reference,
         "in debug mode a WaitedDSCallback waits as in a normal run, and times out where no "
         "training step can end (MindSpore 2.10's debug mode calls no callback and reads on)"),
        (case["config"].get("set_debug_mode") and item == "events" and
         "beyond the specified number of epochs" in str(dict(ours).get("events")) and
         "beyond the specified number of epochs" not in reference,
         "in debug mode reading past the last epoch raises as in a normal run (MindSpore 2.10's "
         "debug mode ends the epoch again)"),
        (item == "events" and case["config"].get("set_error_samples_mode") in ("SKIP", "REPLACE")
         and "failing" in kinds and ("'output_shapes', 'error'" in reference or
                                     "'output_types', 'error'" in reference),
         "output_shapes()/output_types() read the first row the error samples mode serves "
         "(MindSpore 2.10 raises the map's error)"),
        (item != "events" and callback_map is not None and "take" in kinds[callback_map:],
         "a take stops reading at its count (MindSpore 2.10 drains its input to the epoch's end: "
         "the map below runs on the rows dropped, and its callbacks count them)"),
        (item == "events" and "failing" in kinds and "take" in kinds[kinds.index("failing"):]
         and "'error'" in reference,
         "a take stops reading at its count (MindSpore 2.10 drains its input to the epoch's end: "
         "a map failing on a row after the take's count raises, even before the rows taken)"),
        (item == "events" and "project" in kinds and "skip" in kinds[kinds.index("project"):]
         and any(event[0] in ("output_shapes", "output_types") and len(event[1]) > 2
                 for event in dict(theirs)["events"][1] if len(event) == 2),
         "output_shapes()/output_types() give one entry per column (MindSpore 2.10 gives "
         "(n + 1) copies of them after project(...).skip(n))"),
    ]
    return next((reason for applies, reason in rules if applies), None)


def describe(case, limit=400):
    source = case["source"]
    ops = "".join(f".{op['op']}({', '.join(f'{k}={v}' for k, v in op.items() if k != 'op')})"
                  for op in case["ops"])
    drive = ", ".join(" ".join(str(part) for part in action) for action in case["drive"])
    text = (f"{source['kind']}({source['rows']} rows, {source['columns']}){ops} "
            f"{case['config'] or ''} {case['iterator']} iterator, num_epochs={case['epochs']}, "
            f"output_numpy={case['numpy']}: {drive}")
    return text if len(text) <= limit else text[:limit] + "..."


def main():
    return differential_reference.run_tool(
        __doc__.split("\n\n")[0], 200, __file__, cases, outcomes, classify, describe,
        CASE_TIMEOUT_S)


if __name__ == "__main__":
    sys.exit(main())
