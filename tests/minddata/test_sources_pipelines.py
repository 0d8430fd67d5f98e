"""Every file source through the public API: order, §10.3 shard split with and without shuffle,
sizes, column names, pickling, and a source used by two pipelines."""
import pickle

import numpy as np
import pytest

import minddata as ds

from .test_sources_helpers import (make_cifar100_dir, make_cifar10_dir, make_image_folder,
                                   make_mnist_dir)


def _key(row):
    """A hashable fingerprint of a row (tuple of arrays)."""
    return tuple(np.asarray(v).tobytes() for v in row)


@pytest.fixture(params=["mnist", "cifar10", "cifar100", "image_folder", "csv"])
def make_dataset(request, tmp_path):
    """(factory(**kwargs) -> dataset, number of rows)."""
    kind = request.param
    if kind == "mnist":
        make_mnist_dir(tmp_path)
        return (lambda **kw: ds.MnistDataset(str(tmp_path), usage="all", **kw)), 10
    if kind == "cifar10":
        make_cifar10_dir(tmp_path)
        return (lambda **kw: ds.Cifar10Dataset(str(tmp_path), **kw)), 7
    if kind == "cifar100":
        make_cifar100_dir(tmp_path)
        return (lambda **kw: ds.Cifar100Dataset(str(tmp_path), **kw)), 7
    if kind == "image_folder":
        make_image_folder(tmp_path, {"a": 4, "b": 3, "c": 4})
        return (lambda **kw: ds.ImageFolderDataset(str(tmp_path), **kw)), 11
    path = tmp_path / "d.csv"
    path.write_text("n,s\n" + "".join(f"{i},x{i}\n" for i in range(9)))
    return (lambda **kw: ds.CSVDataset(str(path), column_defaults=[0, ""], **kw)), 9


def _rows(data):
    return [tuple(r) for r in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]


def test_size_and_unsharded_order(make_dataset):
    factory, n = make_dataset
    data = factory(shuffle=False)
    assert data.get_dataset_size() == n
    rows = _rows(data)
    assert len(rows) == n and len(rows[0]) == len(data.get_col_names())
    assert [_key(r) for r in rows] == [_key(r) for r in _rows(factory(shuffle=False))]


@pytest.mark.parametrize("num_shards", [2, 3, 4])
def test_shard_split_round_robin(make_dataset, num_shards):
    factory, n = make_dataset
    full = [_key(r) for r in _rows(factory(shuffle=False))]
    per = -(-n // num_shards)
    for k in range(num_shards):
        data = factory(shuffle=False, num_shards=num_shards, shard_id=k)
        assert data.get_dataset_size() == per
        got = [_key(r) for r in _rows(data)]
        assert got == [full[(k + j * num_shards) % n] for j in range(per)]


def test_shuffled_shards_cover_every_row(make_dataset):
    factory, n = make_dataset
    ds.config.set_seed(5)
    full = sorted(_key(r) for r in _rows(factory(shuffle=False)))
    parts = []
    for k in range(2):
        parts += [_key(r) for r in _rows(factory(shuffle=True, num_shards=2, shard_id=k))]
    assert len(parts) == 2 * (-(-n // 2))
    assert set(parts) == set(full)


def test_pickled_dataset_reads_the_same(make_dataset):
    factory, _ = make_dataset
    data = factory(shuffle=False)
    clone = pickle.loads(pickle.dumps(data))
    assert [_key(r) for r in _rows(clone)] == [_key(r) for r in _rows(data)]


def test_two_workers_same_rows(make_dataset):
    factory, _ = make_dataset
    one = [_key(r) for r in _rows(factory(shuffle=False, num_parallel_workers=1))]
    two = [_key(r) for r in _rows(factory(shuffle=False, num_parallel_workers=2))]
    assert one == two


def test_image_folder_num_classes(tmp_path):
    make_image_folder(tmp_path, {"a": 1, "b": 1, "c": 1})
    assert ds.ImageFolderDataset(str(tmp_path)).num_classes() == 3
    assert ds.ImageFolderDataset(str(tmp_path), class_indexing={"a": 0, "c": 1}).num_classes() == 2


def test_image_folder_decode_through_pipeline(tmp_path):
    make_image_folder(tmp_path, {"a": 2}, ext=".png")
    data = ds.ImageFolderDataset(str(tmp_path), decode=True, shuffle=False)
    image, label = next(iter(data.create_tuple_iterator(num_epochs=1, output_numpy=True)))
    assert image.shape == (6, 8, 3) and image.dtype == np.uint8 and int(label) == 0


def test_csv_shuffles_by_default(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("n\n" + "".join(f"{i}\n" for i in range(40)))
    ds.config.set_seed(1)
    got = [int(r[0]) for r in _rows(ds.CSVDataset(str(path), column_defaults=[0]))]
    assert sorted(got) == list(range(40)) and got != list(range(40))


def test_csv_shuffle_files_mode(tmp_path):
    for name, start in (("a.csv", 0), ("b.csv", 5)):
        (tmp_path / name).write_text("n\n" + "".join(f"{i}\n" for i in range(start, start + 5)))
    seen = set()
    for seed in range(5):
        ds.config.set_seed(seed)
        got = [int(r[0]) for r in _rows(ds.CSVDataset(str(tmp_path / "*.csv"), column_defaults=[0],
                                                      shuffle=ds.Shuffle.FILES))]
        assert got in (list(range(10)), list(range(5, 10)) + list(range(5)))
        seen.add(tuple(got))
    assert len(seen) == 2


def test_error_while_reading_names_the_file(tmp_path):
    make_image_folder(tmp_path, {"a": 3})
    (tmp_path / "a" / "img_001.jpg").write_bytes(b"truncated")
    data = ds.ImageFolderDataset(str(tmp_path), shuffle=False, decode=True)
    with pytest.raises(RuntimeError, match="img_001.jpg"):
        _rows(data)
