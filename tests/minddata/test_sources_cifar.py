"""Cifar10/Cifar100 row sources: record layout (planar -> HWC), usage, order, errors."""
import numpy as np
import pytest

from minddata.sources.cifar import CIFAR10, CIFAR100, Cifar100Dataset, Cifar10Dataset, CifarSource

from .test_sources_helpers import make_cifar100_dir, make_cifar10_dir


def test_cifar10_train_rows_in_file_order(tmp_path):
    files = make_cifar10_dir(tmp_path)
    src = CifarSource(str(tmp_path), "train", CIFAR10)
    assert src.column_names == ["image", "label"]
    assert len(src) == 5
    expected_images = np.concatenate([files[0][1], files[1][1]])
    expected_labels = np.concatenate([files[0][2], files[1][2]])
    rows = src.read_rows(range(5))
    for (image, label), e_img, e_lab in zip(rows, expected_images, expected_labels):
        assert image.shape == (32, 32, 3) and image.dtype == np.uint8
        assert label.shape == () and label.dtype == np.uint32
        np.testing.assert_array_equal(image, e_img)
        assert int(label) == e_lab
    assert "data_batch_2.bin record 1" in src.provenance(4)


def test_cifar10_usage_test_and_all(tmp_path):
    files = make_cifar10_dir(tmp_path)
    assert len(CifarSource(str(tmp_path), "test", CIFAR10)) == 2
    src = CifarSource(str(tmp_path), "all", CIFAR10)
    assert len(src) == 7
    assert src.file_row_ranges() == [(0, 3), (3, 5), (5, 7)]
    np.testing.assert_array_equal(src.read_rows([5])[0][0], files[2][1][0])


def test_cifar10_ignores_other_files(tmp_path):
    make_cifar10_dir(tmp_path)
    (tmp_path / "readme.html").write_text("x")
    (tmp_path / "batches.meta.txt").write_text("airplane")
    assert len(CifarSource(str(tmp_path), "all", CIFAR10)) == 7


def test_cifar100_columns(tmp_path):
    data = make_cifar100_dir(tmp_path)
    src = CifarSource(str(tmp_path), "train", CIFAR100)
    assert src.column_names == ["image", "coarse_label", "fine_label"]
    image, coarse, fine = src.read_rows([2])[0]
    images, c, f = data["train"]
    np.testing.assert_array_equal(image, images[2])
    assert (int(coarse), int(fine)) == (c[2], f[2])
    assert coarse.dtype == fine.dtype == np.uint32
    # 'all': sorted file names, test.bin before train.bin
    all_src = CifarSource(str(tmp_path), "all", CIFAR100)
    assert len(all_src) == 7
    np.testing.assert_array_equal(all_src.read_rows([0])[0][0], data["test"][0][0])


def test_truncated_file_names_it(tmp_path):
    make_cifar10_dir(tmp_path)
    path = tmp_path / "data_batch_1.bin"
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(RuntimeError, match="data_batch_1.bin.*not a multiple of the 3073-byte"):
        CifarSource(str(tmp_path), "train", CIFAR10)


def test_no_files_for_usage(tmp_path):
    # measured in MindSpore 2.10: no row, and the error when a pass starts
    make_cifar100_dir(tmp_path)
    src = CifarSource(str(tmp_path), "train", CIFAR10)
    assert len(src) == 0
    with pytest.raises(RuntimeError, match="Cifar10Dataset API can't read the data file"):
        src.will_read([])


def test_empty_files(tmp_path):
    (tmp_path / "test_batch.bin").write_bytes(b"")
    with pytest.raises(RuntimeError, match="hold no records"):
        CifarSource(str(tmp_path), "test", CIFAR10).will_read([])


def test_no_bin_file(tmp_path):
    with pytest.raises(RuntimeError, match=r"cifar\(.bin\) files are missing under"):
        CifarSource(str(tmp_path), "all", CIFAR10)


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        Cifar10Dataset(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="usage"):
        Cifar100Dataset(str(tmp_path), usage="valid")
    with pytest.raises(TypeError, match="num_samples"):
        Cifar10Dataset(str(tmp_path), num_samples="3")
    with pytest.raises(RuntimeError, match="sampler and shuffle"):
        Cifar10Dataset(str(tmp_path), shuffle=False, sampler=object())
