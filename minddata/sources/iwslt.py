"""IWSLT2017Dataset and IWSLT2016Dataset: the IWSLT TED talk translations.

IWSLT 2017 reads ``DeEnItNlRo`` (``texts/DeEnItNlRo/DeEnItNlRo/DeEnItNlRo-DeEnItNlRo/``:
``train.tags.{src}-{tgt}.{lang}``, ``IWSLT17.TED.dev2010.{src}-{tgt}.{lang}.xml``,
``IWSLT17.TED.tst2010.{src}-{tgt}.{lang}.xml``); IWSLT 2016 one folder per pair
(``texts/{src}/{tgt}/{src}-{tgt}/``: ``train.tags.{src}-{tgt}.{lang}``,
``IWSLT16.TED.{set}.{src}-{tgt}.{lang}.xml`` with ``valid_set`` (default 'tst2013') and
``test_set`` (default 'tst2014') among dev2010, tst2010 ... tst2014).

A row is a sentence pair: ``text`` in the source language of ``language_pair`` (default
``['de', 'en']``), ``translation`` in the target language, 0-d strings. As in MindSpore 2.10
(measured): the train files pair line by line, a pair where either line holds one of the talk
tags (``<url``, ``<title``, ``<doc`` ...) is no row, spaces around a sentence are stripped and
an empty line is a RuntimeError; the XML files pair the ``seg`` elements of their ``doc``
elements (entities decoded); usage 'all' (None) reads train, valid (dev2010), test (tst2010);
missing train files give no row, a missing XML file is a RuntimeError.

Where MindSpore differs (the README, "Reading files"): it writes the cleaned pairs into new
files beside the data (``train.de-en``, ``IWSLT17.TED.dev2010.de-en``, ...), here nothing is
written; a CRLF line end loses its ``\\r`` (MindSpore keeps it in the source sentence); train
files of different line counts raise (MindSpore pairs the lines up to the shorter file); an
XML file that is not well-formed (a control character) raises (MindSpore's parser reads it).
"""
import functools
import os
import xml.etree.ElementTree as ElementTree

import numpy as np

from ._corpus_folder import CorpusFolderDataset, ParsedRowsSource
from ._file_rows import FileOrderSampling, text_lines
from ._source_base import Shuffle
from ._validation import type_check

LANGUAGE_PAIRS = [["en", "nl"], ["en", "de"], ["en", "it"], ["en", "ro"], ["ro", "de"],
                  ["ro", "en"], ["ro", "nl"], ["ro", "it"], ["de", "ro"], ["de", "en"],
                  ["de", "nl"], ["de", "it"], ["it", "en"], ["it", "nl"], ["it", "de"],
                  ["it", "ro"], ["nl", "de"], ["nl", "en"], ["nl", "it"], ["nl", "ro"]]
_TAGS = ("<url", "<keywords", "<talkid", "<description", "<reviewer", "<translator", "<title",
         "<speaker", "<doc", "</doc")
_FOLDER = os.path.join("texts", "DeEnItNlRo", "DeEnItNlRo", "DeEnItNlRo-DeEnItNlRo")


def _sentence(text, where):
    if not text:
        raise RuntimeError(f"Invalid file, read an empty line ({where}).")
    return text.strip(" ")


def train_pairs(api, source_path, target_path):
    """The (source, target) sentences of the train files, talk tags left out; none where a
    file is missing (as MindSpore 2.10 reads them, measured)."""
    if not (os.path.isfile(source_path) and os.path.isfile(target_path)):
        return []
    source, target = (
        [line for _, line in text_lines(path, api, blank_lines=True)]
        for path in (source_path, target_path))
    if len(source) != len(target):
        raise RuntimeError(f"Invalid data, {api} pairs the lines of {source_path} "
                           f"({len(source)} lines) and {target_path} ({len(target)} lines).")
    return [(_sentence(a, f"{source_path} line {k}"), _sentence(b, f"{target_path} line {k}"))
            for k, (a, b) in enumerate(zip(source, target), 1)
            if not any(tag in a or tag in b for tag in _TAGS)]


def _segments(path):
    """The text of every ``seg`` of every ``doc`` of an IWSLT XML file, doc by doc."""
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError) as exc:
        raise RuntimeError(f"Invalid file, failed to load xml file: {path} ({exc})") from exc
    if not len(root):
        raise RuntimeError(f"Invalid data, no first child found in {path}")
    children = list(root[0])
    first = next((k for k, child in enumerate(children) if child.tag == "doc"), None)
    if first is None:
        raise RuntimeError(f"Invalid data, no doc found in {path}")
    docs = []
    for doc in children[first:]:        # the first doc and every element after it
        elements = list(doc)
        start = next((k for k, child in enumerate(elements) if child.tag == "seg"), None)
        docs.append([] if start is None else [element.text for element in elements[start:]])
    return docs


def xml_pairs(api, source_path, target_path):
    """The (source, target) sentences of two XML files, seg by seg of doc by doc."""
    pairs = []
    for source_doc, target_doc in zip(_segments(source_path), _segments(target_path)):
        pairs += [(_sentence(a, source_path), _sentence(b, target_path))
                  for a, b in zip(source_doc, target_doc)]
    return pairs


class IwsltSource(ParsedRowsSource):
    """The sentence pairs of the usage's files, read once at open: ``year`` 2017 or 2016 (its
    folder per pair), ``sets`` the valid and test sets' names."""

    column_names = ["text", "translation"]
    _row_unit = "pair"

    def __init__(self, dataset_dir, usage, language_pair, year=2017, sets=("dev2010", "tst2010")):
        src, tgt = language_pair
        api = f"IWSLT{year}Dataset"
        folder = os.path.join(dataset_dir, _FOLDER if year == 2017 else
                              os.path.join("texts", src, tgt, f"{src}-{tgt}"))
        splits = ["train", "valid", "test"] if usage == "all" else [usage]
        files, per_split = [], []
        for split in splits:
            if split == "train":
                paths = [os.path.join(folder, f"train.tags.{src}-{tgt}.{lang}")
                         for lang in (src, tgt)]
                read = train_pairs
            else:
                name = sets[0] if split == "valid" else sets[1]
                paths = [os.path.join(folder, f"IWSLT{year % 100}.TED.{name}.{src}-{tgt}."
                                              f"{lang}.xml") for lang in (src, tgt)]
                read = xml_pairs
            files.append(paths[0])
            per_split.append(read(api, *paths))
        self._set_rows(api, files, per_split, "sentence pair")

    def _arrays_of(self, entry):
        return tuple(np.array(text) for text in entry)


def check_language_pair(language_pair):
    """``language_pair`` (None: ['de', 'en']) as MindSpore checks it."""
    if language_pair is None:
        return ["de", "en"]
    if not isinstance(language_pair, (list, tuple)):
        raise TypeError(f"Argument language_pair with value {language_pair} is not of type "
                        f"[<class 'list'>, <class 'tuple'>], but got {type(language_pair)}.")
    if len(language_pair) != 2:
        raise ValueError("Input language_pair is a list or tuple of length 2.")
    if list(language_pair) not in LANGUAGE_PAIRS:
        raise ValueError(f"Input language_pair{list(language_pair)} is not within the valid set "
                         f"of {LANGUAGE_PAIRS}.")
    return list(language_pair)


class IWSLT2017Dataset(FileOrderSampling, CorpusFolderDataset):
    """IWSLT 2017 sentence pairs, columns ``text`` and ``translation``, as
    ``mindspore.dataset.IWSLT2017Dataset``; see the module docstring."""
    USAGES = ("train", "valid", "test", "all")
    COLUMNS = IwsltSource.column_names

    def __init__(self, dataset_dir, usage=None, language_pair=None, num_samples=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None,
                 num_parallel_workers=None, cache=None):
        self._pair = check_language_pair(language_pair)
        self.language_pair = language_pair if language_pair is not None else self._pair
        super().__init__(dataset_dir, usage=usage, num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, cache=cache)

    def _source_factory(self, dataset_dir, usage):
        return functools.partial(IwsltSource, dataset_dir, usage, self._pair)


IWSLT2016_PAIRS = [["en", "ar"], ["en", "ar"], ["en", "de"], ["en", "fr"], ["en", "cs"],
                   ["ar", "en"], ["fr", "en"], ["de", "en"], ["cs", "en"]]     # MindSpore's list
IWSLT2016_SETS = ["dev2010", "tst2010", "tst2011", "tst2012", "tst2013", "tst2014"]


def check_iwslt2016_language_pair(language_pair):
    """``language_pair`` (None: ['de', 'en']) with MindSpore 2.10's checks and words."""
    if language_pair is None:
        return ["de", "en"]
    if not isinstance(language_pair, (list, tuple)):
        raise TypeError("language_pair should be a type list or tuple of length 2.")
    if len(language_pair) != 2:
        raise ValueError("Input language_pair is a list or tuple of length 2.")
    for k, item in enumerate(language_pair):
        type_check(item, (str,), f"language_pair[{k}]")
    valid = IWSLT2016_PAIRS if isinstance(language_pair, list) else \
        tuple(tuple(pair) for pair in IWSLT2016_PAIRS)
    if list(language_pair) not in IWSLT2016_PAIRS:
        raise ValueError(f"Input language_pair{language_pair} is not within the valid set of "
                         f"{valid}.")
    return list(language_pair)


def check_iwslt2016_set(value, default, name):
    if value is None:
        return default
    type_check(value, (str,), name)
    if value not in IWSLT2016_SETS:
        raise ValueError(f"Input {name} is not within the valid set of {IWSLT2016_SETS}.")
    return value


class IWSLT2016Dataset(FileOrderSampling, CorpusFolderDataset):
    """IWSLT 2016 sentence pairs, columns ``text`` and ``translation``, as
    ``mindspore.dataset.IWSLT2016Dataset``: ``language_pair`` one of MindSpore's pairs (default
    ['de', 'en']), usage 'valid' reads ``valid_set`` (default 'tst2013'), 'test' ``test_set``
    (default 'tst2014'); read as IWSLT2017Dataset reads (the module docstring)."""
    USAGES = ("train", "test", "valid", "all")       # in the order of MindSpore's message
    COLUMNS = IwsltSource.column_names

    def __init__(self, dataset_dir, usage=None, language_pair=None, valid_set=None,
                 test_set=None, num_samples=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, num_parallel_workers=None, cache=None):
        self._pair = check_iwslt2016_language_pair(language_pair)
        self.language_pair = language_pair if language_pair is not None else self._pair
        self.valid_set = check_iwslt2016_set(valid_set, "tst2013", "valid_set")
        self.test_set = check_iwslt2016_set(test_set, "tst2014", "test_set")
        super().__init__(dataset_dir, usage=usage, num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, cache=cache)

    def _source_factory(self, dataset_dir, usage):
        return functools.partial(IwsltSource, dataset_dir, usage, self._pair, 2016,
                                 (self.valid_set, self.test_set))
