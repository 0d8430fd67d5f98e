"""SBUDataset: the SBU Captioned Photo data with its images downloaded.

Layout: ``SBU_captioned_photo_dataset_urls.txt`` and ``SBU_captioned_photo_dataset_captions.txt``
(line ``i`` of one belongs to line ``i`` of the other) and the folder ``sbu_images/``. As in
MindSpore 2.10, an image's file name is its URL from the 24th character on with every ``/``
made ``_`` (``http://static.flickr.com/2723/4385_b0f2.jpg`` -> ``m_2723_4385_b0f2.jpg``); a
line pair whose image is not in the folder is left out, blank line pairs are skipped, and the
pairs end with the shorter file.

Rows: ``image`` the file's bytes (1-D uint8), HWC uint8 RGB with ``decode=True``, and
``caption`` a 0-d str array (the caption without its trailing spaces).
"""
import functools
import os

from ._image_files import check_common_args, file_stamp, meta_column, read_each, read_image
from ._image_rows import read_text
from ._source_base import RowSource, SourceDataset
from ._validation import check_dir, check_file

URLS_FILE = "SBU_captioned_photo_dataset_urls.txt"
CAPTIONS_FILE = "SBU_captioned_photo_dataset_captions.txt"
IMAGE_FOLDER = "sbu_images"
_URL_PREFIX = 23        # MindSpore keeps a URL's characters from index 23 on as the file name
API = "SBUDataset"


def _lines(path, what):
    """A text file's lines as getline gives them (no empty last line), without a ``\\r``."""
    lines = read_text(path, f"SBU {what}").split("\n")
    if lines and not lines[-1]:
        lines.pop()
    return [line.rstrip("\r") for line in lines]


def read_pairs(dataset_dir):
    """(image paths, captions) of the line pairs whose image is in ``sbu_images/``."""
    urls_path = os.path.join(dataset_dir, URLS_FILE)
    captions_path = os.path.join(dataset_dir, CAPTIONS_FILE)
    folder = os.path.join(dataset_dir, IMAGE_FOLDER)
    if not os.path.isdir(folder):
        raise RuntimeError(f"Invalid folder, failed to find SBU image folder: {folder}")
    paths, captions = [], []
    pairs = zip(_lines(urls_path, "url"), _lines(captions_path, "caption"))
    for number, (url, caption) in enumerate(pairs, 1):
        if not url and not caption:
            continue
        if not url or not caption:
            raise RuntimeError(f"Invalid data, SBU url and caption file are mismatched: "
                               f"{urls_path} and {captions_path} (line {number}: url {url!r}, "
                               f"caption {caption!r}).")
        name = url[_URL_PREFIX:].replace("/", "_")
        path = os.path.join(folder, name)
        if name and os.path.isfile(path):
            paths.append(path)
            captions.append(caption.rstrip(" "))
    if not paths:
        raise RuntimeError(f"No valid images in {folder} (none of the images named by "
                           f"{urls_path} is there).")
    return paths, captions


class SBUSource(RowSource):
    """The pairs found; a read opens each requested image (decoding it if asked)."""

    column_names = ["image", "caption"]

    def __init__(self, dataset_dir, decode):
        self._dir, self._decode = dataset_dir, decode
        self._paths, self._captions = read_pairs(dataset_dir)

    def __len__(self):
        return len(self._paths)

    def _read_one(self, i):
        return (read_image(self._paths[i], self._decode, None, API),
                meta_column(self._captions[i]))

    def read_rows(self, ids):
        return read_each(self._read_one, ids, len(self), f"{API} {self._dir}")

    def provenance(self, row_id):
        return f"{self._paths[int(row_id)]} (row {int(row_id)})"

    def describe(self):
        files = [file_stamp(os.path.join(self._dir, n)) for n in (URLS_FILE, CAPTIONS_FILE)]
        return (f"{API}(dir={self._dir!r}, files={files}, rows={len(self._paths)}, "
                f"decode={self._decode})")


class SBUDataset(SourceDataset):
    """SBU captioned photos: columns ``image`` (file bytes as uint8, or decoded HWC RGB with
    ``decode=True``) and ``caption`` (str).

    Same signature, defaults and errors as ``mindspore.dataset.SBUDataset``.
    """

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        dataset_dir = check_dir(dataset_dir)
        check_file(os.path.join(dataset_dir, URLS_FILE))
        check_file(os.path.join(dataset_dir, CAPTIONS_FILE))
        check_dir(os.path.join(dataset_dir, IMAGE_FOLDER))
        check_common_args(API, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                          shard_id, decode, None, refuse_pk_sampler=False)
        self.dataset_dir, self.decode = dataset_dir, decode
        super().__init__(functools.partial(SBUSource, dataset_dir, decode),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=SBUSource.column_names)
