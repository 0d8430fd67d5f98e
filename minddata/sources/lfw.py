"""LFWDataset: Labeled Faces in the Wild (the image folders ``lfw``, ``lfw_funneled``,
``lfw-deepfunneled`` beside the annotation files).

``image_set`` picks the folder: 'original' ``lfw``, 'funneled' (the default) ``lfw_funneled``,
'deepfunneled' ``lfw-deepfunneled``; an image is ``<folder>/<name>/<name>_NNNN.jpg``.
``usage`` picks the annotation files: '10fold' ``<task>.txt``, 'train' ``<task>DevTrain.txt``,
'test' ``<task>DevTest.txt``, 'all' (the default) DevTrain then DevTest.

- task 'people' (the default), columns ``[image, label]``: a file is a count line then that many
  ``<name> <number of images>`` lines (with '10fold', a first line with the number of folds,
  each fold so); every image of each listed person is a row, ``label`` (uint32) the person's
  line number in ``lfw-names.txt``.
- task 'pairs', columns ``[image1, image2, label]``: a first line with the number of pairs
  (with '10fold', the number of folds and of pairs per fold); each fold is that many matched
  ``<name> <n1> <n2>`` lines (label 1) then that many ``<name1> <n1> <name2> <n2>`` lines
  (label 0).

Every count and line is checked: a file shorter than its counts say, a line with too few fields,
a number that is not one, or a person missing from ``lfw-names.txt`` is an error naming the file
(MindSpore reads past the end of its list or labels the person 0).
"""
import functools
import os

import numpy as np

from ._image_rows import (ImageRowsDataset, ImageRowsSource, check_choice, check_image_args,
                          read_text)
from ._validation import check_dir

TASKS = ["people", "pairs"]
USAGES = ["10fold", "train", "test", "all"]
IMAGE_SETS = ["original", "funneled", "deepfunneled"]
_IMAGE_FOLDER = {"original": "lfw", "funneled": "lfw_funneled", "deepfunneled": "lfw-deepfunneled"}
_ANNOTATION_SUFFIXES = {"10fold": [""], "train": ["DevTrain"], "test": ["DevTest"],
                        "all": ["DevTrain", "DevTest"]}


class _Lines:
    """The blank-separated fields of the lines of one annotation file, read in order, with
    errors naming the file and the line."""

    def __init__(self, path, dataset_dir):
        if not os.path.isfile(path):
            raise RuntimeError(f"Invalid file, LFW annotation file {path} does not exist. Check "
                               f"file path: {dataset_dir}")
        self.path = path
        self._lines = [line.split() for line in read_text(path, "LFW annotation").split("\n")]
        while self._lines and not self._lines[-1]:
            self._lines.pop()
        if not self._lines:
            raise RuntimeError(f"Invalid file, LFW annotation file is empty. Check file path: "
                               f"{path}")
        self._next = 0

    def fields(self, count):
        """The next line's fields; it must have at least ``count``."""
        if self._next >= len(self._lines):
            raise RuntimeError(f"Invalid file, LFW annotation file {self.path} ends at line "
                               f"{self._next}, before the lines its counts announce.")
        fields = self._lines[self._next]
        self._next += 1
        if len(fields) < count:
            raise RuntimeError(f"Invalid file, line {self._next} of LFW annotation file "
                               f"{self.path} has {len(fields)} fields, expected {count}.")
        return fields

    def number(self, text):
        if not text.isdigit():
            raise RuntimeError(f"Invalid file, line {self._next} of LFW annotation file "
                               f"{self.path}: {text!r} is not a number.")
        return int(text)


def image_id(name, number, lines):
    return name, f"{name}_{str(lines.number(number)).zfill(4)}"


def parse_people(lines, ten_fold):
    """``[(person, file stem)]`` of a people file."""
    folds = lines.number(lines.fields(1)[0]) if ten_fold else 1
    rows = []
    for _ in range(folds):
        for _ in range(lines.number(lines.fields(1)[0])):
            name, count = lines.fields(2)[:2]
            rows.extend(image_id(name, str(k), lines) for k in range(1, lines.number(count) + 1))
    return rows


def parse_pairs(lines, ten_fold):
    """``[(person1, stem1, person2, stem2, match)]`` of a pairs file."""
    head = lines.fields(2 if ten_fold else 1)
    folds, per_fold = (lines.number(head[0]), lines.number(head[1])) if ten_fold else (
        1, lines.number(head[0]))
    rows = []
    for _ in range(folds):
        for _ in range(per_fold):
            name, first, second = lines.fields(3)[:3]
            rows.append(image_id(name, first, lines) + image_id(name, second, lines) + (1,))
        for _ in range(per_fold):
            name1, first, name2, second = lines.fields(4)[:4]
            rows.append(image_id(name1, first, lines) + image_id(name2, second, lines) + (0,))
    return rows


def read_names(dataset_dir):
    """``{person: line number}`` of ``lfw-names.txt`` (blank lines skipped)."""
    path = os.path.join(dataset_dir, "lfw-names.txt")
    if not os.path.isfile(path):
        raise RuntimeError(f"Invalid file, failed to open file: {path}")
    names = [line.split()[0] for line in read_text(path, "LFW names").split("\n") if line.split()]
    return {name: k for k, name in enumerate(names)}, path


class LFWSource(ImageRowsSource):
    _api = "LFWDataset"

    def __init__(self, dataset_dir, task, usage, image_set, decode):
        self.image_columns = ["image"] if task == "people" else ["image1", "image2"]
        super().__init__(dataset_dir, decode)
        self._options_text = f"task={task}, usage={usage}, image_set={image_set}"
        files = [os.path.join(dataset_dir, task + suffix + ".txt")
                 for suffix in _ANNOTATION_SUFFIXES[usage]]
        parse = parse_people if task == "people" else parse_pairs
        rows = [row for path in files for row in parse(_Lines(path, dataset_dir),
                                                        usage == "10fold")]
        folder = os.path.join(dataset_dir, _IMAGE_FOLDER[image_set])

        def image(name, stem):
            return os.path.join(folder, name, stem + ".jpg")

        if task == "people":
            labels_of, names_file = read_names(dataset_dir)
            missing = sorted({name for name, _ in rows} - set(labels_of))
            if missing:
                raise RuntimeError(f"Invalid data, {missing[0]} of the LFW annotation files is "
                                   f"not in {names_file}, so it has no label.")
            paths = [[image(name, stem) for name, stem in rows]]
            labels = [labels_of[name] for name, _ in rows]
            files.append(names_file)
        else:
            paths = [[image(r[0], r[1]) for r in rows], [image(r[2], r[3]) for r in rows]]
            labels = [r[4] for r in rows]
        self._set_rows(paths, [np.array(labels, dtype=np.uint32)], files)

    def _options(self):
        return self._options_text


class LFWDataset(ImageRowsDataset):
    """Labeled Faces in the Wild: columns ``[image, label]`` (task 'people') or ``[image1,
    image2, label]`` (task 'pairs'); images as file bytes (uint8) or decoded HWC RGB with
    ``decode=True``, ``label`` uint32. Same signature, defaults and errors as
    ``mindspore.dataset.LFWDataset`` (see the module docstring)."""

    def __init__(self, dataset_dir, task=None, usage=None, image_set=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        dataset_dir = check_dir(dataset_dir)
        for value, valid, name in ((task, TASKS, "task"), (usage, USAGES, "usage"),
                                   (image_set, IMAGE_SETS, "image_set")):
            if value is not None:
                check_choice(value, valid, name)
        decode = check_image_args("LFWDataset", decode, num_samples, num_parallel_workers,
                                  shuffle, sampler, num_shards, shard_id)
        self.dataset_dir, self.decode = dataset_dir, decode
        self.task, self.usage = task or "people", usage or "all"
        self.image_set = image_set or "funneled"
        columns = (["image"] if self.task == "people" else ["image1", "image2"]) + ["label"]
        self._start(functools.partial(LFWSource, dataset_dir, self.task, self.usage,
                                      self.image_set, decode),
                    columns, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                    shard_id, cache)
