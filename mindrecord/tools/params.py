"""Argument checks shared by the converters (MindSpore raises ValueError for bad values, and the
OSError family for a path that is missing or of the wrong kind)."""
import os

from ..errors import ParamValueError
from .image_check import VERIFY_MODES


def check_path_arg(value, name, kind="any", missing=FileNotFoundError):
    """``value`` must be a str naming an existing file ("file"), directory ("dir") or either.
    A missing path raises ``missing`` (MindSpore 2.10: FileNotFoundError, or a plain OSError
    for ImageNetToMR's map file and CsvToMR's source), a file for a directory
    NotADirectoryError, a directory for a file IsADirectoryError, as MindSpore's open() and
    listdir() do (measured)."""
    if not isinstance(value, str) or not value:
        raise ValueError(f"Parameter {name} must be a non-empty str, got {value!r}.")
    if not os.path.exists(value):
        raise missing(f"Parameter {name}: {value} does not exist.")
    if kind == "file" and os.path.isdir(value):
        raise IsADirectoryError(f"Parameter {name}: {value} is a directory, not a file.")
    if kind == "dir" and not os.path.isdir(value):
        raise NotADirectoryError(f"Parameter {name}: {value} is not a directory.")
    return value


def check_destination_arg(destination):
    """A file name FileWriter accepts (format spec §9): no special characters in the base name."""
    if not isinstance(destination, str) or not destination:
        raise ValueError(f"Parameter destination must be a non-empty str, got {destination!r}.")
    base = os.path.basename(destination)
    if not base:                        # MindSpore: ParamValueError, "can not end with '/'"
        raise ParamValueError(f"Parameter destination: file name {destination!r} should not "
                              f"be empty (it can not end with '/').")
    # MindSpore's ParamValueError and words (a ValueError too)
    if set('\\/:*?"<>|`&;\'') & set(base):
        raise ParamValueError(f"File name should not contains \\/:*?\\\"<>|`&;\\' "
                              f"(destination {destination!r}).")
    if base != base.strip():
        raise ParamValueError(f"File name should not start/end with space (destination "
                              f"{destination!r}).")
    return destination


def check_partition_number(partition_number):
    if isinstance(partition_number, bool) or not isinstance(partition_number, int):
        raise ValueError("The parameter partition_number must be int")
    if not 1 <= partition_number <= 1000:
        # MindSpore's FileWriter refuses it with ParamValueError (a ValueError here)
        raise ParamValueError(f"The parameter partition_number must be in [1, 1000], "
                              f"got {partition_number}")
    return partition_number


def check_columns_list(columns_list, name="columns_list"):
    """None or a list of str; an empty value ([], "") means every column, as in MindSpore
    2.10."""
    if not columns_list:
        return None
    if not isinstance(columns_list, list) or not all(isinstance(c, str) for c in columns_list):
        raise ValueError(f"The parameter {name} must be list of str.")
    return columns_list


def check_verify(verify):
    if verify not in VERIFY_MODES:
        raise ValueError(f"Parameter verify must be one of {VERIFY_MODES}, got {verify!r}.")
    return verify
