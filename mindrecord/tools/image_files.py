"""Loading image files as rows ``{"file_name", "label", "image"}`` (ImageNetToMR and
ImageFolderToMR share it): the bytes are stored as they are, after a cheap structural check."""
import os
from dataclasses import dataclass

from .bad_input import BadItem
from .conversion import ItemLoader
from .image_check import check_image

IMAGE_SCHEMA = {"label": {"type": "int32"}, "image": {"type": "bytes"},
                "file_name": {"type": "string"}}
IMAGE_INDEX_FIELDS = ["label", "file_name"]


@dataclass(frozen=True)
class ImageItem:
    path: str          # where to read the bytes
    file_name: str     # what the row's file_name holds
    label: int


def read_file(path):
    """The whole file, read with one unbuffered read of its size (a third cheaper than a
    buffered ``open().read()`` for many small files; the GIL is released while reading)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        size = os.fstat(fd).st_size
        data = os.read(fd, size)
        if len(data) < size:                 # short read: keep reading until end of file
            parts = [data]
            while True:
                more = os.read(fd, 1 << 20)
                if not more:
                    break
                parts.append(more)
            data = b"".join(parts)
        return data
    finally:
        os.close(fd)


class ImageFileLoader(ItemLoader):
    def __init__(self, verify="header"):
        self.verify = verify

    def load(self, item):
        try:
            item.file_name.encode("utf-8")
        except UnicodeEncodeError:
            # os.listdir keeps undecodable bytes as surrogates; MindRecord strings are UTF-8.
            raise BadItem(ascii(item.path), "file name is not valid UTF-8 (MindRecord stores "
                                            "file_name as UTF-8 text)") from None
        try:
            data = read_file(item.path)
        except OSError as exc:
            raise BadItem(item.path, f"cannot read: {exc.strerror or exc}") from None
        check_image(data, item.path, self.verify)
        return {"file_name": item.file_name, "label": item.label, "image": data}
