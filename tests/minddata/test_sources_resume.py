"""Every file source under the engine's shared resume harness, and file release after early exit."""
import gc
import json

import psutil
import pytest

import minddata as ds

from .engine_helpers import check_resume
from .test_sources_helpers import make_cifar10_dir, make_image_folder, make_mnist_dir


@pytest.fixture(params=["mindrecord", "mnist", "cifar10", "image_folder", "csv"])
def dataset_factory(request, tmp_path, shared_fixtures):
    kind = request.param
    if kind == "mindrecord":
        root = shared_fixtures / "mindrecord" / "f_multi_shard"
        files = [str(root / f) for f in json.loads((root / "manifest.json").read_text())["files"]]
        return lambda **kw: ds.MindDataset(files, columns_list=["id", "name"], **kw)
    if kind == "mnist":
        make_mnist_dir(tmp_path)
        return lambda **kw: ds.MnistDataset(str(tmp_path), **kw)
    if kind == "cifar10":
        make_cifar10_dir(tmp_path)
        return lambda **kw: ds.Cifar10Dataset(str(tmp_path), **kw)
    if kind == "image_folder":
        make_image_folder(tmp_path, {"a": 3, "b": 4})
        return lambda **kw: ds.ImageFolderDataset(str(tmp_path), **kw)
    path = tmp_path / "d.csv"
    path.write_text("n,s\n" + "".join(f"{i},r{i}\n" for i in range(8)))
    return lambda **kw: ds.CSVDataset(str(path), column_defaults=[0, ""], **kw)


def test_resume_shuffled(dataset_factory):
    check_resume(dataset_factory(shuffle=True), num_epochs=2, stops=(0, 2, 5, 9))


def test_resume_sharded(dataset_factory):
    check_resume(dataset_factory(shuffle=False, num_shards=2, shard_id=1), num_epochs=2,
                 stops=(0, 1, 4))


def test_mindrecord_file_released_after_break(shared_fixtures):
    root = shared_fixtures / "mindrecord" / "e_pages"
    path = str(root / "e_pages.mindrecord")
    data = ds.MindDataset(path, shuffle=False, num_parallel_workers=2)
    it = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    for i, row in enumerate(it):
        if i == 3:
            break
    it.close()
    del it, row
    gc.collect()
    me = psutil.Process()
    assert path not in [m.path for m in me.memory_maps()]
    assert path not in [f.path for f in me.open_files()]
