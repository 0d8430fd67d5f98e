"""The text ops of ``mindspore.dataset.text`` that reshape a sequence of words: Ngram,
SlidingWindow, Truncate, TruncateSequencePair, AddToken. Plain Python transforms (eager or in
``dataset.map``), with MindSpore 2.10's outputs and errors (measured)."""
import numpy as np

from transforms_c._validate import INT32_MAX, check_bool, check_int, is_int, wrong_type
from transforms_c.transforms import refuse_empty_input


class TextOperation:
    """A text op: ``_compute(*arrays)``; MindSpore's eager call refuses an empty input, its
    map hands one to the op (``apply``: the op protocol of transforms_c.contract.Operation,
    which minddata's map calls)."""

    is_random = False

    def __call__(self, *arrays):
        refuse_empty_input(type(self).__name__, arrays)
        return self._compute(*arrays)

    def apply(self, arrays, seed):
        out = self._compute(*arrays)
        return out if isinstance(out, tuple) else (out,)


def _pad(pad, name):
    if not (isinstance(pad, tuple) and len(pad) == 2 and isinstance(pad[0], str) and
            is_int(pad[1])):
        raise ValueError(f"{name} needs to be a tuple of (str, int) str is pad token and int is "
                         f"pad_width.")
    check_int(pad[1], f"{name}[1]", 0, INT32_MAX)
    return pad


class Ngram(TextOperation):
    """Ngram(n, left_pad=("", 0), right_pad=("", 0), separator=" "): the n-grams of a 1D array
    of str for each n of ``n``, joined by ``separator``; the words padded with at most n - 1
    pad tokens each side; a sequence shorter than n gives one "" for it."""

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" "):
        grams = [n] if is_int(n) else n
        if not isinstance(grams, list) or not grams or not all(is_int(g) for g in grams):
            raise ValueError("n needs to be a non-empty list of positive integers.")
        for i, gram in enumerate(grams):
            if gram <= 0:
                raise ValueError(f"Input gram_{i} must be greater than 0.")
        self.n = grams
        self.left_pad, self.right_pad = _pad(left_pad, "left_pad"), _pad(right_pad, "right_pad")
        if not isinstance(separator, str):
            raise wrong_type("separator", separator, str)
        self.separator = separator

    def _compute(self, words):
        words = np.asarray(words)
        if words.ndim != 1 or words.dtype.kind not in "US":
            raise RuntimeError("Ngram: input is not a 1D data with string datatype.")
        words = [w.decode("utf-8") if isinstance(w, bytes) else w for w in words.tolist()]
        grams = []
        for n in self.n:
            padded = ([self.left_pad[0]] * min(self.left_pad[1], n - 1) + words +
                      [self.right_pad[0]] * min(self.right_pad[1], n - 1))
            if len(padded) < n:
                grams.append("")
                continue
            grams.extend(self.separator.join(padded[i:i + n])
                         for i in range(len(padded) - n + 1))
        return np.array(grams, dtype=str)


def _one_dimension(array, op):
    if array.ndim != 1:
        raise RuntimeError(f"{op}: {op} supports 1D input only for now, but got "
                           f"{array.ndim}D.")


class SlidingWindow(TextOperation):
    """SlidingWindow(width, axis=0): the windows of ``width`` consecutive elements of a 1D
    array, one a row."""

    def __init__(self, width, axis=0):
        self.width = check_int(width, "width", 1, INT32_MAX)
        if not is_int(axis):
            raise wrong_type("axis", axis, int)
        self.axis = axis

    def _compute(self, values):
        if self.axis not in (0, -1):
            raise RuntimeError(f"SlidingWindow: The parameter axis supports 0 or -1 only for "
                               f"now, but got {self.axis}.")
        values = np.asarray(values)
        _one_dimension(values, "SlidingWindow")
        count = max(len(values) - self.width + 1, 0)
        if count == 0:
            return values[:0]
        return np.stack([values[i:i + self.width] for i in range(count)])


class Truncate(TextOperation):
    """Truncate(max_seq_len): a 1D or 2D array cut to ``max_seq_len`` along its last axis."""

    def __init__(self, max_seq_len):
        self.max_seq_len = check_int(max_seq_len, "max_seq_len", 1, INT32_MAX)

    def _compute(self, values):
        values = np.asarray(values)
        if values.ndim not in (1, 2):
            raise RuntimeError(f"Truncate: the input tensor should be of dimension 1 or 2, but "
                               f"got {values.ndim}.")
        return values[..., :self.max_seq_len]


class TruncateSequencePair(TextOperation):
    """TruncateSequencePair(max_length): two 1D arrays cut, the longer one first (the second
    of two as long), until their lengths add up to at most ``max_length``."""

    def __init__(self, max_length):
        self.max_length = max_length

    def _compute(self, first, second):
        # MindSpore checks max_length when the op is first used
        if not is_int(self.max_length):
            raise wrong_type("max_length", self.max_length, int)
        if self.max_length < 0:             # checked when first used
            raise RuntimeError(f"TruncateSequencePair : The parameter max_length must be "
                               f"greater than or equal to 0: {self.max_length}")
        first, second = np.asarray(first), np.asarray(second)
        for array in (first, second):
            _one_dimension(array, "TruncateSequencePair")
        length1, length2 = len(first), len(second)
        while length1 + length2 > self.max_length:
            if length1 > length2:
                length1 -= 1
            else:
                length2 -= 1
        return first[:length1], second[:length2]


class AddToken(TextOperation):
    """AddToken(token, begin=True): ``token`` put before (or after) the words of a 1D array of
    str, or of each row of a 2D one."""

    def __init__(self, token, begin=True):
        if not isinstance(token, str):
            raise wrong_type("token", token, str)
        self.token, self.begin = token, check_bool(begin, "begin")

    def _compute(self, words):
        if not self.token:                  # checked when first used
            raise RuntimeError("AddToken: Parameter token is not provided.")
        words = np.asarray(words)
        if words.ndim not in (1, 2):
            raise RuntimeError("AddToken: input tensor rank should be 1 or 2.")
        if words.dtype.kind not in "US":
            raise RuntimeError("AddToken: input tensor type should be string.")
        words = np.char.decode(words, "utf-8") if words.dtype.kind == "S" else words
        token = np.full(words.shape[:-1] + (1,), self.token)
        parts = (token, words) if self.begin else (words, token)
        return np.concatenate(parts, axis=-1)
