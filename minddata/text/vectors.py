"""Pre-trained word vectors of ``mindspore.dataset.text``: Vectors, FastText, GloVe, CharNGram
(``from_file``) and the ToVectors op, read and looked up as MindSpore 2.10 does (measured).

The file is read as bytes, as MindSpore's C++ reader does: lines split at "\\n"; before the
first vector, lines of exactly two space-separated fields are headers (FastText's "count dim");
the first other line fixes the width (its space-separated fields less one); a line's word is
the text up to its first space, its numbers the rest split at ASCII whitespace, each read as
C's ``atof`` (its longest number prefix, else 0). A repeated word keeps its first vector."""
import os

import numpy as np

from transforms_c._validate import INT32_MAX, check_int, wrong_type

from .sequence_ops import TextOperation
from .vocab_ops import _HEX, _REAL

_ASCII_LOWER = bytes.lower      # C's tolower: ASCII letters only, UTF-8 bytes unchanged


def _atof(field):
    """C's atof on one whitespace-free field: its longest number prefix, else 0."""
    text = field.decode("latin-1")
    match = _HEX.match(text) or _REAL.match(text)
    if match is None:
        return 0.0
    number = match.group()
    return float.fromhex(number) if "x" in number.lower() else float(number)


def _fields(line):
    """The fields of C++'s getline(stream, field, ' ') over ``line``: a trailing space ends
    the last field without starting an empty one."""
    fields = line.split(b" ")
    if fields[-1] == b"":
        fields.pop()
    return fields


def _read_vectors(path, max_vectors):
    """(word bytes -> float32 vector, dim) of the vector file at ``path``."""
    with open(path, "rb") as stream:
        lines = stream.read().split(b"\n")
    if lines[-1] == b"":            # a final newline ends the last line, starts none
        lines.pop()
    headers, dim = 0, -1
    for line in lines:
        width = len(_fields(line))
        if width != 2:
            dim = width - 1
            break
        headers += 1
    body = lines[headers:]
    if not body:
        raise RuntimeError("Vectors: invalid file, file is empty.")
    if max_vectors:
        body = body[:max_vectors]
    table = {}
    for line in body:
        word, _, rest = line.partition(b" ")
        # bytes.split() splits at C's isspace, as MindSpore's stream reading does
        values = [_atof(field) for field in rest.split()]
        if len(values) <= 1:
            raise RuntimeError("Vectors: token with 1-dimensional vector.")
        if len(values) != dim:
            raise RuntimeError(f"Vectors: all vectors must have the same number of dimensions, "
                               f"but got dim {len(values)} while expecting {dim}")
        table.setdefault(word, np.array(values, dtype=np.float32))
    return table, dim


def _check_from_file(file_path, max_vectors):
    if not isinstance(file_path, str):
        raise wrong_type("file_path", file_path, str)
    return 0 if max_vectors is None else check_int(max_vectors, "max_vectors", 0, INT32_MAX)


def _check_named_file(kind, file_path, name_ok, pattern):
    """FastText and GloVe refuse a missing file, a folder or a file not named as theirs."""
    if not os.path.isfile(file_path):
        raise RuntimeError(f"{kind}: invalid file, failed to open {kind} file.")
    if not name_ok(os.path.basename(file_path)):
        raise RuntimeError(f"{kind}: invalid file, can not find file '{pattern}', but got: "
                           f"{file_path}")


def _is_glove_name(basename):
    # MindSpore cuts the name at its last three dots: "glove" "." "6B" "." any "." "txt"
    stem, _, suffix = basename.rpartition(".")
    stem = stem.rpartition(".")[0]
    prefix, _, infix = stem.rpartition(".")
    return suffix == "txt" and infix == "6B" and prefix == "glove"


class Vectors:
    """Vectors.from_file(file_path, max_vectors=None): word -> vector from a text file of
    "word v1 v2 ..." lines (the first ``max_vectors`` after any header; 0 or None: all)."""

    def __init__(self, table, dim):
        self._table, self.dim = table, dim

    @classmethod
    def from_file(cls, file_path, max_vectors=None):
        max_vectors = _check_from_file(file_path, max_vectors)
        cls._check_file(file_path)
        if not os.path.exists(file_path):
            raise RuntimeError(f"Vectors: get real path failed, path: {file_path}")
        return cls(*_read_vectors(file_path, max_vectors))

    @staticmethod
    def _check_file(file_path):
        """The file checks of a kind of vectors before it is read (none for plain Vectors)."""

    def lookup(self, word, unk_init):
        """The vector of ``word`` (bytes), else ``unk_init``."""
        vector = self._table.get(word)
        return unk_init if vector is None else vector


class FastText(Vectors):
    """FastText.from_file(file_path, max_vectors=None): Vectors from a file named "*.vec"."""

    @staticmethod
    def _check_file(file_path):
        _check_named_file("FastText", file_path,
                          lambda name: name.rpartition(".")[2] == "vec", "*.vec")


class GloVe(Vectors):
    """GloVe.from_file(file_path, max_vectors=None): Vectors from a file named
    "glove.6B.*.txt"."""

    @staticmethod
    def _check_file(file_path):
        _check_named_file("GloVe", file_path, _is_glove_name, "glove.6B.*.txt")


#: CharNGram's keys: "{n}gram-" and n characters (bytes) of "#BEGIN#" word "#END#"
_GRAM_LENGTHS = (2, 3, 4)


class CharNGram(Vectors):
    """CharNGram.from_file(file_path, max_vectors=None): a word's vector is the mean of the
    vectors of its character 2-, 3- and 4-grams ("2gram-#BEGIN#a", "3gram-ab#END#" ...; a
    character is a byte of its UTF-8), leaving out grams whose vector equals the unknown one
    (missing grams, and those equal to ``unk_init``)."""

    def lookup(self, word, unk_init):
        chars = [b"#BEGIN#"] + [bytes((byte,)) for byte in word] + [b"#END#"]
        found = []
        for n in _GRAM_LENGTHS:
            for start in range(len(chars) - n + 1):
                key = b"%dgram-" % n + b"".join(chars[start:start + n])
                vector = self._table.get(key, unk_init)
                if not np.array_equal(vector, unk_init):
                    found.append(vector)
        if not found:
            return unk_init
        return (np.sum(found, axis=0, dtype=np.float32) / np.float32(len(found))).astype(
            np.float32)


class ToVectors(TextOperation):
    """ToVectors(vectors, unk_init=None, lower_case_backup=False): each word's float32 vector
    (a word not in ``vectors``: ``unk_init``, else zeros); ``lower_case_backup`` looks up the
    word with its ASCII letters lowered INSTEAD of the word (MindSpore's reading). One word
    gives a vector (dim,), several (count, dim), whatever the input's shape."""

    def __init__(self, vectors, unk_init=None, lower_case_backup=False):
        if not isinstance(vectors, Vectors):
            raise wrong_type("vectors", vectors, Vectors)
        unk_init = [] if unk_init is None else unk_init
        if not isinstance(unk_init, (list, tuple)):
            raise wrong_type("unk_init", unk_init, list, tuple)
        for i, value in enumerate(unk_init):
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise wrong_type(f"unk_init[{i}]", value, int, float)
        if not isinstance(lower_case_backup, bool):
            raise wrong_type("lower_case_backup", lower_case_backup, bool)
        self.vectors, self.lower_case_backup = vectors, lower_case_backup
        with np.errstate(over="ignore"):          # 1e300 is inf in float32, as MindSpore's
            self.unk_init = np.array(unk_init, dtype=np.float32)

    def __call__(self, words):
        # MindSpore's eager call takes a str, a list of str or an array of str, not of bytes
        if isinstance(words, np.ndarray) and words.dtype.kind == "S":
            raise RuntimeError("ToVectors: input tensor type should be string.")
        return super().__call__(words)

    def _compute(self, words):
        words = np.asarray(words)
        if words.dtype.kind not in "US":
            raise RuntimeError("ToVectors: input tensor type should be string.")
        dim = self.vectors.dim
        if self.unk_init.size not in (0, dim):
            raise RuntimeError(f"ToVectors: unk_init must be the same length as vectors, but "
                               f"got unk_init: {self.unk_init.size} and vectors: {dim}")
        unknown = self.unk_init if self.unk_init.size else np.zeros(dim, np.float32)
        found = [self.vectors.lookup(self._key(word), unknown)
                 for word in words.reshape(-1).tolist()]
        if len(found) == 1:
            return np.array(found[0], dtype=np.float32)
        # an empty row (MindSpore's map divides by its zero length) gives no vectors
        return np.array(found, dtype=np.float32).reshape(len(found), dim)

    def _key(self, word):
        key = word if isinstance(word, bytes) else word.encode("utf-8")
        return _ASCII_LOWER(key) if self.lower_case_backup else key
