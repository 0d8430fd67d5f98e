"""SQuADDataset: the Stanford Question Answering Dataset, versions 1.1 and 2.0
(``train-v1.1.json`` / ``dev-v1.1.json``, ``train-v2.0.json`` / ``dev-v2.0.json``).

A row is a question: ``context`` and ``question`` (0-d strings), ``text`` (1-D strings, its
answers) and ``answer_start`` (1-D uint32, where each answer starts in the context). As in
MindSpore 2.10 (measured): a question without answers (SQuAD 2.0's impossible ones) has the one
answer ``''`` starting at 4294967295 (-1 as uint32), an ``answer_start`` below 0 wraps the
same way and one with a fraction loses it; usage 'train' reads the train files of both versions that are there (1.1 first),
'dev' the dev files, 'all' (the default) the train files then the dev files, and a usage none
of whose files is there is a RuntimeError when the data is first counted. The questions come
in file order, the files read whole when the pipeline opens the source (a key missing, a value
of the wrong type or a file that is no JSON is a RuntimeError then; MindSpore: when read).
"""
import functools
import json
import os

import numpy as np

from ._corpus_folder import CorpusFolderDataset, ParsedRowsSource
from ._file_rows import FileOrderSampling

VERSIONS = ("v1.1", "v2.0")
_NO_ANSWER = ([""], [2 ** 32 - 1])


def squad_files(dataset_dir, usage):
    """The files ``usage`` reads, in order; RuntimeError where a split has none."""
    files = []
    for split in (["train", "dev"] if usage == "all" else [usage]):
        found = [os.path.join(dataset_dir, f"{split}-{version}.json") for version in VERSIONS]
        found = [path for path in found if os.path.isfile(path)]
        if not found:
            raise RuntimeError(f"Invalid file, SQuADDataset finds no {split} file "
                               f"({', '.join(f'{split}-{v}.json' for v in VERSIONS)}) in "
                               f"{dataset_dir}.")
        files += found
    return files


def _field(obj, key, kind, where):
    if not isinstance(obj, dict) or key not in obj:
        raise RuntimeError(f"Invalid data, SQuADDataset {where} has no key '{key}'.")
    value = obj[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RuntimeError(f"Invalid data, SQuADDataset {where}: '{key}' is "
                           f"{json.dumps(value)[:60]}, not of the type it reads there.")
    return value


def questions(path):
    """(context, question, answer texts, answer starts) of every question of a file."""
    try:
        with open(path, "rb") as f:
            document = json.loads(f.read().decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise RuntimeError(f"Invalid file, SQuADDataset failed to parse {path}: {exc}") from exc
    found = []
    for article in _field(document, "data", list, path):
        for paragraph in _field(article, "paragraphs", list, f"{path} article"):
            context = _field(paragraph, "context", str, f"{path} paragraph")
            for qa in _field(paragraph, "qas", list, f"{path} paragraph"):
                question = _field(qa, "question", str, f"{path} question")
                answers = _field(qa, "answers", list, f"{path} question {question!r}")
                texts = [_field(a, "text", str, f"{path} answer") for a in answers]
                starts = [int(_field(a, "answer_start", (int, float), f"{path} answer")) %
                          2 ** 32 for a in answers]
                found.append((context, question) + ((texts, starts) if answers else _NO_ANSWER))
    return found


class SquadSource(ParsedRowsSource):
    """The questions of the files, read once at open."""

    column_names = ["context", "question", "text", "answer_start"]
    _row_unit = "question"

    def __init__(self, dataset_dir, usage):
        files = squad_files(dataset_dir, usage)
        self._set_rows("SQuADDataset", files, [questions(path) for path in files], "question")

    def _arrays_of(self, entry):
        context, question, texts, starts = entry
        return (np.array(context), np.array(question), np.array(texts, dtype=np.str_),
                np.array(starts, dtype=np.uint32))


class SQuADDataset(FileOrderSampling, CorpusFolderDataset):
    """SQuAD 1.1 / 2.0 questions, as ``mindspore.dataset.SQuADDataset``; see the module
    docstring."""
    USAGES = ("train", "dev", "all")
    COLUMNS = SquadSource.column_names

    def _source_factory(self, dataset_dir, usage):
        return functools.partial(SquadSource, dataset_dir, usage)
