"""SUN397Dataset: the SUN397 folder (``ClassName.txt`` and the ``/a/abbey/sun_*.jpg`` class
folders).

``ClassName.txt`` lists the classes (``/a/abbey``), separated by blanks or newlines; a class's
label (uint32) is its position in that file. Rows go through the classes in sorted name order
(not the file's), and in each class folder through its ``sun_*.jpg`` files sorted by name; other
files are left out. The ``Partitions`` files are not read (MindSpore 2.10 reads every image).
"""
import os

import numpy as np

from ._image_rows import FolderImageDataset, ImageRowsSource, read_text, sorted_entries

CLASS_FILE = "ClassName.txt"


def read_sun397_classes(dataset_dir):
    """``{class name: label}`` of ``ClassName.txt`` (a name listed twice keeps its first)."""
    path = os.path.join(dataset_dir, CLASS_FILE)
    if not os.path.isfile(path):
        raise RuntimeError(f"Invalid file, failed to open {path}: SUN397 file is damaged or "
                           f"permission denied.")
    names = read_text(path, "SUN397").split()
    if not names:
        raise RuntimeError(f"Invalid file, the file size of {path} is unexpected, got size 0 "
                           f"(it lists no class).")
    labels = {}
    for label, name in enumerate(names):
        labels.setdefault(name, label)
    return labels


def _is_sun_image(name):
    return name.startswith("sun_") and name.endswith(".jpg")


class SUN397Source(ImageRowsSource):
    _api = "SUN397Dataset"

    def __init__(self, dataset_dir, decode):
        super().__init__(dataset_dir, decode)
        paths, labels, folders = [], [], [os.path.join(dataset_dir, CLASS_FILE)]
        for name, label in sorted(read_sun397_classes(dataset_dir).items()):
            folder = os.path.join(dataset_dir, name.lstrip("/"))
            if not os.path.isdir(folder):
                raise RuntimeError(f"Invalid path, {name} does not exist or permission denied "
                                   f"({folder}).")
            found = sorted_entries(folder, _is_sun_image)
            folders.append(folder)
            paths.extend(found)
            labels.extend([label] * len(found))
        if not paths:
            raise RuntimeError(f"Invalid data, no valid data matching the dataset API "
                               f"SUN397Dataset. Please check dataset API or file path: "
                               f"{dataset_dir}.")
        # The class folders' stamps change when an image comes or goes.
        self._set_rows([paths], [np.array(labels, dtype=np.uint32)], folders)


class SUN397Dataset(FolderImageDataset):
    """SUN397 scenes: columns ``image`` (file bytes as uint8, or decoded HWC RGB with
    ``decode=True``) and ``label`` uint32. Same signature, defaults and errors as
    ``mindspore.dataset.SUN397Dataset``."""

    _source_class = SUN397Source
