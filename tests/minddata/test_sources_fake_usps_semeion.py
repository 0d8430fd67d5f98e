"""FakeImageDataset, USPSDataset and SemeionDataset: rows, order, errors. Expected values
measured under MindSpore 2.10 are marked so."""
import json

import numpy as np
import pytest

import minddata as ds
from minddata.serialization import deserialize, serialize
from minddata.sources.fake_image import FakeImageRows
from minddata.sources.usps import USPSSource


def _rows(data):
    return [tuple(r) for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]


# -- USPS ---------------------------------------------------------------------------------

def usps_line(label, values, end=" "):
    return f"{label} " + " ".join(f"{i + 1}:{v:.6g}" for i, v in enumerate(values)) + end


RAMP = np.linspace(-1, 1, 256)


def make_usps_dir(root):
    root.mkdir()
    (root / "usps").write_text(usps_line(1, RAMP) + "\n" + usps_line(10, -RAMP) + "\n\n"
                               + usps_line(5, np.zeros(256)) + "\n")
    (root / "usps.t").write_text(usps_line(3, RAMP / 2) + "\n"
                                 + usps_line(7, np.full(256, -0.99)) + "\n")
    return str(root)


def test_usps_rows_values_and_usage(tmp_path):
    root = make_usps_dir(tmp_path / "u")
    d = ds.USPSDataset(root, usage="train", shuffle=False)
    assert d.get_col_names() == ["image", "label"] and d.get_dataset_size() == 3
    rows = _rows(d)
    image, label = rows[0]
    assert image.shape == (16, 16, 1) and image.dtype == np.uint8
    assert label.shape == () and label.dtype == np.uint32
    # measured under MindSpore 2.10: (value + 1) / 2 * 255 truncated; label = class - 1
    assert image.ravel()[[0, 1, 2, 127, 128, 254, 255]].tolist() == [0, 0, 1, 126, 128, 254, 255]
    assert [int(r[1]) for r in rows] == [0, 9, 4]
    assert rows[2][0].ravel()[0] == 127
    with USPSSource(root, "train") as src:     # a row's image is its own copy
        src.read_rows([0])[0][0][:] = 7
        assert src.read_rows([0])[0][0].ravel()[0] == 0
        assert src.provenance(2).endswith("usps line 4")
    test = _rows(ds.USPSDataset(root, usage="test", shuffle=False))
    assert test[0][0].ravel()[[0, 1, 255]].tolist() == [63, 64, 191]   # measured
    assert test[1][0].ravel()[0] == 1 and int(test[1][1]) == 6        # measured (-0.99)
    both = ds.USPSDataset(root)                # usage None: both files
    assert both.get_dataset_size() == 5
    assert sorted(int(r[1]) for r in _rows(both)) == [0, 2, 4, 6, 9]


def test_usps_is_a_file_source(tmp_path):
    root = make_usps_dir(tmp_path / "u")
    files = ds.USPSDataset(root, shuffle=ds.Shuffle.FILES)      # a Shuffle member is accepted
    assert sorted(int(r[1]) for r in _rows(files)) == [0, 2, 4, 6, 9]
    shard = ds.USPSDataset(root, usage="train", shuffle=False, num_shards=2, shard_id=1)
    assert shard.get_dataset_size() == 2
    assert ds.USPSDataset(root, num_samples=3).get_dataset_size() == 3
    with pytest.raises(TypeError, match="shuffle must be of boolean or enum of 'Shuffle'"):
        ds.USPSDataset(root, shuffle=1)
    with pytest.raises(TypeError, match="sampler"):
        ds.USPSDataset(root, sampler=ds.SequentialSampler())


def test_usps_missing_empty_and_bad_arguments(tmp_path):
    with pytest.raises(RuntimeError, match="USPS dataset train file: .*usps does not exist"):
        ds.USPSDataset(str(tmp_path)).get_dataset_size()
    with pytest.raises(RuntimeError, match="USPS dataset test file: .*usps.t does not exist"):
        ds.USPSDataset(str(tmp_path), usage="test").get_dataset_size()
    (tmp_path / "usps").write_text("\n\n")
    empty = ds.USPSDataset(str(tmp_path), usage="train")
    assert empty.get_dataset_size() == 0           # measured: 0, then the error when read
    with pytest.raises(RuntimeError, match="'USPSDataset' API can't read the data file"):
        list(empty)
    (tmp_path / "usps").write_bytes(b"BZh91AY&SY")
    with pytest.raises(RuntimeError, match="bzip2-compressed"):
        ds.USPSDataset(str(tmp_path), usage="train").get_dataset_size()
    with pytest.raises(ValueError, match="usage is not within the valid set"):
        ds.USPSDataset(str(tmp_path), usage="valid")
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.USPSDataset(str(tmp_path / "nope"))


@pytest.mark.parametrize("line, words", [
    (usps_line(3, np.zeros(256)).replace(" 5:0", " 50", 1), "split character ':' is missing"),
    (usps_line(3, np.zeros(256)).replace(" 5:0", " 6:0", 1), "should be 5, but got 6"),
    (usps_line(3, np.zeros(255)), "should be 257, but got 256"),
    (usps_line(0, np.zeros(256)), "class of .* should be an integer from 1"),
    (usps_line("x", np.zeros(256)), "class of .* should be an integer from 1"),
    (usps_line(3, np.zeros(256)).replace(" 9:0", " 9:abc", 1), "pixel 9 .* not a number"),
])
def test_usps_damaged_line_names_file_and_line(tmp_path, line, words):
    (tmp_path / "usps").write_text(usps_line(1, np.zeros(256)) + "\n" + line + "\n")
    with pytest.raises(RuntimeError, match=words):
        list(ds.USPSDataset(str(tmp_path), usage="train"))
    with pytest.raises(RuntimeError, match="usps line 2"):
        list(ds.USPSDataset(str(tmp_path), usage="train"))


def test_usps_accepts_lines_without_trailing_blank_and_clips(tmp_path):
    # MindSpore refuses a line that does not end with a blank, and wraps values beyond 1
    (tmp_path / "usps").write_text(usps_line(2, np.full(256, 3.0), end="") + "\r\n")
    image, label = _rows(ds.USPSDataset(str(tmp_path), usage="train"))[0]
    assert int(label) == 1 and (image == 255).all()


# -- Semeion ------------------------------------------------------------------------------

def semeion_line(pixels, label, end=" "):
    return (" ".join(f"{p:.4f}" for p in pixels) + " "
            + " ".join("1" if i == label else "0" for i in range(10)) + end)


CHECKS = (np.arange(256) % 3 == 0).astype(float)


def test_semeion_rows(tmp_path):
    (tmp_path / "semeion.data").write_text(
        semeion_line(CHECKS, 3) + "\n" + semeion_line(1 - CHECKS, 0) + "\n\n"
        + semeion_line(CHECKS, 9, end="") + "\n")
    d = ds.SemeionDataset(str(tmp_path), shuffle=False)
    assert d.get_col_names() == ["image", "label"] and d.get_dataset_size() == 3
    rows = _rows(d)
    image, label = rows[0]
    # measured under MindSpore 2.10: (16, 16) uint8 holding the file's 0/1, label uint32
    assert image.shape == (16, 16) and image.dtype == np.uint8
    assert label.shape == () and label.dtype == np.uint32
    assert image.ravel()[:6].tolist() == [1, 0, 0, 1, 0, 0] and int(image.sum()) == 86
    assert [int(r[1]) for r in rows] == [3, 0, 9]
    assert ds.SemeionDataset(str(tmp_path), num_shards=2, shard_id=0).get_dataset_size() == 2


def test_semeion_errors(tmp_path):
    with pytest.raises(RuntimeError, match="failed to find semeion file"):
        ds.SemeionDataset(str(tmp_path)).get_dataset_size()
    (tmp_path / "semeion.data").write_text("")
    with pytest.raises(RuntimeError, match="SemeionDataset API can't read the data file"):
        ds.SemeionDataset(str(tmp_path)).get_dataset_size()       # measured: when counted
    with pytest.raises(TypeError, match="Argument shuffle"):
        ds.SemeionDataset(str(tmp_path), shuffle=ds.Shuffle.GLOBAL)
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.SemeionDataset(str(tmp_path / "nope"))


@pytest.mark.parametrize("line, words", [
    (semeion_line(CHECKS[:255], 3), "does not match SemeionDataset.*holds 265 values"),
    (semeion_line(CHECKS, 3).replace("1.0000", "abc", 1),
     "should be in type of uint8, but got: abc"),
    (semeion_line(np.full(256, 300.0), 3), "should be in type of uint8, but got: 300"),
    (semeion_line(CHECKS, 11), "no class is marked"),
])
def test_semeion_damaged_line(tmp_path, line, words):
    (tmp_path / "semeion.data").write_text(semeion_line(CHECKS, 1) + "\n" + line + "\n")
    with pytest.raises(RuntimeError, match="semeion.data line 2"):
        list(ds.SemeionDataset(str(tmp_path)))
    with pytest.raises(RuntimeError, match=words):
        list(ds.SemeionDataset(str(tmp_path)))


# -- FakeImage ----------------------------------------------------------------------------

def test_fake_image_rows_and_determinism():
    d = ds.FakeImageDataset(num_images=6, image_size=(4, 5, 2), num_classes=3, base_seed=7,
                            shuffle=False)
    assert d.get_col_names() == ["image", "label"] and d.get_dataset_size() == 6
    rows = _rows(d)
    assert all(r[0].shape == (4, 5, 2) and r[0].dtype == np.uint8 for r in rows)
    assert all(r[1].shape == () and r[1].dtype == np.uint32 and 0 <= r[1] < 3 for r in rows)
    again = _rows(ds.FakeImageDataset(num_images=6, image_size=(4, 5, 2), num_classes=3,
                                      base_seed=7, shuffle=False))
    assert all((a[0] == b[0]).all() and a[1] == b[1] for a, b in zip(rows, again))
    # as MindSpore's: row i depends on base_seed + i only
    shifted = _rows(ds.FakeImageDataset(num_images=5, image_size=(4, 5, 2), num_classes=3,
                                        base_seed=8, shuffle=False))
    assert all((a[0] == b[0]).all() and a[1] == b[1] for a, b in zip(rows[1:], shifted))
    assert not (rows[0][0] == rows[1][0]).all()
    # the labels a PKSampler or a batch gathers at once are the rows' labels
    with FakeImageRows(6, [4, 5, 2], 3, 7) as src:
        assert src.column_values("label").tolist() == [int(r[1]) for r in rows]


def test_fake_image_labels_cover_the_classes():
    d = ds.FakeImageDataset(num_images=700, image_size=(1, 1, 1), num_classes=7, base_seed=-3)
    counts = np.bincount([int(r[1]) for r in _rows(d)], minlength=7)
    assert counts.size == 7 and counts.min() > 60


def test_fake_image_defaults_attributes_and_round_trip():
    d = ds.FakeImageDataset()
    assert d.get_dataset_size() == 1000
    # MindSpore keeps the arguments as attributes (num_classes too, hiding the method)
    assert (d.num_images, tuple(d.image_size), d.num_classes, d.base_seed) == \
        (1000, (224, 224, 3), 10, 0)
    small = ds.FakeImageDataset(num_images=3, image_size=[2, 2, 3], base_seed=5, shuffle=False)
    tree = serialize(small)
    rebuilt = deserialize(input_dict=json.loads(json.dumps(tree)))
    assert [r[0].tolist() for r in _rows(rebuilt)] == [r[0].tolist() for r in _rows(small)]
    assert ds.FakeImageDataset(num_images=10, num_shards=3, shard_id=2).get_dataset_size() == 4


@pytest.mark.parametrize("kwargs, error, words", [   # measured under MindSpore 2.10
    (dict(num_images=0), ValueError, r"num_images is not within the required interval of \[1, "),
    (dict(num_images=True), TypeError, "Argument num_images"),
    (dict(image_size=(1, 2)), ValueError, "image_size should be a list or tuple of length 3, "
                                          "but got 2"),
    (dict(image_size=[1, 2, 0]), ValueError, r"image_size\[2\] is not within the required"),
    (dict(image_size="abc"), TypeError, "Argument image_size"),
    (dict(num_classes=0), ValueError, "num_classes is not within the required interval"),
    (dict(base_seed=1.5), TypeError, "Argument base_seed"),
    (dict(base_seed=2 ** 31), TypeError, "base_seed"),
    (dict(shuffle=ds.Shuffle.GLOBAL), TypeError, "Argument shuffle"),
    (dict(num_shards=2), RuntimeError, "requires shard_id"),
])
def test_fake_image_argument_errors(kwargs, error, words):
    with pytest.raises(error, match=words):
        ds.FakeImageDataset(**kwargs)
