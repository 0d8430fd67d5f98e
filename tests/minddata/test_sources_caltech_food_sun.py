"""Caltech101Dataset, Caltech256Dataset, Food101Dataset and SUN397Dataset on small folders the
tests write in the official layouts; row orders, labels and errors measured under MindSpore 2.10
on the same layouts."""
import os

import cv2
import numpy as np
import pytest
import scipy.io

import minddata as ds


def _image(path, value, shape=(4, 5, 3)):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    cv2.imwrite(str(path), np.full(shape, value, np.uint8))


def _text(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def _rows(data):
    return list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))


def _bytes(path):
    return np.fromfile(path, np.uint8).tolist()


CALTECH101 = [("accordion", 2), ("Faces", 1), ("BACKGROUND_Google", 1), ("airplanes", 2)]


def make_caltech101(root):
    value = 0
    for name, count in CALTECH101:
        for i in range(1, count + 1):
            _image(f"{root}/101_ObjectCategories/{name}/image_{i:04d}.jpg", value)
            folder = {"Faces": "Faces_2", "airplanes": "Airplanes_Side_2"}.get(name, name)
            os.makedirs(f"{root}/Annotations/{folder}", exist_ok=True)
            contour = np.arange(2 * (i + 2), dtype=np.float64).reshape(2, -1) + value
            scipy.io.savemat(f"{root}/Annotations/{folder}/annotation_{i:04d}.mat",
                             {"obj_contour": contour})
            value += 20


def test_caltech101_rows_leave_the_background_class_out(tmp_path):
    make_caltech101(str(tmp_path))
    data = ds.Caltech101Dataset(str(tmp_path), shuffle=False)
    assert data.get_col_names() == ["image", "category"] and data.get_dataset_size() == 5
    rows = _rows(data)
    # MindSpore 2.10: sorted case-sensitively, BACKGROUND_Google left out -> Faces 0,
    # accordion 1, airplanes 2; int64 categories.
    assert [int(c) for _, c in rows] == [0, 1, 1, 2, 2]
    assert rows[0][1].dtype == np.int64
    first = tmp_path / "101_ObjectCategories" / "Faces" / "image_0001.jpg"
    assert rows[0][0].tolist() == _bytes(first)
    assert data.get_class_indexing() == {"Faces": 0, "accordion": 1, "airplanes": 2}


def test_caltech101_annotations_and_decode(tmp_path):
    make_caltech101(str(tmp_path))
    rows = _rows(ds.Caltech101Dataset(str(tmp_path), target_type="all", decode=True,
                                      shuffle=False))
    image, category, contour = rows[0]
    assert image.shape == (4, 5, 3) and int(category) == 0
    # Faces/image_0001 reads Annotations/Faces_2/annotation_0001.mat (MindSpore: (2, 3) f64).
    assert contour.dtype == np.float64 and contour.shape == (2, 3)
    assert [r[2].shape for r in rows] == [(2, 3), (2, 3), (2, 4), (2, 3), (2, 4)]
    only = _rows(ds.Caltech101Dataset(str(tmp_path), target_type="annotation", shuffle=False))
    assert len(only[0]) == 2 and only[4][1].shape == (2, 4)


def test_caltech101_errors(tmp_path):
    make_caltech101(str(tmp_path))
    with pytest.raises(ValueError, match="Input target_type is not within the valid set"):
        ds.Caltech101Dataset(str(tmp_path), target_type="box")
    with pytest.raises(TypeError, match="Argument target_type with value 1"):
        ds.Caltech101Dataset(str(tmp_path), target_type=1)
    with pytest.raises(FileNotFoundError, match="101_ObjectCategories"):
        ds.Caltech101Dataset(str(tmp_path / "Annotations"))
    os.remove(tmp_path / "Annotations" / "accordion" / "annotation_0002.mat")
    data = ds.Caltech101Dataset(str(tmp_path), target_type="annotation", shuffle=False)
    with pytest.raises(Exception, match="annotation_0002.mat does not exist"):
        _rows(data)
    _text(str(tmp_path / "Annotations" / "accordion" / "annotation_0002.mat"), "not a mat")
    with pytest.raises(Exception, match="annotation_0002.mat"):
        _rows(data)


def make_caltech256(root):
    for j, name in enumerate(["001.ak47", "002.american-flag", "257.clutter"]):
        for i in range(1, 3):
            _image(f"{root}/{name}/{j + 1:03d}_{i:04d}.jpg", 30 * j + i)
    _text(f"{root}/002.american-flag/notes.txt", "x")
    _image(f"{root}/001.ak47/x.png", 9)


def test_caltech256_is_an_image_folder_of_jpg_files(tmp_path):
    make_caltech256(str(tmp_path))
    data = ds.Caltech256Dataset(str(tmp_path), shuffle=False)
    assert data.get_dataset_size() == 6 and data.num_classes() == 3
    rows = _rows(data)
    assert [int(label) for _, label in rows] == [0, 0, 1, 1, 2, 2]   # int32, as MindSpore
    assert rows[0][1].dtype == np.int32
    assert rows[5][0].tolist() == _bytes(tmp_path / "257.clutter" / "003_0002.jpg")
    shard = _rows(ds.Caltech256Dataset(str(tmp_path), shuffle=False, num_shards=3, shard_id=2))
    assert [int(label) for _, label in shard] == [1, 2]
    image, _ = _rows(ds.Caltech256Dataset(str(tmp_path), decode=True, num_samples=1))[0]
    assert image.shape == (4, 5, 3)


def test_caltech256_without_images_fails_when_read(tmp_path):
    os.makedirs(tmp_path / "001.ak47")
    data = ds.Caltech256Dataset(str(tmp_path))
    assert data.get_dataset_size() == 0
    with pytest.raises(RuntimeError, match="CaltechDataset API can't read the data file"):
        _rows(data)


def make_food101(root):
    for name, ids in [("apple_pie", ["11", "22"]), ("hot_dog", ["5", "6"]), ("dog", ["7"])]:
        for i in ids:
            _image(f"{root}/images/{name}/{i}.jpg", int(i) * 10)
    _text(f"{root}/meta/train.txt", "hot_dog/5\napple_pie/22\n\ndog/7\n")
    _text(f"{root}/meta/test.txt", "apple_pie/11\r\nhot_dog/6\r\n")


@pytest.mark.parametrize("usage,lines", [
    ("train", ["hot_dog/5", "apple_pie/22", "dog/7"]), ("test", ["apple_pie/11", "hot_dog/6"]),
    (None, ["hot_dog/5", "apple_pie/22", "dog/7", "apple_pie/11", "hot_dog/6"])])
def test_food101_rows_follow_the_lists(tmp_path, usage, lines):
    make_food101(str(tmp_path))
    data = ds.Food101Dataset(str(tmp_path), usage=usage, shuffle=False)
    assert data.get_dataset_size() == len(lines)
    rows = _rows(data)
    assert [r[0].tolist() for r in rows] == [_bytes(tmp_path / "images" / (line + ".jpg"))
                                             for line in lines]
    # The folder of the line is its class (MindSpore 2.10 labels hot_dog/... as 'dog').
    assert [str(r[1]) for r in rows] == [line.split("/")[0] for line in lines]
    assert rows[0][1].dtype.kind == "U"


def test_food101_errors(tmp_path):
    make_food101(str(tmp_path))
    with pytest.raises(ValueError, match=r"Input usage is not within the valid set of \['train'"):
        ds.Food101Dataset(str(tmp_path), usage="valid")
    with pytest.raises(TypeError, match="Argument decode"):
        ds.Food101Dataset(str(tmp_path), decode=1)
    with pytest.raises(RuntimeError, match="Food101 image path: .* does not exist"):
        ds.Food101Dataset(str(tmp_path / "meta")).get_dataset_size()
    os.remove(tmp_path / "meta" / "test.txt")
    with pytest.raises(RuntimeError, match="failed to open text:.*test.txt"):
        ds.Food101Dataset(str(tmp_path)).get_dataset_size()
    os.remove(tmp_path / "images" / "dog" / "7.jpg")
    with pytest.raises(Exception, match="7.jpg"):
        _rows(ds.Food101Dataset(str(tmp_path), usage="train", shuffle=False))


def make_sun397(root):
    _text(f"{root}/ClassName.txt", "/a/abbey\n/b/bar\n/a/airport_terminal\n")
    for j, name in enumerate(["a/abbey", "b/bar", "a/airport_terminal"]):
        for i in range(2):
            _image(f"{root}/{name}/sun_{'xyz'[j]}{i}.jpg", 40 * j + 10 * i)
    _image(f"{root}/a/abbey/other.jpg", 1)
    _image(f"{root}/a/abbey/sun_q.png", 1)


def test_sun397_rows_go_through_the_sorted_classes(tmp_path):
    make_sun397(str(tmp_path))
    data = ds.SUN397Dataset(str(tmp_path), shuffle=False)
    assert data.get_dataset_size() == 6
    rows = _rows(data)
    # MindSpore 2.10: labels from ClassName.txt's order, rows in sorted class-name order.
    assert [int(label) for _, label in rows] == [0, 0, 2, 2, 1, 1]
    assert rows[0][1].dtype == np.uint32
    assert rows[2][0].tolist() == _bytes(tmp_path / "a" / "airport_terminal" / "sun_z0.jpg")
    decoded = _rows(ds.SUN397Dataset(str(tmp_path), decode=True, num_samples=2, shuffle=False))
    assert [r[0].shape for r in decoded] == [(4, 5, 3)] * 2


def test_sun397_errors(tmp_path):
    make_sun397(str(tmp_path))
    with pytest.raises(RuntimeError, match="ClassName.txt: SUN397 file is damaged"):
        ds.SUN397Dataset(str(tmp_path / "a")).get_dataset_size()
    _text(f"{tmp_path}/ClassName.txt", "/a/abbey\n/c/cave\n")
    with pytest.raises(RuntimeError, match="/c/cave does not exist"):
        ds.SUN397Dataset(str(tmp_path)).get_dataset_size()
    _text(f"{tmp_path}/ClassName.txt", "")
    with pytest.raises(RuntimeError, match="got size 0"):
        ds.SUN397Dataset(str(tmp_path)).get_dataset_size()
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.SUN397Dataset(str(tmp_path / "nope"))


def test_caltech101_without_images_is_refused(tmp_path):
    # measured in MindSpore 2.10: class folders holding no image_NNNN.jpg raise "GeneratorNode:
    # data row of input source must not be 0" from get_dataset_size and iteration (this package
    # served an empty dataset)
    os.makedirs(tmp_path / "101_ObjectCategories" / "ant")
    os.makedirs(tmp_path / "101_ObjectCategories" / "BACKGROUND_Google")
    _image(str(tmp_path / "101_ObjectCategories" / "BACKGROUND_Google" / "image_0001.jpg"), 0)
    data = ds.Caltech101Dataset(str(tmp_path), shuffle=False)
    with pytest.raises(RuntimeError, match="data row of input source must not be 0"):
        data.get_dataset_size()
    with pytest.raises(RuntimeError, match="data row of input source must not be 0"):
        _rows(data)
