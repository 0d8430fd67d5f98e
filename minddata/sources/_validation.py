"""Argument checks shared by the file sources, with MindSpore's error types and message texts.

MindSpore validates a source's arguments in the constructor (``mindspore.dataset.engine.validators``)
so that a wrong argument fails on the line that wrote it; ported scripts may match on these
messages, so the texts below follow MindSpore 2.10's.
"""
import glob
import os

from mindrecord.remote import is_url

INT32_MAX = 2 ** 31 - 1
INT64_MAX = 2 ** 63 - 1
MAX_DATASET_FILES = 4096


def type_check(arg, types, arg_name):
    """TypeError unless ``arg`` is one of ``types`` (bool never passes for int, as in MindSpore)."""
    if not isinstance(types, (tuple, list)):
        types = (types,)
    if int in types and bool not in types and isinstance(arg, bool):
        ok = False
    else:
        ok = isinstance(arg, tuple(types))
    if not ok:
        shown = '""' if arg == "" else arg
        raise TypeError(f"Argument {arg_name} with value {shown} is not of type {list(types)}, "
                        f"but got {type(arg)}.")


def check_value(value, low, high, arg_name):
    if not low <= value <= high:
        raise ValueError(f"Input {arg_name} is not within the required interval of [{low}, {high}].")


def check_file(path, arg_name="dataset_files", urls=False):
    """Return the real path of a readable regular file, or raise MindSpore's ValueError.
    urls: a URL is accepted as it is (the source opens it)."""
    type_check(path, (str,), arg_name)
    if urls and is_url(path):
        return path     # opening the set checks it (one listing), not every constructor
    real = os.path.realpath(path)
    if not os.path.isfile(real) or not os.access(real, os.R_OK):
        raise ValueError(f"The file {real} does not exist or permission denied!")
    return real


def check_dir(path, arg_name="dataset_dir"):
    """Return the real path of a readable directory, or raise MindSpore's ValueError."""
    type_check(path, (str,), arg_name)
    real = os.path.realpath(path)
    if not os.path.isdir(real) or not os.access(real, os.R_OK):
        raise ValueError(f"The folder {real} does not exist or is not a directory or permission denied!")
    return real


def check_file_list(dataset_files, arg_name="dataset_files", urls=False):
    """MindDataset's rule: one path (a shard of a set) or a non-empty list of at most 4096 paths."""
    type_check(dataset_files, (str, list), arg_name)
    if isinstance(dataset_files, str):
        return check_file(dataset_files, arg_name, urls)
    if not dataset_files:
        raise ValueError(f"{arg_name} should not be an empty list.")
    if len(dataset_files) > MAX_DATASET_FILES:
        raise ValueError(f"length of dataset_file should be less than or equal to {MAX_DATASET_FILES}.")
    return [check_file(f, arg_name, urls) for f in dataset_files]


def find_files(patterns, arg_name="dataset_files"):
    """CSV/TFRecord rule: paths or glob patterns, matched files de-duplicated and sorted."""
    type_check(patterns, (str, list), arg_name)
    if isinstance(patterns, str):
        patterns = [patterns]
    if not patterns:
        raise ValueError(f"{arg_name} should not be an empty list.")
    found, unmatched = set(), []
    for pattern in patterns:
        type_check(pattern, (str,), arg_name)
        matches = [os.path.realpath(m) for m in glob.glob(pattern, recursive=True)]
        matches = [m for m in matches if os.path.isfile(m)]
        if not matches:
            unmatched.append(pattern)
        found.update(matches)
    if unmatched:
        raise ValueError(f"The following patterns did not match any files: {unmatched}.")
    for path in found:
        if not os.access(path, os.R_OK):
            raise ValueError(f"The file {path} does not exist or permission denied!")
    return sorted(found)


def check_dataset_files(dataset_files):
    """MindSpore's check of a text source's ``dataset_files`` (TextFile, CLUE): a str or list,
    not empty, every pattern matching a file; the matches sorted (``find_files``)."""
    type_check(dataset_files, (str, list), "dataset files")
    if not dataset_files:
        raise ValueError(f"Input dataset_files can not be empty, but got '{dataset_files}'.")
    return find_files(dataset_files, "dataset_files")


def check_class_indexing(class_indexing):
    """None, or a dict of str class names to int labels (ImageFolder, Manifest; MindSpore
    serves negative labels as given)."""
    if class_indexing is None:
        return
    type_check(class_indexing, (dict,), "class_indexing")
    for name, label in class_indexing.items():
        type_check(name, (str,), "class_indexing")
        type_check(label, (int,), "class_indexing")


def check_mappable_shuffle(shuffle):
    """``shuffle`` of a source read by row id (image folders, MNIST, CIFAR, Manifest, COCO,
    VOC, CelebA): None or a bool; MindSpore refuses a ``Shuffle`` member there."""
    if shuffle is not None:
        type_check(shuffle, (bool,), "shuffle")


def check_usage(usage, valid):
    """``usage`` is None (means 'all') or one of ``valid``; returns the effective usage."""
    if usage is None:
        return "all"
    type_check(usage, (str,), "usage")
    if usage not in valid:
        raise ValueError(f"Input usage is not within the valid set of {str(list(valid))}.")
    return usage


def check_optional(value, types, arg_name):
    if value is not None:
        type_check(value, types, arg_name)


def check_sampling_args(num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                        num_shards=None, shard_id=None):
    """The checks every MindSpore source runs (validators.check_sampler_shuffle_shard_options).

    The engine core checks the sharding arguments too (same texts); running them here first keeps
    the failure on the line that built the dataset, before any source-specific check.
    """
    if num_samples is not None:
        type_check(num_samples, (int,), "num_samples")
        if num_samples < 0 or num_samples > INT64_MAX:
            raise ValueError(f"num_samples exceeds the boundary between 0 and {INT64_MAX}(INT64_MAX)!")
    # num_parallel_workers is checked by the core (one rule for every dataset node).
    if shuffle is not None and not isinstance(shuffle, bool) and not _is_shuffle_enum(shuffle):
        raise TypeError("shuffle must be of boolean or enum of 'Shuffle' values like 'Shuffle.ADAPTIVE' or "
                        "'Shuffle.GLOBAL' or 'Shuffle.PARTIAL' or 'Shuffle.FILES' or 'Shuffle.INFILE'.")
    if num_shards is not None:
        type_check(num_shards, (int,), "num_shards")
    if shard_id is not None:
        type_check(shard_id, (int,), "shard_id")
    if sampler is not None:
        if shuffle is not None:
            raise RuntimeError("sampler and shuffle cannot be specified at the same time.")
        if num_shards is not None or shard_id is not None:
            raise RuntimeError("sampler and sharding cannot be specified at the same time.")
        if num_samples is not None and num_samples != 0:
            raise RuntimeError("sampler and num_samples cannot be specified at the same time.")
    if num_shards is not None:
        check_value(num_shards, 1, INT32_MAX, "num_shards")
        if shard_id is None:
            raise RuntimeError("num_shards is specified and currently requires shard_id as well.")
        check_value(shard_id, 0, num_shards - 1, "shard_id")
    if num_shards is None and shard_id is not None:
        raise RuntimeError("shard_id is specified but num_shards is not.")


def _is_shuffle_enum(value):
    # The Shuffle enum belongs to the engine core; recognise it by its values so this module
    # does not depend on where the core defines it.
    return getattr(type(value), "__name__", "") == "Shuffle" and hasattr(value, "value")

