"""ImageFolderDataset's row source: folder scan order, labels, extensions, class_indexing, decode."""
import os

import numpy as np
import pytest

from minddata.sources.image_folder import ImageFolderDataset, ImageFolderSource

from .test_sources_helpers import make_image_folder


def _source(root, extensions=None, class_indexing=None, decode=False, decrypt=None):
    return ImageFolderSource(str(root), extensions, class_indexing, decode, decrypt)


def test_sorted_classes_and_files(tmp_path):
    written = make_image_folder(tmp_path, {"b_dog": 2, "a_cat": 3})
    src = _source(tmp_path)
    assert len(src) == 5
    assert src.class_indexing() == {"a_cat": 0, "b_dog": 1}
    rows = src.read_rows(range(5))
    labels = [int(r[1]) for r in rows]
    assert labels == [0, 0, 0, 1, 1]
    assert all(r[1].dtype == np.int32 and r[1].shape == () for r in rows)
    expected = written[os.path.join(str(tmp_path), "b_dog", "img_001.jpg")]
    assert rows[4][0].dtype == np.uint8 and rows[4][0].ndim == 1
    np.testing.assert_array_equal(rows[4][0], expected)
    assert "b_dog" in src.provenance(4) and "img_001.jpg" in src.provenance(4)


def test_empty_class_folder_keeps_its_label(tmp_path):
    make_image_folder(tmp_path, {"a": 1, "c": 1})
    os.makedirs(tmp_path / "b")
    src = _source(tmp_path)
    assert [int(r[1]) for r in src.read_rows([0, 1])] == [0, 2]


def test_extensions_filter_case_sensitive(tmp_path):
    make_image_folder(tmp_path, {"a": 2})
    make_image_folder(tmp_path, {"a": 1}, ext=".png")
    (tmp_path / "a" / "notes.txt").write_text("x")
    assert len(_source(tmp_path)) == 4
    assert len(_source(tmp_path, extensions=[".jpg"])) == 2
    assert len(_source(tmp_path, extensions=[".jpg", ".png"])) == 3
    assert len(_source(tmp_path, extensions=[".JPG"])) == 0


def test_class_indexing_selects_and_labels(tmp_path):
    make_image_folder(tmp_path, {"cat": 2, "dog": 1, "eel": 1})
    src = _source(tmp_path, class_indexing={"dog": 7, "cat": 3})
    assert len(src) == 3
    assert [int(r[1]) for r in src.read_rows(range(3))] == [3, 3, 7]
    assert src.class_indexing() == {"dog": 7, "cat": 3}


def test_class_indexing_unknown_folder(tmp_path):
    make_image_folder(tmp_path, {"cat": 1})
    with pytest.raises(RuntimeError, match="class: fox doesn't exist"):
        _source(tmp_path, class_indexing={"cat": 0, "fox": 1})


def test_decode_gives_rgb_hwc(tmp_path):
    import cv2
    root = tmp_path / "a"
    os.makedirs(root)
    bgr = np.zeros((4, 5, 3), np.uint8)
    bgr[..., 0] = 255                      # pure blue in OpenCV's BGR order
    cv2.imwrite(str(root / "x.png"), bgr)
    image, _ = _source(tmp_path, decode=True).read_rows([0])[0]
    assert image.shape == (4, 5, 3) and image.dtype == np.uint8
    assert image[0, 0].tolist() == [0, 0, 255]


def test_decode_failure_names_file(tmp_path):
    os.makedirs(tmp_path / "a")
    (tmp_path / "a" / "broken.jpg").write_bytes(b"not an image")
    src = _source(tmp_path, decode=True)
    with pytest.raises(RuntimeError, match="broken.jpg"):
        src.read_rows([0])


def test_decrypt_is_called_with_path(tmp_path):
    make_image_folder(tmp_path, {"a": 1})
    seen = []

    def decrypt(path):
        seen.append(path)
        return b"\x01\x02"
    image, _ = _source(tmp_path, decrypt=decrypt).read_rows([0])[0]
    assert image.tolist() == [1, 2] and seen[0].endswith("img_000.jpg")


def test_empty_root(tmp_path):
    # measured in MindSpore 2.10: no rows is size 0, the error comes when a pass starts
    src = _source(tmp_path)
    assert len(src) == 0
    with pytest.raises(RuntimeError, match="ImageFolderDataset API can't read the data file"):
        src.will_read([])


def test_missing_file_after_scan(tmp_path):
    make_image_folder(tmp_path, {"a": 1})
    src = _source(tmp_path)
    os.remove(tmp_path / "a" / "img_000.jpg")
    with pytest.raises(RuntimeError, match="img_000.jpg"):
        src.read_rows([0])


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ImageFolderDataset(str(tmp_path / "nope"))
    with pytest.raises(TypeError, match="extensions"):
        ImageFolderDataset(str(tmp_path), extensions=".jpg")
    with pytest.raises(TypeError, match="class_indexing"):
        ImageFolderDataset(str(tmp_path), class_indexing=["a"])
    with pytest.raises(TypeError, match="decode"):
        ImageFolderDataset(str(tmp_path), decode=1)
    with pytest.raises(TypeError, match="decrypt"):
        ImageFolderDataset(str(tmp_path), decrypt="key")
    with pytest.raises(ValueError, match="num_parallel_workers"):
        ImageFolderDataset(str(tmp_path), num_parallel_workers=0)
