"""MnistDataset's row source: idx parsing, usage selection, order, errors."""
import os

import numpy as np
import pytest

from minddata.sources.mnist import MnistDataset, MnistSource

from .test_sources_helpers import make_mnist_dir, write_idx_images, write_idx_labels


@pytest.fixture()
def mnist_dir(tmp_path):
    data = make_mnist_dir(tmp_path / "mnist")
    return str(tmp_path / "mnist"), data


def test_train_rows_shapes_dtypes(mnist_dir):
    root, data = mnist_dir
    src = MnistSource(root, "train")
    assert src.column_names == ["image", "label"]
    assert len(src) == 7
    rows = src.read_rows([0, 6])
    image, label = rows[1]
    assert image.shape == (28, 28, 1) and image.dtype == np.uint8
    assert label.shape == () and label.dtype == np.uint32
    np.testing.assert_array_equal(image[..., 0], data["train"][0][6])
    assert int(label) == data["train"][1][6]


def test_usage_all_puts_t10k_first(mnist_dir):
    # MindSpore sorts the file paths: "t10k-..." < "train-..."
    root, data = mnist_dir
    src = MnistSource(root, "all")
    assert len(src) == 10
    first = src.read_rows([0])[0][0][..., 0]
    np.testing.assert_array_equal(first, data["test"][0][0])
    eighth = src.read_rows([3])[0][0][..., 0]
    np.testing.assert_array_equal(eighth, data["train"][0][0])
    assert "t10k-images" in src.provenance(0) and "train-images" in src.provenance(3)
    assert src.file_row_ranges() == [(0, 3), (3, 10)]


def test_usage_test_only(mnist_dir):
    root, data = mnist_dir
    src = MnistSource(root, "test")
    labels = [int(r[1]) for r in src.read_rows(range(len(src)))]
    assert labels == data["test"][1].tolist()


def test_rows_do_not_alias_each_other(mnist_dir):
    root, _ = mnist_dir
    src = MnistSource(root, "train")
    a = src.read_rows([0])[0][0]
    a[:] = 0
    assert src.read_rows([0])[0][0].any()


def test_empty_dir_is_runtime_error(tmp_path):
    # measured in MindSpore 2.10: no row, and the error when a pass starts
    src = MnistSource(str(tmp_path), "all")
    assert len(src) == 0
    with pytest.raises(RuntimeError, match="MnistDataset API can't read the data file"):
        src.will_read([])


def test_bad_magic_names_file(tmp_path):
    make_mnist_dir(tmp_path)
    path = tmp_path / "train-images-idx3-ubyte"
    raw = bytearray(path.read_bytes())
    raw[3] = 0
    path.write_bytes(bytes(raw))
    with pytest.raises(RuntimeError, match="train-images-idx3-ubyte.*magic"):
        MnistSource(str(tmp_path), "train")


def test_truncated_file_names_file(tmp_path):
    make_mnist_dir(tmp_path)
    path = tmp_path / "train-images-idx3-ubyte"
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(RuntimeError, match="train-images-idx3-ubyte.*declares 7"):
        MnistSource(str(tmp_path), "train")


def test_count_mismatch(tmp_path):
    images = np.zeros((3, 28, 28), np.uint8)
    write_idx_images(tmp_path / "train-images-idx3-ubyte", images)
    write_idx_labels(tmp_path / "train-labels-idx1-ubyte", [1, 2])
    with pytest.raises(RuntimeError, match="3 images but .* 2 labels"):
        MnistSource(str(tmp_path), "train")


def test_missing_label_file(tmp_path):
    write_idx_images(tmp_path / "train-images-idx3-ubyte", np.zeros((1, 28, 28), np.uint8))
    with pytest.raises(RuntimeError, match="num of images is not equal to num of labels"):
        MnistSource(str(tmp_path), "train")


def test_out_of_range_id(mnist_dir):
    root, _ = mnist_dir
    with pytest.raises(IndexError, match="row id 7"):
        MnistSource(root, "train").read_rows([7])


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        MnistDataset(str(tmp_path / "nope"))
    with pytest.raises(ValueError, match="usage is not within the valid set"):
        MnistDataset(str(tmp_path), usage="val")
    with pytest.raises(TypeError, match="usage"):
        MnistDataset(str(tmp_path), usage=1)
    with pytest.raises(RuntimeError, match="shard_id"):
        MnistDataset(str(tmp_path), num_shards=2)
    with pytest.raises(ValueError, match="shard_id"):
        MnistDataset(str(tmp_path), num_shards=2, shard_id=2)
