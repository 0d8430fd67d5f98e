"""The file sources as MindSpore's own dataset tests (tests/ut/python/dataset) check them: sizes,
errors and their timing, argument checks and public attributes, each measured in MindSpore 2.10
on small files with the suite's layouts (issue 20)."""
import json
import os

import numpy as np
import pytest

import minddata as ds
from mindrecord.tools.tfrecord import write_tfrecord

from .test_sources_celeba import make_celeba
from .test_sources_helpers import (make_cifar10_dir, make_image_folder, make_mnist_dir,
                                   write_cifar_file)
from .test_sources_voc import _object as voc_object
from .test_sources_voc import make_voc


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


# ---- MnistDataset, Cifar10Dataset, Cifar100Dataset ------------------------------------------

def test_mnist_without_files_of_the_usage_is_size_0_and_fails_when_read(tmp_path):
    # measured in MindSpore 2.10 (the suite's test_mnist_usage: only t10k files, usage 'train')
    make_mnist_dir(tmp_path, n_train=0, n_test=3)
    for name in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"):
        os.remove(tmp_path / name)
    assert ds.MnistDataset(str(tmp_path), usage="test").get_dataset_size() == 3
    data = ds.MnistDataset(str(tmp_path), usage="train")
    assert data.get_dataset_size() == 0
    with pytest.raises(RuntimeError, match="MnistDataset API can't read the data file"):
        _count(data)


def test_cifar_without_files_of_the_usage_is_size_0_and_fails_when_read(tmp_path):
    # measured in MindSpore 2.10: data_batch files only, usage 'test'
    make_cifar10_dir(tmp_path, per_batch=(3,), n_test=1)
    os.remove(tmp_path / "test_batch.bin")
    data = ds.Cifar10Dataset(str(tmp_path), usage="test")
    assert data.get_dataset_size() == 0
    with pytest.raises(RuntimeError, match="Cifar10Dataset API can't read the data file"):
        _count(data)


@pytest.mark.parametrize("api", [ds.Cifar10Dataset, ds.Cifar100Dataset])
def test_cifar_folder_without_bin_files(tmp_path, api):
    # measured in MindSpore 2.10: an error from get_dataset_size() and from iterating
    make_mnist_dir(tmp_path)
    with pytest.raises(RuntimeError, match=r"cifar\(.bin\) files are missing under"):
        api(str(tmp_path)).get_dataset_size()
    with pytest.raises(RuntimeError, match=r"cifar\(.bin\) files are missing under"):
        _count(api(str(tmp_path)))


def test_cifar100_pk_sampler_groups_by_coarse_label(tmp_path):
    # measured in MindSpore 2.10: PKSampler(1) gives one row of each coarse label, in order
    images = np.zeros((8, 32, 32, 3), np.uint8)
    write_cifar_file(str(tmp_path / "test.bin"), images, [3, 1, 3, 0, 1, 2, 0, 2],
                     [9, 9, 9, 9, 9, 9, 9, 9])
    data = ds.Cifar100Dataset(str(tmp_path), sampler=ds.PKSampler(1))
    assert [int(r["coarse_label"]) for r in
            data.create_dict_iterator(num_epochs=1, output_numpy=True)] == [0, 1, 2, 3]


@pytest.mark.parametrize("make", [lambda root: ds.MnistDataset(root, shuffle=ds.Shuffle.GLOBAL),
                                  lambda root: ds.Cifar10Dataset(root, shuffle="x")])
def test_mnist_and_cifar_shuffle_must_be_bool(tmp_path, make):
    # measured in MindSpore 2.10: "Argument shuffle with value ... is not of type [<class 'bool'>]"
    with pytest.raises(TypeError, match=r"Argument shuffle with value .* is not of type "
                                        r"\[<class 'bool'>\]"):
        make(str(tmp_path))


# ---- CSVDataset --------------------------------------------------------------------------------

@pytest.fixture
def csv_file(tmp_path):
    path = tmp_path / "1.csv"
    path.write_text("1,2,3,4\n5,6,7,8\n9,10,11,12\n")
    return str(path)


def _csv(path, **kwargs):
    kwargs.setdefault("column_names", ["col1", "col2", "col3", "col4"])
    return ds.CSVDataset(path, shuffle=False, **kwargs)


def test_csv_field_delim_none_is_a_comma(csv_file):
    # measured in MindSpore 2.10: field_delim=None reads as ','
    data = _csv(csv_file, field_delim=None, column_defaults=["0", 0, 0.0, "0"])
    assert [int(r["col2"]) for r in data.create_dict_iterator(num_epochs=1, output_numpy=True)] \
        == [2, 6, 10]
    assert data.field_delim == ","


def test_csv_type_mismatch_says_type_does_not_match(tmp_path):
    # measured in MindSpore 2.10: "Invalid csv, csv file: ... parse failed ..., type does not match."
    path = tmp_path / "bad.csv"
    path.write_text("a,x,c,d\n")
    with pytest.raises(RuntimeError, match="type does not match"):
        _count(_csv(str(path), column_defaults=["", 0, "", ""]))


def test_csv_line_with_too_few_fields_says_failed_to_parse(tmp_path):
    # measured in MindSpore 2.10: "Invalid file, failed to parse csv file: <path> at line 1 ..."
    path = tmp_path / "short.csv"
    path.write_text("1,2,3\n")
    with pytest.raises(RuntimeError, match="failed to parse csv file"):
        _count(_csv(str(path)))


def test_csv_duplicate_column_names_fail_when_the_iterator_is_made(csv_file):
    # measured in MindSpore 2.10: the dataset is built, create_dict_iterator raises
    data = _csv(csv_file, column_names=["col1", "col2", "col1", "col4"])
    with pytest.raises(RuntimeError, match="'column_names'.*duplicate column names are not "
                                           "allowed: col1"):
        data.create_dict_iterator(num_epochs=1, output_numpy=True)


def test_csv_more_defaults_than_columns(csv_file):
    # measured in MindSpore 2.10 (its words)
    with pytest.raises(RuntimeError, match="the size of column_names should be equal to the size "
                                           "of 'column_defaults'"):
        _count(_csv(csv_file, column_defaults=[0, 0, 0, 0, 0]))


def test_csv_argument_words_and_attributes(csv_file):
    # measured in MindSpore 2.10
    with pytest.raises(ValueError, match=r"Input dataset_files can not be empty, but got '\[\]'"):
        ds.CSVDataset([])
    with pytest.raises(TypeError, match="'Shuffle.ADAPTIVE' or 'Shuffle.GLOBAL' or "
                                        "'Shuffle.PARTIAL' or 'Shuffle.FILES' or 'Shuffle.INFILE'"):
        ds.CSVDataset(csv_file, shuffle="x")
    data = ds.CSVDataset(csv_file, column_defaults=["1", 2, 3.0, "4"],
                         column_names=["a", "b", "c", "d"], shuffle=ds.Shuffle.INFILE)
    assert (data.dataset_files, data.field_delim, data.column_defaults, data.column_names) == \
        ([csv_file], ",", ["1", 2, 3.0, "4"], ["a", "b", "c", "d"])
    assert _count(data) == 3


# ---- CocoDataset, VOCDataset, CelebADataset ----------------------------------------------------

def _voc_folder(root):
    make_voc(root, {"img_b": [voc_object("dog", (2, 3, 7, 9)), voc_object("cat", (1, 1, 4, 4))],
                    "img_a": [voc_object("person", (5, 5, 11, 10))]},
             segmentation_ids=["img_a"], main_ids=["img_b", "img_a"])


def test_voc_and_coco_count_no_classes(tmp_path):
    # measured in MindSpore 2.10 (the suite's test_voc_num_classes): num_classes() is None,
    # with or without class_indexing; get_class_indexing() still gives the labels
    _voc_folder(str(tmp_path))
    data = ds.VOCDataset(str(tmp_path), task="Detection", usage="train")
    assert data.num_classes() is None
    assert data.get_class_indexing() == {"cat": 0, "dog": 1, "person": 2}
    assert ds.VOCDataset(str(tmp_path), task="Detection", usage="train",
                         class_indexing={"cat": 1}).num_classes() is None
    make_image_folder(tmp_path / "coco", {"images": 1})
    annotation = tmp_path / "coco.json"
    annotation.write_text(json.dumps({
        "images": [{"id": 1, "file_name": "img_000.jpg"}],
        "categories": [{"id": 3, "name": "person"}],
        "annotations": [{"id": 1, "image_id": 1, "bbox": [1, 2, 3, 4], "category_id": 3}]}))
    coco = ds.CocoDataset(str(tmp_path / "coco" / "images"), str(annotation))
    assert coco.num_classes() is None
    assert coco.get_class_indexing() == {"person": [3]}


def test_voc_celeba_coco_public_attributes(tmp_path):
    # measured in MindSpore 2.10: class_indexing {} and extensions [] for None; decrypt kept
    _voc_folder(str(tmp_path / "voc"))
    voc = ds.VOCDataset(str(tmp_path / "voc"), task="Detection")
    assert (voc.class_indexing, voc.decrypt) == ({}, None)
    make_celeba(str(tmp_path))
    celeba = ds.CelebADataset(str(tmp_path))
    assert (celeba.extensions, celeba.decrypt) == ([], None)


def test_celeba_without_matching_images_is_size_0_and_fails_when_read(tmp_path):
    # measured in MindSpore 2.10: the error when iterating (MindSpore sizes it from the file's
    # first line, 5; here 0, the rows there are)
    make_celeba(str(tmp_path))
    data = ds.CelebADataset(str(tmp_path), extensions=[".PNG"])
    assert data.get_dataset_size() == 0
    with pytest.raises(RuntimeError, match="CelebADataset API can't read the data file"):
        _count(data)


def test_len_of_a_dataset_is_its_size(pk_folder):
    # measured in MindSpore 2.10 (the suite's test_datasets_get_dataset_size uses len())
    assert len(ds.ImageFolderDataset(pk_folder)) == 12
    assert len(ds.ImageFolderDataset(pk_folder, num_shards=5, shard_id=0)) == 3
    assert len(ds.ImageFolderDataset(pk_folder).batch(5)) == 3
    empty = ds.ImageFolderDataset(pk_folder, extensions=[".png"])
    assert len(empty) == 0 and bool(empty)


# ---- Schema, TFRecordDataset ------------------------------------------------------------------

def test_schema_path_that_is_not_a_string(tmp_path):
    # measured in MindSpore 2.10: TypeError "path: 1 is not string", from Schema and from
    # TFRecordDataset's schema argument
    with pytest.raises(TypeError, match="path: 1 is not string"):
        ds.Schema(1)
    path = str(tmp_path / "x.data")
    write_tfrecord(path, [{"label": [1]}])
    with pytest.raises(TypeError, match="path: 5 is not string"):
        ds.TFRecordDataset(path, 5)


# ---- files without a row: CSVDataset, TextFileDataset, CLUEDataset ---------------------------

@pytest.mark.parametrize("make, words", [
    (lambda path: ds.CSVDataset(path, column_names=["a"]), "CSVDataset API can't read the data "
                                                           "file .*Check csv file path"),
    (lambda path: ds.TextFileDataset(path), "TextFileDataset API can't read the data file "
                                            ".*Check text file"),
    (lambda path: ds.CLUEDataset(path), "'CLUEDataset' API can't read the data file")])
def test_text_sources_without_a_row_are_size_0_and_fail_when_read(tmp_path, make, words):
    # measured in MindSpore 2.10: an empty file has size 0, the error comes when iterating
    path = tmp_path / "empty.txt"
    path.write_text("")
    assert make(str(path)).get_dataset_size() == 0
    with pytest.raises(RuntimeError, match=words):
        _count(make(str(path)))


def test_voc_image_set_without_images_says_no_data_found(tmp_path):
    # measured in MindSpore 2.10: "Invalid data, VOCDataset API can't read the data file
    # (interface mismatch or no data found). Check file in directory: ..."
    _voc_folder(str(tmp_path))
    (tmp_path / "ImageSets" / "Main" / "train.txt").write_text("")
    with pytest.raises(RuntimeError, match=r"VOCDataset API can't read the data file \(interface "
                                           r"mismatch or no data found\)"):
        _count(ds.VOCDataset(str(tmp_path), task="Detection"))
