"""The file sources as MindSpore's own dataset tests (tests/ut/python/dataset) check them: sizes,
errors and their timing, argument checks and public attributes, each measured in MindSpore 2.10
on small files with the suite's layouts (issue 20)."""
import os

import numpy as np
import pytest

import minddata as ds

from .test_sources_helpers import make_image_folder


def _count(data):
    return sum(1 for _ in data.create_tuple_iterator(num_epochs=1, output_numpy=True))


def _labels(data):
    return [int(r["label"]) for r in data.create_dict_iterator(num_epochs=1, output_numpy=True)]


# ---- ImageFolderDataset ----------------------------------------------------------------------

@pytest.fixture
def pk_folder(tmp_path):
    """Four class folders of three JPEGs each (the suite's testPK/data, smaller)."""
    make_image_folder(tmp_path / "data", {f"class{c}": 3 for c in range(1, 5)})
    return str(tmp_path / "data")


def test_image_folder_negative_class_indexing_labels(pk_folder):
    # measured in MindSpore 2.10: labels come as given, negative ones included
    data = ds.ImageFolderDataset(pk_folder, class_indexing={"class3": -333, "class1": 111},
                                 shuffle=False)
    assert _labels(data) == [111] * 3 + [-333] * 3
    assert data.get_class_indexing() == {"class3": -333, "class1": 111}


@pytest.mark.parametrize("extensions", [[".JPG"], ["jpg"]])
def test_image_folder_without_matching_files_is_size_0_and_fails_when_read(pk_folder, extensions):
    # measured in MindSpore 2.10: size 0 (and 0 batches), the error when iterating
    data = ds.ImageFolderDataset(pk_folder, extensions=extensions)
    assert data.get_dataset_size() == 0
    assert data.batch(2).get_dataset_size() == 0
    with pytest.raises(RuntimeError, match=r"ImageFolderDataset API can't read the data file "
                                           r"\(interface mismatch or no data found\)"):
        _count(data)


def test_image_folder_of_an_empty_folder(tmp_path):
    # measured in MindSpore 2.10: size 0, 0 classes, the error when iterating
    data = ds.ImageFolderDataset(str(tmp_path))
    assert data.get_dataset_size() == 0
    assert data.num_classes() == 0
    with pytest.raises(RuntimeError, match="no data found"):
        _count(data)


def test_image_folder_counts_a_folder_inside_a_class_and_fails_reading_it(pk_folder):
    # measured in MindSpore 2.10: the parent of testPK/data has one class ('data') whose four
    # entries are folders: size 4, and reading one is an error naming it
    parent = os.path.dirname(pk_folder)
    data = ds.ImageFolderDataset(parent, shuffle=False)
    assert data.get_dataset_size() == 4
    assert data.get_class_indexing() == {"data": 0}
    with pytest.raises(RuntimeError, match="class1, should be file, but got directory"):
        _count(data)


@pytest.mark.parametrize("content", [b"", b"\xff\xd8\xff\xe0garbage", b"hello world"])
def test_image_folder_decode_failure_says_invalid_image(tmp_path, content):
    # measured in MindSpore 2.10: "Invalid image, <path> decode failed, ..."; without decode
    # the bytes are served
    os.makedirs(tmp_path / "c")
    (tmp_path / "c" / "bad.jpg").write_bytes(content)
    assert _count(ds.ImageFolderDataset(str(tmp_path))) == 1
    with pytest.raises(RuntimeError, match="Invalid image, .*bad.jpg decode failed"):
        _count(ds.ImageFolderDataset(str(tmp_path), decode=True))


def test_image_folder_decrypt_must_return_bytes(pk_folder):
    # measured in MindSpore 2.10: RuntimeError "... decrypt function is not of type bytes"
    # (bytes(5) would have served five zero bytes)
    data = ds.ImageFolderDataset(pk_folder, decrypt=lambda path: 5)
    with pytest.raises(RuntimeError, match="decrypt function is not of type bytes"):
        _count(data)


def test_image_folder_argument_errors(pk_folder):
    # measured in MindSpore 2.10 (type and words)
    with pytest.raises(TypeError, match="Argument decrypt is not a callable object"):
        ds.ImageFolderDataset(pk_folder, decrypt=1)
    with pytest.raises(TypeError, match=r"Argument shuffle with value x is not of type "
                                        r"\[<class 'bool'>\]"):
        ds.ImageFolderDataset(pk_folder, shuffle="x")
    with pytest.raises(TypeError, match="Argument shuffle"):
        ds.ImageFolderDataset(pk_folder, shuffle=ds.Shuffle.GLOBAL)


def test_image_folder_public_attributes(pk_folder):
    # measured in MindSpore 2.10: defaults [] and {}, and the arguments as given
    data = ds.ImageFolderDataset(pk_folder)
    assert (data.dataset_dir, data.extensions, data.class_indexing, data.decode,
            data.decrypt) == (pk_folder, [], {}, False, None)
    data = ds.ImageFolderDataset(pk_folder, extensions=[".jpg"], class_indexing={"class1": 1},
                                 decode=True)
    assert (data.extensions, data.class_indexing, data.decode) == ([".jpg"], {"class1": 1}, True)
