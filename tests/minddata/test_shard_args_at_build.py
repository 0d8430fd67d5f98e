"""Invalid num_shards/shard_id fail when the dataset is built, as MindSpore's sources do (issue
20, left-over list): every source class, with real files, raises at construction, before any
iterator exists; the same source with a valid shard builds and reads."""
import numpy as np
import pytest

import minddata as ds
from mindrecord import FileWriter
from mindrecord.tools.tfrecord import write_tfrecord

from .test_sources_helpers import make_cifar10_dir, make_image_folder, make_mnist_dir


def _mindrecord(tmp_path):
    path = str(tmp_path / "a.mindrecord")
    w = FileWriter(path, 1)
    w.add_schema({"x": {"type": "int64"}}, "s")
    w.write_raw_data([{"x": i} for i in range(5)])
    w.commit()
    return path


def _sources(tmp_path):
    """name -> factory(**shard_args) building that source over small real files."""
    mnist = tmp_path / "mnist"
    make_mnist_dir(str(mnist))
    cifar = tmp_path / "cifar"
    make_cifar10_dir(str(cifar))
    folder = tmp_path / "folder"
    make_image_folder(str(folder), {"a": 2, "b": 2})
    csv = tmp_path / "t.csv"
    csv.write_text("a,b\n1,2\n3,4\n5,6\n")
    text = tmp_path / "t.txt"
    text.write_text("l1\nl2\nl3\n")
    tfrecord = str(tmp_path / "t.tfrecord")
    write_tfrecord(tfrecord, [{"label": [i]} for i in range(4)])
    mind = _mindrecord(tmp_path)
    return {
        "GeneratorDataset": lambda **kw: ds.GeneratorDataset([(1,), (2,), (3,)], ["x"], **kw),
        "NumpySlicesDataset": lambda **kw: ds.NumpySlicesDataset([1, 2, 3], **kw),
        "MindDataset": lambda **kw: ds.MindDataset(mind, **kw),
        "MnistDataset": lambda **kw: ds.MnistDataset(str(mnist), **kw),
        "Cifar10Dataset": lambda **kw: ds.Cifar10Dataset(str(cifar), **kw),
        "ImageFolderDataset": lambda **kw: ds.ImageFolderDataset(str(folder), **kw),
        "CSVDataset": lambda **kw: ds.CSVDataset(str(csv), **kw),
        "TextFileDataset": lambda **kw: ds.TextFileDataset(str(text), **kw),
        "TFRecordDataset": lambda **kw: ds.TFRecordDataset(tfrecord, shard_equal_rows=True,
                                                          **kw),
    }


@pytest.mark.parametrize("shards, words", [
    (dict(num_shards=2, shard_id=2), "shard_id"),
    (dict(num_shards=2, shard_id=-1), "shard_id"),
    (dict(num_shards=0, shard_id=0), "num_shards"),
])
def test_every_source_refuses_bad_shards_when_built(tmp_path, shards, words):
    for name, make in _sources(tmp_path).items():
        with pytest.raises(ValueError, match=words):
            make(**shards)
        # the same files with a valid shard build and read
        rows = list(make(num_shards=2, shard_id=1).create_tuple_iterator(num_epochs=1))
        assert rows, name


def test_half_given_sharding_is_refused_when_built(tmp_path):
    for name, make in _sources(tmp_path).items():
        with pytest.raises((ValueError, RuntimeError), match="shard"):
            make(num_shards=2)
        with pytest.raises((ValueError, RuntimeError), match="shard"):
            make(shard_id=0)


def test_distributed_sampler_refuses_bad_shards_when_built():
    # MindSpore 2.10 accepts DistributedSampler(2, 5) and fails when the pipeline starts.
    with pytest.raises(ValueError, match="shard_id"):
        ds.DistributedSampler(2, 5)
    with pytest.raises(ValueError, match="num_shards"):
        ds.DistributedSampler(0, 0)
    data = ds.GeneratorDataset(np.arange(3), ["x"], sampler=ds.DistributedSampler(2, 1))
    assert len(list(data.create_tuple_iterator(num_epochs=1))) == 2


def test_tfrecord_sharded_by_file_needs_as_many_files_when_built(tmp_path):
    path = str(tmp_path / "t.tfrecord")
    write_tfrecord(path, [{"label": [i]} for i in range(4)])
    with pytest.raises(RuntimeError, match="numbers of tfrecord file should not less than "
                                           "num_shards when shard_equal_rows is false"):
        ds.TFRecordDataset(path, num_shards=2, shard_id=0)
