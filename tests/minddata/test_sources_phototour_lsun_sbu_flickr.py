"""PhotoTourDataset, LSUNDataset, SBUDataset and FlickrDataset on small folders written in the
official layouts: rows, order, labels, decode and the errors. Expected values marked "measured"
were read from MindSpore 2.10 on the same files."""
import os

import cv2
import numpy as np
import pytest

import minddata as ds


def _rows(data):
    return list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))


def make_phototour(root, name="liberty"):
    """Two 1024x1024 sheets: a patch's top-left pixel is its column (+50 on sheet 1)."""
    folder = os.path.join(root, name)
    os.makedirs(folder)
    for k in range(2):
        sheet = (np.arange(1024 * 1024).reshape(1024, 1024) // 64 + 50 * k) % 256
        cv2.imwrite(os.path.join(folder, f"patches{k:04d}.bmp"), sheet.astype(np.uint8))
    with open(os.path.join(folder, "info.txt"), "w") as f:
        f.write("".join(f"{i // 2} 0\n" for i in range(5)))
    with open(os.path.join(folder, "m50_100000_100000_0.txt"), "w") as f:
        f.write("0 0 0 1 0 0 0\n3 1 0 257 2 0 0\n300 7 0 2 7 0 0\n")
    return folder


def test_phototour_train_and_test(tmp_path):
    make_phototour(str(tmp_path))
    train = ds.PhotoTourDataset(str(tmp_path), "liberty", shuffle=False)
    assert train.get_col_names() == ["image"] and train.get_dataset_size() == 5
    patches = [row[0] for row in _rows(train)]
    assert all(p.shape == (64, 64, 1) and p.dtype == np.uint8 for p in patches)
    assert [int(p[0, 0, 0]) for p in patches] == [0, 1, 2, 3, 4]           # measured
    test = ds.PhotoTourDataset(str(tmp_path), "liberty", usage="test", shuffle=False)
    assert test.get_col_names() == ["image1", "image2", "matches"]
    rows = _rows(test)
    # measured: patch 257 is sheet 1's patch 1, patch 300 sheet 1's patch 44 (column 12)
    assert [(int(a[0, 0, 0]), int(b[0, 0, 0]), int(m)) for a, b, m in rows] == [
        (0, 1, 1), (3, 51, 0), (62, 2, 1)]
    assert rows[0][2].dtype == np.uint32
    # a patch is 64x64 of the sheet: its last row is 63 sheet rows further down
    assert int(patches[1][63, 63, 0]) == (63 * 1024 + 64 + 63) // 64 % 256


def test_phototour_errors(tmp_path):
    root = str(tmp_path)
    folder = make_phototour(root)
    with pytest.raises(ValueError, match="Input name is not within the valid set of"):
        ds.PhotoTourDataset(root, "paris")
    with pytest.raises(ValueError, match=r"valid set of \['train', 'test'\]"):
        ds.PhotoTourDataset(root, "liberty", usage="all")
    with pytest.raises(RuntimeError, match="yosemite does not exist"):
        _rows(ds.PhotoTourDataset(root, "yosemite"))
    with open(os.path.join(folder, "m50_100000_100000_0.txt"), "a") as f:
        f.write("5 1 0\n")
    with pytest.raises(RuntimeError, match="not 7 per line"):
        _rows(ds.PhotoTourDataset(root, "liberty", usage="test"))
    with open(os.path.join(folder, "info.txt"), "a") as f:
        f.write("".join(f"{i} 0\n" for i in range(600)))       # patches beyond the 2 sheets
    with pytest.raises(RuntimeError, match="patch 512 .* 2 .bmp sheets"):
        _rows(ds.PhotoTourDataset(root, "liberty", shuffle=False))
    with open(os.path.join(folder, "patches0000.bmp"), "r+b") as f:
        f.truncate(100)
    with pytest.raises(RuntimeError, match="patches0000.bmp"):
        _rows(ds.PhotoTourDataset(root, "liberty", num_samples=1, shuffle=False))


LSUN_FOLDERS = (("bedroom_train", 2), ("bedroom_val", 1), ("classroom_train", 2),
                ("classroom_val", 1), ("test", 2), ("tower_train", 1))


def make_lsun(root):
    for folder, n in LSUN_FOLDERS:
        os.makedirs(os.path.join(root, folder))
        for i in range(n):
            cv2.imwrite(os.path.join(root, folder, f"{i}.jpg"),
                        np.full((5, 7, 3), 20 * i + len(folder), np.uint8))


@pytest.mark.parametrize("usage,classes,expected", [
    # measured: the selected folders sorted, each its own label
    ("train", None, [("bedroom_train", 0, 0), ("bedroom_train", 1, 0),
                     ("classroom_train", 0, 1), ("classroom_train", 1, 1),
                     ("tower_train", 0, 2)]),
    ("valid", None, [("bedroom_val", 0, 0), ("classroom_val", 0, 1)]),
    ("all", ["classroom"], [("classroom_train", 0, 0), ("classroom_train", 1, 0),
                            ("classroom_val", 0, 1)]),
    (None, None, [("bedroom_train", 0, 0), ("bedroom_train", 1, 0), ("bedroom_val", 0, 1),
                  ("classroom_train", 0, 2), ("classroom_train", 1, 2),
                  ("classroom_val", 0, 3), ("tower_train", 0, 4)]),
    ("test", None, [("test", 0, 0), ("test", 1, 0)])])
def test_lsun_folders_and_labels(tmp_path, usage, classes, expected):
    root = str(tmp_path)
    make_lsun(root)
    data = ds.LSUNDataset(root, usage=usage, classes=classes, shuffle=False)
    # MindSpore 2.10 says 0 for 'test' but reads its 2 rows: the real count here
    assert data.get_dataset_size() == len(expected)
    rows = _rows(data)
    for (image, label), (folder, i, want) in zip(rows, expected):
        np.testing.assert_array_equal(image, np.fromfile(os.path.join(root, folder, f"{i}.jpg"),
                                                         np.uint8))
        assert label.dtype == np.uint32 and int(label) == want
    assert len(rows) == len(expected)


def test_lsun_decode_classes_and_errors(tmp_path):
    root = str(tmp_path)
    make_lsun(root)
    (image, label), _ = _rows(ds.LSUNDataset(root, usage="valid", decode=True, shuffle=False))
    assert image.shape == (5, 7, 3) and int(image[0, 0, 0]) == 11       # measured
    assert ds.LSUNDataset(root).num_classes() == 3                        # measured
    assert ds.LSUNDataset(root).get_class_indexing() == {}                # measured
    with pytest.raises(ValueError, match="Input classes is not within the valid set of"):
        ds.LSUNDataset(root, classes=["cat"])
    with pytest.raises(TypeError, match="Argument classes with value bedroom"):
        ds.LSUNDataset(root, classes="bedroom")
    with pytest.raises(ValueError, match="Input usage is not within the valid set of"):
        ds.LSUNDataset(root, usage="extra")
    empty = ds.LSUNDataset(str(tmp_path / "test"), shuffle=False)
    assert empty.get_dataset_size() == 0                                  # measured
    with pytest.raises(RuntimeError, match="LSUNDataset API can't read the data file"):
        _rows(empty)
    with open(os.path.join(root, "bedroom_val", "0.jpg"), "r+b") as f:
        f.truncate(20)
    with pytest.raises(RuntimeError, match="bedroom_val/0.jpg"):
        _rows(ds.LSUNDataset(root, usage="valid", decode=True, shuffle=False))


SBU_URLS = ["http://static.flickr.com/2723/4385058960_b0f291553e.jpg",
            "http://static.flickr.com/3/1234_abc.jpg", "",
            "http://static.flickr.com/9/5555_missing.jpg", "http://static.flickr.com/77/9_x.jpg"]
SBU_CAPTIONS = ["a dog on the beach  ", "two cats", "", "not there", "last one"]


def make_sbu(root):
    os.makedirs(os.path.join(root, "sbu_images"))
    # measured: MindSpore names the image by the URL from index 23 on, '/' -> '_'
    for k, name in enumerate(["m_2723_4385058960_b0f291553e.jpg", "m_3_1234_abc.jpg",
                              "m_77_9_x.jpg"]):
        cv2.imwrite(os.path.join(root, "sbu_images", name), np.full((4, 4, 3), 40 * k, np.uint8))
    for name, lines in (("urls", SBU_URLS), ("captions", SBU_CAPTIONS)):
        with open(os.path.join(root, f"SBU_captioned_photo_dataset_{name}.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")


def test_sbu_rows(tmp_path):
    root = str(tmp_path)
    make_sbu(root)
    data = ds.SBUDataset(root, shuffle=False)
    assert data.get_col_names() == ["image", "caption"] and data.get_dataset_size() == 3
    rows = _rows(data)
    # measured: the missing image's line is left out, trailing spaces stripped
    assert [str(c) for _, c in rows] == ["a dog on the beach", "two cats", "last one"]
    assert rows[0][1].shape == ()
    np.testing.assert_array_equal(rows[1][0], np.fromfile(
        os.path.join(root, "sbu_images", "m_3_1234_abc.jpg"), np.uint8))
    decoded = _rows(ds.SBUDataset(root, decode=True, shuffle=False))
    assert [int(image[0, 0, 0]) for image, _ in decoded] == [0, 40, 80]     # measured


def test_sbu_errors(tmp_path):
    root = str(tmp_path)
    with pytest.raises(ValueError, match="SBU_captioned_photo_dataset_urls.txt does not exist"):
        ds.SBUDataset(root)
    make_sbu(root)
    with pytest.raises(TypeError, match="decode"):
        ds.SBUDataset(root, decode="yes")
    with open(os.path.join(root, "SBU_captioned_photo_dataset_captions.txt"), "w") as f:
        f.write("a\n\nb\n")
    with pytest.raises(RuntimeError, match="SBU url and caption file are mismatched"):
        _rows(ds.SBUDataset(root))
    with open(os.path.join(root, "SBU_captioned_photo_dataset_urls.txt"), "w") as f:
        f.write("http://static.flickr.com/1/nothing.jpg\n")
    with pytest.raises(RuntimeError, match="No valid images in .*sbu_images"):
        _rows(ds.SBUDataset(root))


def make_flickr(root):
    images = os.path.join(root, "images")
    os.makedirs(images)
    for k, name in enumerate(["b.jpg", "a.jpg", "c.png"]):
        cv2.imwrite(os.path.join(images, name), np.full((3, 5, 3), 50 * k, np.uint8))
    with open(os.path.join(images, "t.txt"), "w") as f:
        f.write("not an image")
    lines = ["b.jpg#0\tA boy runs .", "b.jpg#1\tA kid running", "a.jpg#0\tA red car",
             "c.png#0\tgreen", "", "t.txt#0\ttext file", "a.jpg#1\tcar again"]
    path = os.path.join(root, "ann.txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return images, path


def test_flickr_rows_grouped_by_image(tmp_path):
    images, ann = make_flickr(str(tmp_path))
    data = ds.FlickrDataset(images, ann, shuffle=False)
    assert data.get_col_names() == ["image", "annotation"] and data.get_dataset_size() == 3
    rows = _rows(data)
    # measured: sorted image paths, captions in file order, the text file left out
    assert [a.tolist() for _, a in rows] == [["A red car", "car again"],
                                             ["A boy runs .", "A kid running"], ["green"]]
    np.testing.assert_array_equal(rows[2][0], np.fromfile(os.path.join(images, "c.png"),
                                                          np.uint8))
    decoded = _rows(ds.FlickrDataset(images, ann, decode=True, shuffle=False))
    assert [int(image[0, 0, 0]) for image, _ in decoded] == [50, 0, 100]     # measured


def test_flickr_errors(tmp_path):
    images, ann = make_flickr(str(tmp_path))
    with pytest.raises(ValueError, match="nope.txt does not exist"):
        ds.FlickrDataset(images, str(tmp_path / "nope.txt"))
    with pytest.raises(TypeError, match="Argument decode with value 1"):      # measured
        ds.FlickrDataset(images, ann, decode=1)
    with open(ann, "a") as f:
        f.write("gone.jpg#0\tmissing\n")
    with pytest.raises(RuntimeError, match="gone.jpg does not exist"):
        _rows(ds.FlickrDataset(images, ann))
    with open(ann, "w") as f:
        f.write("a.jpg#0\t\n")
    with pytest.raises(RuntimeError, match="annotation is missing .* line 1"):
        _rows(ds.FlickrDataset(images, ann))
    with open(ann, "w") as f:
        f.write("t.txt#0\tonly text\n")
    with pytest.raises(RuntimeError, match="no valid data matching the dataset API FlickrData"):
        _rows(ds.FlickrDataset(images, ann))
