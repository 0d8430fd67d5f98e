"""Multi30kDataset: the Multi30k English-German sentence pairs (``training/train.{en,de}``,
``validation/val.{en,de}``, ``mmt16_task1_test/test.{en,de}``).

A row is line ``i`` of the two files of a split: ``text`` in the first language of
``language_pair`` (default ``['en', 'de']``) and ``translation`` in the second, 0-d strings. As
in MindSpore 2.10 (measured): a pair of empty lines is no row; usage 'all' (None) reads the
splits in the order of their paths (test, train, valid).

Where MindSpore differs (the README, "Reading files"): it stops at the shorter file and serves
at most as many pairs as the English file has non-empty lines (its ``get_dataset_size()``);
here files of different line counts are a RuntimeError naming them, and a CRLF ending loses
its ``\\r`` as TextFileDataset's lines do.
"""
import functools
import os

import numpy as np

from ._corpus_folder import CorpusFolderDataset, ParsedRowsSource
from ._file_rows import FileOrderSampling, text_lines

SPLITS = {"test": ("mmt16_task1_test", "test"), "train": ("training", "train"),
          "valid": ("validation", "val")}


def split_lines(path):
    """Every line of a file (empty ones too), as TextFileDataset's lines are read."""
    if not os.path.isfile(path):
        raise RuntimeError(f"Invalid file, Multi30kDataset: {path} does not exist.")
    return [text for _, text in text_lines(path, "Multi30kDataset", blank_lines=True)]


class Multi30kSource(ParsedRowsSource):
    """The sentence pairs of the splits, read once at open."""

    column_names = ["text", "translation"]
    _row_unit = "pair"

    def __init__(self, dataset_dir, usage, language_pair):
        files, per_split = [], []
        for split in (sorted(SPLITS) if usage == "all" else [usage]):
            folder, stem = SPLITS[split]
            paths = [os.path.join(dataset_dir, folder, f"{stem}.{language}")
                     for language in language_pair]
            source, target = (split_lines(path) for path in paths)
            if len(source) != len(target):
                raise RuntimeError(f"Invalid data, Multi30kDataset pairs the lines of {paths[0]} "
                                   f"({len(source)} lines) and {paths[1]} ({len(target)} lines).")
            files.append(paths[0])
            per_split.append([pair for pair in zip(source, target) if pair != ("", "")])
        self._set_rows("Multi30kDataset", files, per_split, "sentence pair")

    def _arrays_of(self, entry):
        return tuple(np.array(text) for text in entry)


def check_language_pair(language_pair):
    """``language_pair`` as a list: None means ['en', 'de']; MindSpore's checks."""
    if language_pair is None:
        return ["en", "de"]
    if not isinstance(language_pair, (list, tuple)):
        raise TypeError(f"Argument language_pair with value {language_pair} is not of type "
                        f"[<class 'list'>, <class 'tuple'>], but got {type(language_pair)}.")
    if len(language_pair) != 2:
        raise ValueError(f"language_pair should be a list or tuple of length 2, but got "
                         f"{len(language_pair)}")
    if list(language_pair) not in (["en", "de"], ["de", "en"]):
        raise ValueError(f"language_pair can only be ['en', 'de'] or ['de', 'en'], but got "
                         f"{language_pair}")
    return list(language_pair)


class Multi30kDataset(FileOrderSampling, CorpusFolderDataset):
    """Multi30k sentence pairs, columns ``text`` and ``translation``, as
    ``mindspore.dataset.Multi30kDataset``; see the module docstring."""
    USAGES = ("train", "test", "valid", "all")
    COLUMNS = Multi30kSource.column_names

    def __init__(self, dataset_dir, usage=None, language_pair=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, num_shards=None, shard_id=None,
                 cache=None):
        self.language_pair = check_language_pair(language_pair)
        super().__init__(dataset_dir, usage=usage, num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers,
                         shuffle=True if shuffle is None else shuffle, num_shards=num_shards,
                         shard_id=shard_id, cache=cache)

    def _source_factory(self, dataset_dir, usage):
        return functools.partial(Multi30kSource, dataset_dir, usage, self.language_pair)
