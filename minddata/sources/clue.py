"""CLUEDataset: the JSON-lines files of the CLUE benchmark's classification tasks.

Each non-empty line of ``dataset_files`` (paths or glob patterns, the matches sorted) is one JSON
object and one row. The columns depend on ``task`` and ``usage`` (``_KEYS``) and come in
alphabetical order, as MindSpore orders them; a column of WSC reads a key inside the
``target`` object. A value's type follows the JSON value, as in MindSpore: a string is a 0-d
string array, an integer 0-d ``uint32``, or ``int32`` where it is written with a minus sign
(even ``-0``), a number with a fraction or exponent 0-d ``float32``, a list of strings a 1-D
string array. What MindSpore 2.10 fails on fails here (a number past float64, ``NaN``, a lone
surrogate escape), and so do values it has no right value for (see ``_value``).

The files are read whole when the pipeline opens the source, so rows are random-access and
shard like the other sources here (round robin, see the README's "Reading files").
"""
import functools
import json

import numpy as np

from ._file_rows import FileOrderSampling, TextLinesRowSource, file_stamps
from ._source_base import Shuffle, SourceDataset
from ._validation import check_dataset_files, check_sampling_args

TASKS = ["AFQMC", "TNEWS", "IFLYTEK", "CMNLI", "WSC", "CSL"]
USAGES = ["train", "test", "eval"]

_WSC_TARGET = {name: ("target", name) for name in
               ("span1_index", "span2_index", "span1_text", "span2_text")}


def _keys(task, usage):
    """Column name -> key path in the JSON object, for one task and usage."""
    labelled = usage != "test"
    if task in ("AFQMC", "CMNLI"):
        names = ["sentence1", "sentence2"] + (["label"] if labelled else ["id"])
    elif task == "TNEWS":
        names = ["sentence", "keywords"] + (["label", "label_desc"] if labelled else ["id"])
    elif task == "IFLYTEK":
        names = ["sentence"] + (["label", "label_des"] if labelled else ["id"])
    elif task == "CSL":
        names = ["id", "abst", "keyword"] + (["label"] if labelled else [])
    else:  # WSC
        names = list(_WSC_TARGET) + ["idx", "text"] + (["label"] if labelled else [])
    return {name: _WSC_TARGET.get(name, (name,)) for name in sorted(names)}


_INT32_MIN, _UINT32_MAX = -2 ** 31, 2 ** 32 - 1


class _Signed(int):
    """A JSON integer written with a minus sign: int32 even when it is -0, as MindSpore 2.10
    types it (measured: "label": -0 is an int32 0, "label": 0 a uint32 0)."""


def _json_int(text):
    return _Signed(text) if text.startswith("-") else int(text)


def _json_float(text):
    value = float(text)
    if value in (float("inf"), float("-inf")):     # 1e309: MindSpore 2.10's "number overflow"
        raise ValueError(f"number overflow parsing {text!r}")
    return value


def _json_constant(name):
    # NaN, Infinity and -Infinity are no JSON (Python's json reads them; MindSpore 2.10 fails)
    raise ValueError(f"{name} is no JSON value")


def _loads(text):
    """A line's JSON object, read as MindSpore 2.10 reads it (see the hooks above); a BOM
    before it is skipped, as MindSpore does (measured)."""
    return json.loads(text[1:] if text.startswith("\ufeff") else text, parse_int=_json_int,
                      parse_float=_json_float, parse_constant=_json_constant)


def _value(value, where):
    """A JSON value -> the Python value a row keeps for it (converted to numpy on read)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:      # a lone surrogate escape, "\ud800": MindSpore 2.10 fails
            raise RuntimeError(f"Invalid json file, {where} holds a lone UTF-16 surrogate "
                               f"escape ({value!r}), which is no Unicode text.") from None
        return value
    if isinstance(value, bool) or value is None or isinstance(value, dict):
        raise RuntimeError(f"Invalid json file, {where} is {json.dumps(value)}: CLUEDataset "
                           f"reads strings, numbers and lists of strings only.")
    if isinstance(value, int):
        if not _INT32_MIN <= value <= _UINT32_MAX:
            raise RuntimeError(f"Invalid json file, {where} is {value}, outside the range of "
                               f"int32 / uint32 that CLUEDataset reads integers into.")
        return np.int32(value) if isinstance(value, _Signed) else np.uint32(value)
    if isinstance(value, float):
        return np.float32(value)
    if not all(isinstance(v, str) for v in value):
        raise RuntimeError(f"Invalid json file, {where} is a list holding other values than "
                           f"strings: CLUEDataset reads lists of strings only.")
    return tuple(_value(v, where) for v in value)


class ClueSource(TextLinesRowSource):
    """Every non-empty line of the files, parsed once at open into a tuple of Python values."""

    def __init__(self, files, task, usage):
        self._task, self._usage = task, usage
        keys = _keys(task, usage)
        self.column_names = list(keys)

        def parse(path, number, text):
            try:
                obj = _loads(text)
            except ValueError as exc:
                raise RuntimeError(f"Invalid json, failed to parse {path}, line {number}: "
                                   f"{exc}") from exc
            row = []
            for name, path_keys in keys.items():
                value = obj
                for key in path_keys:
                    if not isinstance(value, dict) or key not in value:
                        raise RuntimeError(
                            f"Invalid json file, in given JSON file, failed to find key: {key} "
                            f"({path}, line {number}; task {task} usage {usage} reads the keys "
                            f"{['/'.join(k) for k in keys.values()]}).")
                    value = value[key]
                row.append(_value(value, f"key {'/'.join(path_keys)} in {path}, line {number}"))
            return tuple(row)

        self._read_lines(files, "CLUEDataset", parse,
                         "Invalid data, 'CLUEDataset' API can't read the data file (interface "
                         "mismatch or no data found). Check file path:")

    def read_rows(self, ids):
        return [tuple(np.array(v, dtype=np.str_) if isinstance(v, tuple) else np.array(v)
                      for v in row) for row in self._parsed(ids)]

    def describe(self):
        return (f"CLUEDataset(files={file_stamps(self._files)}, task={self._task}, "
                f"usage={self._usage})")


class CLUEDataset(FileOrderSampling, SourceDataset):
    """Rows of CLUE JSON-lines files. Same signature, defaults (``shuffle=Shuffle.GLOBAL``),
    columns and errors as ``mindspore.dataset.CLUEDataset``; see the module docstring."""

    def __init__(self, dataset_files, task='AFQMC', usage='train', num_samples=None,
                 num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, cache=None):
        files = check_dataset_files(dataset_files)
        if task not in TASKS:
            raise ValueError("task should be 'AFQMC', 'TNEWS', 'IFLYTEK', 'CMNLI', 'WSC' or "
                             f"'CSL', but got {task!r}.")
        if usage not in USAGES:
            raise ValueError(f"usage should be 'train', 'test' or 'eval', but got {usage!r}.")
        check_sampling_args(num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id)
        self.dataset_files, self.task, self.usage = files, task, usage
        super().__init__(functools.partial(ClueSource, files, task, usage),
                         num_samples=num_samples, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, sampler=None,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         shuffle_modes=(Shuffle.GLOBAL, Shuffle.FILES, Shuffle.INFILE),
                         column_names=list(_keys(task, usage)))
