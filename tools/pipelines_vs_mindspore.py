"""Whole dataset pipelines against MindSpore 2.10, on random sources and ops.

Each case is a deterministic source (NumpySlicesDataset, GeneratorDataset, MindDataset over a
file FileWriter writes, TextFileDataset, CSVDataset, ImageFolderDataset over generated images;
MnistDataset, Cifar10/100Dataset, ManifestDataset, VOCDataset and CocoDataset over files
tools/pipeline_sources_for_differential.py writes, some with shuffle=True, whose rows are then
compared sorted, or only counted where num_samples picks a random subset) with random
arguments, then 1 to 6 random ops (batch, also on 2 workers, a per_batch_map of one column
or of two given back swapped under their own, each other's or new names, on threads or
processes, padded_batch, bucket_batch_by_length with or without pad_info, repeat, skip, take,
project, also reversing the columns, rename, map, on 2 threads or 2 processes too, a map of
native and Python ops together (a list or a Compose) on threads or processes, filter of one,
two or every column, concat and zip with children of other sizes, repeated, use_sampler,
add_sampler; a shuffle followed only by ops on single rows, whose rows are then compared
sorted per epoch; split at the end, with randomize=True sometimes: then the parts' sizes and
all their rows together, sorted, are compared). The same
cases run in this interpreter and in MindSpore's (its own venv: ``--mindspore-python``); each
case records its metadata (size, columns, shapes, types, batch size, repeat count, classes)
and every row of every epoch of a tuple iterator, a dict iterator (some made for more epochs
than are read), a plain ``for`` loop, a tuple iterator of Tensors (``output_numpy=False``,
compared by ``asnumpy()``), and an iterator stopped after its first row followed by a new
one. Outcomes are
compared item by item: dtype, shape and values exactly (strings as str); an error against a
value is a difference. Counted apart: differences the README documents as deviations
(MindSpore wrong, or different on purpose), two errors of other types ("error type"), an
error raised at another step ("error elsewhere": when built here, when iterated there), and
MindSpore crashes (a case that kills its interpreter runs again without output_shapes and
output_types, where MindSpore 2.10 segfaults most; one that still does is skipped).

    .venv/bin/python tools/pipelines_vs_mindspore.py [--seed 1] [--cases 250]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]

Prints each undocumented difference and a count per outcome; exits 1 if there is any. The
MindSpore interpreter runs this file alone (numpy and Pillow only: it never imports this
package).
"""
import argparse
import faulthandler
import importlib
import io
import os
import pickle
import random
import sys
import tempfile
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import pipeline_sources_for_differential as file_sources              # noqa: E402

CASE_TIMEOUT_S = 30         # a case of the reference interpreter that runs longer hangs

# --- the functions pipelines call (the same in both interpreters) -----------------------------


def _amount(value):
    """A number standing for a value of any type (strings: their lengths)."""
    value = np.asarray(value)
    if value.dtype.kind in "US":
        return sum(len(item) for item in value.ravel().tolist())
    return int(np.abs(value.astype(np.float64)).sum())


def _numeric(value):
    """``value`` as a numeric array; strings refused in both numpy 1 and 2 (numpy 2 adds and
    repeats them where numpy 1 raises)."""
    value = np.asarray(value)
    if value.dtype.kind in "USO":
        raise TypeError(f"a numeric array expected, got {value.dtype}")
    return value


def plus_one(x):
    x = _numeric(x)
    return x + x.dtype.type(1)      # the type kept under numpy 1's rules and numpy 2's


def twice(x):
    return x, x


def sizes_of(x, y):
    return np.array([np.size(x), np.size(y)], np.int64)


def size_of(x):
    return np.array(np.size(x), np.int32)


def keep_even(*columns):
    return _amount(columns[0]) % 2 == 0


def keep_small(*columns):
    return _amount(columns[0]) < 20


def doubled_batch(column, batch_info):
    return ([_numeric(item) * _numeric(item).dtype.type(2) for item in column],)


def batch_and_sizes(column, batch_info):
    return column, [np.array(np.size(item), np.int32) for item in column]


def batch_sizes(batch_info):
    return 1 + batch_info.get_batch_num() % 3


def length_of(column):
    return np.size(column)


def swapped_batch(first, second, batch_info):
    """Two batched columns given back the other way round (their names are output_columns')."""
    return second, first


FUNCTIONS = {f.__name__: f for f in (plus_one, twice, sizes_of, size_of, keep_even, keep_small,
                                     doubled_batch, batch_and_sizes, batch_sizes, length_of,
                                     swapped_batch)}

# --- sources: python objects GeneratorDataset reads -------------------------------------------


class RandomAccess:
    def __init__(self, columns):
        self.columns = columns

    def __getitem__(self, index):
        return tuple(column[index] for column in self.columns)

    def __len__(self):
        return len(self.columns[0])


class Iterable:
    def __init__(self, columns):
        self.columns = columns

    def __iter__(self):
        return iter(list(zip(*self.columns)))

    def __len__(self):
        return len(self.columns[0])


def generator_function(columns):
    def rows():
        yield from zip(*columns)
    return rows


# --- random cases ------------------------------------------------------------------------------

COLUMN_KINDS = ["int32", "int64", "float32", "float64", "vector", "matrix", "string", "ragged"]


def column_values(r, kind, rows):
    rng = np.random.default_rng(r.randrange(1 << 30))
    if kind in ("int32", "int64"):
        return [np.array(v, kind) for v in rng.integers(-5, 30, rows)]
    if kind in ("float32", "float64"):
        return [np.array(v, kind) for v in np.round(rng.normal(0, 4, rows), 2)]
    if kind == "vector":
        return [rng.integers(0, 9, 3).astype(np.float32) for _ in range(rows)]
    if kind == "matrix":
        return [rng.integers(0, 200, (2, 2)).astype(np.uint8) for _ in range(rows)]
    if kind == "string":
        return [np.array(r.choice(["a", "bb", "ccc", "", "dé", "x y"])) for _ in range(rows)]
    return [rng.integers(0, 9, r.randint(1, 4)).astype(np.int64) for _ in range(rows)]


def random_table(r, rows, ragged=True):
    """Column names and kinds, and the values (lists of numpy arrays, one per row)."""
    kinds = COLUMN_KINDS if ragged else COLUMN_KINDS[:-1]
    chosen = [r.choice(kinds[:2])] + r.sample(kinds, r.randint(0, 2))
    names = ["col%d" % i for i in range(len(chosen))]
    return names, chosen, [column_values(r, kind, rows) for kind in chosen]


def shards(r):
    count = r.choice([2, 3])
    return {"num_shards": count, "shard_id": r.randrange(count)}


def sampler(r, rows, kinds=("sequential", "subset", "distributed", "pk", "list")):
    kind = r.choice(kinds)
    if kind == "sequential":
        return ("SequentialSampler", {"start_index": r.choice([None, 0, 1, 2]),
                                      "num_samples": r.choice([None, 2, 5])})
    if kind == "subset":
        return ("SubsetSampler", {"indices": [r.randrange(max(rows, 1)) for _ in range(3)]})
    if kind == "distributed":
        return ("DistributedSampler", dict(shards(r), shuffle=False))
    if kind == "pk":
        return ("PKSampler", {"num_val": r.choice([1, 2]), "shuffle": False,
                              "class_column": "label"})
    return ("list", [r.randrange(max(rows, 1)) for _ in range(r.randint(1, 4))])


def numpy_source(r):
    rows = r.randint(1, 9)
    names, kinds, columns = random_table(r, rows, ragged=False)
    layout = r.choice(["dict", "list", "tuple"])
    kwargs = {"shuffle": False}
    if layout == "list":
        names, kinds, columns = names[:1], kinds[:1], columns[:1]
    if layout != "dict" or r.random() < 0.5:
        kwargs["column_names"] = names
    if r.random() < 0.3:
        kwargs.update(shards(r))
    return {"kind": "numpy", "layout": layout, "names": names, "kinds": kinds,
            "columns": columns, "kwargs": kwargs}


def generator_source(r):
    rows = r.randint(0, 9)
    names, kinds, columns = random_table(r, rows)
    form = r.choice(["random_access", "iterable", "function"])
    kwargs = {"column_names": names, "shuffle": False, "python_multiprocessing": False}
    choice = r.random()
    if choice < 0.2:
        kwargs.update(shards(r))
    elif choice < 0.5 and form == "random_access":
        kwargs["sampler"] = sampler(r, rows, ("sequential", "subset", "distributed", "list"))
        del kwargs["shuffle"]
    return {"kind": "generator", "form": form, "names": names, "kinds": kinds,
            "columns": columns, "kwargs": kwargs}


MINDRECORD_FIELDS = {"label": ("int32", None), "big": ("int64", None), "f": ("float32", None),
                     "d": ("float64", None), "s": ("string", None), "b": ("bytes", None),
                     "arr": ("float32", [2, 2]), "var": ("int64", [-1])}


def mindrecord_value(r, rng, field):
    kind, shape = MINDRECORD_FIELDS[field]
    if shape == [2, 2]:
        return rng.normal(0, 1, (2, 2)).round(3).astype(np.float32)
    if shape == [-1]:
        return rng.integers(-9, 9, r.randint(1, 4)).astype(np.int64)
    if kind in ("int32", "int64"):
        return r.randint(0, 3) if field == "label" else r.randint(-10 ** 10, 10 ** 10)
    if kind in ("float32", "float64"):
        return round(r.uniform(-9, 9), 2)
    if kind == "string":
        return r.choice(["a", "bb", "", "déj", "x y"])
    return bytes(r.randrange(256) for _ in range(r.randint(1, 5)))


def mindrecord_source(r):
    rows = r.randint(1, 9)
    fields = ["label"] + r.sample([f for f in MINDRECORD_FIELDS if f != "label"], r.randint(1, 4))
    rng = np.random.default_rng(r.randrange(1 << 30))
    samples = [{f: mindrecord_value(r, rng, f) for f in fields} for _ in range(rows)]
    kwargs = {"shuffle": False}
    choice = r.random()
    if choice < 0.2:
        kwargs.update(shards(r))
        if r.random() < 0.5:
            kwargs["num_padded"] = r.randint(1, 3)
            kwargs["padded_sample"] = {f: mindrecord_value(r, rng, f) for f in fields}
            kwargs["columns_list"] = fields
    elif choice < 0.45:
        kwargs["sampler"] = sampler(r, rows, ("sequential", "subset", "distributed", "pk"))
        del kwargs["shuffle"]
    elif choice < 0.55:
        kwargs["num_samples"] = r.randint(1, 6)
    if r.random() < 0.3 or "padded_sample" in kwargs:
        kwargs["columns_list"] = r.sample(fields, r.randint(1, len(fields)))
        if "padded_sample" in kwargs:
            kwargs["padded_sample"] = {f: kwargs["padded_sample"][f]
                                       for f in kwargs["columns_list"]}
    return {"kind": "mindrecord", "fields": fields, "samples": samples, "kwargs": kwargs}


WORDS = ["alpha", "beta", "", "gamma delta", "e", "ζ"]


def text_kwargs(r):
    kwargs = {"shuffle": False}
    if r.random() < 0.3:
        kwargs["num_samples"] = r.randint(1, 6)
    if r.random() < 0.25:
        kwargs.update(shards(r))
    return kwargs


def text_source(r):
    files = [[r.choice(WORDS) for _ in range(r.randint(1, 5))] for _ in range(r.randint(1, 2))]
    return {"kind": "text", "files": files, "kwargs": text_kwargs(r)}


def csv_source(r):
    width = r.randint(1, 3)
    typed = r.random() < 0.6
    cells = [lambda: str(r.randint(-9, 99)), lambda: "%.2f" % r.uniform(-5, 5),
             lambda: r.choice(["p", "qq", "r s"])][:width]
    files = [[",".join(cell() for cell in cells) for _ in range(r.randint(1, 5))]
             for _ in range(r.randint(1, 2))]
    kwargs = text_kwargs(r)
    kwargs["column_names"] = ["c%d" % i for i in range(width)]
    if typed:
        kwargs["column_defaults"] = [0, 0.0, ""][:width]
    return {"kind": "csv", "files": files, "kwargs": kwargs}


def image_source(r):
    classes = r.sample(["ant", "bee", "cat", "dog"], r.randint(1, 3))
    rng = np.random.default_rng(r.randrange(1 << 30))
    images = {name: [(r.choice(["png", "png", "jpg"]),
                      rng.integers(0, 256, (r.randint(3, 9), r.randint(3, 9), 3)).astype(np.uint8))
                     for _ in range(r.randint(0, 3))] for name in classes}
    kwargs = {"shuffle": False, "decode": r.choice([False, True])}
    if r.random() < 0.3:
        kwargs["class_indexing"] = {name: i * 2 for i, name in enumerate(sorted(classes))}
    if r.random() < 0.3:
        kwargs["extensions"] = r.choice([[".png"], [".jpg"], [".png", ".jpg"]])
    choice = r.random()
    if choice < 0.2:
        kwargs.update(shards(r))
    elif choice < 0.4:
        kwargs["sampler"] = sampler(r, 6, ("sequential", "subset", "distributed", "pk"))
        del kwargs["shuffle"]
    elif choice < 0.5:
        kwargs["num_samples"] = r.randint(1, 4)
    return {"kind": "images", "images": images, "kwargs": kwargs}


def random_source(r):
    return r.choice([numpy_source, numpy_source, generator_source, generator_source,
                     mindrecord_source, mindrecord_source, text_source, csv_source,
                     image_source, file_source, file_source])(r)


def file_source(r):
    return file_sources.file_source(r, shards, sampler)


def random_op(r, first, source):
    """One op of a pipeline, as data: (name, arguments)."""
    makers = [
        lambda: ("batch", {"batch_size": r.choice([1, 2, 3, 4]),
                           "drop_remainder": r.choice([False, True])}),
        lambda: ("batch", {"batch_size": r.choice([2, 3, "batch_sizes"]),
                           "num_parallel_workers": r.choice([1, 2])}),
        lambda: ("batch_map", {"batch_size": r.choice([1, 2, 3]), "column": r.randrange(3),
                               "outputs": r.choice([None, 1, 2])}),
        # two input columns served swapped, under their own names, each other's or new ones
        lambda: ("batch_swap", {"batch_size": r.choice([1, 2, 3]),
                                "outputs": r.choice(["same", "crossed", "new"]),
                                "workers": r.choice([1, 2, "processes"])}),
        lambda: ("padded_batch", {"batch_size": r.choice([1, 2, 3]),
                                  "drop_remainder": r.choice([False, True]),
                                  "column": r.randrange(3),
                                  "shape": r.choice([None, None, [4], [2, 3]]),
                                  "value": r.choice([None, 0, -1])}),
        lambda: ("bucket_batch_by_length", {"column": r.randrange(3),
                                            "bucket_boundaries": r.choice([[2], [1, 3]]),
                                            "sizes": r.choice([2, 3]),
                                            "function": r.choice([None, "length_of"]),
                                            "pad_to_bucket_boundary": r.choice([False, True]),
                                            "drop_remainder": r.choice([False, True]),
                                            "pad": r.choice([None, None, (None, -1), ([None], -1),
                                                             ([4], 7)])}),
        lambda: ("repeat", r.choice([1, 2, 3])),
        lambda: ("skip", r.choice([0, 1, 2, 5])),
        lambda: ("take", r.choice([-1, 1, 3, 7])),
        lambda: ("project", r.randrange(3)),
        lambda: ("project", "reversed"),
        lambda: ("rename", r.randrange(3)),
        lambda: ("map", {"function": r.choice(["plus_one", "twice", "size_of"]),
                         "column": r.randrange(3),
                         "output": r.choice([None, "renamed"]),
                         "workers": r.choice([1, 1, 2, 2, "processes"])}),
        lambda: ("map_two", {"function": "sizes_of"}),
        # native and Python ops in one map, on threads or processes
        lambda: ("map_chain", {"column": r.randrange(3), "dtype": r.choice(["float64", "int16"]),
                               "compose": r.choice([False, True]),
                               "workers": r.choice([1, 2, "processes"])}),
        lambda: ("map_transform", {"op": r.choice(["TypeCast", "OneHot"]),
                                   "column": r.randrange(3),
                                   "dtype": r.choice(["float64", "int16", "int64"])}),
        lambda: ("filter", {"predicate": r.choice(["keep_even", "keep_small"]),
                            "column": r.choice([None, 0, 1, "two"])}),
        lambda: ("zip", {"rows": r.randint(1, 9), "repeat": r.choice([1, 1, 2])}),
    ]
    if source["kind"] in ("images", "manifest", "voc", "coco"):
        makers += [lambda: ("map_vision", {"op": r.choice(["Decode", "Resize",
                                                           "decode_resize"])})] * 4
    elif source["kind"] in file_sources.FILE_KINDS:     # decoded pixels
        makers += [lambda: ("map_vision", {"op": "Resize"})] * 2
    if first and source["kind"] not in ("text", "csv") and source.get("form") != "iterable":
        makers += [
            lambda: ("concat", {"plus": r.choice([False, True]), "skip": r.choice([0, 1, 3]),
                                "repeat": r.choice([1, 1, 2])}),
            lambda: (r.choice(["use_sampler", "add_sampler"]),
                     sampler(r, 5, ("sequential", "subset", "distributed"))),
        ] * 2
    return r.choice(makers)()


# ops after which rows sorted per epoch are the same whatever order they came in
ROW_WISE = ("map", "map_two", "map_transform", "map_vision", "project", "rename", "repeat",
            "filter", "concat")


def random_case(r):
    source = random_source(r)
    ops = [random_op(r, i == 0, source) for i in range(r.randint(1, 6))]
    if source["kind"].startswith("cifar"):  # a sampler of all its rows would serve 10,000
        ops = [op for op in ops if op[0] not in SAMPLING]
    if file_sources.unordered(source):      # rows compared sorted, or only counted
        counted = file_sources.partial_random(source)
        ops = [op for op in ops if op[0] in ROW_WISE and not (counted and op[0] == "filter")]
    elif r.random() < 0.15:     # rows recorded sorted: the order a shuffle gives is not compared
        last_in_order = max([i + 1 for i, op in enumerate(ops) if op[0] not in ROW_WISE] + [0])
        ops.insert(r.randint(last_in_order, len(ops)), ("shuffle", r.choice([2, 4, 100])))
    case = {"source": source, "ops": ops, "epochs": r.randint(1, 3),
            "iterate_epochs": r.choice([None, None, 1])}
    if r.random() < 0.12 and order(case) == "as read":
        case["split"] = r.choice([[2, 1], [0.5, 0.5], [0.3, 0.7], [1, 1, 1], [0.2, 0.2, 0.6]])
        # randomize=True: the parts' sizes, and all their rows sorted together, are compared
        case["randomize"] = r.random() < 0.4
    return case


def order(case):
    """How a case's rows are compared: "as read", "sorted" per epoch (after a shuffle) or
    "counted" (a random subset of the rows)."""
    if file_sources.partial_random(case["source"]):
        return "counted"
    shuffled = any(name == "shuffle" for name, _ in case["ops"])
    return "sorted" if shuffled or file_sources.unordered(case["source"]) else "as read"


def cases(seed, count):
    r = random.Random(seed)
    return [random_case(r) for _ in range(count)]


# --- building a case in one library ------------------------------------------------------------


def library(name):
    """(dataset module, FileWriter) of ``name``: "mindspore" or "minddata"."""
    if name == "mindspore":
        ds = importlib.import_module("mindspore.dataset")
        writer = importlib.import_module("mindspore.mindrecord").FileWriter
    else:
        ds = importlib.import_module("minddata")
        writer = importlib.import_module("mindrecord").FileWriter
    return ds, writer


def make_sampler(ds, spec):
    name, arguments = spec
    if name == "list":
        return list(arguments)
    return getattr(ds, name)(**{k: v for k, v in arguments.items() if v is not None})


def source_kwargs(ds, kwargs):
    out = dict(kwargs)
    if "sampler" in out:
        out["sampler"] = make_sampler(ds, out["sampler"])
    return out


def write_lines(directory, files, suffix):
    paths = []
    for i, lines in enumerate(files):
        paths.append(os.path.join(directory, "part%d.%s" % (i, suffix)))
        with open(paths[-1], "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in lines))
    return paths


def write_images(directory, images):
    from PIL import Image
    root = os.path.join(directory, "images")
    for name, files in images.items():
        os.makedirs(os.path.join(root, name), exist_ok=True)
        for i, (fmt, pixels) in enumerate(files):
            buffer = io.BytesIO()
            Image.fromarray(pixels).save(buffer, "PNG" if fmt == "png" else "JPEG", quality=90)
            with open(os.path.join(root, name, "%d.%s" % (i, fmt)), "wb") as f:
                f.write(buffer.getvalue())
    return root


def build_source(ds, file_writer, spec, directory):
    kind = spec["kind"]
    kwargs = source_kwargs(ds, spec["kwargs"])
    if kind == "numpy":
        stacked = [np.stack(column) for column in spec["columns"]]
        data = {"dict": lambda: dict(zip(spec["names"], stacked)), "list": lambda: list(
            stacked[0]), "tuple": lambda: tuple(stacked)}[spec["layout"]]()
        return ds.NumpySlicesDataset(data, **kwargs)
    if kind == "generator":
        source = {"random_access": RandomAccess, "iterable": Iterable,
                  "function": generator_function}[spec["form"]](spec["columns"])
        return ds.GeneratorDataset(source, **kwargs)
    if kind == "mindrecord":
        path = os.path.join(directory, "data.mindrecord")
        if not os.path.exists(path):
            writer = file_writer(path, shard_num=1)
            schema = {}
            for field in spec["fields"]:
                field_type, shape = MINDRECORD_FIELDS[field]
                schema[field] = {"type": field_type, **({"shape": shape} if shape else {})}
            writer.add_schema(schema, "pipelines")
            writer.write_raw_data([dict(sample) for sample in spec["samples"]])
            writer.commit()
        return ds.MindDataset(path, **kwargs)
    if kind == "text":
        return ds.TextFileDataset(write_lines(directory, spec["files"], "txt"), **kwargs)
    if kind == "csv":
        return ds.CSVDataset(write_lines(directory, spec["files"], "csv"), **kwargs)
    if kind in file_sources.FILE_KINDS:
        return file_sources.build_file_source(ds, spec, directory, kwargs)
    root = os.path.join(directory, "images")
    if not os.path.exists(root):
        write_images(directory, spec["images"])
    return ds.ImageFolderDataset(root, **kwargs)


def pick(names, index):
    return names[index % len(names)]


def apply_op(ds, data, op, build_again):
    """``data`` with ``op`` (from random_op) applied; column names are read from ``data``."""
    name, arguments = op
    names = data.get_col_names()
    if name == "batch":
        size = arguments["batch_size"]
        return data.batch(FUNCTIONS.get(size, size),
                          drop_remainder=arguments.get("drop_remainder", False),
                          num_parallel_workers=arguments.get("num_parallel_workers", 1))
    if name == "batch_map":
        column, outputs = pick(names, arguments["column"]), arguments["outputs"]
        return data.batch(arguments["batch_size"], per_batch_map=batch_and_sizes if outputs == 2
                          else doubled_batch, input_columns=[column], output_columns=None
                          if outputs is None else [column + "_b", "sizes_b"][:outputs])
    if name == "batch_swap":
        if len(names) < 2:
            return data
        first, second = names[:2]
        outputs = {"same": [first, second], "crossed": [second, first],
                   "new": [first + "_s", second + "_s"]}[arguments["outputs"]]
        workers = arguments["workers"]
        return data.batch(arguments["batch_size"], per_batch_map=swapped_batch,
                          input_columns=[first, second], output_columns=outputs,
                          num_parallel_workers=2 if workers != 1 else 1,
                          python_multiprocessing=workers == "processes")
    if name == "padded_batch":
        pad_info = {pick(names, arguments["column"]): (arguments["shape"], arguments["value"])}
        return data.padded_batch(arguments["batch_size"], arguments["drop_remainder"],
                                 pad_info=pad_info)
    if name == "bucket_batch_by_length":
        boundaries = arguments["bucket_boundaries"]
        function = FUNCTIONS.get(arguments["function"])
        column = pick(names, arguments["column"])
        pad = arguments.get("pad")
        return data.bucket_batch_by_length(
            [column], boundaries,
            [arguments["sizes"]] * (len(boundaries) + 1), element_length_function=function,
            pad_info=None if pad is None else {column: pad},
            pad_to_bucket_boundary=arguments["pad_to_bucket_boundary"],
            drop_remainder=arguments["drop_remainder"])
    if name in ("repeat", "skip", "take", "shuffle"):
        return getattr(data, name)(arguments)
    if name == "project":
        if arguments == "reversed":
            return data.project(names[::-1])
        return data.project(names[arguments % len(names):] or names)
    if name == "rename":
        old = pick(names, arguments)
        return data.rename(old, old + "_r")
    if name == "map":
        column = pick(names, arguments["column"])
        outputs = None
        if arguments["function"] == "twice":
            outputs = [column + "_a", column + "_b"]
        elif arguments["output"]:
            outputs = [column + "_m"]
        workers = arguments.get("workers", 1)
        return data.map(FUNCTIONS[arguments["function"]], input_columns=[column],
                        output_columns=outputs, num_parallel_workers=2 if workers != 1 else 1,
                        python_multiprocessing=workers == "processes")
    if name == "map_two":
        if len(names) < 2:
            return data
        return data.map(sizes_of, input_columns=names[:2], output_columns=["sizes"])
    if name == "map_chain":
        column = pick(names, arguments["column"])
        chain = [ds.transforms.TypeCast(getattr(np, arguments["dtype"])), plus_one,
                 ds.transforms.TypeCast(np.float32)]
        workers = arguments["workers"]
        return data.map(ds.transforms.Compose(chain) if arguments["compose"] else chain,
                        input_columns=[column], num_parallel_workers=2 if workers != 1 else 1,
                        python_multiprocessing=workers == "processes")
    if name == "map_transform":
        column = pick(names, arguments["column"])
        transform = (ds.transforms.TypeCast(getattr(np, arguments["dtype"]))
                     if arguments["op"] == "TypeCast" else ds.transforms.OneHot(5))
        return data.map(transform, input_columns=[column])
    if name == "map_vision":
        operations = {"Decode": [ds.vision.Decode()], "Resize": [ds.vision.Resize((4, 5))],
                      "decode_resize": [ds.vision.Decode(), ds.vision.Resize(6)]}[arguments["op"]]
        return data.map(operations, input_columns=[names[0]])
    if name == "filter":
        column = arguments["column"]
        columns = (None if column is None else names[:2] if column == "two"
                   else [pick(names, column)])
        return data.filter(FUNCTIONS[arguments["predicate"]], input_columns=columns)
    if name == "zip":
        other = ds.NumpySlicesDataset({"z" * (len(names) + 1): np.arange(arguments["rows"],
                                                                        dtype=np.int32)},
                                      shuffle=False)
        return data.zip(other.repeat(arguments.get("repeat", 1)))
    if name == "concat":
        other = build_again()
        if arguments["skip"]:
            other = other.skip(arguments["skip"])
        other = other.repeat(arguments.get("repeat", 1))
        return data + other if arguments["plus"] else data.concat([other])
    if name in ("use_sampler", "add_sampler"):
        getattr(data, name)(make_sampler(ds, arguments))
        return data
    raise ValueError(f"unknown op {name}")


def build(ds, file_writer, case, directory):
    def source():
        return build_source(ds, file_writer, case["source"], directory)
    data = source()
    for op in case["ops"]:
        data = apply_op(ds, data, op, source)
    return data


# --- recording outcomes ------------------------------------------------------------------------


def plain(value):
    """A value as comparable Python data: (dtype, shape, values) of its numpy array."""
    if hasattr(value, "asnumpy"):
        value = value.asnumpy()
    array = np.asarray(value)
    if array.dtype.kind == "U":
        return ("str", array.shape, array.tolist())
    if array.dtype.kind == "S":
        return ("bytes", array.shape, array.tolist())
    return (array.dtype.str, array.shape, array.tobytes())


def error(exc):
    """("error", type name, first line of the message, names of the type and its bases)."""
    message = str(exc).split("[ERROR] ", 1)[-1].strip()        # MindSpore's banner dropped
    return ("error", type(exc).__name__, message.split("\n")[0][:200],
            tuple(kind.__name__ for kind in type(exc).__mro__))


def attempt(function):
    try:
        return ("ok", function())
    except Exception as exc:            # an outcome to compare, like a value
        return error(exc)


def epochs(iterator_of, count, convert, order, iterated=None):
    """Rows of ``iterated`` epochs (all ``count`` by default) of an iterator made for
    ``count``."""
    iterator = iterator_of()
    return [in_order([convert(row) for row in iterator], order)
            for _ in range(iterated or count)]


def in_order(recorded, order):
    """Rows as read, sorted where their order is not compared (after a shuffle), or their
    count where they are a random subset."""
    if order == "counted":
        return len(recorded)
    return recorded if order == "as read" else sorted(recorded, key=repr)


def stopped_then_again(data, convert, order):
    """The first row of an iterator stopped after it, then an epoch of a new iterator."""
    iterator = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    first_rows = [convert(row) for _, row in zip(range(1), iterator)]
    iterator.stop()
    again = in_order([convert(row) for row in data.create_tuple_iterator(
        num_epochs=1, output_numpy=True)], order)
    return [len(first_rows), again]


SHAPES = ("output_shapes", "output_types")
# what the reference records for an item it could not run: MindSpore 2.10 segfaults in
# output_shapes of a few pipelines whose first row fails or that have no rows
CRASHED = ("error", "crash", "skipped: the reference interpreter crashed in it", ("crash",))


def metadata(data, shapes=True):
    items = [
        ("get_dataset_size", data.get_dataset_size),
        ("get_col_names", lambda: list(data.get_col_names())),
        ("output_shapes", lambda: [list(s) for s in data.output_shapes()]),
        ("output_types", lambda: [np.dtype(t).str for t in data.output_types()]),
        ("get_batch_size", data.get_batch_size),
        ("get_repeat_count", data.get_repeat_count),
    ]
    return [(label, attempt(function) if shapes or label not in SHAPES else CRASHED)
            for label, function in items]


def rows(data, count, order="as read", iterated=None):
    tuple_row = lambda row: [plain(v) for v in row]                         # noqa: E731
    dict_row = lambda row: [(k, plain(v)) for k, v in row.items()]        # noqa: E731
    return [
        ("tuple iterator", attempt(lambda: epochs(lambda: data.create_tuple_iterator(
            num_epochs=count, output_numpy=True), count, tuple_row, order))),
        ("dict iterator", attempt(lambda: epochs(lambda: data.create_dict_iterator(
            num_epochs=count, output_numpy=True), count, dict_row, order, iterated))),
        ("for loop", attempt(lambda: in_order([tuple_row(row) for row in data], order))),
        ("tensor iterator", attempt(lambda: epochs(lambda: data.create_tuple_iterator(
            num_epochs=1, output_numpy=False), 1, tuple_row, order))),
        ("stopped, then again", attempt(lambda: stopped_then_again(data, tuple_row, order))),
    ]


def run_case(ds, file_writer, case, directory, shapes=True):
    """[(item, outcome)] of one case: ("ok", value) or ("error", type name, message); without
    ``shapes``, output_shapes and output_types are not run (CRASHED)."""
    built = attempt(lambda: build(ds, file_writer, case, directory))
    if built[0] == "error":
        return [("build", built)]
    data = built[1]
    rows_order = order(case)
    # in another order the first row, whose shapes output_shapes gives, is any row
    outcomes = [(label, outcome) for label, outcome in metadata(data, shapes)
                if rows_order == "as read" or label != "output_shapes"]
    if case["source"]["kind"] == "images" and not case["ops"]:
        outcomes.append(("num_classes", attempt(data.num_classes)))
    outcomes += rows(data, case["epochs"], rows_order, case.get("iterate_epochs"))
    if "split" in case:
        randomize = case.get("randomize", False)
        parts = attempt(lambda: data.split(case["split"], randomize=randomize))
        outcomes.append(("split", ("ok", "parts") if parts[0] == "ok" else parts))
        together = []
        for i, part in enumerate(parts[1] if parts[0] == "ok" else []):
            outcomes.append((f"split part {i} size", attempt(part.get_dataset_size)))
            part_rows = rows(part, 1)[:1]
            if randomize:       # which rows each part gets is each library's own draw
                together.append(part_rows[0][1])
            else:
                outcomes += [(f"split part {i} {label}", outcome)
                             for label, outcome in part_rows]
        if together:
            outcomes.append(("split parts' rows together", ("ok", sorted(
                (repr(row) for outcome in together if outcome[0] == "ok"
                 for row in outcome[1][0]))) if all(outcome[0] == "ok" for outcome in together)
                else next(outcome for outcome in together if outcome[0] != "ok")))
    return outcomes


def outcomes(library_name, seed, count, start=0, shapeless=-1):
    """Each case's outcomes from case ``start`` on (a generator: a crash loses no case before
    it); case ``shapeless`` without output_shapes and output_types."""
    warnings.simplefilter("ignore")
    ds, file_writer = library(library_name)
    for number, case in enumerate(cases(seed, count)[start:], start):
        with tempfile.TemporaryDirectory() as directory:
            yield run_case(ds, file_writer, case, directory, shapes=number != shapeless)


def reference_outcomes(args):
    """The reference interpreter's outcomes of every case. A case that kills it (MindSpore 2.10
    segfaults in a few) runs again without output_shapes and output_types, where it crashes
    most; if it still does, it is recorded as a crash, and the next run starts after it."""
    results, shapeless = [], -1
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "reference.pkl")
        env = dict(os.environ, GLOG_v="3", PYTHONPATH=os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))) if args.reference == "minddata" else "")
        while len(results) < args.cases:
            # (in a session of its own, killed once it ends: a case that kills MindSpore or
            # hangs it leaves the worker processes of its maps behind)
            done = differential_reference.run_as_group(
                [args.mindspore_python, os.path.abspath(__file__), "--seed", str(args.seed),
                 "--cases", str(args.cases), "--start", str(len(results)), "--shapeless",
                 str(shapeless), "--emit", args.reference, path], env, None, tmp)
            with open(path, "rb") as f:
                while True:
                    try:
                        results.append(pickle.load(f))
                    except EOFError:
                        break
            if done.returncode != 0 and len(results) < args.cases and shapeless != len(results):
                shapeless = len(results)
            elif done.returncode != 0 and len(results) < args.cases:
                results.append([("crash", ("error", "crash", "killed by a signal" if
                                           done.returncode < 0 else "hung (timed out)"))])
    return results


# --- comparing ---------------------------------------------------------------------------------


def difference(ours, theirs):
    """(kind, why) of two outcomes of one item: kind None (same), "error type" or "different"."""
    if ours[0] == "error" and theirs[0] == "error":        # ours may be a subclass of theirs
        return (None, None) if theirs[1] in ours[3] else (
            "error type", f"{ours[1]} here, {theirs[1]} in MindSpore: {theirs[2][:100]}")
    if ours[0] != theirs[0]:
        failed, which = (ours, "here") if ours[0] == "error" else (theirs, "in MindSpore")
        return "different", f"raises {failed[1]} {which} only: {failed[2][:150]}"
    if ours[1] == theirs[1]:
        return None, None
    return "different", f"{summary(ours[1])} here, {summary(theirs[1])} in MindSpore"


def summary(value):
    text = repr(value)
    return text if len(text) < 300 else text[:300] + "..."


def case_differences(ours, theirs):
    """[(kind, item, why)] of every item two cases' outcomes differ in, hard ones first. A
    side that failed when the pipeline was built stands for that error in every item; where
    the other side fails when iterating, the error only came at another step ("error
    elsewhere")."""
    if theirs[0][0] == "crash":
        return [("MindSpore crashed", "crash", theirs[0][1][2])]
    mine, reference = dict(ours), dict(theirs)
    if ("build" in mine) != ("build" in reference):
        built, failed = (reference, mine) if "build" in mine else (mine, reference)
        if all(outcome[0] == "error" for label, outcome in built.items()
               if label in ITERATIONS):
            return [("error elsewhere", "build", "fails when built " + (
                "here" if failed is mine else "in MindSpore") + ", when iterated "
                "in the other")]
        failed = {label: failed["build"] for label in built}
        mine, reference = (failed, built) if "build" in mine else (built, failed)
    found = []
    for label, outcome in mine.items():
        kind, why = difference(outcome, reference[label]) if label in reference else (
            "different", "not in MindSpore's outcomes")
        if reference.get(label) == CRASHED:
            kind, why = "MindSpore crashed", "in it (the rest compared)"
        if kind:
            found.append((kind, label, why))
    found += [("different", label, "only in MindSpore's outcomes") for label in reference
              if label not in mine]
    found.sort(key=lambda item: ("different", "error type", "error elsewhere",
                                 "MindSpore crashed").index(item[0]))
    return found


def classify(case, ours, theirs):
    """(kind, item, why) of a case: its first undocumented difference ("different"), else
    "documented" where every hard difference is, else its first soft one; (None, None, None)
    where the outcomes are the same."""
    found = case_differences(ours, theirs)
    hard = [difference for difference in found if difference[0] == "different"]
    for kind, item, why in hard:
        if not documented(case, item, ours, theirs):
            return kind, item, why
    if hard:
        return ("documented",) + hard[0][1:]
    return found[0] if found else (None, None, None)


ITERATIONS = ("tuple iterator", "dict iterator", "for loop", "tensor iterator",
              "stopped, then again")
SAMPLING = ("use_sampler", "add_sampler")
METADATA = ("get_dataset_size", "output_shapes", "output_types")


def documented(case, item, ours, theirs):
    """The README's word for a difference this case may show in ``item`` (outcomes ``ours``
    and ``theirs``), or None (see the dataset API's "Deviations from MindSpore" and the
    sources' "Differences from MindSpore")."""
    source = case["source"]
    kwargs = source["kwargs"]
    mine, reference = dict(ours), dict(theirs)
    iteration_fails = all(dict(outcomes).get(label, ("error",))[0] == "error"
                          for outcomes in (ours, theirs) for label in ITERATIONS)
    # a filter counts other rows where the source served other rows
    filtered = any(name == "filter" for name, _ in case["ops"])
    samplers = [kwargs.get("sampler", ("",))[0]] + [arguments[0] for name, arguments in
                                                    case["ops"] if name in SAMPLING]
    rules = [
        (source["kind"] in ("text", "csv") and "num_shards" in kwargs,
         "CSV/TextFile shards are round-robin (MindSpore: row ranges)"),
        (source["kind"] in ("text", "csv") and len(source["files"]) > 1 and (item not in (
            "get_dataset_size", "get_col_names") or item == "get_dataset_size" and filtered),
         "CSV/TextFile rows come in file order (MindSpore interleaves the files)"),
        ("PKSampler" in samplers,
         "PKSampler takes the first K rows of each class (MindSpore draws them at random)"),
        ((item in METADATA or item.startswith("split")) and iteration_fails,
         "sizes, shapes and types of a pipeline that fails raise its error (a split needs the "
         "size)"),
        ("There are no samples" in str(reference.get(item, reference.get("build", ""))),
         "a source with no rows is empty"),
        (source.get("form") in ("iterable", "function") and any(
            name in SAMPLING for name, _ in case["ops"]) and "__getitem__" in str(
                mine.get(item, mine.get("build", ""))),
         "use_sampler/add_sampler on a GeneratorDataset without __getitem__ is refused "
         "(MindSpore 2.10 ignores the sampler)"),
        (no_rows(mine) and (reference.get(item, ("error",))[0] == "error"
                            or item in METADATA and no_rows(theirs)),
         "a pipeline with no rows iterates as empty"),
        (any(len(indices) > source_rows(source) for indices in subset_indices(case)),
         "SubsetSampler with more indices than rows"),
        (source["kind"] == "mindrecord" and any(
            max(indices) >= source_rows(source) for indices in subset_indices(case)),
         "MindDataset's SubsetSampler index past the rows raises"),
        ("can not be divisible by the value of 'num_shards'" in str(mine.get("build")),
         "padded rows that do not divide by num_shards are refused when built"),
        # (an op after it that picks a column by its place then picks another one: other
        # names and types, as many columns)
        (any(name == "batch_map" and arguments["outputs"] == 2 for name, arguments in
             case["ops"]) and reordered(mine, reference, "get_col_names"),
         "per_batch_map's columns not given: MindSpore's hash map order"),
        ("can not pad numeric and string" in str(reference.get(item)) and any(
            name == "padded_batch" and arguments["value"] is None
            for name, arguments in case["ops"]),
         "a string column padded with None gets empty strings"),
        (any(name == "add_sampler" for name, _ in case["ops"]) and (
            "num_shards" in kwargs or samplers[0] == "DistributedSampler"),
         "add_sampler under shards"),
        (item in ("output_shapes", "output_types") and one_per_column(mine, item)
         and not one_per_column(reference, item),
         "output_shapes/output_types give one entry per column"),
        (item == "output_shapes" and first_row_shapes(mine) and not first_row_shapes(theirs),
         "output_shapes are the first row's shapes (MindSpore's may not be)"),
        ("OneHot: index values" in str(mine.get(item)) and reference.get(item, ("",))[0] == "ok",
         "OneHot refuses negative labels (MindSpore writes outside the row)"),
        ("data type of image tensor does not match" in str(reference.get(item))
         and reference.get(item, ("",))[0] == "error"
         and any(arguments.get("op") == "Resize" for name, arguments in case["ops"]
                 if name == "map_transform"),
         "Resize takes images of every number type (MindSpore refuses 64-bit and uint32)"),
        (any(name == "bucket_batch_by_length" and arguments["function"] is None
             and arguments["column"] != 0 for name, arguments in case["ops"]),
         "bucket_batch_by_length measures the named column (MindSpore: the first one)"),
        ("would duplicate the existing column" in str(mine.get("build")),
         "map outputs named like a kept column are refused"),
        (item in ITERATIONS and agree(mine) and not agree(theirs),
         "MindSpore's iterators disagree with each other"),
        (item == "get_dataset_size" and size_is_rows(mine) and
         mine.get("tuple iterator") == reference.get("tuple iterator"),
         "get_dataset_size is the rows an epoch serves (MindSpore's may differ)"),
        (item == "get_dataset_size" and any(
            name == "SequentialSampler" and arguments.get("num_samples") and
            arguments.get("start_index") for name, arguments in sequential_samplers(case)),
         "SequentialSampler's size where fewer than num_samples rows remain"),
        (source["kind"] == "mindrecord" and mine.get(item, ("ok",))[0] == "error" and any(
            arguments.get("start_index") for _, arguments in sequential_samplers(case)),
         "MindDataset's SequentialSampler with start_index past the rows raises"),
        (item == "split parts' rows together" and partitions(mine),
         "split(randomize=True): MindSpore 2.10 shuffles each part with its own unseeded "
         "RandomSampler (the parts overlap and miss rows without ds.config.set_seed)"),
    ]
    return next((reason for applies, reason in rules if applies), None)


def partitions(outcomes):
    """Whether a random split's parts held together each row of an epoch once."""
    together, rows = (dict(outcomes).get(label, ("error",)) for label in (
        "split parts' rows together", "tuple iterator"))
    return together[0] == rows[0] == "ok" and together[1] == sorted(
        repr(row) for row in rows[1][0])


def no_rows(outcomes):
    """Whether these outcomes iterated, and found no row."""
    tuples = dict(outcomes).get("tuple iterator", ("error",))
    return tuples[0] == "ok" and not any(tuples[1])


def reordered(mine, reference, item):
    """Whether both have the same column names in another order, or as many columns where an
    op that picks a column by its place picked another one (``item`` being get_col_names)."""
    ours, theirs = mine.get("get_col_names"), reference.get("get_col_names")
    return bool(ours and theirs and ours[0] == theirs[0] == "ok" and ours[1] != theirs[1]
                and (sorted(ours[1]) == sorted(theirs[1]) or item == "get_col_names"
                     and len(ours[1]) == len(theirs[1])))


def first_row_shapes(outcomes):
    """Whether output_shapes() gave the shapes of the first row served."""
    shapes, rows = (dict(outcomes).get(label, ("error",)) for label in ("output_shapes",
                                                                         "tuple iterator"))
    if not shapes[0] == rows[0] == "ok" or not rows[1] or not rows[1][0]:
        return False
    return shapes[1] == [list(value[1]) for value in rows[1][0][0]]


def agree(outcomes):
    """Whether the tuple iterator, the dict iterator and the for loop gave the same rows."""
    tuples, dicts, loop = (dict(outcomes).get(label, ("error",)) for label in ITERATIONS[:3])
    if not tuples[0] == dicts[0] == loop[0] == "ok":
        return False
    values = [epoch if isinstance(epoch, int) else [[value for _, value in row] for row in epoch]
              for epoch in dicts[1]]
    return values == tuples[1][:len(values)] and loop[1] == tuples[1][0]


def one_per_column(outcomes, item):
    """Whether ``item`` (output_shapes or output_types) has one entry per column."""
    columns, entries = (dict(outcomes).get(label, ("error",)) for label in ("get_col_names",
                                                                              item))
    return columns[0] == entries[0] == "ok" and len(columns[1]) == len(entries[1])


def size_is_rows(outcomes):
    """Whether get_dataset_size() counted the rows of an epoch of the tuple iterator."""
    size, rows = (dict(outcomes).get(label, ("error",)) for label in ("get_dataset_size",
                                                                       "tuple iterator"))
    return size[0] == rows[0] == "ok" and all(
        (epoch if isinstance(epoch, int) else len(epoch)) == size[1] for epoch in rows[1])


def source_rows(source):
    """The rows a case's source holds (before sampling)."""
    if source["kind"] == "mindrecord":
        return len(source["samples"])
    if source["kind"] == "images":
        return sum(len(files) for files in source["images"].values())
    if source["kind"] in ("text", "csv"):
        return sum(len(lines) for lines in source["files"])
    if source["kind"] in file_sources.FILE_KINDS:
        return source["rows"]
    return len(source["columns"][0])


def subset_indices(case):
    """The index lists of the SubsetSamplers (or lists) a case gives its source."""
    found = [case["source"]["kwargs"].get("sampler")] + [
        arguments for name, arguments in case["ops"] if name in SAMPLING]
    return [spec[1] if spec[0] == "list" else spec[1]["indices"] for spec in found
            if spec and spec[0] in ("list", "SubsetSampler")]


def sequential_samplers(case):
    """(name, arguments) of the samplers a case gives its source."""
    found = [case["source"]["kwargs"].get("sampler")] + [
        arguments for name, arguments in case["ops"] if name in SAMPLING]
    return [spec for spec in found if spec and spec[0] == "SequentialSampler"]


def describe(case):
    source = dict(case["source"])
    for bulky in ("columns", "samples", "images", "files", "seed"):
        source.pop(bulky, None)
    extra = (f" split {case['split']}{' randomized' if case.get('randomize') else ''}"
             if "split" in case else "")
    return f"{source} | {case['ops']} | {case['epochs']} epochs{extra}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=250)
    parser.add_argument("--mindspore-python", default="/work/msvenv/bin/python")
    parser.add_argument("--reference", default="mindspore",
                        help="the library the reference interpreter runs (minddata: a self-check)")
    parser.add_argument("--show-error-types", action="store_true",
                        help="also print the cases where both raise, with other error types")
    parser.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--shapeless", type=int, default=-1, help=argparse.SUPPRESS)
    parser.add_argument("--emit", nargs=2, metavar=("LIBRARY", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.emit:                       # the reference interpreter's part
        with open(args.emit[1], "wb") as f, open(os.devnull, "w") as quiet:
            # a case that hangs (MindSpore 2.10 loops forever in a few) ends the process
            faulthandler.dump_traceback_later(CASE_TIMEOUT_S, exit=True, file=quiet)
            for outcome in outcomes(args.emit[0], args.seed, args.cases, args.start,
                                    args.shapeless):
                pickle.dump(outcome, f)
                f.flush()
                faulthandler.dump_traceback_later(CASE_TIMEOUT_S, exit=True, file=quiet)
        return 0
    reference = reference_outcomes(args)
    ours = outcomes("minddata", args.seed, args.cases)
    counts = {}
    for number, (case, mine, theirs) in enumerate(zip(cases(args.seed, args.cases), ours,
                                                      reference)):
        kind, item, why = classify(case, mine, theirs)
        kind = kind or "same"
        counts[kind] = counts.get(kind, 0) + 1
        if kind in ("different", "MindSpore crashed") or (kind == "error type"
                                                           and args.show_error_types):
            print(f"case {number}: {describe(case)}\n    {item}: {why}")
    print(f"{args.cases} pipelines, seed {args.seed}: " + ", ".join(
        f"{counts.get(k, 0)} {k}" for k in ("same", "documented", "error type", "error elsewhere",
                                            "MindSpore crashed", "different")))
    return 1 if counts.get("different") else 0


if __name__ == "__main__":
    sys.exit(main())
