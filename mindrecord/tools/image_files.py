"""Loading image files as rows ``{"file_name", "label", "image"}`` (ImageNetToMR and
ImageFolderToMR share it): the bytes are stored as they are, after a cheap structural check."""
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


class ImageFileLoader(ItemLoader):
    def __init__(self, verify="header"):
        self.verify = verify

    def load(self, item):
        try:
            with open(item.path, "rb") as f:
                data = f.read()
        except OSError as exc:
            raise BadItem(item.path, f"cannot read: {exc.strerror or exc}") from None
        check_image(data, item.path, self.verify)
        return {"file_name": item.file_name, "label": item.label, "image": data}
