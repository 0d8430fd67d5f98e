"""SBDataset and CityscapesDataset on small folders the tests write in the official layouts:
columns, dtypes and shapes, row order per usage, decode, sharding, MindSpore's argument errors,
and missing or damaged files. Literals marked 'measured' were read from MindSpore 2.10 on the
same folders."""
import json
import os

import cv2
import numpy as np
import pytest
import scipy.io as sio
import scipy.sparse as sp

import minddata as ds
from minddata.sources.cityscapes import CityscapesSource
from minddata.sources.sbd import SBSource


def write_image(path, height, width, value):
    """A small BGR file whose blue is ``value`` and green the column index."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    a = np.zeros((height, width, 3), np.uint8)
    a[..., 0] = value
    a[..., 1] = np.arange(width, dtype=np.uint8)[None]
    cv2.imwrite(path, a)


def rows_of(data):
    return list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))


# ---------------------------------------------------------------- SBD

SB_LISTS = {"train": ["a1", "a2", "b1"], "val": ["c1", "a2"], "train_noval": ["a1"]}
SB_NAMES = ["a1", "a2", "b1", "c1"]       # image k is (3 + k) x 4


def make_sbd(root):
    for k, name in enumerate(SB_NAMES):
        height = 3 + k
        write_image(os.path.join(root, "img", name + ".jpg"), height, 4, 10 * k)
        boundaries = np.zeros((20, 1), dtype=object)
        for i in range(20):
            m = np.zeros((height, 4), np.uint8)
            m[i % height, (i + k) % 4] = 1
            boundaries[i, 0] = sp.csc_matrix(m)
        seg = (np.arange(height * 4).reshape(height, 4) % 21 + k).astype(np.uint8)
        os.makedirs(os.path.join(root, "cls"), exist_ok=True)
        sio.savemat(os.path.join(root, "cls", name + ".mat"),
                    {"GTcls": {"Boundaries": boundaries, "Segmentation": seg,
                               "CategoriesPresent": np.array([[1]], np.uint8)}})
    for usage, ids in SB_LISTS.items():
        with open(os.path.join(root, usage + ".txt"), "w") as f:
            f.write("".join(i + "\n" for i in ids) + "\n")      # a blank last line


def test_sbd_boundaries_of_all_usages(tmp_path):
    make_sbd(str(tmp_path))
    data = ds.SBDataset(str(tmp_path), shuffle=False)
    # measured: MindSpore 2.10 names the columns image, task; 'all' is train.txt then val.txt
    assert data.get_col_names() == ["image", "task"]
    assert data.get_dataset_size() == 5
    rows = rows_of(data)
    order = SB_LISTS["train"] + SB_LISTS["val"]
    assert [r[1].shape for r in rows] == [(20, 3, 4), (20, 4, 4), (20, 5, 4), (20, 6, 4),
                                          (20, 4, 4)]
    for (image, task), name in zip(rows, order):
        np.testing.assert_array_equal(image, np.fromfile(tmp_path / "img" / (name + ".jpg"),
                                                         np.uint8))
        k = SB_NAMES.index(name)
        assert task.dtype == np.uint8 and task.sum(axis=(1, 2)).tolist() == [1] * 20
        assert list(zip(*task[3].nonzero())) == [(3 % (3 + k), (3 + k) % 4)]


def test_sbd_segmentation_usage_and_decode(tmp_path):
    make_sbd(str(tmp_path))
    rows = rows_of(ds.SBDataset(str(tmp_path), task="Segmentation", usage="train", shuffle=False))
    # measured under MindSpore 2.10
    assert rows[0][1].tolist() == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    assert rows[2][1].shape == (5, 4) and rows[2][1].dtype == np.uint8
    (image, task), = rows_of(ds.SBDataset(str(tmp_path), usage="train_noval", decode=True))
    want = cv2.cvtColor(cv2.imread(str(tmp_path / "img" / "a1.jpg")), cv2.COLOR_BGR2RGB)
    np.testing.assert_array_equal(image, want)
    assert task.shape == (20, 3, 4)
    val = rows_of(ds.SBDataset(str(tmp_path), task="Segmentation", usage="val", shuffle=False))
    assert [t.shape for _, t in val] == [(6, 4), (4, 4)]


def test_sbd_sharding_and_num_samples(tmp_path):
    make_sbd(str(tmp_path))
    shard = rows_of(ds.SBDataset(str(tmp_path), usage="train", shuffle=False, num_shards=2,
                               shard_id=1))
    assert [t.shape[1] for _, t in shard] == [4, 3]      # measured: rows 1, then 0
    assert len(rows_of(ds.SBDataset(str(tmp_path), num_samples=2))) == 2


def test_sbd_argument_errors(tmp_path):
    make_sbd(str(tmp_path))
    root = str(tmp_path)
    with pytest.raises(ValueError, match=r"Input usage is not within the valid set of \['train'"):
        ds.SBDataset(root, usage="test")
    with pytest.raises(ValueError, match="Input task is not within the valid set"):
        ds.SBDataset(root, task="boundaries")
    with pytest.raises(TypeError, match="Argument task with value 1"):
        ds.SBDataset(root, task=1)
    with pytest.raises(TypeError, match="Argument decode"):
        ds.SBDataset(root, decode=1)
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.SBDataset(str(tmp_path / "missing"))
    os.remove(tmp_path / "val.txt")
    with pytest.raises(FileNotFoundError, match="SBDataset: .*val.txt not found"):
        ds.SBDataset(root)
    assert ds.SBDataset(root, usage="train").get_dataset_size() == 3


def test_sbd_missing_and_damaged_files(tmp_path):
    make_sbd(str(tmp_path))
    root = str(tmp_path)
    with open(tmp_path / "cls" / "b1.mat", "wb") as f:
        f.write(b"garbage" * 10)
    with pytest.raises(RuntimeError, match="b1.mat"):
        rows_of(ds.SBDataset(root, usage="train", shuffle=False))
    os.remove(tmp_path / "img" / "a2.jpg")
    with pytest.raises(RuntimeError, match="a2.jpg"):
        SBSource(root, "Boundaries", "val", False).read_rows([1])
    sio.savemat(str(tmp_path / "cls" / "c1.mat"), {"other": np.zeros(2)})
    with pytest.raises(RuntimeError, match="c1.mat"):
        SBSource(root, "Segmentation", "val", False).read_rows([0])
    for name in ("train", "val"):
        open(tmp_path / (name + ".txt"), "w").close()
    with pytest.raises(RuntimeError, match="must not be 0"):
        ds.SBDataset(root).get_dataset_size()


# ---------------------------------------------------------------- Cityscapes

CITY_IMAGES = {"train": {"aachen": ["aachen_000001_000019", "aachen_000000_000019"],
                         "bochum": ["bochum_000000_000313"]},
               "val": {"frankfurt": ["frankfurt_000000_000294"]},
               "test": {"berlin": ["berlin_000000_000019"]},
               "train_extra": {"augsburg": ["augsburg_000000_000000"]}}


def make_cityscapes(root):
    """Image k (1-based, in CITY_IMAGES order) has blue k; its labelIds are k, its instanceIds
    26000 + k (16-bit)."""
    k = 0
    for usage, cities in CITY_IMAGES.items():
        for city, stems in cities.items():
            for stem in stems:
                k += 1
                write_image(os.path.join(root, "leftImg8bit", usage, city,
                                    stem + "_leftImg8bit.png"), 4, 6, k)
                for gt in ("gtFine", "gtCoarse"):
                    d = os.path.join(root, gt, usage, city)
                    os.makedirs(d, exist_ok=True)
                    cv2.imwrite(os.path.join(d, f"{stem}_{gt}_labelIds.png"),
                                np.full((4, 6), k, np.uint8))
                    cv2.imwrite(os.path.join(d, f"{stem}_{gt}_instanceIds.png"),
                                np.full((4, 6), 26000 + k, np.uint16))
                    write_image(os.path.join(d, f"{stem}_{gt}_color.png"), 4, 6, 100 + k)
                    with open(os.path.join(d, f"{stem}_{gt}_polygons.json"), "w") as f:
                        json.dump({"imgHeight": 4, "imgWidth": 6, "objects": [
                            {"label": "road", "polygon": [[0, 0], [5, 0], [5.5, 3]], "id": k}]},
                            f, indent=2)
            open(os.path.join(root, "leftImg8bit", usage, city, "notes.txt"), "w").close()


def _blue(rows):
    return [int(image[0, 0, 2]) for image, _ in rows]


def test_cityscapes_usages_and_order(tmp_path):
    make_cityscapes(str(tmp_path))
    root = str(tmp_path)
    data = ds.CityscapesDataset(root, shuffle=False, decode=True)
    assert data.get_col_names() == ["image", "task"] and data.get_dataset_size() == 3
    # measured: sorted by image path within a usage; 'all' is train, test, val (fine)
    assert _blue(rows_of(data)) == [2, 1, 3]
    rows = rows_of(ds.CityscapesDataset(root, usage="all", task="semantic", decode=True,
                                      shuffle=False))
    assert _blue(rows) == [2, 1, 3, 5, 4]
    assert [t[0, 0].tolist() for _, t in rows] == [[k] * 3 for k in (2, 1, 3, 5, 4)]
    coarse = ds.CityscapesDataset(root, usage="all", quality_mode="coarse", decode=True,
                                  shuffle=False)
    assert _blue(rows_of(coarse)) == [2, 1, 3, 6, 4]
    extra = ds.CityscapesDataset(root, usage="train_extra", quality_mode="coarse", task="color")
    (image, task), = rows_of(extra)
    path = tmp_path / "gtCoarse/train_extra/augsburg/augsburg_000000_000000_gtCoarse_color.png"
    np.testing.assert_array_equal(task, np.fromfile(path, np.uint8))


def test_cityscapes_decoded_instance_ids_and_polygons(tmp_path):
    make_cityscapes(str(tmp_path))
    root = str(tmp_path)
    rows = rows_of(ds.CityscapesDataset(root, task="instance", decode=True, shuffle=False))
    # measured: MindSpore 2.10 decodes the 16-bit ids to 8-bit RGB (26001 -> 101)
    assert [(t.shape, t.dtype, t[0, 0].tolist()) for _, t in rows][0] == \
        ((4, 6, 3), np.uint8, [101, 101, 101])
    raw = rows_of(ds.CityscapesDataset(root, task="instance", shuffle=False))
    assert raw[0][0].ndim == 1 and raw[0][1].dtype == np.uint8
    (image, polygon), = rows_of(ds.CityscapesDataset(root, usage="val", task="polygon"))
    # measured: the JSON as MindSpore 2.10 serves it, compact with sorted keys
    assert polygon.dtype.kind == "U" and polygon.shape == ()
    assert str(polygon) == ('{"imgHeight":4,"imgWidth":6,"objects":[{"id":4,"label":"road",'
                            '"polygon":[[0,0],[5,0],[5.5,3]]}]}')


def test_cityscapes_argument_errors(tmp_path):
    make_cityscapes(str(tmp_path))
    root = str(tmp_path)
    with pytest.raises(ValueError, match=r"usage is not within the valid set of \['train', "
                                         r"'test', 'val', 'all'\]"):
        ds.CityscapesDataset(root, usage="train_extra")
    with pytest.raises(ValueError, match="'train_extra', 'val', 'all'"):
        ds.CityscapesDataset(root, usage="test", quality_mode="coarse")
    with pytest.raises(ValueError, match="Input task is not within the valid set"):
        ds.CityscapesDataset(root, task="panoptic")
    with pytest.raises(ValueError, match="Input quality_mode is not within"):
        ds.CityscapesDataset(root, quality_mode="medium")
    with pytest.raises(TypeError, match="Argument usage with value None"):
        ds.CityscapesDataset(root, usage=None)
    with pytest.raises(RuntimeError, match="sampler and shuffle"):
        ds.CityscapesDataset(root, shuffle=True, sampler=ds.SequentialSampler())


def test_cityscapes_missing_and_damaged_files(tmp_path):
    make_cityscapes(str(tmp_path))
    root = str(tmp_path)
    with open(tmp_path / "gtFine/val/frankfurt/frankfurt_000000_000294_gtFine_polygons.json",
              "w") as f:
        f.write("{bad")
    with pytest.raises(RuntimeError, match="frankfurt_000000_000294_gtFine_polygons.json"):
        rows_of(ds.CityscapesDataset(root, usage="val", task="polygon"))
    os.remove(tmp_path / "gtFine/train/bochum/bochum_000000_000313_gtFine_instanceIds.png")
    with pytest.raises(RuntimeError, match="task file: .*bochum_000000_000313_gtFine_instance"):
        ds.CityscapesDataset(root).get_dataset_size()
    with pytest.raises(RuntimeError, match="image dir: .*leftImg8bit/train is not a directory"):
        CityscapesSource(str(tmp_path / "cls"), "train", "fine", "semantic", False)
    for city in ("aachen", "bochum"):
        for name in os.listdir(tmp_path / "leftImg8bit/train" / city):
            os.remove(tmp_path / "leftImg8bit/train" / city / name)
    with pytest.raises(RuntimeError, match="no valid data matching the dataset API "
                                           "'CityscapesDataset'"):
        ds.CityscapesDataset(root).get_dataset_size()
