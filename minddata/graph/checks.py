"""Argument checks shared by the logical nodes (MindSpore's error types and words)."""
from __future__ import annotations

import os
from typing import Any, List, Literal, Optional, Sequence, overload

INT32_MAX = 2 ** 31 - 1


def wrong_type(name: str, value: Any, *types: type) -> TypeError:
    """MindSpore's type error text ("Argument x with value v is not of type [<class 'int'>],
    but got <class 'str'>."), which code matching on it expects."""
    shown = ", ".join(str(t) for t in types)
    return TypeError(f"Argument {name} with value {value} is not of type [{shown}], but got "
                     f"{type(value)}.")


def out_of_range(name: str, value: Any, low: Any, high: Any,
                 mindspore_words: str = "") -> ValueError:
    """MindSpore's range error text (code that matches on it keeps working), the value given,
    then MindSpore's own sentence where its check says it otherwise."""
    extra = f" {mindspore_words}" if mindspore_words else ""
    return ValueError(f"Input {name} is not within the required interval of [{low}, {high}]. "
                      f"Got {value!r}.{extra}")


def check_max_rowsize(value: Any) -> Optional[int]:
    """``max_rowsize`` of map and batch (MB of shared memory per row): None, an int, or a list
    [in_rowsize, out_rowsize], each in [-1, INT32_MAX] (-1: no limit). Returns the one size
    the workers use (the larger of the two), None for no limit."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, list)):
        raise wrong_type("max_rowsize", value, int, list)
    if isinstance(value, list) and len(value) != 2:
        raise TypeError(f"max_rowsize should be a single integer or a list[in_rowsize, "
                        f"out_rowsize] of length 2, but got {value!r}.")
    sizes = value if isinstance(value, list) else [value]
    for k, size in enumerate(sizes):
        name = f"max_rowsize[{k}]" if isinstance(value, list) else "max_rowsize"
        if isinstance(size, bool) or not isinstance(size, int):
            raise wrong_type(name, size, int)
        if not -1 <= size <= INT32_MAX:
            raise out_of_range(name, size, -1, INT32_MAX)
    size = max(sizes)
    return None if size == -1 else size


def check_num_parallel_workers(n: Any) -> Optional[int]:
    if n is None:
        return None
    if isinstance(n, bool) or not isinstance(n, int):
        raise wrong_type('num_parallel_workers', n, int)
    if not 1 <= n <= 512:
        raise out_of_range("num_parallel_workers", n, 1, 512,
                           f"num_parallel_workers exceeds the boundary between 1 and "
                           f"{os.cpu_count() or 1}!")
    return n


@overload
def check_columns(name: str, cols: Any, allow_none: Literal[False]) -> List[str]: ...
@overload
def check_columns(name: str, cols: Any, allow_none: bool = True) -> Optional[List[str]]: ...


def check_columns(name: str, cols: Any, allow_none: bool = True) -> Optional[List[str]]:
    """str or non-empty list of distinct str -> list, or None; MindSpore's errors, in its
    words and order (an empty name is a ValueError before any type is checked)."""
    if cols is None:
        if allow_none:
            return None
        raise wrong_type(name, cols, list, str)
    if isinstance(cols, str):
        if not cols:
            raise ValueError(f"{name} should not be an empty str.")
        cols = [cols]
    if not isinstance(cols, (list, tuple)):
        raise wrong_type(name, cols, list, str)
    if not cols:
        raise ValueError(f"{name} should not be empty.")
    for i, c in enumerate(cols):
        if isinstance(c, str) and not c:
            raise ValueError(f"{name}[{i}] should not be empty.")
    for i, c in enumerate(cols):
        if not isinstance(c, str):
            raise wrong_type(f"{name}[{i}]", c, str)
    if len(set(cols)) != len(cols):
        raise ValueError(f"Every column name should not be same with others in column_names. "
                         f"({name}: {list(cols)})")
    return list(cols)


def check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise wrong_type(name, value, bool)
    return value


class PipelineArgumentError(ValueError, RuntimeError):
    """A wrong argument found when a dataset is built, which MindSpore finds only when its
    pipeline starts and reports as a RuntimeError: both types, so that code catching either
    works."""


# MindSpore's words for an unknown column, per operation (its pipeline's messages).
_UNKNOWN_COLUMN_WORDS = {
    "map": "Invalid parameter, input column name: {} doesn't exist in the dataset columns.",
    "rename": "Invalid column, column to be renamed does not exist.",
    "filter": "Invalid parameter, column name: {} does not exist in the dataset columns.",
}
_DEFAULT_UNKNOWN_COLUMN_WORDS = "Invalid column, column name: {} does not exist."


def unknown_column_error(op: str, name: str, missing: Sequence[str],
                         have: Sequence[str]) -> PipelineArgumentError:
    """The error for columns ``missing`` (argument ``name`` of ``op``) that the dataset, whose
    columns are ``have``, does not have: this project's text, then MindSpore's words."""
    prefix = f"{op}: " if op else ""
    words = _UNKNOWN_COLUMN_WORDS.get(op, _DEFAULT_UNKNOWN_COLUMN_WORDS).format(missing[0])
    return PipelineArgumentError(f"{prefix}{name} {list(missing)} are not columns of the "
                                 f"dataset {list(have)}. [ERROR] {words}")


def check_known_columns(op: str, name: str, cols: Sequence[str], have: Sequence[str]) -> None:
    """PipelineArgumentError naming the columns of ``cols`` (argument ``name`` of ``op``; ""
    for none) that the dataset, whose columns are ``have``, does not have."""
    missing = [c for c in cols if c not in have]
    if missing:
        raise unknown_column_error(op, name, missing, have)
