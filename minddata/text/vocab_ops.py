"""The text ops of ``mindspore.dataset.text`` that look words up or convert them: Lookup,
ToNumber, PythonTokenizer. Plain Python transforms (eager on an array or a str, or in
``dataset.map``), with MindSpore 2.10's outputs, dtypes and errors (measured)."""
import re

import numpy as np

from minddata import mstype
from transforms_c._validate import wrong_type

from .sequence_ops import TextOperation

from .vocab import Vocab


def _check_type(data_type, name="data_type"):
    if not isinstance(data_type, mstype.Type):
        raise TypeError(f"Argument {name} with value {data_type} is not of type "
                        f"[<class 'mindspore._c_expression.typing.Type'>], but got "
                        f"{type(data_type)}.")
    return data_type


def _numeric_type(data_type, name="data_type"):
    """The numpy dtype of a MindSpore number type (mstype.int32 ...; not bool)."""
    _check_type(data_type, name)
    if not isinstance(data_type, mstype.Number) or data_type.dtype.kind not in "iuf":
        raise TypeError(f"{name}: {data_type} is not numeric data type.")
    return data_type.dtype


def _strings(value, op):
    """``value`` (a str, or an array of str or bytes) as an array of str."""
    array = np.asarray(value)
    if array.dtype.kind == "S":
        array = np.char.decode(array, "utf-8")
    if array.dtype.kind != "U":
        raise RuntimeError(f"{op}: input should be string datatype.")
    return array


class Lookup(TextOperation):
    """Lookup(vocab, unknown_token=None, data_type=mstype.int32): each word's id in ``vocab``,
    a word not in it as ``unknown_token``'s id (without one: RuntimeError)."""

    def __init__(self, vocab, unknown_token=None, data_type=mstype.int32):
        if not isinstance(vocab, Vocab):
            raise wrong_type("vocab", vocab, Vocab)
        if unknown_token is not None and not isinstance(unknown_token, str):
            raise wrong_type("unknown_token", unknown_token, str)
        self.vocab, self.unknown_token = vocab, unknown_token
        self.data_type = _check_type(data_type)

    def _compute(self, words):
        if not isinstance(self.data_type, mstype.Number):    # checked when first used
            raise RuntimeError("Lookup : The parameter data_type must be numeric including "
                               "bool.")
        ids = self.vocab.vocab()
        unknown = None
        if self.unknown_token is not None:
            if self.unknown_token not in ids:
                raise RuntimeError(f'Lookup: "{self.unknown_token}" doesn\'t exist in vocab.')
            unknown = ids[self.unknown_token]
        words = _strings(words, "Lookup")

        def id_of(word):
            if word in ids:
                return ids[word]
            if unknown is None:
                raise RuntimeError(f'Lookup: invalid data, token: "{word}" doesn\'t exist in '
                                   f'vocab and no unknown token is specified.')
            return unknown
        found = [id_of(word) for word in words.reshape(-1).tolist()]
        return np.array(found, dtype=self.data_type.dtype).reshape(words.shape)


#: the longest number C's strtoll / strtod read at the start of a string (MindSpore parses
#: with std::stoll / std::stod: "1.5" is 1 as an int, "12ab" is 12)
_INTEGER = re.compile(r"\s*[+-]?\d+")
_HEX = re.compile(r"\s*[+-]?0x([0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(p[+-]?\d+)?", re.I)
_REAL = re.compile(r"\s*[+-]?(inf(inity)?|nan|(\d+\.?\d*|\.\d+)(e[+-]?\d+)?)", re.I)


class ToNumber(TextOperation):
    """ToNumber(data_type): each string parsed as a number of ``data_type``."""

    def __init__(self, data_type):
        self.data_type = _numeric_type(data_type)

    def _compute(self, strings):
        strings = _strings(strings, "ToNumber")
        numbers = [self._number(text) for text in strings.reshape(-1).tolist()]
        return np.array(numbers, dtype=self.data_type).reshape(strings.shape)

    def _number(self, text):
        dtype = self.data_type
        if dtype.kind in "iu":
            match, info = _INTEGER.match(text), np.iinfo(dtype)
            value = int(match.group()) if match else None
        else:
            # MindSpore reads float16 and float32 as C's strtof (then float16 by a range
            # check), float64 as strtod: infinities and over- or underflows are refused
            match = _HEX.match(text) or _REAL.match(text)
            wide = np.float64 if dtype == np.float64 else np.float32
            info = np.finfo(wide)
            value = None if not match else (
                float.fromhex(match.group().strip()) if "x" in match.group().lower()
                else float(match.group()))
        if value is None:
            kind = {"i": "an integer", "u": "an unsigned integer"}.get(dtype.kind,
                                                                      "a float number")
            raise RuntimeError(f'ToNumber: it is invalid to convert "{text}" to {kind}.')
        negative_unsigned = dtype.kind == "u" and text.lstrip().startswith("-")   # "-0" too
        if negative_unsigned or not _within(value, info):
            low, high = (f"{info.min}", f"{info.max}") if dtype.kind in "iu" else (
                f"{float(info.min):f}", f"{float(info.max):f}")
            raise RuntimeError(f"ToNumber: string input {text} will be out of bounds if cast "
                               f"to {dtype.name}. The valid range is: [{low}, {high}].")
        if dtype == np.float16 and abs(value) > 65504:
            raise RuntimeError(f"ToFloat16: value {value:f}in input data is outside of valid "
                               f"float16 range [65504.000000, -65504.000000].")
        return value


def _within(value, info):
    if isinstance(info, np.iinfo):
        return info.min <= value <= info.max
    if value != value:                  # nan
        return True
    magnitude = abs(value)
    return magnitude == 0 or float(info.tiny) <= magnitude <= float(info.max)


class PythonTokenizer:
    """PythonTokenizer(tokenizer): ``tokenizer(str)`` -> a list of words, applied to each
    string of an array (an array of str one dimension more)."""

    def __init__(self, tokenizer):
        if not callable(tokenizer):
            raise TypeError("tokenizer is not a callable Python function.")
        self.tokenizer = tokenizer
        self._tokenize = np.vectorize(lambda text: np.array(tokenizer(text), dtype=str),
                                      signature="()->(n)")

    def __call__(self, strings):
        if not isinstance(strings, np.ndarray):
            raise TypeError(f"input should be a NumPy array. Got {type(strings)}.")
        if strings.dtype.kind == "S":
            strings = np.char.decode(strings, "utf-8")
        try:
            return self._tokenize(strings)
        except Exception as exc:        # MindSpore's words for a failing Python function
            name = getattr(self.tokenizer, "__name__", type(self.tokenizer).__name__)
            raise RuntimeError(f"Error occurred in Pyfunc [{name}], error message: "
                               f"{exc}") from exc
