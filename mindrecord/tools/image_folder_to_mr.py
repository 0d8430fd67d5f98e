"""ImageFolderToMR: class folders (``root/<class>/<image>``, no map file) -> MindRecord.

Labels follow ImageFolderDataset: class folders in sorted order get 0, 1, 2, ... unless
``class_indexing`` maps folder names to labels. Schema as ImageNetToMR's (``file_name`` string =
path relative to the root, ``label`` int32, ``image`` bytes), desc "image_folder_schema".
"""
import os

from .bad_input import BadItem, ConversionError
from .conversion import ConversionSpec
from .converter import Converter
from .image_files import IMAGE_INDEX_FIELDS, IMAGE_SCHEMA, ImageFileLoader, ImageItem
from .params import check_destination_arg, check_partition_number, check_path_arg, check_verify

DEFAULT_EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".gif", ".tif", ".tiff", ".webp")


class _UnknownClass(ImageFileLoader):
    """Items in a folder outside ``class_indexing``: always bad (skipped with --skip-bad)."""

    def load(self, item):
        if item.label is None:
            raise BadItem(item.path, "label outside the class list: folder "
                                     f"{os.path.basename(os.path.dirname(item.path))!r} is not "
                                     "in class_indexing")
        return super().load(item)


class ImageFolderToMR(Converter):
    """Convert ``source/<class>/<image>`` folders to MindRecord.

    Args:
        source (str): root directory with one sub-folder per class.
        destination (str): MindRecord file to write.
        partition_number (int): number of shard files. Default 1.
        extensions (list[str]): file extensions to take (case-insensitive); default common
            image formats. Other files are ignored.
        class_indexing (dict[str, int]): folder name -> label; a folder not in it is bad input.
        verify (str): "header" (default), "decode" or "none".
    """

    def __init__(self, source, destination, partition_number=1, extensions=None,
                 class_indexing=None, *, verify="header"):
        self.source = check_path_arg(source, "source", "dir")
        self.destination = check_destination_arg(destination)
        self.partition_number = check_partition_number(partition_number)
        if extensions is not None and (not isinstance(extensions, (list, tuple)) or
                                       not all(isinstance(e, str) for e in extensions)):
            raise ValueError("Parameter extensions must be a list of str.")
        self.extensions = tuple(e.lower() for e in (extensions or DEFAULT_EXTENSIONS))
        if class_indexing is not None:
            if not isinstance(class_indexing, dict) or not all(
                    isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                    for k, v in class_indexing.items()):
                raise ValueError("Parameter class_indexing must be a dict of str -> int.")
        self.class_indexing = class_indexing
        self.verify = check_verify(verify)

    def _build_specs(self):
        classes = sorted(d for d in os.listdir(self.source)
                         if os.path.isdir(os.path.join(self.source, d)))
        if not classes:
            raise ConversionError(f"source {self.source}: no class folders found")
        labels = self.class_indexing or {name: i for i, name in enumerate(classes)}
        items = []
        for cls in classes:
            folder = os.path.join(self.source, cls)
            for name in sorted(os.listdir(folder)):
                if not name.lower().endswith(self.extensions):
                    continue
                path = os.path.join(folder, name)
                items.append(ImageItem(path, f"{cls}/{name}", labels.get(cls)))
        if not items:
            raise ConversionError(f"source {self.source}: no image files with extensions "
                                  f"{', '.join(self.extensions)} in its class folders")
        return [ConversionSpec(self.destination, IMAGE_SCHEMA, "image_folder_schema", items,
                               _UnknownClass(self.verify), self.partition_number,
                               IMAGE_INDEX_FIELDS, header_size=1 << 24)]
