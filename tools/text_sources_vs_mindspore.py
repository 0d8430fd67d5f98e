"""CSVDataset, TextFileDataset and CLUEDataset against MindSpore 2.10, on random hostile files.

Each case writes one to three files with hostile but realistic contents (CSV: quoted fields,
doubled quotes, delimiters and line ends inside quotes, CRLF and lone CR line ends, empty
fields and lines, a header or not, fewer or more fields than columns, numbers such as ``1e3``,
`` 12``, ``+5``, ``0x1F``, ``.5``, ``inf``, past int32 and int64, UTF-8 text, a BOM, bytes that
are not UTF-8, another ``field_delim``, ``column_defaults`` of every type; TextFile: CRLF, CR,
empty and blank lines, long lines, no last newline, a BOM, bytes that are not UTF-8; CLUE: every
``task`` and ``usage`` over JSON lines with missing, extra and nested keys, numbers for strings,
unicode escapes, empty and malformed lines) and reads them with random arguments
(``num_samples``, shards, ``shuffle``, ``num_parallel_workers``). The same cases run here and in
MindSpore's own interpreter (``--mindspore-python``), each writing the case's bytes to its own
folder, and the outcomes are compared: the column names, ``get_dataset_size()`` and every row of
an epoch (dtype, shape and values exactly), or both raise. Rows are compared in order where
both read in file order (one worker, no shuffle), else as sorted multisets (several files read
by several workers, ``shuffle=True``, the rows of all shards together: MindSpore splits the
files by row ranges, this package round robin), or only counted (``shuffle=True`` with
``num_samples``, shards with ``num_samples`` or ``shuffle=True``: other subsets). Under
``num_samples`` all rows of the files are read too ("whole"). Counted apart: differences the
README documents (the ``documented()`` rules; some read the case again here without what
MindSpore drops, and compare), two errors of other types ("error type"), column names or a
size that differ where iterating raises on both sides ("error elsewhere": here the files are
parsed when the pipeline starts), and cases that kill MindSpore's interpreter or hang it
("MindSpore crashed").

    .venv/bin/python tools/text_sources_vs_mindspore.py [--seed 1] [--cases 200]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]
        [--show-documented] [--case N ...]

Prints each undocumented difference and a count per outcome; exits 1 if there is one. The
MindSpore interpreter runs this file alone (numpy only: it never imports this package).
"""
import importlib
import json
import os
import random
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import pipelines_vs_mindspore as pipelines                          # noqa: E402

CASE_TIMEOUT_S = 30         # a case of the reference interpreter that runs longer hangs
BOM = b"\xef\xbb\xbf"
INVALID_UTF8 = [b"\xff", b"\xc3\x28", b"\xe2\x82", b"\xed\xa0\x80", b"\x80abc"]
WORDS = ["alpha", "beta", "x y", "d\u00e9j\u00e0", "\u65e5\u672c\u8a9e", "\U0001f600", "tab\there",
         "a;b", "a|b", "-", "0", "12", "1.5", "NULL", "\u00a0nb"]
RARE_WORDS = ["nul\x00mid", "end\x00", "\x00", "\u2028sep", "e\u0301", "\ufeffmid", "\x7f\x1b"]


def word(r):
    return r.choice(WORDS if r.random() < 0.97 else RARE_WORDS)

# --- CSV -----------------------------------------------------------------------------------------

NUMBERS = ["1", "0", "-3", "42", "1e3", " 12", "12 ", "+5", "-0", "0x1F", "1.", ".5", "inf",
           "-inf", "nan", "NaN", "2147483647", "2147483648", "-2147483648", "-2147483649",
           "9223372036854775808", "99999999999999999999", "3.25", "0.3", "-2.5e-3", "1e40",
           "007", "1_000", "\u0661\u0662", "abc", "12abc", "--1", "1e", "0.1f", "\t7"]


def csv_quote(text, delim):
    return '"' + text.replace('"', '""') + '"'


def csv_cell(r, kind, delim, heat):
    """A field's text for a column of ``kind`` (int, float, str), most often one that fits
    (the more so the lower ``heat``, 0 to 1)."""
    if kind in ("int", "float"):
        if r.random() < 0.3 * heat:
            return r.choice(NUMBERS + [""])
        number = r.choice(["1", "0", "-3", "42", "7"] if kind == "int" else
                          ["1.5", "-0.25", "3", "0.0", "1e3", ".5", "-2"])
        return csv_quote(number, delim) if r.random() < 0.05 else number
    if r.random() < 0.06 * heat:
        return ""
    text = word(r) if r.random() < 0.7 else r.choice(NUMBERS[:8])
    choice = r.random() / heat
    if choice < 0.12:
        return csv_quote(text + r.choice([delim, ",", '"', "\n", "\r\n", " "]) + text, delim)
    if choice < 0.18:
        return csv_quote(r.choice(["", text, 'he said "hi"']), delim)
    if choice < 0.22:
        return text + '"' + text           # a quote inside an unquoted field
    if choice < 0.25:
        return " " + csv_quote(text, delim)   # a quoted field after a space
    return text


def csv_file(r, kinds, delim, header, names, heat):
    """The bytes of one CSV file."""
    ends = r.choice([["\n"], ["\n"], ["\r\n"], ["\r"], ["\n", "\r\n"], ["\n", "\r"]])
    lines = []
    if header:
        header_names = names if r.random() > 0.1 * heat else names[:-1] or names + ["extra"]
        lines.append(delim.join(csv_quote(n, delim) if r.random() < 0.1 else n
                                for n in header_names))
    for _ in range(r.randint(0, 5)):
        if r.random() < 0.08 * heat:
            lines.append(r.choice(["", " "]))
            continue
        width = len(kinds)
        if r.random() < 0.1 * heat:
            width = max(1, width + r.choice([-1, 1]))
        lines.append(delim.join(csv_cell(r, kinds[i] if i < len(kinds) else "str", delim, heat)
                                for i in range(width)))
    text = "".join(line + r.choice(ends) for line in lines)
    if lines and r.random() < 0.25:
        text = text.rstrip("\r\n")
    if r.random() < 0.15:
        text += r.choice(["\n", "\r\n\r\n", "\n\n"])
    return mangle(r, text.encode("utf-8"), heat)


def mangle(r, data, heat):
    """Sometimes a BOM before the bytes, or bytes that are not UTF-8 among them."""
    if r.random() < 0.12 * heat:
        data = BOM + data
    if r.random() < 0.1 * heat and data:
        at = r.randrange(len(data) + 1)
        data = data[:at] + r.choice(INVALID_UTF8) + data[at:]
    return data


def draw_heat(r):
    """How hostile a case's files are: 0.03 (now and then an odd value) to 1."""
    return r.choice([0.03, 0.1, 0.3, 1.0])


def csv_case(r):
    hot = draw_heat(r)
    delim = r.choice([",", ",", ",", ";", "\t", "|", " "] if r.random() < 0.97 else ["\u00e9"])
    width = r.randint(1, 4)
    names = ["c%d" % i for i in range(width)]
    if r.random() < 0.2:
        names = [r.choice(["name", "x y", "\u00e9t\u00e9", "c0", "_", "A"]) + str(i)
                 for i in range(width)]
    if width > 1 and r.random() < 0.04 * hot:      # a repeated name
        names[-1] = names[0]
    kinds = [r.choice(["int", "float", "str"]) for _ in range(width)]
    kwargs = {}
    if r.random() < 0.75:
        defaults = {"int": [0, 7, -1, True], "float": [0.0, 2.5, -1.0], "str": ["", "x", "7"]}
        count = width if r.random() > 0.3 * hot else r.randint(0, width + 1)
        kwargs["column_defaults"] = [r.choice(defaults[kinds[i] if i < width else "str"])
                                     for i in range(count)]
    else:
        kinds = ["str"] * width
    header = r.random() < 0.4
    if not header:
        kwargs["column_names"] = names if r.random() > 0.1 * hot else names[:-1] or names + ["z"]
        header = r.random() < 0.05      # a header line read as data
    if r.random() < 0.1:
        kwargs["field_delim"] = delim if delim == "," else r.choice([delim, ","])
        delim = kwargs["field_delim"]
    elif delim != ",":
        kwargs["field_delim"] = delim
    files = [("part%d.csv" % i, csv_file(r, kinds, delim, header, names, hot))
             for i in range(r.randint(1, 3))]
    return {"kind": "csv", "files": files, "kwargs": kwargs}


# --- TextFile ------------------------------------------------------------------------------------


def text_file(r, heat):
    ends = r.choice([["\n"], ["\n"], ["\r\n"], ["\r"], ["\n", "\r\n", "\r"]])
    lines = []
    for _ in range(r.randint(0, 6)):
        roll = r.random() / heat
        if roll < 0.12:
            lines.append("")
        elif roll < 0.2:
            lines.append(r.choice([" ", "\t", "  \t "]))
        elif roll < 0.24:
            lines.append(r.choice(WORDS) * r.choice([3000, 30000]))
        else:
            lines.append(" ".join(word(r) for _ in range(r.randint(1, 3))))
    text = "".join(line + r.choice(ends) for line in lines)
    if lines and r.random() < 0.3:
        text = text.rstrip("\r\n")
    return mangle(r, text.encode("utf-8"), heat)


def text_case(r):
    hot = draw_heat(r)
    return {"kind": "text", "files": [("part%d.txt" % i, text_file(r, hot))
                                      for i in range(r.randint(1, 3))], "kwargs": {}}


# --- CLUE ----------------------------------------------------------------------------------------

CLUE_KEYS = {
    "AFQMC": ["sentence1", "sentence2", "label", "id"],
    "CMNLI": ["sentence1", "sentence2", "label", "id"],
    "TNEWS": ["sentence", "keywords", "label", "label_desc", "id"],
    "IFLYTEK": ["sentence", "label", "label_des", "id"],
    "CSL": ["id", "abst", "keyword", "label"],
    "WSC": ["idx", "text", "label", "target"],
}
WSC_TARGET = ["span1_index", "span2_index", "span1_text", "span2_text"]


def json_value(r, key, heat):
    """A value for ``key``, most often of the kind CLUE's files hold."""
    if r.random() > 0.25 * heat:
        if key in ("label", "id", "idx", "span1_index", "span2_index"):
            return r.choice([0, 1, 3, 17, "1", "100", "0"])
        if key == "keyword":
            return [word(r) for _ in range(r.randint(0, 3))]
        return " ".join(word(r) for _ in range(r.randint(1, 3)))
    return r.choice([-1, -7, 0, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, -2 ** 31,
                     -2 ** 31 - 1, 2 ** 63, 1.5, -0.25, 1e3, 1e40, 0.1, "", "\u00e9",
                     "\U0001f600", ["a", "b"], [], ["x"], [1, 2], [["a"]], None, True, False,
                     {"k": "v"}, "a\nb", "tab\t", "\\"] + [RAW + token for token in RAW_TOKENS])


# JSON numbers and strings as written (json.dumps would write them otherwise)
RAW = "raw:"
RAW_TOKENS = ["-0", "1.0", "1E+2", "1e-50", "-0.0", "0.1e1", "1e309", "-1e309",
              "123456789012345678901234567890", '"\\u0000"', '"a\\/b"', '"\\ud83d\\ude00"',
              '"\\uD83D\\uDE00"', '"x\\u00e9"', "4294967295", "-2147483648", "1.5e38",
              "3.5e38", "1e-40"]


def clue_object(r, task, heat):
    keys = list(CLUE_KEYS[task])
    obj = {}
    for key in keys:
        if key == "target":
            obj[key] = {k: json_value(r, k, heat) for k in WSC_TARGET if r.random() > 0.04 * heat}
        elif r.random() > 0.04 * heat:
            obj[key] = json_value(r, key, heat)
    if r.random() < 0.2:
        obj[r.choice(["extra", "other", "label_name"])] = json_value(r, "extra", 1.0)
    items = list(obj.items())
    r.shuffle(items)
    return dict(items)


def clue_line(r, task, heat):
    roll = r.random() / heat
    if roll < 0.05:
        return r.choice(["", " ", "\t"])
    if roll < 0.09:
        return r.choice(["{", "not json", '{"label": "1",}', "[1, 2]", "1", '"text"', "null",
                         '{"label": "1"} trailing', "{'label': '1'}", '{"a": NaN}'])
    text = json.dumps(clue_object(r, task, heat), ensure_ascii=r.random() < 0.5)
    text = re.sub(r'"%s(\\"|[^"])*"' % RAW, lambda m: json.loads(m.group(0))[len(RAW):], text)
    if r.random() < 0.1:
        text = text.replace(": ", ":").replace(", ", ",")
    if r.random() < 0.05:
        text = "  " + text + " "
    return text


def clue_case(r):
    task = r.choice(sorted(CLUE_KEYS))
    usage = r.choice(["train", "test", "eval"])
    hot = draw_heat(r)
    files = []
    for i in range(r.randint(1, 3)):
        ends = r.choice([["\n"], ["\n"], ["\r\n"], ["\n", "\r\n"], ["\n", "\r"]])
        lines = [clue_line(r, task, hot) for _ in range(r.randint(0, 5))]
        text = "".join(line + r.choice(ends) for line in lines)
        if lines and r.random() < 0.3:
            text = text.rstrip("\r\n")
        files.append(("part%d.json" % i, mangle(r, text.encode("utf-8"), hot)))
    return {"kind": "clue", "files": files, "kwargs": {"task": task, "usage": usage}}


# --- sampling ------------------------------------------------------------------------------------


def sampling(r, case):
    """shuffle=False with one worker (rows in file order), with several (sorted), with
    num_samples, or shards (all shards read, sorted together; counted with num_samples or
    shuffle=True); or shuffle=True (sorted, or counted with num_samples)."""
    kwargs = case["kwargs"]
    choice = r.random()
    if choice < 0.45:
        kwargs.update(shuffle=False, num_parallel_workers=1)
    elif choice < 0.6:
        kwargs.update(shuffle=False, num_parallel_workers=2)  # MindSpore: at most the cores
    elif choice < 0.75:
        kwargs.update(shuffle=False, num_parallel_workers=1, num_samples=r.randint(1, 8))
    elif choice < 0.9:
        case["shards"] = r.choice([2, 3, 4])
        kwargs.update(shuffle=False, num_parallel_workers=r.choice([1, 2]))
        if r.random() < 0.25:       # each shard's first rows: other rows there (counted)
            kwargs["num_samples"] = r.randint(1, 3)
        elif r.random() < 0.15:     # the files shuffled before the split (counted)
            kwargs["shuffle"] = True
    else:
        kwargs["shuffle"] = True
        if r.random() < 0.4:
            kwargs["num_samples"] = r.randint(1, 6)
    case["glob"] = r.random() < 0.15
    return case


def random_case(r):
    maker = r.choice([csv_case, csv_case, csv_case, text_case, clue_case, clue_case])
    return sampling(r, maker(r))


def cases(seed, count):
    r = random.Random(seed)
    return [random_case(r) for _ in range(count)]


def order(case):
    """"as read", "sorted" or "counted" (see the module docstring)."""
    kwargs = case["kwargs"]
    if "shards" in case and (kwargs.get("shuffle") or kwargs.get("num_samples")):
        return "counted"
    if kwargs.get("shuffle") is True:
        return "counted" if kwargs.get("num_samples") else "sorted"
    if "shards" in case or (kwargs.get("num_parallel_workers", 1) > 1 and len(case["files"]) > 1):
        return "sorted"
    return "as read"


# --- running a case in one library ---------------------------------------------------------------

SOURCES = {"csv": "CSVDataset", "text": "TextFileDataset", "clue": "CLUEDataset"}


def write_files(case, directory):
    paths = []
    for name, data in case["files"]:
        paths.append(os.path.join(directory, name))
        with open(paths[-1], "wb") as f:
            f.write(data)
    return [os.path.join(directory, "*" + os.path.splitext(paths[0])[1])] if case["glob"] \
        else paths


def run_case(ds, case, directory):
    """[(item, outcome)]: "build", or "get_col_names", "get_dataset_size" and "rows" (with
    shards: each shard's size and all shards' rows together)."""
    paths = write_files(case, directory)
    source = getattr(ds, SOURCES[case["kind"]])
    shards = case.get("shards")
    built = pipelines.attempt(lambda: [
        source(paths, **case["kwargs"], **({"num_shards": shards, "shard_id": i} if shards
                                           else {})) for i in range(shards or 1)])
    if built[0] == "error":
        return [("build", built)]
    datasets = built[1]
    convert = lambda row: [pipelines.plain(v) for v in row]      # noqa: E731

    def rows():
        found = []
        for data in datasets:
            found += [convert(row) for row in data.create_tuple_iterator(num_epochs=1,
                                                                         output_numpy=True)]
        return pipelines.in_order(found, order(case))
    found = [("get_col_names", pipelines.attempt(lambda: list(datasets[0].get_col_names()))),
             ("get_dataset_size", pipelines.attempt(
                 lambda: [data.get_dataset_size() for data in datasets])),
             ("rows", pipelines.attempt(rows))]
    if "num_samples" in case["kwargs"]:     # every row of the files, in order
        whole = dict(case["kwargs"], shuffle=False, num_parallel_workers=1)
        del whole["num_samples"]
        found.append(("whole", pipelines.attempt(lambda: [convert(row) for row in source(
            paths, **whole).create_tuple_iterator(num_epochs=1, output_numpy=True)])))
    return found


def library(name):
    return importlib.import_module("mindspore.dataset" if name == "mindspore" else "minddata")


outcomes = differential_reference.case_by_case(library, cases, run_case,
                                               in_directory=True)


CRASH = differential_reference.CRASH



# --- comparing -----------------------------------------------------------------------------------


def case_differences(ours, theirs):
    """[(kind, item, why)] of every item two outcomes differ in; a side that failed when built
    stands for that error in every item."""
    if theirs[0][0] == "crash":
        return [("MindSpore crashed", "crash", theirs[0][1][2])]
    mine, reference = dict(ours), dict(theirs)
    if "build" in mine or "build" in reference:
        labels = [label for label in ("get_col_names", "get_dataset_size", "rows", "whole")
                  if label in mine or label in reference] or ["build"]
        mine = {label: mine.get(label, mine.get("build")) for label in labels}
        reference = {label: reference.get(label, reference.get("build")) for label in labels}
    found = []
    for label, outcome in mine.items():
        kind, why = pipelines.difference(outcome, reference[label])
        if kind == "different" and label in ("get_col_names", "get_dataset_size") and \
                mine.get("rows", ("",))[0] == reference.get("rows", ("",))[0] == "error":
            kind = "error elsewhere"
        if kind:
            found.append((kind, label, why))
    found.sort(key=lambda item: ("different", "error type", "error elsewhere").index(item[0]))
    return found


def classify(case, ours, theirs):
    """(kind, item, why): the first undocumented hard difference ("different"), else
    "documented" where every hard one is, else the first soft one; (None, None, None) if
    the same."""
    return differential_reference.first_undocumented(case, ours, theirs,
                                                     case_differences(ours, theirs), documented)


def documented(case, item, ours, theirs):
    """The README's word for a difference in ``item``, or None (the sources' "Differences from
    MindSpore" under "Reading files")."""
    mine, reference = dict(ours), dict(theirs)
    ours_error = str(mine.get(item, mine.get("build", ("",)))) if mine.get(
        item, mine.get("build", ("",)))[0] == "error" else ""
    files = [data for _, data in case["files"]]
    kind = case["kind"]
    rules = [
        (kind in ("text", "clue") and any(re.search(rb"(^|\n)\r\n", data) for data in files),
         "TextFile/CLUE: a blank CRLF line is no row (MindSpore: a row '\\r', or for CLUE a "
         "parse error)"),
        (kind == "text" and item in ("rows", "whole") and crlf_kept(
            "as read" if item == "whole" else order(case), mine.get(item), reference.get(item)),
         "TextFile: a CRLF line ending loses its \\r (MindSpore keeps it)"),
        (kind == "csv" and "column_names" not in case["kwargs"] and any(
            header_quirk(data) for data in files) and (
                item == "get_col_names" or reference.get(item, ("",))[0] == "error" or any(
                    header_quirk(data) == "lone CR" for data in files) or
                "duplicate column names" in ours_error),
         "CSV header line: a quoted name loses its quotes, a CRLF or CR ends it (MindSpore: "
         "the quotes and the CR kept, names split at every delimiter, a lone CR no line end)"),
        (kind == "csv" and "column_names" not in case["kwargs"] and
         reference.get("get_col_names", ("",))[1] == "UnicodeDecodeError",
         "CSV: a header line that is not UTF-8 raises (MindSpore: get_col_names raises "
         "UnicodeDecodeError, the rows are served)"),
        (item == "rows" and same_rows_other_shards(case, mine.get(item), reference.get(item)),
         "CSV/TextFile/CLUE shards are round-robin (MindSpore: row ranges)"),
        (kind == "csv" and item == "rows" and "shards" in case and any(
            re.search(rb"\r(?!\n)", data) for data in files),
         "CSV shards of files with lone CR line ends: MindSpore's row ranges start inside "
         "rows and serve broken ones"),
        (kind == "csv" and item == "rows" and "shards" in case and any(
            re.search(b"(^|[\r\n])(\"|" + re.escape(case["kwargs"].get(
                "field_delim", ",").encode()) + b")", data) for data in files),
         "CSV shards: MindSpore 2.10 puts the last field of the line before a shard's first row "
         "in front of that row's first field where it is empty or quoted (measured: 'p,q,r', "
         "',12 ,x' in shard 1 of 2: 'r', '12 ', 'x')"),
        (kind == "csv" and "invalid UTF8" in ours_error and reference.get(item, ("",))[0] == "ok",
         "CSV: bytes that are not UTF-8 raise in any column (MindSpore reads the number before "
         "them in a number column: '1e3\\xc3(' -> 1000.0)"),
        (kind == "csv" and any(data.startswith(BOM) for data in files),
         "CSV: a BOM at the file's start is skipped (MindSpore keeps it in the first value)"),
        (kind == "csv" and c_reads_prefix(ours_error),
         "CSV number columns refuse text after the number (MindSpore reads the number before "
         "it: '1e3' -> 1, '12abc' -> 12, '0x1F' -> 0 or 31.0)"),
        (kind == "csv" and not case["kwargs"].get("field_delim", ",").isascii(),
         "CSV: a field_delim that is not ASCII is refused (MindSpore never splits on it)"),
        (kind == "csv" and item in ("rows", "whole", "get_dataset_size", "get_col_names") and
         mindspore_drops(case, ours_error) is not None and
         same_as_ours(mindspore_drops(case, ours_error), item, reference, mine),
         "CSV: the last line of a file without a final line break is a row (MindSpore 2.10 "
         "drops it where it is one field), a quote inside an unquoted field raises (MindSpore "
         "too, but on a file's first non-empty line it drops the file's rows silently)"),
        (kind == "clue" and ("CLUEDataset reads strings, numbers and lists" in ours_error or
                             "outside the range of int32 / uint32" in ours_error),
         "CLUE: null, true/false, an object or an integer past int32/uint32 raise (MindSpore: "
         "AttributeError, or the integer wrapped/clamped)"),
        (item in ("rows", "get_dataset_size") and ours_error and "num_samples" in case["kwargs"]
         and reference.get("whole", ("",))[0] == "error",
         "CSV/TextFile/CLUE files are read whole when the pipeline starts: an error in rows "
         "num_samples leaves out raises too"),
    ]
    return next((reason for applies, reason in rules if applies), None)


def crlf_kept(rows_order, ours, theirs):
    """Whether MindSpore's rows (``theirs``, in ``rows_order``) are ours, each string but for a
    ``\\r`` ending it there (the CR of a CRLF)."""
    if not ours or not theirs or ours[0] != "ok" or theirs[0] != "ok" or \
            rows_order == "counted" or isinstance(ours[1], int) or len(ours[1]) != len(theirs[1]):
        return False
    left = [repr(row) for row in ours[1]]
    for row in theirs[1]:
        # without its CR, a string that ends in NULs loses them too (numpy's str arrays)
        for candidate in (row, [(v[0], v[1], v[2][:-1].rstrip("\x00") if v[0] == "str" and
                                 v[2].endswith("\r") else v[2]) for v in row]):
            if repr(candidate) in left and (rows_order != "as read" or
                                            repr(candidate) == left[0]):
                left.remove(repr(candidate))
                break
        else:
            return False
    return True


def same_rows_other_shards(case, ours, theirs):
    """Whether the shards together served as many rows, the same distinct ones, on each side
    (MindSpore's row-range split repeats other rows to fill the last shard than the round
    robin here, where its count of a file's rows is another)."""
    if "shards" not in case or not ours or not theirs or ours[0] != "ok" or \
            theirs[0] != "ok" or isinstance(ours[1], int):
        return False
    distinct = lambda rows: sorted({repr(row) for row in rows})        # noqa: E731
    return len(ours[1]) == len(theirs[1]) and distinct(ours[1]) == distinct(theirs[1])


def last_record(data, delim):
    """(start, text) of the last CSV record of ``data`` (fields quoted or not, ending at a line
    break or the end), or None where the file does not read as records."""
    d = re.escape(delim)
    field = rb'(?:"(?:[^"]|"")*"|[^' + d + rb'"\r\n]*)'
    record = re.compile(field + rb"(?:" + d + field + rb")*(?:\r\n|\n|\r|\Z)")
    position, last = 0, None
    while position < len(data):
        found = record.match(data, position)
        if not found or found.end() == position:
            return None
        position, last = found.end(), found
    return (last.start(), last.group()) if last else None


def drop_unended_field(case):
    """The case with the last record of each CSV file taken off where MindSpore 2.10 drops it
    (measured): a file that does not end in a line break, whose last record is one field (not
    the header); None if no file is so."""
    delim = case["kwargs"].get("field_delim", ",").encode("utf-8")
    header = case["kwargs"].get("column_names") is None
    files, changed = [], False
    for name, data in case["files"]:
        last = last_record(data, delim)
        if last and last[1] and not last[1].endswith((b"\n", b"\r")) and \
                not (header and last[0] == 0) and \
                re.fullmatch(rb'"(?:[^"]|"")*"|[^"\r\n]*', last[1]) and delim not in (
                    last[1] if not last[1].startswith(b'"') else b""):
            data, changed = data[:last[0]], True
        files.append((name, data))
    return dict(case, files=files) if changed else None


def mindspore_drops(case, message):
    """The case as MindSpore 2.10 reads it: without a file our error names for a stray quote on
    its first line, and without the last line of each file that is one field and ends in no
    line break (see the two functions); None where it drops nothing."""
    changed = drop_stray_quote_file(case, message) or case
    changed = drop_unended_field(changed) or changed
    return None if changed is case else changed


def drop_stray_quote_file(case, message):
    """The case without the file our error names for a stray quote on its first non-empty line
    (which MindSpore 2.10 drops whole, measured: no error, none of its rows, where other files
    have rows), or None."""
    found = re.search(r"/(part\d\.csv) at line (\d+)\. Error message: Invalid csv file, a quote",
                      message)
    # the file's first line that is not empty (MindSpore skips empty lines first)
    if not found or any(data.split(b"\n")[:int(found.group(2)) - 1] != [b""] * (
            int(found.group(2)) - 1) for name, data in case["files"] if name == found.group(1)):
        return None
    return dict(case, files=[(name, data) for name, data in case["files"]
                             if name != found.group(1)])


def same_as_ours(changed, item, theirs, before=None):
    """Whether this package reading the ``changed`` case gives MindSpore's outcome of ``item``
    (rows, or all rows under num_samples; for the size, which MindSpore counts with what it
    drops, its rows); an empty epoch there may be a no-data error here. A file the new reading
    finds a stray quote on the first line of goes too (up to 3 times); an error the number
    rules explain (MindSpore reads a number's start) stands for MindSpore's rows. ``before``:
    our outcomes of the case unchanged."""
    label = {"get_dataset_size": "whole" if "num_samples" in changed["kwargs"] else "rows"}.get(
        item, item)
    if label not in theirs:
        return False
    for _ in range(3):
        if not changed["files"]:
            return False
        with tempfile.TemporaryDirectory() as directory:
            again = dict(run_case(library("minddata"), changed, directory))
        ours = again.get(label, again.get("build", ("",)))
        fewer = drop_stray_quote_file(changed, ours[2]) if ours[0] == "error" else None
        if fewer is None:
            break
        changed = fewer
    if ours[0] == "error" and theirs[label][0] == "ok":
        return ("no data" in ours[2] and theirs[label][1] in ([], 0)) or c_reads_prefix(
            ours[2]) or "invalid UTF8" in ours[2]
    if label == "rows" and "shards" in changed and ours[0] == theirs[label][0] == "ok":
        # MindSpore's shards count the rows it drops: only which rows they serve is compared
        # (or how many, at most ours)
        if isinstance(ours[1], int):
            unchanged = (before or {}).get(label, ("",))
            return theirs[label][1] <= max(ours[1], unchanged[1] if unchanged[0] == "ok" else 0)
        return {repr(row) for row in theirs[label][1]} <= {repr(row) for row in ours[1]}
    return pipelines.difference(ours, theirs[label]) == (None, None)


def header_quirk(data):
    """How a CSV file's header line is one MindSpore reads apart: "lone CR" (a CR with no LF
    after it ends the line here, not in MindSpore, which reads on to the first LF), "CR" (the
    CR of a CRLF, which MindSpore keeps in the last name), "quote" (MindSpore keeps the quotes
    and splits at every delimiter), or None."""
    first = data.split(b"\n")[0]
    if b"\r" in first[:-1]:
        return "lone CR"
    return "CR" if first.endswith(b"\r") else "quote" if b'"' in first else None


def c_reads_prefix(message):
    """Whether our error names a number field that C's strtol/strtof (MindSpore's stoi/stof)
    reads a number from the start of, dropping what follows, or reads in a syntax refused here
    (hex, nan(...))."""
    found = re.search(r"holds '(.*)', which is not a number of type (int32|float32)", message)
    if not found:
        return False
    text, type_name = found.groups()
    if type_name == "int32":
        return re.match(r"[ \t\n\v\f\r]*[+-]?[0-9]", text) is not None
    return re.match(r"[ \t\n\v\f\r]*[+-]?([0-9]|\.[0-9]|inf|nan)", text, re.I) is not None


def describe(case, limit=300):
    files = ", ".join(f"{name}={data[:limit]!r}" for name, data in case["files"])
    extra = f" shards={case['shards']}" if "shards" in case else ""
    extra += " (glob)" if case["glob"] else ""
    return f"{SOURCES[case['kind']]}({case['kwargs']}){extra} over {files}"


def main():
    return differential_reference.run_tool(__doc__.split("\n\n")[0], 200, __file__, cases,
                                           outcomes, classify, describe,
                                           CASE_TIMEOUT_S,
                                           soft=("error type",))


if __name__ == "__main__":
    sys.exit(main())
