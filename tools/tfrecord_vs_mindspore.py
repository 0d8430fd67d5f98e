"""TFRecordDataset and Schema against MindSpore 2.10, on random TFRecord files.

Each case writes one to three files of ``tf.train.Example`` records (encoded here, no
TensorFlow: ``mindrecord.tools.tfrecord`` frames them, the features are encoded below so that
empty lists keep their kind and numbers come packed or not) with random features: int64_list
values near the int8 ... int64 limits and negative, float_list values with nan, inf, -0.0,
subnormals and float32's limits, bytes_list values empty, binary or UTF-8; lists of length 0, 1
or many, of one length in all records or not; a feature missing in some records; names with odd
characters. Some files are GZIP or ZLIB compressed, some damaged (a bad length checksum, a bad
data checksum, a truncated record, garbage after the records, a file of garbage). They are then
read with random arguments: ``schema`` as a ``Schema`` object, as a JSON schema file (with
``numRows``, ranks and shapes) or None (types inferred), columns of every type with shapes
that fit or not; ``columns_list``; ``num_samples``; ``num_shards``/``shard_id`` (all shards
read) with ``shard_equal_rows`` True or False; ``shuffle`` False, ``Shuffle.FILES`` or the
default; ``compression_type`` matching the files or not; ``num_parallel_workers``; the files
named by a glob pattern.

The cases are drawn here and handed to MindSpore's interpreter (``--mindspore-python``) in a
file; each side writes the case's bytes to its own folder and records: the column names,
``output_types``, ``output_shapes`` (where the first row is the first record), each shard's
``get_dataset_size()`` and every row (dtype, shape and values exactly), or the error. Rows
are compared in order where both read in file order (no shuffle, no shards, one file or one
worker), else sorted (several files: MindSpore's readers interleave them; shuffled; all
shards together), or only counted where ``num_samples`` or ``numRows`` keeps a subset that
depends on that order, and then every row of the files is compared too ("whole"). Counted
apart: differences the README documents (``documented()``), errors of other types ("error
type"), metadata that differ where iterating raises on both sides ("error elsewhere"), and
cases that kill or hang MindSpore's interpreter ("MindSpore crashed": it runs with its address
space capped, as a garbage record length makes MindSpore 2.10 allocate what it announces).

    .venv/bin/python tools/tfrecord_vs_mindspore.py [--seed 1] [--cases 150]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]
        [--show-documented] [--case N ...]

Prints each undocumented difference and a count per outcome; exits 1 if there is one. The
MindSpore interpreter runs this file alone (numpy only: it never imports this package).
"""
import gzip
import importlib
import json
import os
import pickle
import random
import resource
import struct
import sys
import tempfile
import warnings
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import pipelines_vs_mindspore as pipelines                          # noqa: E402
import text_sources_vs_mindspore as text_sources                    # noqa: E402

CASE_TIMEOUT_S = 30         # a case of the reference interpreter that runs longer hangs
# MindSpore 2.10 allocates what a damaged record's length announces: 22 GiB measured for a
# file with 5 bytes of garbage after its records, before the kernel's OOM killer ended it
REFERENCE_MEMORY = 6 << 30

# --- values and records --------------------------------------------------------------------------

INTS = [0, 1, -1, 7, 127, 128, -128, -129, 255, 256, 300, 32767, 32768, -32769, 65535, 65536,
        2 ** 31 - 1, 2 ** 31, -2 ** 31, -2 ** 31 - 1, 2 ** 32 - 1, 2 ** 32, 2 ** 63 - 1, -2 ** 63,
        123456789012]
FLOAT_BITS = [0x00000000, 0x80000000, 0x3FC00000, 0xC0200000, 0x7FC00000, 0x7F800000,
              0xFF800000, 0x00000001, 0x807FFFFF, 0x7F7FFFFF, 0x00800000, 0x3DCCCCCD,
              0x47800000]     # 0, -0, 1.5, -2.5, nan, inf, -inf, subnormals, max, min normal ...
BYTES = [b"", b"a", b"abc", b"\x00", b"\x00\xff\x80", "d\u00e9j\u00e0".encode(),
         "\u65e5\u672c".encode(), b"\xff\xfe", b"x" * 17, b"12", b"\xc3("]
NAMES = ["label", "image", "score", "text", "id", "a b", "d\u00e9j\u00e0", "x/y", "col.1",
         "A", "_", "n-1", "\u65e5"]
KINDS = ("int64", "float", "bytes")


def codecs():
    """This package's protobuf varints and TFRecord framing (the cases are drawn here only:
    MindSpore's interpreter gets them in a file)."""
    from mindrecord import protowire
    from mindrecord.tools import tfrecord
    return protowire.encode_varint, tfrecord.frame_record


def varint(value):
    return codecs()[0](value)


def field(number, payload):
    """A length-delimited protobuf field."""
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def feature_bytes(kind, values, packed):
    """A serialized tf.train.Feature; numbers packed (as TensorFlow writes them) or not."""
    if kind == "bytes":
        return field(1, b"".join(field(1, v) for v in values))
    if kind == "float":
        data = [struct.pack("<I", bits) for bits in values]
        body = field(1, b"".join(data)) if packed else b"".join(b"\x0d" + d for d in data)
        return field(2, body if values else b"")
    data = [varint(v) for v in values]
    body = field(1, b"".join(data)) if packed else b"".join(b"\x08" + d for d in data)
    return field(3, body if values else b"")


def example_bytes(features, packed):
    """A serialized tf.train.Example of ``{name: (kind, values)}``."""
    entries = b"".join(field(1, field(1, name.encode()) + field(2, feature_bytes(
        kind, values, packed))) for name, (kind, values) in features.items())
    return field(1, entries)


def frame(data):
    return codecs()[1](data)


# --- random cases --------------------------------------------------------------------------------


def draw_feature(r, name):
    kind = r.choice(KINDS)
    lengths = r.choice([(1, 1), (1, 1), (3, 3), (0, 0), (0, 3), (1, 4), (6, 6)])
    pool = {"int64": INTS, "float": FLOAT_BITS, "bytes": BYTES}[kind]
    common = r.sample(pool, 3)           # most values from a few, some from all

    def values():
        return [r.choice(common if r.random() < 0.7 else pool)
                for _ in range(r.randint(*lengths))]
    return {"name": name, "kind": kind, "values": values,
            "missing": r.random() < 0.15}


def draw_records(r, features):
    rows = []
    for _ in range(r.randint(0, 5) if r.random() < 0.1 else r.randint(1, 5)):
        row = {}
        for spec in features:
            if not (spec["missing"] and r.random() < 0.4):
                row[spec["name"]] = (spec["kind"], spec["values"]())
        items = list(row.items())
        r.shuffle(items)
        rows.append(dict(items))
    return rows


def damage(r, records):
    """The bytes of framed ``records``, damaged one way, and how."""
    framed = [frame(data) for data in records]
    how = r.choice(["length crc", "data crc", "truncated", "garbage after", "garbage"])
    if how == "garbage" or not framed:
        return bytes(r.randrange(256) for _ in range(r.randint(1, 40))), "garbage"
    k = r.randrange(len(framed))
    record = bytearray(framed[k])
    if how == "length crc":
        record[8] ^= 0x01
    elif how == "data crc":
        record[-1] ^= 0x01
    elif how == "truncated":
        framed = framed[:k + 1]
        record = record[:r.randrange(1, len(record))]
    else:
        framed.append(bytes(r.randrange(256) for _ in range(r.randint(1, 20))))
    framed[k] = bytes(record)
    return b"".join(framed), how


def compress(data, kind):
    if kind == "GZIP":
        return gzip.compress(data, mtime=0)
    return zlib.compress(data) if kind == "ZLIB" else data


# the types a feature's kind reads as, then the ones it does not (MindSpore raises)
SCHEMA_TYPES = {"int64": (["int64", "int32", "uint8", "int8", "uint64", "int16", "uint32"],
                          ["float32", "string"]),
                "float": (["float32"], ["float64", "float16", "int64"]),
                "bytes": (["uint8", "string", "int8"], ["bytes", "int32", "float32"])}


def draw_type(r, kind, heat):
    fits, others = SCHEMA_TYPES[kind]
    if r.random() < 0.25 * heat:
        return r.choice(others)
    return fits[0] if r.random() < 0.5 else r.choice(fits)


def draw_shape(r, spec, records, heat):
    """None, [] or a shape, most often one that fits the feature's lengths."""
    lengths = sorted({len(row[spec["name"]][1]) for row in records if spec["name"] in row})
    n = lengths[0] if lengths else 1
    roll = r.random()
    if roll < 0.4:
        return None
    if roll < 0.5:
        return [] if n == 1 or r.random() < heat else None
    if roll < 0.7:
        return [n] if len(lengths) == 1 or r.random() < heat else [-1]
    if roll < 0.8:
        return [-1]
    if r.random() < heat:
        return r.choice([[n + 1], [-1, r.choice([1, 2, 3, 4])], [r.choice([1, 2]), -1], [0],
                         [2, 2], [-1, -1]])
    return [1, n] if len(lengths) == 1 else [1, -1]


def draw_schema(r, features, records, heat):
    """("object", columns, numRows) or ("file", json), columns [name, type, shape]; or None."""
    if r.random() < 0.35:
        return None
    chosen = r.sample(features, r.randint(1, len(features)))
    columns = [[spec["name"], draw_type(r, spec["kind"], heat),
                draw_shape(r, spec, records, heat)] for spec in chosen]
    if r.random() < 0.06 * heat:
        columns.append(["absent", "int64", None])
    num_rows = r.choice([None, None, None, 0, 1, 2, 4, 20])
    if r.random() < 0.5:
        return ("object", columns, num_rows)
    entries = {}
    for name, type_name, shape in columns:
        entry = {"type": type_name, "rank": len(shape) if shape is not None else
                 r.choice([0, 1, 1])}
        if shape is not None:
            entry["shape"] = shape
        entries[name] = entry
    schema = {"datasetType": "TF", "columns": entries}
    if num_rows is not None:
        schema["numRows"] = num_rows
    return ("file", schema)


def random_case(r):
    names = r.sample(NAMES, r.randint(1, 4))
    features = [draw_feature(r, name) for name in names]
    heat = r.choice([0.03, 0.1, 0.3, 1.0])       # how hostile the case is
    compression = r.choice(["", "", "", "GZIP", "ZLIB"])
    files, damaged, packed = [], None, r.random() < 0.8
    count = r.randint(1, 3)
    broken = r.randrange(count) if r.random() < 0.4 * heat else -1
    all_records, no_records = [], []
    for i in range(count):
        records = draw_records(r, features)
        all_records += records
        no_records.append(not records)
        encoded = [example_bytes(row, packed) for row in records]
        if i == broken:
            data, damaged = damage(r, encoded)
        else:
            data = b"".join(frame(e) for e in encoded)
        files.append(("part%d.tfrecord" % i, compress(data, compression)))
    kwargs = {}
    schema = draw_schema(r, features, all_records, heat)
    if schema:
        kwargs["schema"] = schema
    names_known = [c[0] for c in schema[1]] if schema and schema[0] == "object" else \
        sorted(schema[1]["columns"]) if schema else names
    if r.random() < 0.3:
        picked = r.sample(names_known, r.randint(1, len(names_known)))
        if r.random() < 0.2 * heat:
            picked.append(r.choice(["absent", names[0] + "x"]))
        kwargs["columns_list"] = picked
    if r.random() < 0.3:
        kwargs["num_samples"] = r.choice([1, 2, 3, 5, 50])
    kwargs["compression_type"] = compression if r.random() > 0.3 * heat else r.choice(
        ["", "GZIP", "ZLIB", None])
    if kwargs["compression_type"] is None and compression == "" and r.random() < 0.5:
        del kwargs["compression_type"]
    empty_bytes = any(kind == "bytes" and b"" in values for row in all_records
                      for kind, values in row.values())
    case = {"files": files, "kwargs": kwargs, "damaged": damaged, "packed": packed,
            "compressed": compression, "empty bytes": empty_bytes, "no records": no_records}
    roll = r.random()
    if roll < 0.5:
        kwargs["shuffle"] = False
    elif roll < 0.65:
        kwargs["shuffle"] = "FILES"
    elif roll < 0.75:
        pass                                 # Shuffle.GLOBAL
    else:
        case["shards"] = r.choice([2, 3])
        kwargs["shard_equal_rows"] = r.random() < 0.5
        kwargs["shuffle"] = r.choice([False, False, "FILES"])
    if r.random() < 0.2:
        kwargs["num_parallel_workers"] = r.choice([1, 2])
    case["glob"] = r.random() < 0.1          # the files named by a pattern
    return case


def cases(seed, count):
    r = random.Random(seed)
    return [random_case(r) for _ in range(count)]


def order(case):
    """"as read", "sorted" or "counted" (see the module docstring)."""
    kwargs = case["kwargs"]
    capped = kwargs.get("num_samples") or num_rows(case)
    if kwargs.get("shuffle", True) is False and "shards" not in case and (
            len(case["files"]) == 1 or (kwargs.get("num_parallel_workers") == 1 and
                                        not capped)):
        return "as read"      # MindSpore's one reader reads the files one after the other
    return "counted" if capped else "sorted"


def num_rows(case):
    schema = case["kwargs"].get("schema")
    if not schema:
        return None
    return schema[2] if schema[0] == "object" else schema[1].get("numRows")


# --- running a case in one library ---------------------------------------------------------------


def make_schema(ds, spec, directory):
    if spec[0] == "file":
        path = os.path.join(directory, "schema.json")
        with open(path, "w") as f:
            json.dump(spec[1], f)
        return path
    schema = ds.Schema()
    if spec[2] is not None:         # numRows: only from_json sets it
        schema.from_json({"numRows": spec[2], "columns": [
            dict({"name": name, "type": type_name}, **({} if shape is None else {
                "shape": shape})) for name, type_name, shape in spec[1]]})
        return schema
    for name, type_name, shape in spec[1]:
        schema.add_column(name, type_name, shape)
    return schema


def source_kwargs(ds, case, directory):
    kwargs = dict(case["kwargs"])
    if "schema" in kwargs:
        kwargs["schema"] = make_schema(ds, kwargs["schema"], directory)
    if kwargs.get("shuffle") == "FILES":
        kwargs["shuffle"] = ds.Shuffle.FILES
    return kwargs


def run_case(ds, case, directory):
    """[(item, outcome)]: "build", or the metadata, each shard's "get_dataset_size" and "rows"
    (all shards' together); "whole" (every row, in order) under num_samples or numRows."""
    paths = []
    for name, data in case["files"]:
        paths.append(os.path.join(directory, name))
        with open(paths[-1], "wb") as f:
            f.write(data)
    if case.get("glob"):
        paths = os.path.join(directory, "*.tfrecord")
    shards = case.get("shards")
    built = pipelines.attempt(lambda: [ds.TFRecordDataset(
        paths, **source_kwargs(ds, case, directory),
        **({"num_shards": shards, "shard_id": i} if shards else {}))
        for i in range(shards or 1)])
    convert = lambda row: [pipelines.plain(v) for v in row]      # noqa: E731
    rows_order = order(case)
    whole_rows = []
    if rows_order == "counted":      # every row of the files (in order where one file)
        def whole():
            kwargs = source_kwargs(ds, case, directory)
            kwargs.pop("num_samples", None)
            if "schema" in kwargs:
                kwargs["schema"] = make_schema(ds, unlimited(case["kwargs"]["schema"]),
                                               directory)
            kwargs["shuffle"] = False
            kwargs.pop("shard_equal_rows", None)
            return pipelines.in_order([convert(row) for row in ds.TFRecordDataset(
                paths, **kwargs).create_tuple_iterator(num_epochs=1, output_numpy=True)],
                "as read" if len(case["files"]) == 1 else "sorted")
        whole_rows = [("whole", pipelines.attempt(whole))]
    if built[0] == "error":
        return [("build", built)] + whole_rows
    datasets = built[1]

    def rows():
        found = []
        for data in datasets:
            found += [convert(row) for row in data.create_tuple_iterator(num_epochs=1,
                                                                         output_numpy=True)]
        return pipelines.in_order(found, rows_order)
    found = [("get_col_names", pipelines.attempt(lambda: list(datasets[0].get_col_names()))),
             ("output_types", pipelines.attempt(
                 lambda: [np.dtype(t).str for t in datasets[0].output_types()]))]
    if rows_order == "as read":
        found.append(("output_shapes", pipelines.attempt(
            lambda: [list(s) for s in datasets[0].output_shapes()])))
    found += [("get_dataset_size", pipelines.attempt(
        lambda: [data.get_dataset_size() for data in datasets])),
        ("rows", pipelines.attempt(rows))]
    return found + whole_rows


def unlimited(spec):
    """A schema spec without its numRows."""
    if spec[0] == "object":
        return ("object", spec[1], None)
    return ("file", {k: v for k, v in spec[1].items() if k != "numRows"})


def library(name):
    return importlib.import_module("mindspore.dataset" if name == "mindspore" else "minddata")


def outcomes(library_name, all_cases, start=0):
    """Each case's outcomes from case ``start`` on (a generator: a crash loses no case before
    it)."""
    warnings.simplefilter("ignore")
    ds = library(library_name)
    for case in all_cases[start:]:
        with tempfile.TemporaryDirectory() as directory:
            yield run_case(ds, case, directory)


CRASH = differential_reference.CRASH


def limit_memory():
    """Caps the reference interpreter's address space (an allocation past it fails there:
    std::bad_alloc in MindSpore, a RuntimeError)."""
    resource.setrlimit(resource.RLIMIT_AS, (REFERENCE_MEMORY, REFERENCE_MEMORY))


def reference_outcomes(args, all_cases):
    """The reference interpreter's outcomes of ``all_cases``, handed over in a file
    (differential_reference.reference_outcomes), its address space capped."""
    with tempfile.TemporaryDirectory() as tmp:
        cases_path = os.path.join(tmp, "cases.pkl")
        with open(cases_path, "wb") as f:
            pickle.dump(all_cases, f)
        return differential_reference.reference_outcomes(
            __file__, args, len(all_cases),
            lambda path: ["--emit", args.reference, cases_path, path], preexec_fn=limit_memory)


def emit(library_name, cases_path, out_path, start):
    """The reference interpreter's part: the outcomes of the cases in ``cases_path``, each
    pickled to ``out_path`` as it is done (a case that runs past CASE_TIMEOUT_S ends it)."""
    with open(cases_path, "rb") as f:
        all_cases = pickle.load(f)
    differential_reference.emit_outcomes(outcomes(library_name, all_cases, start), out_path,
                                         CASE_TIMEOUT_S)


def case_differences(ours, theirs):
    """text_sources.case_differences, with the item "whole" compared even where one side
    fails when built, and output_types/output_shapes (which read the first row) that differ
    where iterating raises on both sides counted as "error elsewhere"."""
    mine, reference = dict(ours), dict(theirs)
    both_fail = mine.get("rows", mine.get("build", ("",)))[0] == "error" and reference.get(
        "rows", reference.get("build", ("",)))[0] == "error"
    found = []
    for kind, item, why in text_sources.case_differences(ours, theirs):
        if kind == "different" and item in ("output_types", "output_shapes") and both_fail:
            kind = "error elsewhere"
        found.append((kind, item, why))
    if "whole" in mine and "whole" in reference and ("build" in mine or "build" in reference):
        found = [f for f in found if f[1] != "whole"]
        kind, why = pipelines.difference(mine["whole"], reference["whole"])
        if kind:
            found.append((kind, "whole", why))
    found.sort(key=lambda item: ("different", "error type", "error elsewhere",
                                 "MindSpore crashed").index(item[0]))
    return found


def classify(case, ours, theirs):
    """(kind, item, why): the first undocumented hard difference ("different"), else
    "documented" where every hard one is, else the first soft one; (None, None, None) if
    the same."""
    return differential_reference.first_undocumented(case, ours, theirs,
                                                     case_differences(ours, theirs), documented)


def documented(case, item, ours, theirs):
    """The README's word for a difference in ``item`` (its "Differences from MindSpore" under
    "Reading TFRecord files"), or None."""
    mine, reference = dict(ours), dict(theirs)
    here = mine.get(item, mine.get("build", ("",)))
    there = reference.get(item, reference.get("build", ("",)))
    ours_error = here[2] if here[0] == "error" else ""
    theirs_error = there[2] if there[0] == "error" else ""
    whole_fails = mine.get("whole", ("",))[0] == reference.get("whole", ("",))[0] == "error"
    names_there = reference.get("get_col_names", ("",))
    no_columns_there = names_there[0] == "error" and (
        "column_name_id map can not be empty" in names_there[2] or
        "failed to find column name" in names_there[2] or
        "should have one column at least" in names_there[2])
    rules = [
        (case["damaged"] and ("Invalid TFRecord file" in ours_error or
                              "not valid TFRecordDataset files" in ours_error),
         "TFRecord: a bad length or data checksum, a truncated record or garbage after the "
         "records raise (MindSpore 2.10 checks neither checksum, serves a truncated record as "
         "a row of other values, and allocates what a garbage length announces)"),
        ("Invalid column type" in ours_error and there[0] == "ok",
         "TFRecord: an int64_list is read only as an integer type, a float_list only as "
         "float32 (MindSpore 2.10 converts either to any number type, and with shape [] reads "
         "the value's raw bits or memory it never wrote)"),
        (case["kwargs"].get("compression_type") and (
            case["kwargs"].get("num_samples") or num_rows(case)) and any(
                "minimum rows per shard requirement" in outcome[2] for outcome in
                reference.values() if outcome[0] == "error"),
         "TFRecord: compressed files with num_samples or numRows: the cap applies as for plain "
         "files (MindSpore 2.10 raises unless every file holds enough rows)"),
        (any(data == b"" for _, data in case["files"]) and
         "not valid TFRecordDataset files" in theirs_error,
         "TFRecord: an empty file is a valid file with no rows"),
        ("more than one unknown (-1) dimension" in ours_error,
         "TFRecord: a schema shape with more than one -1 is refused when the schema is read "
         "(MindSpore 2.10 takes it, then fails or serves no rows)"),
        (item != "whole" and order(case) == "counted" and (
            whole_fails or (case["kwargs"].get("shuffle") is not False and
                            " record " in ours_error + theirs_error + "data file")) and
         (here[0] == "error") != (there[0] == "error"),
         "TFRecord: the rows a cap keeps from shuffled files differ (each side's shuffle); a "
         "bad row raises where it is kept"),
        ((case["kwargs"].get("compression_type") or "") != case["compressed"] and (
            "not valid" in ours_error or "cannot decompress" in ours_error),
         "TFRecord: files compressed otherwise than compression_type says raise (MindSpore "
         "2.10 reads plain files given 'GZIP')"),
        ("Unable to fetch a single row for shuffle buffer" in theirs_error and here[0] == "ok",
         "TFRecord: MindSpore 2.10 fails on compressed files with num_samples and "
         "Shuffle.GLOBAL ('[Internal ERROR] Unable to fetch a single row for shuffle "
         "buffer')"),
        (case["compressed"] and case["kwargs"].get("compression_type") and (
            case["kwargs"].get("num_samples") or num_rows(case)) and len(case["files"]) > 1 and
         ((item in ("rows", "get_dataset_size") and here[0] == "ok") or (
             item in ("rows", "output_types", "output_shapes") and
             serves_nothing(reference)) or (
                 item in ("output_types", "output_shapes") and
                 mine.get("rows", ("",))[0] == reference.get("rows", ("",))[0] == "ok")),
         "TFRecord: compressed files with num_samples or numRows: the first rows in file "
         "order (MindSpore 2.10 takes an equal share of each file, fewer where one holds "
         "fewer, or none; its first row is another)"),
        (case["empty bytes"] and here[0] == "ok" and (
            "memcpy_s failed" in theirs_error or "Failed to copy string" in theirs_error or (
                item == "output_shapes" and any(
                    "memcpy_s failed" in outcome[2] or "Failed to copy string" in outcome[2]
                    for outcome in reference.values() if outcome[0] == "error"))),
         "TFRecord: an empty bytes value read as uint8 is an empty array (MindSpore 2.10 "
         "raises 'memcpy_s failed' / 'Failed to copy string into Tensor'; its first row's "
         "shape, from values padded with spaces, is another)"),
        (any(case["no records"]) and "schema" not in case["kwargs"] and (
            "hold no records" in ours_error or here[0] == "ok") and no_columns_there,
         "TFRecord: without a schema the columns come from the first record of the first file "
         "that has one; files with no records raise (MindSpore 2.10 looks at the first file "
         "only: get_col_names raises where it has no records, and the epoch has no rows, or "
         "columns_list is 'failed to find')"),
        ("holds no features" in ours_error,
         "TFRecord: a first record without features (so no columns) raises when iterated too "
         "(MindSpore 2.10 serves an epoch of no rows)"),
        (item == "rows" and "shards" in case and not case["kwargs"]["shard_equal_rows"] and
         case["kwargs"].get("shuffle") == "FILES" and order(case) == "counted",
         "TFRecord: shards by file keep the files k, k+N, ... under Shuffle.FILES (MindSpore "
         "2.10 shuffles the file list before splitting it: other files, so other row counts "
         "under a cap)"),
        (case.get("glob") and "the actual number of files is 1 " in theirs_error and
         here[0] == "ok",
         "TFRecord: files named by a glob pattern are counted after it is expanded (MindSpore "
         "2.10's check of compression_type against num_shards counts the pattern as one "
         "file)"),
        (item in ("output_types", "output_shapes") and there[0] == "error" and
         mine.get("rows", ("",))[0] == reference.get("rows", ("",))[0] == "ok",
         "TFRecord: MindSpore 2.10's output_types can raise where its rows are served "
         "(measured: naming a column its schema does not have)"),
        (item == "output_types" and order(case) != "as read" and
         (here[0] == "error") != (there[0] == "error") and
         mine.get("rows") == reference.get("rows"),
         "TFRecord: output_types reads the first row, another one on each side after a "
         "shuffle"),
        (item in ("rows", "whole", "output_shapes") and bytes_layout_only(
            mine, reference, "whole" if item == "whole" else "rows"),
         "TFRecord: several bytes values read as uint8 are laid end to end, then shaped by "
         "the schema (MindSpore 2.10 pads them with spaces to the longest without a schema, "
         "and gives a [1, -1] column a 1-D array)"),
        (item == "rows" and "shards" in case and case["kwargs"]["shard_equal_rows"] and
         order(case) == "counted" and (here[0] == "error") != (there[0] == "error"),
         "TFRecord: shard_equal_rows=True gives shard k the rows k, k+N, ... (MindSpore: a "
         "contiguous block); under a cap a bad row raises on the side that reads it"),
        (item == "rows" and text_sources.same_rows_other_shards(
            case, loosely(mine.get(item)), loosely(reference.get(item))),
         "TFRecord: shard_equal_rows=True gives shard k the rows k, k+N, ... (MindSpore: a "
         "contiguous block); the same rows in all"),
    ]
    return next((reason for applies, reason in rules if applies), None)


def serves_nothing(outcomes):
    """Whether a side's rows are an empty epoch and its output_types no columns."""
    outcomes = dict(outcomes)
    return outcomes.get("rows") in (("ok", 0), ("ok", [])) and \
        outcomes.get("output_types", ("ok", []))[1] == []


def bytes_layout_only(mine, reference, label):
    """Whether ``label`` (rows, or all rows) is the same on both sides but for the layout of
    bytes values read as uint8."""
    return label in mine and label in reference and \
        mine[label][0] == reference[label][0] == "ok" and same_but_bytes_layout(
            mine[label][1], reference[label][1])


def loosely(outcome):
    """An outcome with the bytes values of its uint8 columns as same_but_bytes_layout compares
    them."""
    if not outcome or outcome[0] != "ok" or isinstance(outcome[1], int):
        return outcome
    return ("ok", [[(v[0], (), v[2].replace(b"\x00", b"").replace(b" ", b"")) if
                    v[0] == "|u1" else v for v in row] for row in outcome[1]])


def same_but_bytes_layout(ours, theirs):
    """Whether two row lists are the same but for how uint8 columns lay out several bytes
    values: compared without their zero and space bytes, and without their shapes."""
    if isinstance(ours, int) or isinstance(theirs, int):
        return ours == theirs
    if len(ours) != len(theirs):
        return False

    return sorted(map(repr, loosely(("ok", ours))[1])) == sorted(
        map(repr, loosely(("ok", theirs))[1]))


def describe(case, limit=120):
    files = ", ".join(f"{name}={data[:limit]!r}" for name, data in case["files"])
    extra = f" shards={case['shards']}" if "shards" in case else ""
    extra += f" damaged={case['damaged']}" if case["damaged"] else ""
    extra += " (glob)" if case.get("glob") else ""
    return f"TFRecordDataset({case['kwargs']}){extra} over {files}"


def main():
    args = differential_reference.command_line(__doc__.split("\n\n")[0], 150,
                                               ("LIBRARY", "CASES", "FILE"))
    if args.emit:
        emit(args.emit[0], args.emit[1], args.emit[2], args.start)
        return 0
    all_cases = cases(args.seed, args.cases)
    return differential_reference.print_report(
        args, all_cases, outcomes("minddata", all_cases), reference_outcomes(args, all_cases),
        classify, describe)


if __name__ == "__main__":
    sys.exit(main())
