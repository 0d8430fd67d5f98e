"""Cifar10ToMR / Cifar100ToMR: python batches -> train and _test MindRecord files."""
import os

import cv2
import numpy as np
import pytest

from mindrecord import ShardReader
from mindrecord.errors import PathNotExistsError
from mindrecord.tools import Cifar100ToMR, Cifar10ToMR, ConversionError
from .test_tools_helpers import cifar_images, decode, make_cifar10, read_rows, write_cifar_batch


def test_cifar10_png_round_trip_is_exact(tmp_path):
    images, labels, timages, tlabels = make_cifar10(tmp_path / "c10")
    result = Cifar10ToMR(str(tmp_path / "c10"), str(tmp_path / "c.mr"),
                         image_format="png").transform()
    assert result.rows == len(labels) + len(tlabels)
    rows = read_rows(str(tmp_path / "c.mr"))
    assert [r["id"] for r in rows] == list(range(len(labels)))
    assert [r["label"] for r in rows] == labels
    for r, img in zip(rows, images):
        np.testing.assert_array_equal(decode(r["data"])[..., ::-1], img)   # stored as RGB
    test_rows = read_rows(str(tmp_path / "c.mr_test"))
    assert [r["label"] for r in test_rows] == tlabels


def test_cifar10_default_is_jpeg_like_mindspore(tmp_path):
    images, _, _, _ = make_cifar10(tmp_path / "c10", n_train=(2,), n_test=1)
    Cifar10ToMR(str(tmp_path / "c10"), str(tmp_path / "c.mr")).transform()
    with ShardReader(str(tmp_path / "c.mr")) as reader:
        assert reader.schema == {"data": {"type": "bytes"}, "id": {"type": "int64"},
                                 "label": {"type": "int64"}}
    row = read_rows(str(tmp_path / "c.mr"))[0]
    assert row["data"][:2] == b"\xff\xd8"
    ok, ref = cv2.imencode(".jpeg", images[0][..., ::-1])     # what MindSpore stores
    assert row["data"] == ref.tobytes()


def test_cifar10_label_outside_class_list(tmp_path):
    make_cifar10(tmp_path / "c10", n_train=(3,), n_test=1)
    write_cifar_batch(tmp_path / "c10" / "test_batch", cifar_images(2), labels=[1, 10])
    conv = Cifar10ToMR(str(tmp_path / "c10"), str(tmp_path / "c.mr"))
    with pytest.raises(ConversionError, match=r"test_batch row 1: label 10 outside the class"):
        conv.transform()
    assert sorted(os.listdir(tmp_path)) == ["c10"]          # the train file is removed too


def test_cifar10_corrupt_batch_file(tmp_path):
    make_cifar10(tmp_path / "c10", n_train=(3,), n_test=1)
    (tmp_path / "c10" / "data_batch_1").write_bytes(b"\x80\x04junk")
    with pytest.raises(ConversionError, match="data_batch_1: not a CIFAR python batch file"):
        Cifar10ToMR(str(tmp_path / "c10"), str(tmp_path / "c.mr")).transform()


def test_cifar10_transform_fields_sets_index(tmp_path):
    make_cifar10(tmp_path / "c10", n_train=(2,), n_test=1)
    Cifar10ToMR(str(tmp_path / "c10"), str(tmp_path / "c.mr")).transform(["label"])
    import json, struct
    with open(tmp_path / "c.mr", "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
    assert header["index_fields"] == [{"index_field": "label", "schema_id": 0}]
    with pytest.raises(ValueError, match="fields"):
        Cifar10ToMR(str(tmp_path / "c10"), str(tmp_path / "d.mr")).transform("label")


def test_cifar100_round_trip(tmp_path):
    os.makedirs(tmp_path / "c100")
    imgs = cifar_images(4, seed=3)
    write_cifar_batch(tmp_path / "c100" / "train", imgs, fine_labels=[0, 99, 5, 6],
                      coarse_labels=[0, 19, 1, 2])
    write_cifar_batch(tmp_path / "c100" / "test", imgs[:2], fine_labels=[1, 2],
                      coarse_labels=[3, 4])
    Cifar100ToMR(str(tmp_path / "c100"), str(tmp_path / "c.mr"), partition_number=2,
                 image_format="png").transform()
    rows = read_rows(str(tmp_path / "c.mr0"))
    assert [(r["id"], r["fine_label"], r["coarse_label"]) for r in rows] == \
        [(0, 0, 0), (1, 99, 19), (2, 5, 1), (3, 6, 2)]
    np.testing.assert_array_equal(decode(rows[1]["data"])[..., ::-1], imgs[1])
    assert [r["fine_label"] for r in read_rows(str(tmp_path / "c.mr_test0"))] == [1, 2]


def test_cifar10_missing_files(tmp_path):
    os.makedirs(tmp_path / "empty")
    with pytest.raises(PathNotExistsError, match="data_batch_"):    # MindSpore 2.10's type
        Cifar10ToMR(str(tmp_path / "empty"), str(tmp_path / "c.mr"))
