"""MnistToMR: idx files -> <dest>_train.mindrecord and <dest>_test.mindrecord."""
import gzip
import os
import struct

import numpy as np
import pytest

from mindrecord.tools import ConversionError, MnistToMR
from .test_tools_helpers import decode, make_mnist, read_rows


@pytest.mark.parametrize("gz", [True, False])
def test_round_trip_png(tmp_path, gz):
    data = make_mnist(tmp_path / "m", gz=gz)
    result = MnistToMR(str(tmp_path / "m"), str(tmp_path / "mn"), 2,
                       image_format="png").transform()
    assert [os.path.basename(f) for f in result.files] == [
        "mn_train.mindrecord0", "mn_train.mindrecord1", "mn_test.mindrecord0",
        "mn_test.mindrecord1"]
    for split, first in (("train", "mn_train.mindrecord0"), ("t10k", "mn_test.mindrecord0")):
        images, labels = data[split]
        rows = read_rows(str(tmp_path / first))
        assert [r["label"] for r in rows] == labels.tolist()
        for r, img in zip(rows, images):
            np.testing.assert_array_equal(decode(r["data"]), img)


def test_truncated_idx_file_is_named(tmp_path):
    make_mnist(tmp_path / "m")
    path = tmp_path / "m" / "t10k-images-idx3-ubyte.gz"
    with gzip.open(path, "wb") as f:
        f.write(struct.pack(">IIII", 2051, 4, 28, 28) + b"\x00" * 100)
    with pytest.raises(ConversionError, match="t10k-images-idx3-ubyte.gz: 100 data bytes"):
        MnistToMR(str(tmp_path / "m"), str(tmp_path / "mn")).transform()
    assert sorted(os.listdir(tmp_path)) == ["m"]


def test_label_outside_class_list(tmp_path):
    make_mnist(tmp_path / "m")
    with gzip.open(tmp_path / "m" / "train-labels-idx1-ubyte.gz", "wb") as f:
        f.write(struct.pack(">II", 2049, 6) + bytes([0, 1, 2, 3, 12, 5]))
    result = MnistToMR(str(tmp_path / "m"), str(tmp_path / "mn")).transform(skip_bad=True)
    assert result.skipped == [(f"{tmp_path}/m/train-labels-idx1-ubyte.gz item 4",
                               "label 12 outside the class list (0..9)")]
    assert len(read_rows(str(tmp_path / "mn_train.mindrecord"))) == 5


def test_missing_file_fails_at_construction(tmp_path):
    make_mnist(tmp_path / "m")
    os.remove(tmp_path / "m" / "train-images-idx3-ubyte.gz")
    with pytest.raises(FileNotFoundError, match="train-images-idx3-ubyte.gz not found"):
        MnistToMR(str(tmp_path / "m"), str(tmp_path / "mn"))
