"""FashionMnistDataset, KMnistDataset, EMnistDataset and QMnistDataset (mnist_variants.py):
file selection, row order, labels, errors. Expected behaviour measured under MindSpore 2.10."""
import json
import struct

import numpy as np
import pytest

import minddata as ds
from minddata.serialization import deserialize, serialize

from .test_sources_helpers import make_mnist_dir, write_idx_images, write_idx_labels


def _labels(data):
    return [int(r[1]) for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def write_qmnist_labels(path, records):
    """QMNIST's idx2-int label file: magic 3074, count, 8, then big-endian int32 values."""
    records = np.asarray(records, dtype=">i4")
    with open(path, "wb") as f:
        f.write(struct.pack(">3I", 3074, len(records), records.shape[1]))
        f.write(records.tobytes())


def qmnist_records(n, first):
    """n records whose class is (first + i) % 10 and whose third value is first + i."""
    rec = np.zeros((n, 8), np.int64)
    rec[:, 0] = (np.arange(n) + first) % 10
    rec[:, 2] = np.arange(n) + first
    rec[:, 4] = -1
    return rec


def make_qmnist_dir(root, sizes=(("qmnist-train", 3, 0), ("qmnist-test", 4, 100),
                                 ("xnist", 2, 7))):
    root.mkdir(exist_ok=True)
    for prefix, n, first in sizes:
        images = np.zeros((n, 28, 28), np.uint8)
        images[:, 0, 0] = (np.arange(n) + first) % 256
        write_idx_images(root / f"{prefix}-images-idx3-ubyte", images)
        write_qmnist_labels(root / f"{prefix}-labels-idx2-int", qmnist_records(n, first))
    return str(root)


@pytest.mark.parametrize("cls", [ds.FashionMnistDataset, ds.KMnistDataset])
def test_fashion_and_kmnist_read_mnist_names(tmp_path, cls):
    data = make_mnist_dir(tmp_path)
    d = cls(str(tmp_path), shuffle=False)
    assert d.get_col_names() == ["image", "label"] and d.get_dataset_size() == 10
    # as MnistDataset: the t10k files sort before the train files
    assert _labels(d) == data["test"][1].tolist() + data["train"][1].tolist()
    image, label = next(cls(str(tmp_path), usage="train", shuffle=False)
                        .create_tuple_iterator(output_numpy=True))
    assert image.shape == (28, 28, 1) and image.dtype == np.uint8 and label.dtype == np.uint32
    np.testing.assert_array_equal(image[..., 0], data["train"][0][0])


@pytest.mark.parametrize("cls, word", [(ds.FashionMnistDataset, "fashion mnist"),
                                       (ds.KMnistDataset, "kmnist")])
def test_empty_folder_names_the_api(tmp_path, cls, word):
    d = cls(str(tmp_path))
    assert d.get_dataset_size() == 0      # MindSpore: 0, and the error when read
    with pytest.raises(RuntimeError, match=f"{cls.__name__} API can't read.*Check {word} file"):
        list(d)
    with pytest.raises(ValueError, match="usage is not within the valid set"):
        cls(str(tmp_path), usage="valid")


def _emnist_dir(root):
    root.mkdir()
    out = {}
    for name, n_train in (("mnist", 4), ("letters", 3)):
        for usage, n in (("train", n_train), ("test", 2)):
            labels = [10 * (name == "letters") + (usage == "test") * 5 + i for i in range(n)]
            write_idx_images(root / f"emnist-{name}-{usage}-images-idx3-ubyte",
                             np.full((n, 28, 28), len(out), np.uint8))
            write_idx_labels(root / f"emnist-{name}-{usage}-labels-idx1-ubyte", labels)
            out[(name, usage)] = labels
    return str(root), out


def test_emnist_selects_the_split_and_usage(tmp_path):
    root, labels = _emnist_dir(tmp_path / "e")
    assert _labels(ds.EMnistDataset(root, "letters", "train", shuffle=False)) == \
        labels[("letters", "train")]
    assert _labels(ds.EMnistDataset(root, "mnist", "test", shuffle=False)) == \
        labels[("mnist", "test")]
    # usage 'all' (the default): the sorted file names put test before train
    both = ds.EMnistDataset(root, "mnist", shuffle=False)
    assert both.get_dataset_size() == 6
    assert _labels(both) == labels[("mnist", "test")] + labels[("mnist", "train")]
    missing = ds.EMnistDataset(root, "digits")
    assert missing.get_dataset_size() == 0
    with pytest.raises(RuntimeError, match="EMnistDataset API can't read.*Check emnist file"):
        list(missing)


def test_emnist_argument_errors_in_mindspore_order(tmp_path):
    root, _ = _emnist_dir(tmp_path / "e")
    with pytest.raises(ValueError, match=r"Input name is not within the valid set of \['byclass'"):
        ds.EMnistDataset(root, "foo")
    with pytest.raises(TypeError, match="Argument name with value None"):
        ds.EMnistDataset(root, None)
    with pytest.raises(ValueError, match="usage is not within the valid set"):
        ds.EMnistDataset(root, "mnist", usage="val")
    # measured: the int/bool arguments are checked before the folder and the name
    with pytest.raises(ValueError, match="num_samples exceeds the boundary"):
        ds.EMnistDataset(str(tmp_path / "nope"), "foo", num_samples=-1)
    with pytest.raises(TypeError, match="Argument shuffle"):
        ds.EMnistDataset(str(tmp_path / "nope"), "foo", shuffle=ds.Shuffle.GLOBAL)
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.EMnistDataset(str(tmp_path / "nope"), "foo")


def _qmnist_rows(root, **kwargs):
    it = ds.QMnistDataset(root, shuffle=False, **kwargs).create_tuple_iterator(
        output_numpy=True, num_epochs=1)
    return [(int(image[0, 0, 0]), label) for image, label in it]


def test_qmnist_usages_and_compat(tmp_path):
    root = make_qmnist_dir(tmp_path / "q")
    rows = _qmnist_rows(root)                 # 'all': train, test, nist in that order
    assert [r[0] for r in rows] == [0, 1, 2, 100, 101, 102, 103, 7, 8]
    assert [int(r[1]) for r in rows] == [0, 1, 2, 0, 1, 2, 3, 7, 8]
    assert all(r[1].shape == () and r[1].dtype == np.uint32 for r in rows)
    full = _qmnist_rows(root, usage="nist", compat=False)
    # measured: the (8,) uint32 record, -1 read as 4294967295
    assert full[0][1].dtype == np.uint32 and full[0][1].shape == (8,)
    assert full[0][1].tolist() == [7, 0, 7, 0, 4294967295, 0, 0, 0]
    assert ds.QMnistDataset(root, usage="test").get_dataset_size() == 4


def test_qmnist_test10k_and_test50k_split_the_test_file(tmp_path):
    root = make_qmnist_dir(tmp_path / "q", (("qmnist-test", 10003, 0),))
    assert ds.QMnistDataset(root, usage="test10k").get_dataset_size() == 10000
    assert ds.QMnistDataset(root, usage="test50k").get_dataset_size() == 3
    rows = _qmnist_rows(root, usage="test50k", compat=False)
    assert [int(label[2]) for _, label in rows] == [10000, 10001, 10002]
    assert _qmnist_rows(root, usage="test10k", num_samples=2)[1][0] == 1


def test_qmnist_missing_and_damaged_files(tmp_path):
    root = make_qmnist_dir(tmp_path / "q", (("qmnist-train", 2, 0),))
    with pytest.raises(RuntimeError, match="Qmnist data file: .*qmnist-test-images-idx3-ubyte "
                                           "does not exist"):
        ds.QMnistDataset(root).get_dataset_size()
    assert ds.QMnistDataset(root, usage="train").get_dataset_size() == 2
    labels = tmp_path / "q" / "qmnist-train-labels-idx2-int"
    labels.write_bytes(struct.pack(">3I", 3074, 2, 4) + bytes(2 * 4 * 4))
    with pytest.raises(RuntimeError, match="length of labels is not equal to 8"):
        list(ds.QMnistDataset(root, usage="train"))
    labels.write_bytes(struct.pack(">3I", 3074, 2, 8) + bytes(40))
    with pytest.raises(RuntimeError, match="qmnist-train-labels-idx2-int.*declares 2"):
        list(ds.QMnistDataset(root, usage="train"))
    with pytest.raises(TypeError, match="Argument compat"):
        ds.QMnistDataset(root, compat=1)
    with pytest.raises(ValueError, match=r"usage is not within the valid set of \['train', "
                                         r"'test', 'test10k', 'test50k', 'nist', 'all'\]"):
        ds.QMnistDataset(root, usage="val")


def test_variants_round_trip_through_serialize(tmp_path):
    root, _ = _emnist_dir(tmp_path / "e")
    qroot = make_qmnist_dir(tmp_path / "q")
    for data in (ds.EMnistDataset(root, "letters", usage="test", shuffle=False),
                 ds.QMnistDataset(qroot, usage="nist", compat=False, num_samples=1),
                 ds.KMnistDataset(root, shuffle=False)):
        tree = serialize(data)
        rebuilt = deserialize(input_dict=json.loads(json.dumps(tree)))
        assert type(rebuilt) is type(data) and serialize(rebuilt) == tree
        assert [a.tolist() for r in rebuilt.create_tuple_iterator(output_numpy=True)
                for a in r] == [a.tolist() for r in data.create_tuple_iterator(
                    output_numpy=True) for a in r]
