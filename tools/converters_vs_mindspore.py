"""The MindRecord converters against MindSpore 2.10's ``mindspore.mindrecord`` converters, on
tiny random inputs in each dataset's own layout.

Each case draws one converter MindSpore 2.10 has and can run without TensorFlow
(``Cifar10ToMR``, ``Cifar100ToMR``, ``MnistToMR``, ``ImageNetToMR``, ``CsvToMR``: the last needs
pandas in MindSpore's interpreter) and its input: CIFAR python batch pickles of 1 to 5 images
(1 to 3 training batches, sometimes of different sizes; a wrong key, a wrong shape, labels out
of range or fewer than the images, a missing or garbage file, a ``batches.meta``), MNIST idx
files (gzip, sometimes plain; a wrong magic number, a count or image size that disagrees with
the data, a cut file, more labels than images, a label past 9, a missing file), an ImageNet
map file and folders of small JPEGs (missing, empty and unicode-named folders, files that are
not images, empty files, other suffixes, map lines with extra spaces, tabs, blank lines, CRLF,
a label twice, a label that is not an int), or a CSV file (ints, floats, bools, words, empty
cells, quoted commas and quotes, a header starting with a digit, a line with too few or too
many fields, only a header, a cell pandas and pyarrow may read otherwise among numbers: NA
words, inf, ``+5``, hex, past int64), with random arguments: the destination (its folder missing, a
forbidden character, an output file already there), ``partition_number`` 1 to 4 or invalid
(0, True, "2", None), ``columns_list`` (a subset, a missing column, an empty list, not a
list), the CIFAR ``transform(fields)`` (valid and invalid index fields, not a list).

The cases are drawn here and handed to MindSpore's interpreter (``--mindspore-python``) in a
file; each side writes the case's bytes to its own folder (the same relative paths: rows that
hold a path hold the same one) and converts them. Compared: the constructor and ``transform``
(raised or not, the error's type), which files exist afterwards, then every MindRecord file
read alone (``FileReader([file])``: its shard's rows) by this package's reader and by
MindSpore's: the schema, ``len()``, ``MindPage.candidate_fields`` (the index fields) and every
row in order (bytes exactly: both libraries' OpenCV encode JPEG alike, measured byte-identical);
and where one file holds every row in input order, the data files' bytes (MD5).
Each reader reads both libraries' files, and both readers read each file. Rows are compared
without their order (and CIFAR ids) where the input order is the directory's (several CIFAR
training batches, several images in a folder): MindSpore takes files in directory order, this
package in sorted order (documented). Counted apart: differences the README documents
("documented"), errors of other types ("error type"), an error raised in the constructor on one
side and in ``transform`` on the other ("error elsewhere") and cases that kill or hang
MindSpore's interpreter ("MindSpore crashed").

    .venv/bin/python tools/converters_vs_mindspore.py [--seed 1] [--cases 200]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]
        [--show-documented] [--case N ...]

Prints each undocumented difference and a count per outcome; exits 1 if there is one. The
MindSpore interpreter runs this file alone (numpy only: it never imports this package).
"""
import gzip
import hashlib
import importlib
import os
import pickle
import random
import shutil
import struct
import sys
import tempfile
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import pipelines_vs_mindspore as pipelines                          # noqa: E402

CASE_TIMEOUT_S = 60         # a case of the reference interpreter that runs longer hangs
CONVERTERS = ("cifar10", "cifar100", "mnist", "imagenet", "csv")
WRITERS = ("minddata", "mindspore")
CRASH = differential_reference.CRASH
FOLDERS = ["n01", "n02", "n03", "\u00f1and\u00fa", "\u65e5\u672c", "a b"]
WORDS = ["x", "hello", "d\u00e9j\u00e0", "\u65e5\u672c", "a,b", 'say "hi"', "two words", "-",
         "nan", "True", "1.5e3", " 7", "0x10"]


# --- drawing the inputs --------------------------------------------------------------------------


def pixels(r, shape):
    return np.array([r.randrange(256) for _ in range(int(np.prod(shape)))],
                    np.uint8).reshape(shape)


def cifar_pickle(batch):
    """A batch dict pickled as CIFAR's files are (numpy arrays named by ``numpy.core``, which
    MindSpore's restricted unpickler accepts; numpy 2 names ``numpy._core``)."""
    data = pickle.dumps(batch, protocol=3)       # GLOBAL opcodes: plain text names
    return data.replace(b"cnumpy._core.multiarray\n", b"cnumpy.core.multiarray\n")


def cifar_case(r, hundred):
    """(files, perturbation): CIFAR-10 (data_batch_*, test_batch) or CIFAR-100 (train, test)."""
    keys = ["fine_labels", "coarse_labels"] if hundred else ["labels"]
    classes = {"labels": 10, "fine_labels": 100, "coarse_labels": 20}
    perturb = r.choice([None] * 6 + ["wrong key", "wrong shape", "label out of range",
                                     "fewer labels", "missing test", "missing train",
                                     "garbage file", "unequal batches", "meta", "extra file",
                                     "int64 data", "labels array"])
    names = ["train"] if hundred else [f"data_batch_{i}" for i in
                                      range(1, r.choice([1, 1, 2, 3]) + 1)]
    size = r.randint(1, 5)
    files = {}
    for name in names + ["test"] if hundred else names + ["test_batch"]:
        count = size if perturb != "unequal batches" or name == names[0] else r.randint(1, 5)
        batch = {b"data": pixels(r, (count, 3072))}
        for key in keys:
            batch[key.encode()] = [r.randrange(classes[key]) for _ in range(count)]
        files[name] = batch
    target = r.choice(sorted(files))
    batch = files[target]
    if perturb == "wrong key":
        batch[b"label" if not hundred else r.choice([b"fine", b"coarse_label"])] = \
            batch.pop(r.choice([k.encode() for k in keys]))
    elif perturb == "wrong shape":
        batch[b"data"] = batch[b"data"][:, :r.choice([3000, 1024, 3071])]
    elif perturb == "label out of range":
        key = r.choice(keys).encode()
        batch[key][r.randrange(len(batch[key]))] = r.choice([-1, classes[key.decode()], 255])
    elif perturb == "fewer labels":
        key = r.choice(keys).encode()
        batch[key] = batch[key][:-1] if len(batch[key]) > 1 else batch[key] + [0]
    elif perturb == "int64 data":
        batch[b"data"] = batch[b"data"].astype(np.int64)
    elif perturb == "labels array":
        for key in keys:
            batch[key.encode()] = np.array(batch[key.encode()], r.choice([np.int64, np.uint8]))
    out = {f"in/src/{name}": cifar_pickle(batch) for name, batch in files.items()}
    if perturb == "missing test":
        del out["in/src/test" if hundred else "in/src/test_batch"]
    elif perturb == "missing train":
        for name in names:
            del out[f"in/src/{name}"]
    elif perturb == "garbage file":
        out[f"in/src/{target}"] = r.choice([b"", b"not a pickle", b"\x80\x03K\x01."])
    elif perturb == "meta":
        meta = {key: [b"c%d" % i for i in range(r.choice([5, count, count]))] for key, count in
                ([(b"label_names", 10)] if not hundred else
                 [(b"fine_label_names", 100), (b"coarse_label_names", 20)])}
        out["in/src/batches.meta" if not hundred else "in/src/meta"] = cifar_pickle(meta)
    elif perturb == "extra file":
        out[r.choice(["in/src/readme.html", "in/src/data_batch_1.bak"])] = b"x"
    return out, perturb


def idx_file(magic, dims, data):
    return struct.pack(">I", magic) + b"".join(struct.pack(">I", d) for d in dims) + data


def mnist_case(r):
    perturb = r.choice([None] * 6 + ["wrong magic", "count disagrees", "cut file",
                                     "more labels", "label past 9", "plain files",
                                     "missing file", "not gzip", "image size", "empty"])
    out = {}
    split = r.choice(["train", "t10k"])
    for part in ("train", "t10k"):
        count = 0 if perturb == "empty" and part == split else r.randint(1, 5)
        images = pixels(r, (count, 28, 28)).tobytes()
        labels = bytes(r.randrange(10) for _ in range(count))
        image_dims, label_dims = [count, 28, 28], [count]
        image_magic, label_magic = 2051, 2049
        if part == split:
            if perturb == "wrong magic":
                if r.random() < 0.5:
                    image_magic = r.choice([2049, 0, 2052])
                else:
                    label_magic = r.choice([2051, 0])
            elif perturb == "count disagrees":
                if r.random() < 0.5:
                    image_dims[0] += r.choice([-1, 1])
                else:
                    label_dims[0] += r.choice([-1, 1])
            elif perturb == "cut file":
                images = images[:-r.choice([1, 100, 784])]
            elif perturb == "more labels":
                labels += bytes([1])
                label_dims[0] += 1
            elif perturb == "label past 9" and count:
                labels = labels[:-1] + bytes([r.choice([10, 255])])
            elif perturb == "image size":
                image_dims[1:] = r.choice([[14, 56], [27, 28], [4, 4]])
        for kind, magic, dims, data in (("images-idx3", image_magic, image_dims, images),
                                        ("labels-idx1", label_magic, label_dims, labels)):
            name = f"in/src/{part}-{kind}-ubyte"
            content = idx_file(magic, dims, data)
            if perturb == "plain files" and part == split:
                out[name] = content
            else:
                out[name + ".gz"] = gzip.compress(content, mtime=0)
    if perturb == "missing file":
        del out[r.choice(sorted(out))]
    elif perturb == "not gzip":
        name = r.choice(sorted(out))
        out[name] = r.choice([b"", b"plain bytes, not gzip"])
    return out, perturb


def jpeg(r):
    import cv2     # only where cases are drawn
    shape = (r.randint(1, 6), r.randint(1, 6), 3)
    return cv2.imencode(".jpg", pixels(r, shape))[1].tobytes()


def imagenet_case(r):
    perturb = r.choice([None] * 5 + ["missing folder", "empty folder", "not an image",
                                     "empty file", "other suffixes", "extra spaces", "tab",
                                     "blank lines", "crlf", "label twice", "folder twice",
                                     "label not int", "no folder exists", "extra column",
                                     "negative label", "huge label", "no newline at end"])
    folders = r.sample(FOLDERS, r.randint(1, 3))
    labels = r.sample(range(5), len(folders))
    out, empty_dirs, lines = {}, [], []
    for folder, label in zip(folders, labels):
        lines.append(f"{folder} {label}")
        for i in range(r.randint(1, 2) if perturb != "empty folder" else r.randint(0, 1)):
            out[f"in/img/{folder}/{r.choice(['a', 'b', 'img', 'x'])}{i}.JPEG"
                if r.random() < 0.6 else f"in/img/{folder}/f{i}.jpg"] = jpeg(r)
        if not any(k.startswith(f"in/img/{folder}/") for k in out):
            empty_dirs.append(f"in/img/{folder}")
    folder = r.choice(folders)
    if perturb == "missing folder":
        lines.append(f"zz{r.randrange(9)} {r.randrange(5, 9)}")
    elif perturb == "not an image":
        out[f"in/img/{folder}/bad.jpg"] = r.choice([b"not a jpeg", b"\xff\xd8\xff\xe0junk"])
    elif perturb == "empty file":
        out[f"in/img/{folder}/empty.JPEG"] = b""
    elif perturb == "other suffixes":
        for suffix in r.sample([".jpeg", ".JPG", ".png", ".txt", "JPEG"], 2):
            out[f"in/img/{folder}/o{suffix}"] = jpeg(r)
    elif perturb == "extra spaces":
        i = r.randrange(len(lines))
        lines[i] = r.choice(["{}  {}", "{} {} ", " {} {}"]).format(*lines[i].split(" ", 1))
    elif perturb == "tab":
        i = r.randrange(len(lines))
        lines[i] = lines[i].replace(" ", "\t", 1) if " " in folders[i] else \
            "\t".join(lines[i].rsplit(" ", 1))
    elif perturb == "blank lines":
        lines.insert(r.randrange(len(lines) + 1), r.choice(["", " "]))
    elif perturb == "label twice" and len(lines) > 1:
        lines[1] = lines[1].rsplit(" ", 1)[0] + " " + lines[0].rsplit(" ", 1)[1]
    elif perturb == "folder twice":
        lines.append(f"{lines[0].rsplit(' ', 1)[0]} {r.randrange(5, 9)}")
    elif perturb == "label not int":
        i = r.randrange(len(lines))
        lines[i] = lines[i].rsplit(" ", 1)[0] + " " + r.choice(["x", "1.0", "0x1"])
    elif perturb == "no folder exists":
        lines = [f"zz{i} {i}" for i in range(len(lines))]
    elif perturb == "extra column":
        lines[0] += " extra"
    elif perturb == "negative label":
        lines[0] = lines[0].rsplit(" ", 1)[0] + " -3"
    elif perturb == "huge label":
        lines[0] = lines[0].rsplit(" ", 1)[0] + " " + str(r.choice([2 ** 31, 2 ** 40]))
    end = "\r\n" if perturb == "crlf" else "\n"
    text = end.join(lines) + ("" if perturb == "no newline at end" else end)
    out["in/labels.txt"] = text.encode()
    return out, perturb, empty_dirs


#: cells pandas and pyarrow may read differently, put among numbers
TRICKY = ["NA", "null", "None", "N/A", "inf", "-inf", "Infinity", "+5", ".5", "5.", "1_000",
          "TRUE", "true", "false", "9223372036854775808", "-9223372036854775809", " 1.5 ",
          "00012", "1e400", "0b1", "0o7", "\u0661\u0662", "nan", "NaN", "-0", "1.0e+2",
          "1d5", "$5", "5%", "#N/A", "n/a", "<NA>", "1/2"]


def csv_cell(r, kind):
    if kind == "int":
        return str(r.choice([0, 1, -5, 42, 2 ** 40, -2 ** 63]))
    if kind == "float":
        return r.choice(["0.5", "-1.25", "3.0", "1e3", "1e-7", "2.5E+2"])
    if kind == "bool":
        return r.choice(["True", "False"])
    if kind == "empty":
        return ""
    word = r.choice(WORDS)
    return '"' + word.replace('"', '""') + '"' if ("," in word or '"' in word or
                                                 r.random() < 0.2) else word


def csv_case(r):
    perturb = r.choice([None] * 6 + ["empty cells", "short line", "long line", "digit header",
                                     "only header", "mixed column", "quoted newline",
                                     "duplicate header", "empty header", "no final newline",
                                     "spaces after comma", "crlf"] + ["tricky cell"] * 4)
    width = r.randint(1, 4)
    names = r.sample(["id", "score", "name", "flag", "text", "n_2"], width)
    if perturb == "digit header":
        names[r.randrange(width)] = r.choice(["1", "2col", "007"])
    elif perturb == "duplicate header" and width > 1:
        names[1] = names[0]
    elif perturb == "empty header":
        names[r.randrange(width)] = ""
    kinds = [r.choice(["int", "float", "bool", "word"]) for _ in names]
    rows = [] if perturb == "only header" else [
        [csv_cell(r, k) for k in kinds] for _ in range(r.randint(1, 5))]
    if rows and perturb == "empty cells":
        rows[r.randrange(len(rows))][r.randrange(width)] = ""
    elif rows and perturb == "mixed column":
        rows[r.randrange(len(rows))][r.randrange(width)] = csv_cell(
            r, r.choice(["int", "float", "bool", "word"]))
    elif rows and perturb == "tricky cell":
        column = r.randrange(width)
        kind = r.choice(["int", "float", "bool"])
        for row in rows:
            row[column] = csv_cell(r, kind)
        rows[r.randrange(len(rows))][column] = r.choice(TRICKY)
    elif rows and perturb == "quoted newline":
        rows[r.randrange(len(rows))][r.randrange(width)] = '"two\nlines"'
    elif rows and perturb == "short line" and width > 1:
        rows[r.randrange(len(rows))].pop()
    elif rows and perturb == "long line":
        rows[r.randrange(len(rows))].append("9")
    sep = ", " if perturb == "spaces after comma" else ","
    end = "\r\n" if perturb == "crlf" else "\n"
    text = end.join(sep.join(row) for row in [names] + rows)
    text += "" if perturb == "no final newline" else end
    columns = r.choice([None] * 4 + ["subset", "reversed", "missing", "empty", "not a list",
                                     "not str"])
    if columns == "subset":
        columns = r.sample(names, r.randint(1, width))
    elif columns == "reversed":
        columns = names[::-1]
    elif columns == "missing":
        columns = names[:1] + ["nope"]
    elif columns == "empty":
        columns = []
    elif columns == "not a list":
        columns = names[0]
    elif columns == "not str":
        columns = [1]
    return {"in/table.csv": text.encode()}, perturb, columns


def random_case(r):
    kind = r.choice(CONVERTERS)
    case = {"kind": kind, "empty_dirs": [], "fields": "absent", "columns_list": "absent"}
    name = r.choice(["out/data.mindrecord", "out/d", "out/\u00e9t\u00e9.mr", "out/x"])
    special = r.random()
    if special < 0.04:
        name = r.choice(["missing/dir/x.mindrecord", "out/a:b", "out/", "out/ lead"])
    case["destination"] = name
    partition = r.choice([1] * 6 + [2, 3, 4, 0, -1, True, "2", None, 1001])
    if kind in ("cifar10", "cifar100"):
        case["files"], case["perturb"] = cifar_case(r, kind == "cifar100")
        case["fields"] = r.choice(["absent"] * 3 + [None, [], ["label"], ["id", "label"],
                                                    ["data"], ["nope"], "label",
                                                    ["fine_label", "coarse_label"],
                                                    ["id"]])
        case["partition"] = "absent"        # MindSpore's CIFAR converters have none
        outputs = [name, name + "_test"]
    elif kind == "mnist":
        case["files"], case["perturb"] = mnist_case(r)
        case["partition"] = partition
        outputs = [name + "_train.mindrecord", name + "_test.mindrecord"]
    elif kind == "imagenet":
        case["files"], case["perturb"], case["empty_dirs"] = imagenet_case(r)
        case["partition"] = partition
        outputs = [name]
    else:
        case["files"], case["perturb"], case["columns_list"] = csv_case(r)
        case["partition"] = partition
        outputs = [name]
    case["existing"] = []
    if r.random() < 0.06:
        shards = case["partition"] if type(case["partition"]) is int and \
            1 < case["partition"] < 5 else 1
        target = r.choice(outputs)
        case["existing"] = [r.choice([target, target + ".db"]) if shards == 1 else
                            target + str(r.randrange(shards))]
    return case


def cases(seed, count):
    """The cases of a seed, drawn in turn from one generator."""
    return [random_case(r) for r in [random.Random(seed)] for _ in range(count)]


# --- running a case ------------------------------------------------------------------------------


class Library:
    def __init__(self, name):
        if name == "mindspore":
            self.tools = self.records = importlib.import_module("mindspore.mindrecord")
        else:
            self.tools = importlib.import_module("mindrecord.tools")
            self.records = importlib.import_module("mindrecord")

    def converter(self, case):
        kind = case["kind"]
        given = [] if case["partition"] == "absent" else [case["partition"]]
        if kind == "cifar10":
            return self.tools.Cifar10ToMR("in/src", case["destination"])
        if kind == "cifar100":
            return self.tools.Cifar100ToMR("in/src", case["destination"])
        if kind == "mnist":
            return self.tools.MnistToMR("in/src", case["destination"], *given)
        if kind == "imagenet":
            return self.tools.ImageNetToMR("in/labels.txt", "in/img", case["destination"],
                                           *given)
        columns = None if case["columns_list"] == "absent" else case["columns_list"]
        return self.tools.CsvToMR("in/table.csv", case["destination"], columns, *given)

    def read(self, path):
        """One MindRecord file alone: schema, len, index fields and rows in order."""
        def read():
            reader = self.records.FileReader([path])
            try:
                schema = reader.schema()
                size = reader.len()
                rows = [sorted((k, plain(v)) for k, v in row.items())
                        for row in reader.get_next()]
            finally:
                reader.close()
            return {"schema": sorted(schema.items()), "len": size, "rows": rows}

        def index_fields():
            page = self.records.MindPage(path)
            return sorted(page.candidate_fields)
        return {"rows": pipelines.attempt(read), "index": pipelines.attempt(index_fields)}


def plain(value):
    """A row value as something both interpreters compare alike."""
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return plain(value.item())
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (bool, np.bool_)):
        return ("int", int(value))
    if isinstance(value, (int, np.integer)):
        return ("int", int(value))
    if isinstance(value, (float, np.floating)):
        return ("float", repr(float(value)))
    if isinstance(value, (bytes, np.bytes_)):
        return ("bytes", bytes(value))
    if isinstance(value, str):
        return ("str", str(value))
    return (type(value).__name__, repr(value))


def case_folder(folder, writer, number):
    return os.path.join(folder, writer, f"case{number}")


def lay_out(case, base):
    """Writes the case's input (and the output files already there) under ``base``."""
    if os.path.exists(base):
        shutil.rmtree(base)                 # of a try that crashed
    os.makedirs(os.path.join(base, "out"))
    for path, data in case["files"].items():
        os.makedirs(os.path.dirname(os.path.join(base, path)), exist_ok=True)
        with open(os.path.join(base, path), "wb") as f:
            f.write(data)
    for path in case["empty_dirs"]:
        os.makedirs(os.path.join(base, path), exist_ok=True)
    for path in case["existing"]:           # where its folder exists and it names a file
        full = os.path.join(base, path)
        if os.path.isdir(os.path.dirname(full)) and not os.path.isdir(full):
            with open(os.path.join(base, path), "wb") as f:
                f.write(b"there before")


def convert(library, case, base):
    """(init outcome, transform outcome or None) of the case, run in ``base``."""
    lay_out(case, base)
    here = os.getcwd()
    os.chdir(base)
    try:
        built = pipelines.attempt(lambda: library.converter(case))
        if built[0] == "error":
            return built, None
        converter = built[1]
        if case["fields"] == "absent":
            done = pipelines.attempt(lambda: converter.transform() and None)
        else:
            done = pipelines.attempt(lambda: converter.transform(case["fields"]) and None)
        return ("ok", None), done
    finally:
        os.chdir(here)


def files_after(base):
    """The files under ``base``'s out/ (and other output folders) after the conversion."""
    found = []
    for root, _dirs, names in os.walk(base):
        rel = os.path.relpath(root, base)
        if rel == "in" or rel.startswith("in" + os.sep):
            continue
        found.extend(os.path.join(rel, n) for n in names)
    return sorted(found)


def digests(base):
    """The MD5 of each MindRecord data file written (where one file holds every row in input
    order, both libraries write the same bytes)."""
    out = {}
    for name in mindrecord_files(files_after(base)):
        with open(os.path.join(base, name), "rb") as f:
            out[name] = hashlib.md5(f.read()).hexdigest()
    return out


def mindrecord_files(files):
    return [f for f in files if not f.endswith(".db") and not f.endswith(".txt")
            and f not in ()]


def read_outputs(library, case, base, files):
    return {f: library.read(os.path.join(base, f)) for f in mindrecord_files(files)
            if os.path.exists(os.path.join(base, f + ".db"))}


def converted(all_cases, folder):
    """Each case's conversion here."""
    warnings.simplefilter("ignore")
    library = Library("minddata")
    for number, case in enumerate(all_cases):
        base = case_folder(folder, "minddata", number)
        init, done = convert(library, case, base)
        yield {"init": init, "transform": done, "files": files_after(base),
               "digests": digests(base)}


def reads(library, case, folder, number):
    """This library's reads of both writers' files of a case."""
    out = {}
    for writer in WRITERS:
        base = case_folder(folder, writer, number)
        out[writer] = read_outputs(library, case, base, files_after(base)) \
            if os.path.isdir(base) else {}
    return out


def emit(library_name, cases_path, folder, out_path, start):
    with open(cases_path, "rb") as f:
        all_cases = pickle.load(f)
    # the reference writes under "mindspore" whichever library it runs
    differential_reference.emit_outcomes(
        emitted_as_reference(library_name, all_cases, folder, start), out_path,
        CASE_TIMEOUT_S)


def emitted_as_reference(library_name, all_cases, folder, start):
    warnings.simplefilter("ignore")
    library = Library(library_name)
    for number, case in enumerate(all_cases[start:], start):
        base = case_folder(folder, "mindspore", number)
        init, done = convert(library, case, base)
        outcome = {"init": init, "transform": done, "files": files_after(base),
                   "digests": digests(base)}
        outcome["reads"] = reads(library, case, folder, number)
        yield outcome


def reference_outcomes(args, all_cases, folder):
    cases_path = os.path.join(folder, "cases.pkl")
    with open(cases_path, "wb") as f:
        pickle.dump(all_cases, f)
    return differential_reference.reference_outcomes(
        __file__, args, len(all_cases),
        lambda path: ["--emit", args.reference, cases_path, folder, path])


# --- comparing -----------------------------------------------------------------------------------


def conversion(outcome):
    """The conversion's outcome: the first error (and where), or ok."""
    if outcome["init"][0] == "error":
        return "constructor", outcome["init"]
    return "transform", outcome["transform"]


def view(reads, shards=False, order=False, floats=False):
    """Reads {file: {"rows", "index"}} as compared: errors by type; with ``shards`` the files
    of a set together (rows in shard order: which shard gets a call's extra rows is random in
    MindSpore), with ``order`` without the row order (nor CIFAR's ids, given in that order),
    with ``floats`` integral floats as ints (MindSpore's FileReader returns them so)."""
    out = {}
    for name in sorted(reads):
        key = name.rstrip("0123456789") if shards else name
        entry = out.setdefault(key, {"schema": set(), "index": set(), "len": 0, "rows": []})
        rows, index = reads[name]["rows"], reads[name]["index"]
        entry["index"].add(repr(index[:2] if index[0] == "error" else index))
        if rows[0] == "error":
            entry["schema"].add(repr(rows[:2]))
            continue
        entry["schema"].add(repr(rows[1]["schema"]))
        entry["len"] += rows[1]["len"]
        entry["rows"].extend(rows[1]["rows"])
        if not shards:
            entry["index"] = sorted(entry["index"])
    for entry in out.values():
        if floats:
            entry["rows"] = [[(k, ("int", int(float(v[1]))) if v[0] == "float" and
                               float(v[1]).is_integer() else v) for k, v in row]
                             for row in entry["rows"]]
        if order:
            entry["rows"] = sorted(repr([(k, v) for k, v in row if k != "id"])
                                   for row in entry["rows"])
        entry["schema"], entry["index"] = sorted(entry["schema"]), sorted(entry["index"])
    return out


def unordered(case):
    """Whether the input's order is the directory's (several files read in listdir order)."""
    if case["kind"] == "cifar10":
        return sum(1 for f in case["files"] if os.path.basename(f).startswith(
            "data_batch_")) > 1
    if case["kind"] == "imagenet":
        return any(sum(1 for f in case["files"] if f.startswith(f"in/img/{d}/")) > 1
                   for d in FOLDERS)
    return False


RELAXED = [("shards",), ("order",), ("floats",), ("shards", "order"), ("shards", "floats"),
           ("order", "floats"), ("shards", "order", "floats")]


def compare_reads(case, ours, theirs, label):
    """[(kind, item, why)] of two sets of reads {file: {"rows", "index"}}; where they differ
    only as read under a relaxation of ``view``, one ("relaxed", item, relaxation)."""
    if sorted(ours) != sorted(theirs):
        return [("different", label, f"files {sorted(ours)} here, {sorted(theirs)} in "
                                     "MindSpore")]
    found = []
    for name in sorted(ours):
        for part in ("rows", "index"):
            kind, why = pipelines.difference(ours[name][part], theirs[name][part])
            if kind:
                found.append((kind, f"{label}: {name} {part}", why))
    if any(kind == "different" for kind, _, _ in found):
        for relaxed in RELAXED:
            if "order" in relaxed and not unordered(case):
                continue
            flags = {flag: True for flag in relaxed}
            if view(ours, **flags) == view(theirs, **flags):
                return [("relaxed", label, "+".join(relaxed))]
    return found


def differences(case, ours, theirs):
    if theirs == CRASH:
        return [("MindSpore crashed", "crash", "killed by a signal or hung")]
    (where_here, here), (where_there, there) = conversion(ours), conversion(theirs)
    kind, why = pipelines.difference(here, there)
    if kind == "error type" and where_here != where_there:
        kind, why = "error elsewhere", f"in the {where_here} here, in the {where_there} in " \
            f"MindSpore: {why}"
    elif kind is None and here[0] == "error" and where_here != where_there:
        kind, why = "error elsewhere", f"in the {where_here} here, in the {where_there} in " \
            f"MindSpore"
    found = [(kind, "conversion", why)] if kind else []
    if here[0] == "error" or there[0] == "error":
        if here[0] == there[0] and ours["files"] != theirs["files"]:
            found.append(("different", "files left", f"{ours['files']} here, "
                                                     f"{theirs['files']} in MindSpore"))
        return found
    if ours["files"] != theirs["files"]:
        found.append(("different", "files", f"{ours['files']} here, {theirs['files']} in "
                                            "MindSpore"))
        return found
    if not found and ours.get("digests") != theirs.get("digests") and not unordered(case) \
            and case["partition"] in (1, "absent"):
        found.append(("different", "file bytes", f"{ours.get('digests')} here, "
                                                 f"{theirs.get('digests')} in MindSpore"))
    found += compare_reads(case, ours["reads"]["minddata"], ours["reads"]["mindspore"],
                           "read here (files here vs MindSpore's)")
    found += compare_reads(case, theirs["reads"]["minddata"], theirs["reads"]["mindspore"],
                           "read in MindSpore (files here vs MindSpore's)")
    for writer in WRITERS:
        found += compare_reads(case, ours["reads"][writer], theirs["reads"][writer],
                               f"{writer}'s files read here vs in MindSpore")
    return found


RELAXATIONS = {
    "shards": "which shards get a write's R % N extra rows: random in MindSpore",
    "order": "files are taken in sorted order (MindSpore: directory order)",
    "floats": "floats stay floats (MindSpore's FileReader gives an integral float as an int)"}
#: (converter or None, perturbation or None, words of the error here) -> the README's reason,
#: where this package refuses what MindSpore converts
REFUSED_HERE = [
    (None, None, "outside the class list", "a label outside the class list is bad input"),
    (None, None, "outside the int32 range", "an int32 value out of range is refused (FileWriter)"),
    ("cifar", "fewer labels", "labels for", "CIFAR: as many labels as images"),
    ("cifar", None, "must be N x 3072 uint8", "CIFAR: data must be N x 3072 uint8"),
    ("cifar", "meta", "class names", "CIFAR: the class names of batches.meta/meta are used"),
    ("mnist", None, "idx", "MNIST: idx headers are checked"),
    ("mnist", None, " has ", "MNIST: idx headers are checked"),
    ("imagenet", "not an image", "", "a corrupt image is bad input"),
    ("imagenet", "empty file", "", "MindSpore skips empty image files; here bad input"),
    ("imagenet", None, "expected '<folder> <label>'", "ImageNet: map lines are "
                                                      "'<folder> <label>'"),
    ("csv", None, "fields, got", "a CSV line with the wrong number of fields is bad input"),
    ("csv", None, "empty (null)", "a null value is bad input"),
    (None, None, "partition_number must be int", "partition_number: an int, not a bool"),
]
#: (converter, perturbation or None, words of MindSpore's error) -> the README's reason, where
#: MindSpore fails on what this package converts
REFUSED_THERE = [
    ("imagenet", "tab", "", "ImageNet: map lines split on any whitespace"),
    ("imagenet", "extra spaces", "", "ImageNet: map lines split on any whitespace"),
    ("imagenet", "blank lines", "", "ImageNet: blank map lines are skipped"),
    ("mnist", "plain files", "No such file", "MNIST: uncompressed idx files are read too"),
    ("cifar", "unequal batches", "inhomogeneous", "CIFAR: batches of different sizes"),
    ("csv", None, "no valid data", "CSV: MindSpore drops rows pandas upcasts or reads as NaN"),
]


def total_rows(reads):
    return sum(read["rows"][1]["len"] for read in reads.values() if read["rows"][0] == "ok")


#: the cells pandas reads as NaN (its default na_values)
PANDAS_NA = {"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
             "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"}


def dropped_by_pandas(reads):
    """Whether MindSpore's file (read here) holds this package's rows less some that pandas'
    ``iterrows`` spoils: a string cell it reads as NaN, or a row of numbers only (upcast)."""
    def rows(files):
        return [row for read in files.values() if read["rows"][0] == "ok"
                for row in read["rows"][1]["rows"]]
    ours, theirs = rows(reads["minddata"]), rows(reads["mindspore"])
    missing = list(ours)
    for row in theirs:
        if row not in missing:
            return False
        missing.remove(row)
    return bool(missing) and all(
        any(v[0] == "str" and v[1] in PANDAS_NA for _, v in row) or
        all(v[0] in ("int", "float") for _, v in row) for row in missing)


def matches(rules, case, message):
    for kind, perturb, words, reason in rules:
        if (kind is None or case["kind"].startswith(kind)) and \
                perturb in (None, case["perturb"]) and words in message:
            return reason
    return None


def documented(case, item, why, ours=None, theirs=None):
    """The README's reason for a difference, or None."""
    if why in ["+".join(r) for r in RELAXED]:
        if "order" in why and not unordered(case):
            return None
        if "floats" in why and "read here vs in MindSpore" not in item:
            return None
        return "; ".join(RELAXATIONS[flag] for flag in why.split("+"))
    if ours is None or theirs == CRASH:
        return None
    here, there = conversion(ours)[1], conversion(theirs)[1]
    if item == "conversion" and here[0] == "error" and there[0] == "ok":
        return matches(REFUSED_HERE, case, here[2])
    if item == "conversion" and there[0] == "error" and here[0] == "ok":
        return matches(REFUSED_THERE, case, there[2])
    if item == "files left":
        return "MindSpore leaves the outputs it wrote before failing; here nothing is left"
    if case["kind"] == "csv" and dropped_by_pandas(ours["reads"]):
        return "CSV: MindSpore drops rows pandas upcasts or reads as NaN"
    if case["kind"] == "mnist" and case["perturb"] == "image size":
        return "MNIST: images take the size the idx header gives (MindSpore: 28 x 28)"
    if case["kind"] == "imagenet" and case["perturb"] == "extra spaces":
        return "ImageNet: map lines split on any whitespace"
    if case["kind"] == "imagenet" and case["perturb"] == "label twice":
        return "ImageNet: MindSpore keeps one folder per label"
    return None


def classify(case, ours, theirs):
    found = [("different" if kind == "relaxed" else kind, item, why)
             for kind, item, why in differences(case, ours, theirs)]
    for kind, item, why in found:
        if kind == "different" and not documented(case, item, why, ours, theirs):
            return kind, item, why
    hard = [f for f in found if f[0] == "different"]
    if hard:
        return "documented", hard[0][1], documented(case, hard[0][1], hard[0][2], ours, theirs)
    crashed = [f for f in found if f[0] == "MindSpore crashed"]
    return (crashed or found or [(None, None, None)])[0]


def describe(case, limit=300):
    files = {k: (len(v) if not k.endswith((".txt", ".csv")) else v.decode(errors="replace"))
             for k, v in case["files"].items()}
    extra = {k: case[k] for k in ("fields", "columns_list", "partition") if case[k] != "absent"}
    text = (f"{case['kind']} ({case['perturb']}) to {case['destination']!r} {extra} "
            f"existing {case['existing']} empty dirs {case['empty_dirs']} files {files}")
    return text[:limit]


def main():
    args = differential_reference.command_line(__doc__.split("\n\n")[0], 200,
                                               ("LIBRARY", "CASES", "FOLDER", "FILE"))
    if args.emit:
        emit(args.emit[0], args.emit[1], args.emit[2], args.emit[3], args.start)
        return 0
    all_cases = cases(args.seed, args.cases)
    with tempfile.TemporaryDirectory() as folder:
        ours = list(converted(all_cases, folder))
        reference = reference_outcomes(args, all_cases, folder)
        library = Library("minddata")
        for number, outcome in enumerate(ours):
            outcome["reads"] = reads(library, all_cases[number], folder, number)
        return differential_reference.print_report(
            args, all_cases, ours, reference, classify,
            lambda case, full=None: describe(case, full or 300),
            soft=("error type", "error elsewhere"))


if __name__ == "__main__":
    sys.exit(main())
