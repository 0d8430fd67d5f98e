"""The text transforms and vocabularies of ``mindspore.dataset.text`` against MindSpore 2.10, on
random word lists, sentences and arguments, each valid or wrong.

A case is one op (``Lookup``, ``Ngram``, ``SlidingWindow``, ``ToNumber``, ``Truncate``,
``TruncateSequencePair``, ``AddToken``, ``PythonTokenizer``) or one way of building a ``Vocab``
(``from_list``, ``from_dict``, ``from_file``, ``from_dataset``) on random words (unicode, empty
strings, duplicates, special tokens) and arguments. An op is built ("build"), called eagerly on
each input row ("eager") and mapped over a dataset of those rows ("map"); a vocabulary is built
("build") and read back ("vocab": its ``vocab()`` sorted by id, ``tokens_to_ids``,
``ids_to_tokens``). The same cases run here and in MindSpore's own interpreter
(``--mindspore-python``) and are compared item by item: where it raises and the type of error
(another type counted apart as "error type"), else the values' dtype, shape and values.
Counted apart too: differences the README documents ("documented") and cases that kill or hang
MindSpore's interpreter ("MindSpore crashed").

    .venv/bin/python tools/text_ops_vs_mindspore.py [--seed 1] [--cases 200]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]
        [--show-documented] [--case N ...]

Other case modules hook in: ``tools/text_vector_cases.py`` and, where present,
``tools/text_tokenizer_cases.py`` are
imported and its ``CASES`` drawn with this tool's: a list of ``(name, make_case, build)``, where
``make_case(rng)`` (``rng`` a ``random.Random``) gives a case as plain, picklable data: a dict
with ``"inputs"``, a list of rows, each a list of column values (a str, a list of str or a
nested list: each becomes a numpy array; several columns for ops of several inputs), and
whatever else ``build`` needs (e.g. ``"args"``); ``build(library, case)`` gives the op to run,
where ``library.text``, ``library.ds`` and ``library.mstype`` are ``mindspore.dataset.text``,
``mindspore.dataset`` and ``mindspore.common.dtype`` (or this package's). The tool builds the
op, runs it eagerly on each row and through ``map`` and compares every item. A module may
define ``documented(case, item, ours, theirs)`` (the README's word for a difference in one of
its cases, or None).

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

try:
    import text_tokenizer_cases                                     # noqa: E402
except ImportError:
    text_tokenizer_cases = None
import text_vector_cases                                            # noqa: E402

CASE_TIMEOUT_S = 30         # a case of the reference interpreter that runs longer hangs
WORDS = ["a", "b", "the", "cat", "Ünïcode", "日本", "", " ", "<unk>", "<pad>", "a b", "x\ty",
         "é", "😀", "1", "-2", "3.5", "1e3", "abc"]
SPECIALS = [None, [], ["<pad>", "<unk>"], ["<unk>"], ["<s>", "</s>"], ["a"], "<unk>", [1]]


def words(r, count=None, pool=WORDS):
    return [r.choice(pool) for _ in range(r.randint(0, 6) if count is None else count)]


def unique_words(r):
    return list(dict.fromkeys(words(r)))


# --- the vocabularies ---------------------------------------------------------------------------


def vocab_case(r):
    how = r.choice(["from_list", "from_dict", "from_file", "from_dataset"])
    case = {"kind": "vocab", "how": how, "special_tokens": r.choice(SPECIALS),
            "special_first": r.choice([True, False, True, 1]),
            "probe": words(r, 4) + ["<unk>"], "ids": [r.randint(-1, 9) for _ in range(4)]}
    if how == "from_list":
        case["word_list"] = r.choice([unique_words(r), words(r), "abc", [1, "a"]])
    elif how == "from_dict":
        case["word_dict"] = r.choice([
            {w: i for i, w in enumerate(unique_words(r))},
            {w: r.randint(0, 9) for w in unique_words(r)}, {"a": -1}, {"a": "1"}, {1: 1}, [1]])
        case.pop("special_tokens")
        case.pop("special_first")
    elif how == "from_file":
        delimiter = r.choice(["", ",", " ", "\t"])
        case["lines"] = [w + (delimiter + str(r.randint(0, 9)) if delimiter and r.random() < .7
                              else "") for w in words(r)]
        case["delimiter"] = delimiter
        case["vocab_size"] = r.choice([None, None, 1, 3, 0, -1, "2"])
    else:
        case["rows"] = [words(r, r.randint(1, 4), WORDS[:8]) for _ in range(r.randint(1, 5))]
        case["columns"] = r.choice([None, "t", ["t"], "q", 1])
        case["freq_range"] = r.choice([None, None, (1, 2), (2, None), (None, 1), (0, 1), (3, 1),
                                       (-1, 2), [1, 2]])
        case["top_k"] = r.choice([None, None, 1, 3, 0, -1, 2.0])
    return case


def build_vocab(library, case, directory):
    Vocab = library.text.Vocab
    extra = {name: case[name] for name in ("special_tokens", "special_first") if name in case}
    if case["how"] == "from_list":
        return Vocab.from_list(case["word_list"], **extra)
    if case["how"] == "from_dict":
        return Vocab.from_dict(case["word_dict"])
    if case["how"] == "from_file":
        path = os.path.join(directory, "vocab.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in case["lines"]))
        return Vocab.from_file(path, case["delimiter"], case["vocab_size"], **extra)
    rows = case["rows"]
    data = library.ds.GeneratorDataset(lambda: ((np.array(row),) for row in rows), ["t"],
                                       shuffle=False)
    return Vocab.from_dataset(data, case["columns"], case["freq_range"], case["top_k"], **extra)


def read_vocab(vocab, case):
    ordered = sorted(vocab.vocab().items(), key=lambda item: item[1])
    return (ordered, vocab.tokens_to_ids(case["probe"]), vocab.ids_to_tokens(case["ids"]))


def run_vocab(library, case, directory):
    built = attempt(lambda: build_vocab(library, case, directory))
    if built[0] == "error":
        return [("build", built)]
    return [("build", ("ok", None)), ("vocab", attempt(lambda: read_vocab(built[1], case)))]


# --- the ops ------------------------------------------------------------------------------------

def word_rows(r, pool=WORDS, ragged=False):
    """1 to 3 rows of one column: 1D arrays of words (sometimes empty, 2D or a scalar)."""
    count = r.randint(0, 5)
    shape = r.choice(["1d"] * 6 + ["empty", "2d", "scalar"] + (["ints"] if ragged else []))
    rows = []
    for _ in range(r.randint(1, 3)):
        if shape == "1d":
            rows.append([words(r, max(count, 1), pool)])
        elif shape == "empty":
            rows.append([[]])
        elif shape == "2d":
            rows.append([[words(r, max(count, 1), pool) for _ in range(2)]])
        elif shape == "ints":
            rows.append([[r.randint(-5, 5) for _ in range(max(count, 1))]])
        else:
            rows.append([r.choice(pool)])
    return rows


TYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
         "float32", "float64", "bool_", "string", "np.int32"]


def data_type(library, name):
    return np.int32 if name == "np.int32" else getattr(library.mstype, name)


def lookup_case(r):
    vocabulary = unique_words(r) + ["<unk>"] * (r.random() < .7)
    return {"vocab": list(dict.fromkeys(vocabulary)), "inputs": word_rows(r),
            "unknown_token": r.choice([None, "<unk>", "<unk>", "nope", 1]),
            "data_type": r.choice(["int32"] * 4 + TYPES)}


def build_lookup(library, case):
    vocab = library.text.Vocab.from_list(case["vocab"])
    return library.text.Lookup(vocab, case["unknown_token"], data_type(library, case["data_type"]))


NUMBERS = ["1", "-2", "3.5", "1e3", " 7", "300", "-129", "65536", "abc", "", "1.5e40", "inf",
           "nan", "0x10", "12ab", "+4", "99999999999999999999", "-0", ".5"]


def to_number_case(r):
    return {"inputs": word_rows(r, NUMBERS), "data_type": r.choice(TYPES)}


def ngram_case(r):
    n = r.choice([1, 2, 3, 5, 0, -1, [1, 2], [2, 4], [], [1, 0], "2", 2.0])
    pad = lambda: r.choice([("", 0), ("_", 1), ("<p>", 3), ("x", -1), ["_", 1], ("_",), (1, 1)])
    return {"inputs": word_rows(r, ragged=True), "n": n, "left_pad": pad(),
            "right_pad": pad(), "separator": r.choice([" ", "+", "", "--", 1])}


def sliding_case(r):
    return {"inputs": word_rows(r, ragged=True), "width": r.choice([1, 2, 3, 6, 0, -1, "2"]),
            "axis": r.choice([0, 0, 0, -1, 1, "0"])}


def truncate_case(r):
    return {"inputs": word_rows(r, ragged=True), "max_seq_len": r.choice([1, 2, 4, 0, -1, 2.0])}


def pair_case(r):
    rows = [[words(r, r.randint(0, 5)), [r.randint(0, 9) for _ in range(r.randint(0, 5))]]
            for _ in range(r.randint(1, 3))]
    return {"inputs": rows, "max_length": r.choice([0, 1, 3, 5, 8, -1, "3"])}


def add_token_case(r):
    return {"inputs": word_rows(r, ragged=True), "token": r.choice(["<s>", "", "日本", 1, None]),
            "begin": r.choice([True, False, 1])}


TOKENIZERS = {"split": str.split, "chars": list, "none": lambda text: [],
              "upper": lambda text: [text.upper()], "not callable": 1}


def python_tokenizer_case(r):
    return {"inputs": word_rows(r, WORDS + ["a b c", "x y"]), "tokenizer": r.choice(
        list(TOKENIZERS)), "as_str": r.random() < .1}


def build_python_tokenizer(library, case):
    op = library.text.PythonTokenizer(TOKENIZERS[case["tokenizer"]])
    return (lambda value: op(str(value))) if case["as_str"] else op


#: name -> (make_case(rng), build(library, case)); this tool's and text_tokenizer_cases'
OPS = {
    "Lookup": (lookup_case, build_lookup),
    "ToNumber": (to_number_case, lambda library, case: library.text.ToNumber(
        data_type(library, case["data_type"]))),
    "Ngram": (ngram_case, lambda library, case: library.text.Ngram(
        case["n"], case["left_pad"], case["right_pad"], case["separator"])),
    "SlidingWindow": (sliding_case, lambda library, case: library.text.SlidingWindow(
        case["width"], case["axis"])),
    "Truncate": (truncate_case, lambda library, case: library.text.Truncate(
        case["max_seq_len"])),
    "TruncateSequencePair": (pair_case, lambda library, case: library.text.TruncateSequencePair(
        case["max_length"])),
    "AddToken": (add_token_case, lambda library, case: library.text.AddToken(
        case["token"], case["begin"])),
    "PythonTokenizer": (python_tokenizer_case, build_python_tokenizer),
}


def op_cases():
    own = [(name, make, build) for name, (make, build) in OPS.items()]
    return own + list(getattr(text_tokenizer_cases, "CASES", [])) + text_vector_cases.CASES


def run_op(library, case, build):
    built = attempt(lambda: build(library, case))
    if built[0] == "error":
        return [("build", built)]
    op, rows = built[1], case["inputs"]
    eager = attempt(lambda: [plain_all(op(*[np.array(column) for column in row]))
                             for row in rows])
    columns = [f"c{i}" for i in range(len(rows[0]))] if rows else ["c0"]

    def mapped():
        data = library.ds.GeneratorDataset(
            lambda: (tuple(np.array(column) for column in row) for row in rows), columns,
            shuffle=False).map(operations=op, input_columns=columns)
        return [[plain(v) for v in row]
                for row in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    return [("build", ("ok", None)), ("eager", eager), ("map", attempt(mapped))]


def plain_all(value):
    return [plain(v) for v in value] if isinstance(value, (tuple, list)) else [plain(value)]


# --- the cases ----------------------------------------------------------------------------------


def cases(seed, count):
    r = random.Random(seed)
    makers = [("vocab", vocab_case)] + [(name, make) for name, make, _ in op_cases()]
    found = []
    for _ in range(count):
        name, make = r.choice(makers)
        case = make(r)
        case["kind"] = name
        found.append(case)
    return found


class Library:
    def __init__(self, name):
        prefix = "mindspore" if name == "mindspore" else "minddata"
        self.ds = importlib.import_module(f"{prefix}.dataset" if name == "mindspore" else prefix)
        self.text = importlib.import_module(f"{prefix}.dataset.text" if name == "mindspore"
                                            else f"{prefix}.text")
        self.mstype = importlib.import_module("mindspore.common.dtype" if name == "mindspore"
                                              else "minddata.mstype")


def run_case(library, case, directory):
    if case["kind"] == "vocab":
        return run_vocab(library, case, directory)
    build = {name: build for name, _, build in op_cases()}[case["kind"]]
    return run_op(library, case, build)


outcomes = differential_reference.case_by_case(Library, cases, run_case, in_directory=True)
plain = pipelines.plain


def attempt(function):
    try:
        return ("ok", function())
    except Exception as exc:            # an outcome to compare, like a value
        return pipelines.error(exc)


# --- comparing ----------------------------------------------------------------------------------

ROWS = ("eager", "map", "vocab")


def classify(case, ours, theirs):
    if theirs[0][0] == "crash":
        found = [("MindSpore crashed", "crash", theirs[0][1][2])]
    else:
        mine, reference = dict(ours), dict(theirs)
        labels = [label for label in ("build",) + ROWS if label in mine or label in reference]
        found = differential_reference.item_differences(
            [(label, mine.get(label, mine["build"]), reference.get(label, reference["build"]))
             for label in labels], ROWS, pipelines.difference)
    return differential_reference.first_undocumented(case, ours, theirs, found, documented)


def documented(case, item, ours, theirs):
    """The README's word for a difference in ``item``, or None."""
    hooked = getattr(text_tokenizer_cases, "documented", None)
    own = {name for name, _, _ in text_vector_cases.CASES} | set(OPS) | {"vocab"}
    if hooked and case["kind"] not in own:                                # its own cases
        return hooked(case, item, ours, theirs)
    return None


def describe(case, limit=300):
    return repr({k: v for k, v in case.items()})[:limit]


def main():
    return differential_reference.run_tool(
        __doc__.split("\n\n")[0], 200, __file__, cases, outcomes, classify, describe,
        CASE_TIMEOUT_S)


if __name__ == "__main__":
    sys.exit(main())
