"""STL10Dataset, SVHNDataset and Flowers102Dataset on small folders written in the official
layouts: pixel layout, labels, usage order, decode, sharding and the errors. Expected values
marked "measured" were read from MindSpore 2.10 on the same files."""
import os

import cv2
import numpy as np
import pytest
import scipy.io

import minddata as ds

STL_IMAGE = 96 * 96 * 3


def _rows(data):
    return list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))


def make_stl10(root, parts=(("train", 3), ("test", 2), ("unlabeled", 2))):
    """Per part: its raw image bytes (N, 27648); label files hold 1, 10, 5."""
    raw = {}
    for k, (part, n) in enumerate(parts):
        data = ((np.arange(n * STL_IMAGE) * 7 + k) % 251).astype(np.uint8)
        data.tofile(os.path.join(root, f"{part}_X.bin"))
        raw[part] = data.reshape(n, STL_IMAGE)
        if part != "unlabeled":
            np.array([1, 10, 5][:n], np.uint8).tofile(os.path.join(root, f"{part}_y.bin"))
    return raw


def test_stl10_pixels_are_read_column_major(tmp_path):
    raw = make_stl10(str(tmp_path))
    data = ds.STL10Dataset(str(tmp_path), usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "label"] and data.get_dataset_size() == 3
    (image, label), = _rows(ds.STL10Dataset(str(tmp_path), usage="train", num_samples=1,
                                            shuffle=False))
    assert image.shape == (96, 96, 3) and image.dtype == np.uint8
    planes = raw["train"][0].reshape(3, 96, 96)          # each plane stored column by column
    for r, c, ch in [(0, 0, 0), (0, 1, 0), (5, 2, 1), (95, 3, 2), (10, 90, 2)]:
        assert image[r, c, ch] == planes[ch, c, r]
    assert label.dtype == np.int32 and label.shape == ()


@pytest.mark.parametrize("usage,labels", [
    # measured: label - 1 as int32, -1 for unlabeled, 'all' in sorted file order
    ("train", [0, 9, 4]), ("test", [0, 9]), ("unlabeled", [-1, -1]),
    ("train+unlabeled", [0, 9, 4, -1, -1]), ("all", [0, 9, 0, 9, 4, -1, -1]),
    (None, [0, 9, 0, 9, 4, -1, -1])])
def test_stl10_usage_order_and_labels(tmp_path, usage, labels):
    make_stl10(str(tmp_path))
    data = ds.STL10Dataset(str(tmp_path), usage=usage, shuffle=False)
    assert data.get_dataset_size() == len(labels)
    assert [int(lab) for _, lab in _rows(data)] == labels


def test_stl10_shard(tmp_path):
    make_stl10(str(tmp_path))
    data = ds.STL10Dataset(str(tmp_path), num_shards=2, shard_id=1, shuffle=False)
    assert data.get_dataset_size() == 4
    assert [int(lab) for _, lab in _rows(data)] == [9, 9, -1, 0]     # measured


def test_stl10_errors(tmp_path):
    root = str(tmp_path)
    make_stl10(root, parts=(("test", 2),))
    with pytest.raises(ValueError, match="Input usage is not within the valid set of"):
        ds.STL10Dataset(root, usage="valid")
    with pytest.raises(TypeError, match="Argument usage"):
        ds.STL10Dataset(root, usage=1)
    with pytest.raises(ValueError, match="train_X.bin does not exist or permission denied"):
        ds.STL10Dataset(root, usage="train")
    # usage None: MindSpore checks the files when the pipeline starts (measured)
    with pytest.raises(RuntimeError, match="failed to find STL10 all data file: .*train_X.bin"):
        _rows(ds.STL10Dataset(root))


def test_stl10_damaged_files(tmp_path):
    root = str(tmp_path)
    make_stl10(root)
    with open(os.path.join(root, "train_y.bin"), "ab") as f:
        f.write(b"\x01")
    with pytest.raises(RuntimeError, match="train_y.bin: the number of labels"):
        _rows(ds.STL10Dataset(root, usage="train"))
    with open(os.path.join(root, "test_X.bin"), "ab") as f:
        f.write(b"\x00" * 10)
    with pytest.raises(RuntimeError, match="test_X.bin: size .* not a multiple"):
        _rows(ds.STL10Dataset(root, usage="test"))


def make_svhn(root, parts=(("train", 3), ("test", 2), ("extra", 2))):
    rng = np.random.default_rng(1)
    images = {}
    for part, n in parts:
        x = rng.integers(0, 255, (32, 32, 3, n), dtype=np.uint8)
        y = np.array([[10], [1], [9]][:n], np.uint8)
        scipy.io.savemat(os.path.join(root, f"{part}_32x32.mat"), {"X": x, "y": y})
        images[part] = x
    return images


def test_svhn_rows_and_usage(tmp_path):
    images = make_svhn(str(tmp_path))
    data = ds.SVHNDataset(str(tmp_path), usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "label"] and data.get_dataset_size() == 3
    rows = _rows(data)
    for k, (image, label) in enumerate(rows):
        np.testing.assert_array_equal(image, images["train"][..., k])
        assert label.dtype == np.uint32 and label.shape == ()
    assert [int(lab) for _, lab in rows] == [0, 1, 9]           # measured: 10 means digit 0
    everything = _rows(ds.SVHNDataset(str(tmp_path), shuffle=False))
    assert [int(lab) for _, lab in everything] == [0, 1, 9, 0, 1, 0, 1]    # measured
    np.testing.assert_array_equal(everything[5][0], images["extra"][..., 0])
    shard = _rows(ds.SVHNDataset(str(tmp_path), usage="train", num_shards=2, shard_id=0,
                                 shuffle=False))
    assert [int(lab) for _, lab in shard] == [0, 9]                          # measured


def test_svhn_errors(tmp_path):
    root = str(tmp_path)
    make_svhn(root, parts=(("train", 3),))
    with pytest.raises(ValueError, match=r"valid set of \['train', 'test', 'extra', 'all'\]"):
        ds.SVHNDataset(root, usage="valid")
    with pytest.raises(ValueError, match="test_32x32.mat does not exist"):
        ds.SVHNDataset(root, usage="test")
    with pytest.raises(FileNotFoundError, match="test_32x32.mat"):     # measured, usage None
        ds.SVHNDataset(root)
    with open(os.path.join(root, "train_32x32.mat"), "r+b") as f:
        f.truncate(300)
    with pytest.raises(RuntimeError, match="train_32x32.mat"):
        _rows(ds.SVHNDataset(root, usage="train"))


def make_flowers(root):
    for folder in ("jpg", "segmim"):
        os.makedirs(os.path.join(root, folder))
    for i in range(1, 7):
        image = np.full((6, 8, 3), 30 * i, np.uint8)
        cv2.imwrite(os.path.join(root, "jpg", f"image_{i:05d}.jpg"), image)
        cv2.imwrite(os.path.join(root, "segmim", f"segmim_{i:05d}.jpg"), 255 - image)
    scipy.io.savemat(os.path.join(root, "imagelabels.mat"),
                     {"labels": np.array([[5, 1, 102, 7, 7, 3]], np.uint8)})
    scipy.io.savemat(os.path.join(root, "setid.mat"),
                     {"trnid": np.array([[4, 1]], np.uint16), "valid": np.array([[6]], np.uint16),
                      "tstid": np.array([[2, 5, 3]], np.uint16)})


def _jpg(root, folder, prefix, i):
    return np.fromfile(os.path.join(root, folder, f"{prefix}_{i:05d}.jpg"), np.uint8)


@pytest.mark.parametrize("usage,ids", [("all", [4, 1, 2, 5, 3, 6]), (None, [4, 1, 2, 5, 3, 6]),
                                       ("train", [4, 1]), ("valid", [6]), ("test", [2, 5, 3])])
def test_flowers_rows_follow_the_split(tmp_path, usage, ids):
    root = str(tmp_path)
    make_flowers(root)
    data = ds.Flowers102Dataset(root, usage=usage, shuffle=False)
    assert data.get_dataset_size() == len(ids)
    rows = _rows(data)
    labels = {1: 4, 2: 0, 3: 101, 4: 6, 5: 6, 6: 2}          # measured: class - 1
    assert [int(lab) for _, lab in rows] == [labels[i] for i in ids]
    for (image, label), i in zip(rows, ids):
        np.testing.assert_array_equal(image, _jpg(root, "jpg", "image", i))
        assert label.dtype == np.uint32


def test_flowers_segmentation_and_decode(tmp_path):
    root = str(tmp_path)
    make_flowers(root)
    data = ds.Flowers102Dataset(root, task="Segmentation", usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "segmentation", "label"]
    (image, mask, label), _ = _rows(data)
    np.testing.assert_array_equal(mask, _jpg(root, "segmim", "segmim", 4))
    decoded = _rows(ds.Flowers102Dataset(root, task="Segmentation", usage="train", decode=True,
                                         shuffle=False))
    image, mask, label = decoded[0]
    assert image.shape == mask.shape == (6, 8, 3) and int(label) == 6
    assert abs(int(image[2, 2, 0]) - 120) <= 2 and abs(int(mask[2, 2, 0]) - 135) <= 2
    indexing = ds.Flowers102Dataset(root).get_class_indexing()
    assert len(indexing) == 102 and indexing["pink primrose"] == 0
    assert indexing["blackberry lily"] == 101


def test_flowers_errors(tmp_path):
    root = str(tmp_path)
    make_flowers(root)
    with pytest.raises(ValueError, match=r"Input task is not within the valid set of"):
        ds.Flowers102Dataset(root, task="Detection")
    with pytest.raises(ValueError, match=r"valid set of \['train', 'valid', 'test', 'all'\]"):
        ds.Flowers102Dataset(root, usage="extra")
    with pytest.raises(TypeError, match="decode"):
        ds.Flowers102Dataset(root, decode=1)
    os.remove(os.path.join(root, "jpg", "image_00001.jpg"))
    with pytest.raises(RuntimeError, match="Can not find image file: .*image_00001.jpg"):
        _rows(ds.Flowers102Dataset(root, usage="train", shuffle=False))
    os.rename(os.path.join(root, "segmim"), os.path.join(root, "masks"))
    with pytest.raises(ValueError, match="segmim does not exist"):
        ds.Flowers102Dataset(root, task="Segmentation")
    scipy.io.savemat(os.path.join(root, "imagelabels.mat"), {"labels": np.array([[5, 1]])})
    with pytest.raises(RuntimeError, match="setid.mat: image id 4 has no label"):
        _rows(ds.Flowers102Dataset(root, usage="train"))


def test_flowers_empty_split_is_refused(tmp_path):
    # measured in MindSpore 2.10: a split of setid.mat listing no id raises "GeneratorNode: data
    # row of input source must not be 0" from get_dataset_size, get_col_names and iteration
    # (this package served an empty dataset)
    root = str(tmp_path)
    make_flowers(root)
    scipy.io.savemat(os.path.join(root, "setid.mat"),
                     {"trnid": np.array([[4, 1]], np.uint16),
                      "valid": np.zeros((1, 0), np.uint16), "tstid": np.array([[2]], np.uint16)})
    data = ds.Flowers102Dataset(root, usage="valid", shuffle=False)
    with pytest.raises(RuntimeError, match="data row of input source must not be 0"):
        data.get_dataset_size()
    with pytest.raises(RuntimeError, match="data row of input source must not be 0"):
        _rows(data)
    assert len(_rows(ds.Flowers102Dataset(root, usage="test", shuffle=False))) == 1
