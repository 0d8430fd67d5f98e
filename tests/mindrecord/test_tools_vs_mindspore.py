"""Converters against real MindSpore: same files as its MnistToMR, and MindSpore reads what every
converter writes. Skipped when mindspore is absent."""
import os

import numpy as np
import pytest

ms_mindrecord = pytest.importorskip("mindspore.mindrecord")
ms_dataset = pytest.importorskip("mindspore.dataset")

from mindrecord.tools import (CsvToMR, FixedLenFeature, ImageFolderToMR,  # noqa: E402
                              MnistToMR, TFRecordToMR, tfrecord)
from .test_tools_helpers import make_image_folder, make_mnist, read_rows  # noqa: E402

pytestmark = pytest.mark.mindspore


def _mindspore_rows(first_file):
    data = ms_dataset.MindDataset(first_file, shuffle=False)
    rows = []
    for row in data.create_dict_iterator(output_numpy=True):
        rows.append({k: (v.tobytes() if v.dtype.kind == "S" else
                         v.item() if v.ndim == 0 else v) for k, v in row.items()})
    return rows


def test_mnist_files_identical_to_mindspore(tmp_path):
    make_mnist(tmp_path / "src", n_train=300, n_test=20)     # > 256 rows: two write calls
    for who in ("ours", "ms"):
        os.makedirs(tmp_path / who)
    MnistToMR(str(tmp_path / "src"), str(tmp_path / "ours" / "mn")).transform()
    ms_mindrecord.MnistToMR(str(tmp_path / "src"), str(tmp_path / "ms" / "mn")).transform()
    for name in ("mn_train.mindrecord", "mn_test.mindrecord"):
        assert (tmp_path / "ours" / name).read_bytes() == (tmp_path / "ms" / name).read_bytes()


def test_mindspore_reads_a_converted_shard_set(tmp_path):
    expected = make_image_folder(tmp_path / "src", per_class=3)
    result = ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "o.mr"), 3).transform()
    for first in (result.files[0], result.files[2]):
        rows = _mindspore_rows(first)
        assert {r["file_name"]: (r["label"], r["image"]) for r in rows} == expected


def test_mindspore_reads_csv_and_tfrecord_conversions(tmp_path):
    (tmp_path / "a.csv").write_text("id,score,name\n1,0.5,ann\n2,1.5,bob\n")
    CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr")).transform()
    assert _mindspore_rows(str(tmp_path / "a.mr")) == read_rows(str(tmp_path / "a.mr"))
    tfrecord.write_tfrecord(str(tmp_path / "t.rec"), [
        {"img": [b"\x01\x02"], "label": [7], "box": np.array([1, 2, 3, 4], np.float32)}])
    TFRecordToMR(str(tmp_path / "t.rec"), str(tmp_path / "t.mr"),
                 {"img": FixedLenFeature([], "string"), "label": FixedLenFeature([], "int64"),
                  "box": FixedLenFeature([4], "float32")}, ["img"]).transform()
    (row,) = _mindspore_rows(str(tmp_path / "t.mr"))
    assert row["img"] == b"\x01\x02" and row["label"] == 7
    assert row["box"].tolist() == [1.0, 2.0, 3.0, 4.0]


def test_imagenet_files_identical_to_mindspore(tmp_path):
    # One image per folder: MindSpore lists files in directory order, we sort; alike here.
    from mindrecord.tools import ImageNetToMR
    make_image_folder(tmp_path / "img", classes=("n03", "n01", "n02"), per_class=1,
                      ext=".JPEG")
    (tmp_path / "map.txt").write_text("n01 0\nn02 1\nn03 2\n")
    for who in ("ours", "ms"):
        os.makedirs(tmp_path / who)
    ImageNetToMR(str(tmp_path / "map.txt"), str(tmp_path / "img"),
                 str(tmp_path / "ours" / "i.mr")).transform()
    ms_mindrecord.ImageNetToMR(str(tmp_path / "map.txt"), str(tmp_path / "img"),
                               str(tmp_path / "ms" / "i.mr")).transform()
    assert (tmp_path / "ours" / "i.mr").read_bytes() == (tmp_path / "ms" / "i.mr").read_bytes()


def test_cifar10_files_identical_to_mindspore(tmp_path):
    from mindrecord.tools import Cifar10ToMR
    from .test_tools_helpers import make_cifar10
    # One training batch: MindSpore takes data_batch_* in directory order, we sort.
    make_cifar10(tmp_path / "c10", n_train=(300,), n_test=40)
    for who in ("ours", "ms"):
        os.makedirs(tmp_path / who)
    Cifar10ToMR(str(tmp_path / "c10"), str(tmp_path / "ours" / "c.mr")).transform()
    ms_mindrecord.Cifar10ToMR(str(tmp_path / "c10"), str(tmp_path / "ms" / "c.mr")).transform()
    for name in ("c.mr", "c.mr_test"):
        assert (tmp_path / "ours" / name).read_bytes() == (tmp_path / "ms" / name).read_bytes()
