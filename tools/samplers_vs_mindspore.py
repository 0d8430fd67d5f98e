"""Samplers, sharding and the sampling arguments of the sources against MindSpore 2.10.

Each case draws a source of 0 to 20 rows that identify themselves (an ``id`` and a ``label``
column, or image bytes and a label): NumpySlicesDataset, GeneratorDataset (random-access with
``__len__``, an iterable, a generator function), MindDataset over 1 to 3 files FileWriter
writes, ImageFolderDataset over tiny PNGs (``class_indexing`` or not), PaddedDataset,
MnistDataset, Cifar10Dataset (a whole 10,000-record file, a few rows of it served) and
ManifestDataset over files tools/pipeline_sources_for_differential.py writes. It samples them
through the sources' arguments (``num_samples``, ``shuffle`` as a bool, None or a ``Shuffle``
member, ``num_shards``/``shard_id``, ``sampler`` as a sampler object, a list or tuple of ids
or something invalid; MindDataset's ``padded_sample``/``num_padded``; values at the edges and
past them, of the wrong type, in conflict), through sampler objects with every argument at
the edges and beyond (SequentialSampler, DistributedSampler, SubsetSampler,
SubsetRandomSampler, RandomSampler, WeightedRandomSampler, PKSampler; indices with
duplicates, out of range, negative, numpy ints, empty, tuples, generators; weights with zeros
and negatives), chained with ``add_child`` (two levels), through ``Dataset.use_sampler`` and
``add_sampler``, over a ``ConcatDataset`` (``+``) and after ``split`` (then sharded).

Each case records where it fails (the sampler, the source, ``use_sampler``...: error types),
``get_num_samples()`` of every sampler object, ``get_dataset_size()``, the rows of two epochs
of ``create_dict_iterator(num_epochs=2, output_numpy=True)``, the source's rows read in order
and, where a case shards, every shard of an epoch. Rows of deterministic sampling are
compared in order. Random sampling (a shuffle, RandomSampler, SubsetRandomSampler,
WeightedRandomSampler, DistributedSampler(shuffle=True), PKSampler(shuffle=True), a random
split) cannot give MindSpore's order (the README documents that the seeded orders are this
project's own), so what must hold is compared instead: the rows per epoch, whether they are
rows of the source (of the rows a SubsetRandomSampler names or a WeightedRandomSampler
weighs), the sorted rows where they are determined (a permutation), whether they are distinct
where no draw is with replacement, the sorted labels of a PKSampler, and the rows all shards
of an epoch cover together. The same cases run here and in MindSpore's interpreter
(``--mindspore-python``); outcomes are compared item by item with
``tools/pipelines_vs_mindspore.py``'s rules, and counted as in
``tools/memory_sources_vs_mindspore.py``: "documented" (a README deviation), "error type",
"error elsewhere" (an error raised at another step), "MindSpore crashed".

    .venv/bin/python tools/samplers_vs_mindspore.py [--seed 1] [--cases 300]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]
        [--show-documented] [--case N ...]

Prints each undocumented difference and a count per outcome; exits 1 if there is one. The
MindSpore interpreter runs this file alone (numpy and Pillow only: it never imports this
package).
"""
import hashlib
import importlib
import io
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import pipeline_sources_for_differential as file_sources              # noqa: E402
import memory_sources_vs_mindspore as memory                         # noqa: E402
import pipelines_vs_mindspore as pipelines                          # noqa: E402

CASE_TIMEOUT_S = 30         # a case of the reference interpreter that runs longer hangs
SOURCES = ["numpy", "numpy", "generator", "generator", "mindrecord", "mindrecord", "images",
           "padded", "mnist", "manifest", "cifar10"]
GENERATOR_FORMS = ["random access", "random access", "iterable", "function"]
CIFAR_ROWS = file_sources.CIFAR_RECORDS
MAX_SHARDS_READ = 6         # a case reads every shard only up to this many

# --- drawing cases -------------------------------------------------------------------------------


def pick(r, good, bad, p_bad=0.12):
    """A value among ``good`` ones, or past the edges among ``bad`` ones (p_bad of the time)."""
    return r.choice(bad) if bad and r.random() < p_bad else r.choice(good)


def num_samples_value(r, n):
    return pick(r, [None, None, None, 0, 1, 2, max(n - 1, 0), n, n + 3, 2 ** 31 - 1],
                [-1, True, 2.5, 2 ** 31, "2"])


def some_ids(r, n, count=None):
    return [r.randrange(max(n, 1)) for _ in range(r.randint(0, 5) if count is None else count)]


def indices_value(r, n):
    """A SubsetSampler's indices: ("list"|"tuple"|"array"|"generator"|"odd", value)."""
    kind = pick(r, ["plain", "plain", "plain", "duplicates", "numpy ints", "array", "empty",
                    "tuple", "generator"], ["out of range", "negative", "bad element", "str",
                                            "int"], 0.25)
    ids = some_ids(r, n, r.randint(1, 5))
    if kind == "duplicates":
        ids = ids + ids[:2]
    elif kind == "out of range":
        ids.insert(r.randrange(len(ids) + 1), r.choice([n, n + 2]))
    elif kind == "negative":
        ids.insert(r.randrange(len(ids) + 1), r.choice([-1, -n - 1]))
    elif kind == "numpy ints":
        return ("list", [r.choice([np.int64, np.int32, np.uint16])(i) for i in ids])
    elif kind == "array":
        return ("array", np.array(ids, r.choice([np.int64, np.int32])))
    elif kind == "empty":
        return ("list", [])
    elif kind == "tuple":
        return ("tuple", tuple(ids))
    elif kind == "generator":
        return ("generator", ids)
    elif kind == "bad element":
        ids.insert(r.randrange(len(ids) + 1), r.choice([1.0, "1", None, True]))
    elif kind == "str":
        return ("odd", "012")
    elif kind == "int":
        return ("odd", r.randrange(max(n, 1)))
    return ("list", ids)


def weights_value(r, n):
    length = pick(r, [n, n, max(n - 2, 0), 1], [n + 2, 0], 0.15)
    kind = pick(r, ["positive", "positive", "zeros", "ints"], ["all zeros", "negative", "bad"],
                0.2)
    values = [round(r.uniform(0.1, 3), 2) for _ in range(length)]
    if kind == "zeros" and values:
        values[r.randrange(length)] = 0.0
        values[r.randrange(length)] = 0
    elif kind == "all zeros":
        values = [0.0] * length
    elif kind == "negative" and values:
        values[r.randrange(length)] = -1.0
    elif kind == "ints":
        values = [r.randint(0, 3) for _ in range(length)]
    elif kind == "bad" and values:
        values[r.randrange(length)] = r.choice(["1", None, True, float("nan")])
    return values


def sampler_spec(r, n, depth=0, kinds=None):
    """A sampler as data: (name, arguments, child spec or None)."""
    name = r.choice(kinds or ["SequentialSampler", "SequentialSampler", "DistributedSampler",
                              "DistributedSampler", "SubsetSampler", "SubsetSampler",
                              "SubsetRandomSampler", "RandomSampler", "RandomSampler",
                              "WeightedRandomSampler", "PKSampler"])
    arguments = {}
    if r.random() < 0.6:
        arguments["num_samples"] = num_samples_value(r, n)
    if name == "SequentialSampler":
        if r.random() < 0.8:
            arguments["start_index"] = pick(r, [None, 0, 0, 1, 2, max(n - 1, 0), n, n + 3],
                                            [-1, 1.0, True])
    elif name == "DistributedSampler":
        shards = pick(r, [1, 2, 2, 3, 3, 4, n + 1], [0, -1, 2.0, True])
        arguments["num_shards"] = shards
        good = shards if isinstance(shards, int) and shards > 0 else 2
        arguments["shard_id"] = pick(r, [0, r.randrange(good), good - 1, good - 1],
                                     [good, -1, 1.0])
        if r.random() < 0.7:
            arguments["shuffle"] = pick(r, [False, False, True, ("Shuffle", "GLOBAL"),
                                            ("Shuffle", "FALSE")],
                                        [1, None, ("Shuffle", "FILES")])
        if r.random() < 0.25:
            arguments["offset"] = pick(r, [-1, 0, 1, good], [good + 1, 1.5], 0.3)
    elif name in ("SubsetSampler", "SubsetRandomSampler"):
        arguments["indices"] = indices_value(r, n)
    elif name == "RandomSampler":
        if r.random() < 0.6:
            arguments["replacement"] = pick(r, [False, True, True], [1, None])
    elif name == "WeightedRandomSampler":
        arguments["weights"] = weights_value(r, n)
        if r.random() < 0.6:
            arguments["replacement"] = pick(r, [True, False, False], [0])
    else:
        arguments["num_val"] = pick(r, [1, 2, 2, 3, 5], [0, -1, 1.5])
        if r.random() < 0.05:
            arguments["num_class"] = 2
        if r.random() < 0.7:
            arguments["shuffle"] = pick(r, [False, False, True], [1])
        if r.random() < 0.4:
            arguments["class_column"] = pick(r, ["label", "label", "id"], ["nope", 3], 0.3)
    child = None
    if depth < 2 and r.random() < 0.2:
        child = sampler_spec(r, n, depth + 1, [k for k in (
            "SequentialSampler", "DistributedSampler", "SubsetSampler", "SubsetRandomSampler",
            "RandomSampler", "WeightedRandomSampler", "PKSampler") if r.random() < 0.8] or None)
    return (name, arguments, child)


def sampler_argument(r, n):
    """What a case gives as ``sampler=``: a sampler spec, ("ids", indices) or ("invalid", x)."""
    choice = r.random()
    if choice < 0.75:
        return sampler_spec(r, n)
    if choice < 0.95:
        return ("ids", indices_value(r, n), None)
    return ("invalid", r.choice(["abc", 2.5, {"a": 1}, "object"]), None)


SHUFFLES = [None, True, False, False, False, "GLOBAL", "FILES", "INFILE", "ADAPTIVE"]


def source_kwargs(r, source, n):
    """The sampling arguments a source is built with."""
    kwargs = {}
    if source["kind"] == "padded":
        return kwargs
    if r.random() < 0.75:
        shuffle = pick(r, SHUFFLES, [1, "yes"], 0.08)
        kwargs["shuffle"] = ("Shuffle", shuffle) if shuffle in (
            "GLOBAL", "FILES", "INFILE", "ADAPTIVE") else shuffle
    if r.random() < 0.35:
        kwargs["num_samples"] = num_samples_value(r, n)
    choice = r.random()
    if choice < 0.3:
        count = r.choice([1, 2, 2, 3, 3, 4, n + 1])
        kwargs["num_shards"] = count
        kwargs["shard_id"] = r.choice([0, r.randrange(count), count - 1])
        if r.random() < 0.08:
            kwargs.update(r.choice([{"shard_id": count}, {"shard_id": -1}, {"num_shards": 0},
                                    {"num_shards": 2.0}, {"shard_id": "0"}]))
        if source["kind"] == "mindrecord" and r.random() < 0.35:
            kwargs["num_padded"] = pick(r, [0, 1, 2, 3], [-1, True])
            if r.random() < 0.9:
                kwargs["padded_sample"] = {"id": -7, "label": 9}
            if r.random() < 0.9:
                kwargs["columns_list"] = ["id", "label"]
    elif choice < 0.33:
        kwargs[r.choice(["num_shards", "shard_id"])] = r.choice([0, 1, 2])
    elif choice < 0.7:
        kwargs["sampler"] = sampler_argument(r, n)
        if r.random() < 0.8:            # mostly without the arguments it conflicts with
            kwargs.pop("shuffle", None)
            kwargs.pop("num_samples", None)
    if source["kind"] == "cifar10":     # a few of its 10,000 rows
        kwargs.pop("num_samples", None)
        if "sampler" in kwargs:
            kwargs["sampler"] = r.choice([
                ("SequentialSampler", {"start_index": r.choice([0, 2, CIFAR_ROWS - 2]),
                                       "num_samples": r.randint(1, 5)}, None),
                ("SubsetSampler", {"indices": ("list", some_ids(r, CIFAR_ROWS))}, None),
                ("SubsetRandomSampler", {"indices": ("list", some_ids(r, 60))}, None),
                ("RandomSampler", {"num_samples": r.randint(1, 4)}, None),
                ("DistributedSampler", {"num_shards": r.choice([2, 3]), "shard_id": 1,
                                        "shuffle": r.random() < 0.3,
                                        "num_samples": r.randint(1, 4)}, None)])
        else:
            kwargs["num_samples"] = r.randint(1, 6)
    return kwargs


def random_source(r):
    kind = r.choice(SOURCES)
    n = r.choice([0, 1, 2, 3, 4, 5, 6, 7, 9, 12, 20]) if kind not in ("mnist", "manifest",
                                                                     "cifar10") else (
        r.randint(1, 12) if kind != "cifar10" else CIFAR_ROWS)
    if kind in ("mindrecord", "images") and n == 0 and r.random() < 0.7:
        n = r.randint(1, 6)
    source = {"kind": kind, "rows": n, "seed": r.randrange(1 << 30),
              "labels": [r.randrange(3) for _ in range(min(n, 50))]}
    if kind == "generator":
        source["form"] = r.choice(GENERATOR_FORMS)
    elif kind == "mindrecord":
        source["files"] = r.choice([1, 1, 2, 3])
    elif kind == "images":
        source["classes"] = r.choice([1, 2, 3])
        if r.random() < 0.4:
            names = ["c%d" % i for i in range(source["classes"])]
            source["class_indexing"] = dict(zip(names, r.sample(range(5), len(names))))
    return source


def random_case(r):
    source = random_source(r)
    n = source["rows"]
    mode = r.choice(["kwargs", "kwargs", "kwargs", "kwargs", "use_sampler", "add_sampler",
                     "concat", "split"])
    if source["kind"] == "cifar10" and mode in ("add_sampler", "concat", "split"):
        mode = "kwargs"
    case = {"source": source, "mode": mode}
    if mode == "kwargs":
        case["kwargs"] = source_kwargs(r, source, n)
    elif mode in ("use_sampler", "add_sampler"):
        case["kwargs"] = source_kwargs(r, source, n) if r.random() < 0.5 else (
            {} if source["kind"] == "padded" else {"shuffle": False})
        if source["kind"] == "cifar10":
            case["kwargs"] = {"shuffle": False, "num_samples": 4}
            case["sampler"] = r.choice([("SubsetSampler", {"indices": ("list", some_ids(r, 9))},
                                         None), ("SequentialSampler", {"num_samples": 3}, None)])
        else:
            case["sampler"] = sampler_argument(r, n) if r.random() < 0.85 else (
                "invalid", "list", None)
            if case["sampler"][0] == "ids" and r.random() < 0.5:
                case["sampler"] = ("SubsetSampler", {"indices": case["sampler"][1]}, None)
    elif mode == "concat":
        case["kwargs"] = {} if source["kind"] == "padded" else {"shuffle": False}
        other = random_source(r) if r.random() < 0.4 else dict(source, seed=source["seed"] + 1)
        if other["kind"] in ("cifar10", "manifest", "mnist", "images") and other["kind"] != \
                source["kind"]:
            other = {"kind": "padded", "rows": r.randint(1, 4), "seed": other["seed"],
                     "labels": [r.randrange(3) for _ in range(4)]}
        case["other"] = other
        case["plus"] = r.random() < 0.6
        total = n + other["rows"]
        case["sampler"] = r.choice([None, ("DistributedSampler", {
            "num_shards": r.choice([1, 2, 3, 4]), "shard_id": 0, "shuffle": False}, None),
            ("DistributedSampler", {"num_shards": 2, "shard_id": 1, "shuffle": False}, None),
            ("DistributedSampler", {"num_shards": 2, "shard_id": r.choice([0, 1]),
                                    "shuffle": r.choice([True, False]),
                                    "num_samples": r.choice([None, 2])}, None),
            ("RandomSampler", {}, None), ("SequentialSampler", {
                "start_index": r.choice([0, 1]), "num_samples": r.choice([None, 3])}, None),
            ("SubsetSampler", {"indices": ("list", some_ids(r, total))}, None)])
        if case["sampler"] and case["sampler"][0] == "DistributedSampler":
            arguments = case["sampler"][1]
            arguments["shard_id"] = min(arguments["shard_id"], arguments["num_shards"] - 1)
    else:
        case["kwargs"] = {} if source["kind"] == "padded" else {"shuffle": False}
        case["sizes"] = r.choice([[2, 1], [0.5, 0.5], [0.3, 0.7], [1, 1, 1], [n, 0],
                                  [max(n - 1, 0), 1], [0.2, 0.8], [1.5, 1], [0.9, 0.9]])
        case["randomize"] = r.random() < 0.35
        if r.random() < 0.5:
            count = r.choice([1, 2, 3])
            case["shard"] = (count, r.randrange(count))
    case["seed"] = r.randrange(1 << 16)     # ds.config.set_seed's, in both
    return case


def cases(seed, count):
    r = random.Random(seed)
    return [random_case(r) for _ in range(count)]


# --- building a case in one library --------------------------------------------------------------


def table(source):
    """(ids, labels) of a memory source: ids 100, 101, ... so that a row's id is no index."""
    n = source["rows"]
    ids = np.arange(100, 100 + n, dtype=np.int64)
    labels = np.array([source["labels"][i % 50] if source["labels"] else 0 for i in range(n)],
                      np.int32)
    return ids, labels


def png(pixels):
    from PIL import Image
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "PNG")
    return buffer.getvalue()


class Library:
    """The dataset module, FileWriter and Shuffle of ``mindspore`` or ``minddata``."""

    def __init__(self, name):
        mindspore = name == "mindspore"
        self.ds = importlib.import_module("mindspore.dataset" if mindspore else "minddata")
        self.file_writer = importlib.import_module(
            "mindspore.mindrecord" if mindspore else "mindrecord").FileWriter

    def value(self, spec):
        """A source argument as data made real (Shuffle members)."""
        if isinstance(spec, tuple) and len(spec) == 2 and spec[0] == "Shuffle":
            return getattr(self.ds.Shuffle, spec[1])
        return spec

    def indices(self, spec):
        form, value = spec
        if form == "generator":
            return (i for i in value)
        return value

    def sampler(self, spec, made):
        """The sampler object of a spec (``made`` collects every sampler object built)."""
        name, arguments, child = spec
        if name == "ids":
            return self.indices(arguments)
        if name == "invalid":
            return {"object": object(), "list": [[0]]}.get(arguments, arguments)
        arguments = {k: self.indices(v) if k == "indices" else self.value(v)
                     for k, v in arguments.items()}
        sampler = getattr(self.ds, name)(**arguments)
        made.append(sampler)
        if child is not None:
            sampler.add_child(self.sampler(child, made))
        return sampler

    def source(self, spec, kwargs, directory, made):
        ds = self.ds
        kwargs = {k: self.value(v) for k, v in kwargs.items()}
        if "sampler" in kwargs:
            kwargs["sampler"] = self.sampler(kwargs["sampler"], made)
        kind = spec["kind"]
        root = os.path.join(directory, "%s-%d" % (kind, spec["seed"]))
        fresh = not os.path.exists(root)
        if fresh:
            os.makedirs(root)
        if kind == "numpy":
            ids, labels = table(spec)
            return ds.NumpySlicesDataset({"id": ids, "label": labels}, **kwargs)
        if kind == "generator":
            ids, labels = table(spec)
            rows = list(zip(ids, labels))
            source = {"random access": memory.RandomAccess, "iterable": memory.Iterable,
                      "function": memory.rows_of}[spec["form"]](rows)
            return ds.GeneratorDataset(source, column_names=["id", "label"], **kwargs)
        if kind == "padded":
            ids, labels = table(spec)
            return ds.PaddedDataset([{"id": i, "label": label} for i, label in zip(ids, labels)])
        if kind == "mindrecord":
            path = os.path.join(root, "data.mindrecord")
            count = spec["files"]
            if fresh:
                writer = self.file_writer(path, shard_num=count)
                writer.add_schema({"id": {"type": "int64"}, "label": {"type": "int32"}}, "rows")
                ids, labels = table(spec)
                if len(ids):
                    writer.write_raw_data([{"id": int(i), "label": int(label)}
                                           for i, label in zip(ids, labels)])
                writer.commit()
            return ds.MindDataset(path if count == 1 else path + "0", **kwargs)
        if kind == "images":
            if fresh:
                rng = np.random.default_rng(spec["seed"])
                for i in range(spec["rows"]):
                    folder = os.path.join(root, "c%d" % (i % spec["classes"]))
                    os.makedirs(folder, exist_ok=True)
                    pixels = rng.integers(0, 256, (2, 2, 3)).astype(np.uint8)
                    pixels[0, 0, 0] = i
                    with open(os.path.join(folder, "%02d.png" % i), "wb") as f:
                        f.write(png(pixels))
            if "class_indexing" in spec:
                kwargs["class_indexing"] = dict(spec["class_indexing"])
            return ds.ImageFolderDataset(root, **kwargs)
        if kind == "mnist":
            return ds.MnistDataset(file_sources.write_mnist(root, spec) if fresh else root,
                                   usage="train", **kwargs)
        if kind == "cifar10":
            return ds.Cifar10Dataset(file_sources.write_cifar(root, spec, False) if fresh
                                     else root, usage="test", **kwargs)
        path = file_sources.write_manifest(root, spec) if fresh else os.path.join(
            root, "data.manifest")
        return ds.ManifestDataset(path, **kwargs)


# --- recording outcomes --------------------------------------------------------------------------


def ident(value):
    """A value as comparable data: dtype, shape and values (a digest of larger ones)."""
    array = np.asarray(value)
    if array.dtype.kind in "US":
        return (array.dtype.kind, array.shape, array.tolist())
    if array.size <= 4:
        return (array.dtype.str, array.shape, array.tolist())
    return (array.dtype.str, array.shape, hashlib.md5(array.tobytes()).hexdigest()[:12])


def row_ident(row):
    return tuple((name, ident(value)) for name, value in sorted(row.items()))


def read_epochs(data, count):
    iterator = data.create_dict_iterator(num_epochs=count, output_numpy=True)
    return [[row_ident(row) for row in iterator] for _ in range(count)]


def label_of(row):
    return next((value for name, value in row if name == "label"), None)


def chain(spec):
    """A sampler spec's samplers from the innermost child to the top."""
    out = []
    while spec is not None:
        out.insert(0, spec)
        spec = spec[2]
    return out


def is_true(value):
    return value is True or value == ("Shuffle", "GLOBAL")


def stage_kind(spec):
    """How a sampler spec samples: "exact", "permutation" (a random order of what it takes),
    "subset" (distinct rows drawn at random), "replacement" or "pk" (PKSampler(shuffle))."""
    name, arguments, _ = spec
    if name in ("ids", "invalid"):
        return "exact"
    samples = arguments.get("num_samples")
    if name in ("SequentialSampler", "SubsetSampler"):
        return "exact"
    if name == "DistributedSampler":
        return "subset" if is_true(arguments.get("shuffle", True)) else "exact"
    if name == "PKSampler":
        return "pk" if is_true(arguments.get("shuffle", False)) else "exact"
    if name == "RandomSampler":
        if is_true(arguments.get("replacement", False)):
            return "replacement"
        return "permutation" if samples in (None, 0) else "subset"
    if name == "SubsetRandomSampler":
        return "permutation" if samples in (None, 0) else "subset"
    return "replacement" if arguments.get("replacement", True) else "subset"


def kwargs_kind(case, kwargs):
    """How a source's own arguments sample (no sampler among them)."""
    source = case["source"]
    shuffle = kwargs.get("shuffle", None)
    if source["kind"] == "padded" or source.get("form") in ("iterable", "function"):
        return "exact"
    if shuffle is False or shuffle == ("Shuffle", "FALSE"):
        return "exact"
    sharded = kwargs.get("num_shards", 1) not in (1, None)
    if kwargs.get("num_samples") not in (None, 0) or sharded:
        return "subset"
    return "permutation"


def stages(case):
    """The kinds of the sampling stages of a case, the source's first."""
    kwargs = case.get("kwargs", {})
    if kwargs.get("sampler"):
        first = [stage_kind(spec) for spec in chain(kwargs["sampler"])]
    else:
        first = [kwargs_kind(case, kwargs)]
    if case["mode"] == "use_sampler":
        return [stage_kind(spec) for spec in chain(case["sampler"])]
    if case["mode"] == "add_sampler":
        return first + [stage_kind(spec) for spec in chain(case["sampler"])]
    if case["mode"] == "concat":
        return [stage_kind(case["sampler"])] if case["sampler"] else ["exact"]
    if case["mode"] == "split":
        return ["subset" if case["randomize"] else "exact"]
    return first


def top_sampler(case):
    """The spec of the sampler that decides a case's rows last, or None."""
    if case["mode"] in ("use_sampler", "add_sampler", "concat"):
        return case.get("sampler")
    return case.get("kwargs", {}).get("sampler")


def allowed_rows(case, source_rows):
    """The rows a random sampler may serve: those a SubsetRandomSampler names or a
    WeightedRandomSampler weighs, where it samples the source's rows; else every row."""
    spec = top_sampler(case)
    plain = case["mode"] == "use_sampler" or case["mode"] == "kwargs" and (
        not case["kwargs"].get("num_shards"))
    if spec and spec[2] is None and plain:
        name, arguments, _ = spec
        if name == "SubsetRandomSampler" and arguments["indices"][0] in ("list", "array"):
            return {source_rows[i] for i in arguments["indices"][1]
                    if 0 <= int(i) < len(source_rows)}
        if name == "WeightedRandomSampler":
            return {source_rows[i] for i, w in enumerate(arguments["weights"])
                    if i < len(source_rows) and isinstance(w, (int, float)) and w > 0}
    return set(source_rows)


PADDED_ID = ("id", ("<i8", (), -7))      # MindDataset's padded_sample's id


def view(case, epochs, source_rows):
    """Rows of the epochs as compared: as read where the sampling is deterministic; else what
    must hold whatever the random order (see the module's text)."""
    kinds = stages(case)
    if all(kind == "exact" for kind in kinds):
        return ("rows", epochs)
    allowed = allowed_rows(case, source_rows) | {row for epoch in epochs for row in epoch
                                                 if row[0] == PADDED_ID}
    found = {"rows per epoch": [len(epoch) for epoch in epochs]}
    cifar = case["source"]["kind"] == "cifar10"     # (only its first rows are read whole)
    if not cifar:
        found["of the allowed rows"] = all(row in allowed for epoch in epochs for row in epoch)
    randoms = [i for i, kind in enumerate(kinds) if kind != "exact"]
    if randoms == [len(kinds) - 1] and kinds[-1] == "permutation":
        found["sorted"] = [sorted(epoch) for epoch in epochs]
    if randoms == [len(kinds) - 1] and kinds[-1] == "pk":
        found["labels"] = [sorted(label_of(row) for row in epoch) for epoch in epochs]
    twice = any(len(set(ids)) < len(ids) for ids, _ in subsets(case)) or any(
        spec[0] == "PKSampler" for top in (case.get("kwargs", {}).get("sampler"),
                                           case.get("sampler")) for spec in chain(top))
    if not {"replacement", "pk"} & set(kinds) and not cifar and not twice:
        # (CIFAR's rows repeat: the file holds 64 images over and over; a list of ids or a
        # PKSampler may name a row twice)
        real = [[row for row in epoch if row[0] != PADDED_ID] for epoch in epochs]
        found["distinct"] = [len(set(epoch)) == len(epoch) for epoch in real]
    return ("properties", sorted(found.items()))


def shard_count(case):
    """The number of shards a case's rows are one of (to read every shard), or None."""
    kwargs = case.get("kwargs", {})
    if case["mode"] == "kwargs" and isinstance(kwargs.get("num_shards"), int) and \
            isinstance(kwargs.get("shard_id"), int) and not kwargs.get("sampler"):
        count = kwargs["num_shards"]
    else:
        spec = top_sampler(case)
        if not spec or spec[0] != "DistributedSampler" or spec[2] is not None or \
                case["mode"] == "add_sampler":
            return None
        count = spec[1]["num_shards"]
    if isinstance(count, int) and not isinstance(count, bool) and 1 < count <= MAX_SHARDS_READ:
        return count
    return None


def with_shard(case, shard):
    """The case made for shard ``shard`` of its shards."""
    out = dict(case)
    if case["mode"] == "kwargs" and "num_shards" in case["kwargs"] and not \
            case["kwargs"].get("sampler"):
        out["kwargs"] = dict(case["kwargs"], shard_id=shard)
        return out
    spec = top_sampler(case)
    new = (spec[0], dict(spec[1], shard_id=shard), spec[2])
    if case["mode"] == "kwargs":
        out["kwargs"] = dict(case["kwargs"], sampler=new)
    else:
        out["sampler"] = new
    return out


def all_shards_view(case, shards):
    """Every shard's rows of an epoch (deterministic), or how many each has and the rows they
    cover together."""
    if all(kind == "exact" for kind in stages(case)):
        return ("rows", shards)
    found = [("rows per shard", [len(rows) for rows in shards])]
    spec = top_sampler(case)
    arguments = spec[1] if spec else case["kwargs"]
    if arguments.get("num_samples") in (None, 0):
        found.append(("covered", sorted({row for rows in shards for row in rows})))
    return ("properties", found)


def build(library, case, directory, made):
    data = library.source(case["source"], case.get("kwargs", {}), directory, made)
    if case["mode"] in ("use_sampler", "add_sampler"):
        getattr(data, case["mode"])(library.sampler(case["sampler"], made))
    elif case["mode"] == "concat":
        other = library.source(case["other"], {} if case["other"]["kind"] == "padded" else {
            "shuffle": False}, directory, [])
        data = data + other if case["plus"] else data.concat([other])
        if case["sampler"]:
            data.use_sampler(library.sampler(case["sampler"], made))
    return data


def attempt(function):
    return pipelines.attempt(function)


def split_outcomes(library, case, data):
    """The split's parts: each part's size and rows (or, split at random, how many rows each
    has and the rows they hold together, sorted)."""
    parts = attempt(lambda: data.split(case["sizes"], randomize=case["randomize"]))
    if parts[0] == "error":
        return [("split", parts)]
    found = [("split", ("ok", len(parts[1])))]
    sizes = [attempt(part.get_dataset_size) for part in parts[1]]
    rows = [attempt(lambda: read_epochs(part, 1)[0]) for part in parts[1]]
    if case["randomize"]:
        found.append(("part sizes", ("ok", [size[1] for size in sizes])))   # (or errors)
        found.append(("parts", ("ok", (
            [len(r[1]) if r[0] == "ok" else r[1] for r in rows],
            sorted(row for r in rows if r[0] == "ok" for row in r[1])))))
        return found
    for i, (size, got) in enumerate(zip(sizes, rows)):
        found += [(f"part {i} size", size), (f"part {i} rows", got)]
    if "shard" in case and parts[1]:
        count, shard = case["shard"]
        part = parts[1][0]
        used = attempt(lambda: part.use_sampler(library.ds.DistributedSampler(
            count, shard, shuffle=False)))
        found.append(("part 0 sharded", used if used[0] == "error" else attempt(
            lambda: (part.get_dataset_size(), read_epochs(part, 1)[0]))))
    return found


def run_case(library, case, directory):
    """[(item, outcome)]: where it fails ("sampler", "build"), or what it gives."""
    library.ds.config.set_seed(case["seed"])
    made = []
    # samplers are built alone first: an argument error belongs to the sampler
    specs = [case.get("kwargs", {}).get("sampler"), case.get("sampler")]
    built = attempt(lambda: [library.sampler(spec, made) for spec in specs if spec])
    if built[0] == "error":
        return [("sampler", built)]
    found = [("get_num_samples", ("ok", [attempt(s.get_num_samples) for s in made]))]
    made = []
    built = attempt(lambda: build(library, case, directory, made))
    if built[0] == "error":
        return found + [("build", built)]
    data = built[1]
    source_rows = attempt(lambda: read_epochs(library.source(
        case["source"], {} if case["source"]["kind"] == "padded" else {
            "shuffle": False, **({"num_samples": 64} if case["source"]["kind"] == "cifar10"
                                  else {})}, directory, []), 1)[0])
    found.append(("source rows", source_rows))
    if case["mode"] == "split":
        return found + split_outcomes(library, case, data)
    found.append(("get_dataset_size", attempt(data.get_dataset_size)))
    rows = attempt(lambda: read_epochs(data, 2))
    if rows[0] == "ok" and source_rows[0] == "ok":
        rows = ("ok", view(case, rows[1], source_rows[1]))
    found.append(("rows", rows))
    count = shard_count(case)
    if count and rows[0] == "ok":
        shards = attempt(lambda: [read_epochs(build(library, with_shard(case, k), directory,
                                                    []), 1)[0] for k in range(count)])
        found.append(("all shards", shards if shards[0] == "error" else (
            "ok", all_shards_view(case, shards[1]))))
    return found


outcomes = differential_reference.case_by_case(Library, cases, run_case,
                                               in_directory=True)


CRASH = differential_reference.CRASH


# --- comparing -----------------------------------------------------------------------------------

ROWS = ("rows", "all shards", "parts") + tuple(f"part {i} rows" for i in range(3))


def case_differences(ours, theirs):
    """[(kind, item, why)] of every item two outcomes differ in, hard ones first. A side that
    failed at a step stands for that error in every later item; where the other side went on
    and fails when iterated, the error came at another step ("error elsewhere")."""
    if theirs[0][0] == "crash":
        return [("MindSpore crashed", "crash", theirs[0][1][2])]
    mine, reference = dict(ours), dict(theirs)
    for step in ("sampler", "build"):
        if (step in mine) != (step in reference):
            went_on = reference if step in mine else mine
            if "build" in went_on or all(outcome[0] == "error" for label, outcome in
                                         went_on.items() if label in ROWS) and any(
                    label in ROWS for label in went_on):
                return [("error elsewhere", step, f"fails at {step} " + (
                    "here" if step in mine else "in MindSpore") + ", later in the other: " +
                    str(next(o for o in went_on.values() if o[0] == "error")[1:3]))]
    labels = [label for label in list(mine) + [x for x in reference if x not in mine]]
    failed_here = next((mine[s] for s in ("sampler", "build") if s in mine), None)
    failed_there = next((reference[s] for s in ("sampler", "build") if s in reference), None)
    return differential_reference.item_differences(
        [(label, mine.get(label, failed_here or ("ok", "absent")),
          reference.get(label, failed_there or ("ok", "absent"))) for label in labels],
        [item for item in ROWS if item in mine or item in reference], pipelines.difference,
        keep=("get_num_samples",))


def classify(case, ours, theirs):
    """(kind, item, why): the first undocumented hard difference ("different"), else
    "documented" where every hard one is, else the first soft one; (None, None, None) if the
    same."""
    return differential_reference.first_undocumented(case, ours, theirs,
                                                     case_differences(ours, theirs), documented)


def documented(case, item, ours, theirs):
    """The README's word for a difference in ``item``, or None (the dataset API's "Deviations
    from MindSpore" and the sources' "Differences from MindSpore")."""
    mine, reference = dict(ours), dict(theirs)
    failed = str([outcome for outcome in reference.values() if outcome[0] == "error"])
    specs = [spec for top in (case.get("kwargs", {}).get("sampler"), case.get("sampler"))
             for spec in chain(top)]
    rules = [
        (any(s["rows"] == 0 for s in (case["source"], case.get("other", {"rows": 1}))) and (
            "must not be 0" in failed or "There are no samples" in failed or
            case["source"]["kind"] == "mindrecord" and "should be positive" in failed),
         "a pipeline with no rows iterates as empty (MindSpore 2.10 refuses a source of no "
         "rows)"),
        (item in ("rows", "all shards") and shuffled_with_num_samples(case) and
         has_duplicates(reference.get(item)) and not has_duplicates(mine.get(item)),
         "shuffle=True with num_samples reads num_samples distinct rows (MindSpore 2.10 draws "
         "them with replacement)"),
        (any(spec[0] == "PKSampler" for spec in specs),
         "PKSampler takes the first K rows of each class (MindSpore draws them at random, with "
         "replacement)"),
        (case["mode"] == "add_sampler" and (
            case["kwargs"].get("num_shards") not in (None, 1) or any(
                spec[0] == "DistributedSampler" for spec in chain(case["kwargs"].get(
                    "sampler")))),
         "add_sampler on a sharded source samples from the shard (MindSpore 2.10: wrong size, "
         "or 'Not a valid index')"),
        ("Not a valid index" in failed and any(
            spec[0] == "DistributedSampler" for top in (case.get("kwargs", {}).get("sampler"),
                                                        case.get("sampler"))
            for spec in chain(top)[:-1]),
         "a sampler over a DistributedSampler child samples from the shard (MindSpore 2.10: "
         "'Not a valid index')"),
        (case["mode"] == "concat" and case["sampler"] and case["sampler"][0] ==
         "DistributedSampler" and "mindrecord" in (case["source"]["kind"],
                                                   case["other"]["kind"]),
         "ConcatDataset.use_sampler(DistributedSampler) deals positions k, k+N, ... of the "
         "whole concatenation (MindSpore 2.10 gives a MindDataset's rows in blocks)"),
        (refused_bool(case, mine),
         "a bool is no int for a sampler argument (MindSpore 2.10 takes True as 1)"),
        (any(len(ids) > rows or len(set(ids)) < len(ids) for ids, rows in subsets(case)) and (
            item in ("rows", "all shards") and reference.get(item, ("error",))[0] == "error" or
            item == "get_dataset_size" and size_is_rows(mine)),
         "SubsetSampler with more indices than rows (or a row twice) serves them (MindSpore "
         "2.10 refuses them when iterated)"),
        (case["source"]["kind"] == "mindrecord" and any(
            ids and max(ids) >= rows for ids, rows in subsets(case)),
         "MindDataset's SubsetSampler index past the rows raises (MindSpore 2.10 serves the "
         "index modulo the rows)"),
        (case["source"]["kind"] == "mindrecord" and any(
            spec[0] == "SequentialSampler" and isinstance(spec[1].get("start_index"), int) and
            spec[1]["start_index"] >= case["source"]["rows"] for spec in specs),
         "MindDataset's SequentialSampler with start_index past the rows raises (MindSpore 2.10 "
         "serves none, its size 0 or negative)"),
        (item == "get_dataset_size" and size_is_rows(mine) and (
            mine.get("rows") == reference.get("rows") or
            reference.get("rows", ("error",))[0] == "error"),
         "get_dataset_size is the rows an epoch serves (MindSpore's may differ)"),
        ("never drawn" in str(mine.get("rows", mine.get("get_dataset_size"))),
         "WeightedRandomSampler never serves a row of weight 0 (MindSpore 2.10 serves them once "
         "the others are drawn, without replacement)"),
        (case["source"]["kind"] == "mindrecord" and item in ("get_dataset_size", "rows") and any(
            spec[0] == "RandomSampler" and stage_kind(spec) == "replacement" and
            isinstance(spec[1].get("num_samples"), int) and
            spec[1]["num_samples"] > case["source"]["rows"] for spec in specs),
         "RandomSampler(replacement=True) serves at most the source's rows (as MindSpore 2.10 "
         "does but in MindDataset, which draws num_samples)"),
        (case["source"]["kind"] == "mindrecord" and any(
            spec[0] == "SequentialSampler" and isinstance(spec[1].get("start_index"), int) and
            spec[1]["start_index"] < 0 for spec in specs) and "start_index" in str(
                mine.get("sampler")),
         "a SequentialSampler start_index below 0 fails when the sampler is built (MindSpore "
         "2.10's MindDataset reads from row 0)"),
        (case["mode"] == "concat" and case["sampler"] and case["sampler"][0] ==
         "DistributedSampler" and case["source"].get("form") in ("iterable", "function"),
         "ConcatDataset.use_sampler(DistributedSampler) counts a generator's rows without "
         "__getitem__ (MindSpore 2.10 does not for the datasets after it)"),
        (case["source"]["kind"] == "mindrecord" and "out of bound" in str(mine.get(item)),
         "MindDataset's SubsetSampler index past the rows (or below 0) raises (MindSpore 2.10 "
         "serves another row)"),
        (case["source"]["kind"] == "mindrecord" and item == "get_dataset_size" and
         shuffled_with_num_samples(case) and isinstance(case["kwargs"]["num_samples"], int) and
         case["kwargs"]["num_samples"] > case["source"]["rows"],
         "shuffle=True with num_samples reads distinct rows, at most the source's (MindSpore "
         "2.10's MindDataset draws num_samples rows with replacement)"),
        (case["source"]["kind"] == "mindrecord" and any(
            spec[0] == "DistributedSampler" and spec[1].get("shuffle") in (
                ("Shuffle", "FILES"), ("Shuffle", "INFILE")) for spec in specs),
         "DistributedSampler(shuffle=Shuffle.FILES/INFILE) is refused (MindSpore 2.10's "
         "MindDataset shuffles files)"),
        (any(spec[0] in ("SubsetSampler", "SubsetRandomSampler") and
             spec[1].get("num_samples") is not False and spec[1].get("num_samples") == 0
             for spec in specs),
         "SubsetSampler(num_samples=0) takes every index, 0 meaning all as for every sampler "
         "(MindSpore 2.10 keeps none: no rows, or a crash)"),
        (any(not ids for ids, _ in subsets(case)) and "called early or late" in failed,
         "an empty SubsetSampler serves no rows (MindSpore 2.10 crashes or raises '[Internal "
         "ERROR] ResetSampler() called early or late.')"),
        (case["source"]["kind"] == "mindrecord" and "parse_for_minddataset" in failed,
         "MindDataset takes a WeightedRandomSampler through use_sampler, add_sampler or "
         "add_child (MindSpore 2.10: AttributeError when iterated)"),
        ("only once" in str(mine.get("build")) and any(
            spec[0] == "ids" and spec[1][0] == "generator" for spec in specs),
         "a generator given as sampler is refused: it yields its ids once (MindSpore 2.10 reads "
         "on in it from epoch to epoch, or fails to copy it)"),
        (case["source"].get("form") in ("iterable", "function") and case["mode"] in (
            "use_sampler", "add_sampler") and (mine.get("sampler") or mine.get("build", (
                "ok",)))[0] == "error",
         "use_sampler/add_sampler on a GeneratorDataset without __getitem__ is refused "
         "(MindSpore 2.10 ignores the sampler)"),
        (str(mine.get("sampler", ("",))[1:2]) == "('PipelineArgumentError',)" and not any(
            outcome[0] == "error" for outcome in reference.values()),
         "a DistributedSampler or SequentialSampler argument out of range fails when the "
         "sampler is built (MindSpore 2.10: when the pipeline is, never where use_sampler "
         "replaced that sampler first)"),
        ("indices element" in str(mine.get("sampler")) and any(
            isinstance(spec[1], dict) and spec[1].get("num_samples") for spec in specs),
         "SubsetSampler checks every index (MindSpore 2.10 only the first num_samples)"),
        (any(spec[0] == "DistributedSampler" and spec[1].get("offset", -1) != -1
             for spec in specs),
         "DistributedSampler(offset=...) is checked and otherwise ignored"),
        (missing_class_folder(case) and "doesn't exist" in str(mine),
         "ImageFolderDataset: a class_indexing naming a folder that does not exist is a "
         "RuntimeError (MindSpore reads the other folders)"),
    ]
    return next((reason for applies, reason in rules if applies), None)


def missing_class_folder(case):
    """Whether an image source's class_indexing names a folder with no image (none made)."""
    return any(source["kind"] == "images" and "class_indexing" in source and
               source["rows"] < source["classes"]
               for source in (case["source"], case.get("other", {"kind": None})))


def subsets(case):
    """(indices, rows of the source) of each SubsetSampler, SubsetRandomSampler or list of
    ids a case gives as a whole list."""
    found = []
    for top in (case.get("kwargs", {}).get("sampler"), case.get("sampler")):
        for name, arguments, _ in chain(top):
            indices = arguments if name == "ids" else arguments.get("indices") if isinstance(
                arguments, dict) else None
            if indices and indices[0] in ("list", "tuple", "generator", "array"):
                ids = [int(i) for i in indices[1] if not isinstance(i, (str, float, type(None)))]
                rows = case["source"]["rows"] + (case["other"]["rows"] if case["mode"] ==
                                                 "concat" else 0)
                found.append((ids, rows))
    return found


def size_is_rows(outcomes):
    """Whether get_dataset_size() gave the rows of each epoch served."""
    size, rows = outcomes.get("get_dataset_size", ("error",)), outcomes.get("rows", ("error",))
    if not size[0] == rows[0] == "ok":
        return False
    kind, value = rows[1]
    counts = [len(epoch) for epoch in value] if kind == "rows" else dict(value)["rows per epoch"]
    return all(count == size[1] for count in counts)


def shuffled_with_num_samples(case):
    """Whether a case's source shuffles its rows and takes num_samples of them."""
    kwargs = case.get("kwargs", {})
    return case["mode"] in ("kwargs", "add_sampler") and not kwargs.get("sampler") and \
        kwargs_kind(case, kwargs) != "exact" and kwargs.get("num_samples") is not None


def has_duplicates(outcome):
    """Whether recorded properties say some epoch (or shard) held a row twice."""
    if not outcome or outcome[0] != "ok" or outcome[1][0] != "properties":
        return False
    found = dict(outcome[1][1])
    return False in found.get("distinct", ()) or "covered" in found


INT_ARGUMENTS = ("num_samples", "start_index", "num_shards", "shard_id", "num_val", "offset")


def refused_bool(case, mine):
    """Whether this package refused (TypeError) a bool a case gives where an int goes."""
    failed = mine.get("sampler", mine.get("build", ("ok",)))
    if failed[:2] != ("error", "TypeError"):
        return False
    values = [v for top in (case.get("kwargs", {}).get("sampler"), case.get("sampler"))
              for name, arguments, _ in chain(top) if isinstance(arguments, dict)
              for k, v in arguments.items() if k in INT_ARGUMENTS]
    values += [v for top in (case.get("kwargs", {}).get("sampler"), case.get("sampler"))
               for name, arguments, _ in chain(top) for indices in (
                   [arguments["indices"]] if isinstance(arguments, dict) and
                   "indices" in arguments else [arguments] if name == "ids" else [])
               for v in (indices[1] if isinstance(indices[1], (list, tuple)) else
                         [indices[1]])]
    values += [v for k, v in case.get("kwargs", {}).items() if k in INT_ARGUMENTS]
    return any(v is True or v is False for v in values)


def describe(case, limit=400):
    source = dict(case["source"])
    source.pop("labels", None)
    text = f"{source} | {case['mode']} {case.get('kwargs')}"
    for key in ("sampler", "other", "plus", "sizes", "randomize", "shard"):
        if key in case:
            text += f" {key}={case[key]}"
    return text[:limit]


def main():
    return differential_reference.run_tool(__doc__.split("\n\n")[0], 300, __file__, cases,
                                           outcomes, classify, describe, CASE_TIMEOUT_S,
                                           full=3000)


if __name__ == "__main__":
    sys.exit(main())
