"""Word-vector cases for tools/text_ops_vs_mindspore.py: a random vector file (headers, widths,
duplicates, odd numbers, blank lines; named for Vectors, FastText, GloVe or CharNGram, or
misnamed) read by ``from_file`` and looked up by ``ToVectors`` (unk_init, lower_case_backup)."""
import os
import tempfile

KINDS = {"Vectors": ["v.txt"], "FastText": ["f.vec", "f.VEC", "a.vec.txt"],
         "GloVe": ["glove.6B.3d.txt", "glove.840B.3d.txt", "glove.6B.txt"],
         "CharNGram": ["charNgram.txt"]}
WORDS = ["a", "b", "A", "Ab", "é", "É", "zz", "", "2gram-#BEGIN#a", "2gram-a#END#", "ab"]
NUMBERS = ["1", "-2.5", "0", "1e3", "x", "0x10", "nan", "3.", ".5"]
_FOLDER = None      # one temporary folder per process, removed when it ends


def _line(r, dim):
    return " ".join([r.choice(WORDS) or "w"] + [r.choice(NUMBERS) for _ in range(dim)])


def vector_case(r):
    kind = r.choice(list(KINDS))
    dim = r.choice([2, 3])
    lines = ([f"{r.randint(1, 9)} {dim}"] if r.random() < 0.3 else [])
    lines += [_line(r, dim if r.random() < 0.9 else r.choice([1, 4])) for _ in range(r.randint(
        1, 6))]
    if r.random() < 0.1:
        lines.insert(r.randint(0, len(lines)), "")
    words = [[r.choice(WORDS + ["B", "AB"]) for _ in range(r.randint(1, 4))]
             for _ in range(r.randint(1, 3))]
    return {"inputs": [[row] for row in words], "vectors": kind,
            "file_name": r.choice(KINDS[kind]), "lines": lines,
            "max_vectors": r.choice([None, None, 0, 2, -1]),
            "unk_init": r.choice([None, [], [0.5] * dim, [1] * (dim + 1), (7, 8), "x"]),
            "lower_case_backup": r.choice([False, True, True, 1])}


def build_to_vectors(library, case):
    global _FOLDER
    if _FOLDER is None:
        _FOLDER = tempfile.TemporaryDirectory()
    path = os.path.join(_FOLDER.name, case["file_name"])
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in case["lines"]))
    vectors = getattr(library.text, case["vectors"]).from_file(path, case["max_vectors"])
    return library.text.ToVectors(vectors, case["unk_init"], case["lower_case_backup"])


CASES = [("ToVectors", vector_case, build_to_vectors)]
