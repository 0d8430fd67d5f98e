"""ImageNetToMR: class folders named in a map file ("n01440764 0" per line) -> MindRecord.

Schema (MindSpore's): ``file_name`` string, ``label`` int32, ``image`` bytes (the file as it is),
index on ``label`` and ``file_name``; header 16 MiB, pages 32 MiB (what MindSpore 2.10's files
have), desc "imagenet_schema".
``file_name`` is the image's path as MindSpore stores it: ``os.path.join(image_dir, folder, file)``.
Files are taken in sorted order (MindSpore uses directory order, which varies by file system).
"""
import logging
import os

from ..errors import PathNotExistsError
from .bad_input import ConversionError
from .conversion import ConversionSpec
from .converter import Converter
from .image_files import IMAGE_INDEX_FIELDS, IMAGE_SCHEMA, ImageFileLoader, ImageItem
from .params import check_destination_arg, check_partition_number, check_path_arg, check_verify

logger = logging.getLogger(__name__)

IMAGENET_SUFFIXES = ("JPEG", "jpg")   # MindSpore takes only these and warns about the rest


def read_map_file(map_file):
    """[(folder, label)] from a map file; a malformed line raises ConversionError naming it."""
    entries = []
    try:
        with open(map_file, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConversionError(f"map_file {map_file}: cannot read: {exc}") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        fields = line.split()
        if len(fields) != 2:
            raise ConversionError(f"map_file {map_file} line {number}: expected "
                                  f"'<folder> <label>', got {line!r}")
        try:
            label = int(fields[1])
        except ValueError:
            raise ConversionError(f"map_file {map_file} line {number}: label {fields[1]!r} "
                                  "is not an integer") from None
        if not -2**31 <= label < 2**31:
            raise ConversionError(f"map_file {map_file} line {number}: label {label} is "
                                  "outside the int32 range")
        entries.append((fields[0], label))
    if not entries:
        raise ConversionError(f"map_file {map_file}: no '<folder> <label>' lines")
    return entries


class ImageNetToMR(Converter):
    """Convert an ImageNet-style folder to MindRecord (``mindspore.mindrecord.ImageNetToMR``).

    Args:
        map_file (str): lines ``<folder> <label>``.
        image_dir (str): directory holding the folders.
        destination (str): MindRecord file to write (``destination0..N-1`` when partitioned).
        partition_number (int): number of shard files. Default 1.
        verify (str, keyword-only): "header" (cheap structural check, default), "decode", "none".
    """

    def __init__(self, map_file, image_dir, destination, partition_number=1, *,
                 verify="header"):
        # the destination and partition first: MindSpore 2.10 makes its FileWriter here
        self.destination = check_destination_arg(destination)
        self.partition_number = check_partition_number(partition_number)
        self.map_file = check_path_arg(map_file, "map_file", "file", missing=OSError)
        if not isinstance(image_dir, str) or not image_dir:
            check_path_arg(image_dir, "image_dir")      # its ValueError
        if not os.path.isdir(image_dir):    # MindSpore 2.10: no folder of the map file there
            raise PathNotExistsError(f"Parameter image_dir: {image_dir} is not a directory.")
        self.image_dir = image_dir
        self.verify = check_verify(verify)

    def _build_specs(self):
        items = []
        found_dir = False
        for folder, label in read_map_file(self.map_file):
            folder_path = os.path.join(self.image_dir, folder)
            if not os.path.isdir(folder_path):
                logger.warning("%s dir is not exist", folder_path)
                continue
            found_dir = True
            for name in sorted(os.listdir(folder_path)):
                path = os.path.join(folder_path, name)
                if not name.endswith(IMAGENET_SUFFIXES):
                    logger.warning("%s file is not suffix with JPEG/jpg, skip it.", path)
                    continue
                items.append(ImageItem(path, path, label))
        if not found_dir:               # MindSpore 2.10's type (measured)
            raise PathNotExistsError(f"no folder named in map_file {self.map_file} exists "
                                     f"in image_dir {self.image_dir}")
        # MindSpore 2.10 asks for 64 MiB pages but writes with parallel_writer=True, which
        # keeps the default 32 MiB: its files have 32 MiB pages, and so do ours; where there is
        # no image it never writes, and its header keeps the 64 MiB asked for.
        return [ConversionSpec(self.destination, IMAGE_SCHEMA, "imagenet_schema", items,
                               ImageFileLoader(self.verify), self.partition_number,
                               IMAGE_INDEX_FIELDS, header_size=1 << 24,
                               page_size=None if items else 1 << 26)]
