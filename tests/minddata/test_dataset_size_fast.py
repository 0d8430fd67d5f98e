"""get_dataset_size() of Cifar10/100Dataset and MnistDataset comes from the files' sizes and
headers (no record is read), and agrees with a full pass."""
import struct

import numpy as np
import pytest

import minddata as ds
from minddata.sources import cifar


def _cifar10(tmp_path, counts):
    rng = np.random.default_rng(0)
    for k, n in enumerate(counts, 1):
        rec = rng.integers(0, 256, size=(n, 3073), dtype=np.uint8)
        rec[:, 0] %= 10
        rec.tofile(str(tmp_path / f"data_batch_{k}.bin"))
    rng.integers(0, 10, size=(3, 3073), dtype=np.uint8).tofile(str(tmp_path / "test_batch.bin"))
    return str(tmp_path)


def test_cifar_size_without_loading(tmp_path, monkeypatch):
    folder = _cifar10(tmp_path, [7, 5])

    def refuse(*args):
        raise AssertionError("get_dataset_size loaded a batch file")
    monkeypatch.setattr(cifar, "load_cifar_file", refuse)
    assert ds.Cifar10Dataset(folder, usage="train").get_dataset_size() == 12
    assert ds.Cifar10Dataset(folder).get_dataset_size() == 15
    assert ds.Cifar10Dataset(folder, num_shards=4, shard_id=1).get_dataset_size() == 4
    assert ds.Cifar10Dataset(folder, num_samples=5).get_dataset_size() == 5
    assert ds.Cifar10Dataset(folder, usage="train").batch(5).get_dataset_size() == 3


def test_cifar_size_matches_a_full_pass(tmp_path):
    folder = _cifar10(tmp_path, [7, 5])
    d = ds.Cifar10Dataset(folder, usage="test")
    assert d.get_dataset_size() == 3
    assert len(list(d.create_tuple_iterator(num_epochs=1))) == 3


def test_damaged_cifar_file_still_reports_the_problem(tmp_path):
    folder = _cifar10(tmp_path, [4])
    with open(tmp_path / "data_batch_1.bin", "ab") as f:
        f.write(b"\0" * 10)
    with pytest.raises(RuntimeError, match="not a multiple"):
        ds.Cifar10Dataset(folder, usage="train").get_dataset_size()


def _mnist(tmp_path, prefix, n):
    images = struct.pack(">4I", 2051, n, 28, 28) + bytes(n * 28 * 28)
    labels = struct.pack(">2I", 2049, n) + bytes(range(n))
    (tmp_path / f"{prefix}-images-idx3-ubyte").write_bytes(images)
    (tmp_path / f"{prefix}-labels-idx1-ubyte").write_bytes(labels)


def test_mnist_size_from_headers(tmp_path, monkeypatch):
    _mnist(tmp_path, "train", 6)
    _mnist(tmp_path, "t10k", 4)
    from minddata.sources import mnist

    def refuse(*args):
        raise AssertionError("get_dataset_size loaded an idx file")
    monkeypatch.setattr(mnist, "load_mnist_pair", refuse)
    assert ds.MnistDataset(str(tmp_path)).get_dataset_size() == 10
    assert ds.MnistDataset(str(tmp_path), usage="test").get_dataset_size() == 4
    monkeypatch.undo()
    d = ds.MnistDataset(str(tmp_path), usage="train")
    assert d.get_dataset_size() == len(list(d.create_tuple_iterator(num_epochs=1))) == 6


def test_mnist_bad_header_falls_back_to_the_full_check(tmp_path):
    _mnist(tmp_path, "train", 3)
    (tmp_path / "train-labels-idx1-ubyte").write_bytes(struct.pack(">2I", 1234, 3) + b"\0\0\0")
    with pytest.raises(RuntimeError, match="magic number"):
        ds.MnistDataset(str(tmp_path), usage="train").get_dataset_size()
