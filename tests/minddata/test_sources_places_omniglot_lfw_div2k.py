"""Places365Dataset, OmniglotDataset, LFWDataset and DIV2KDataset on small folders the tests
write in the official layouts; row orders, labels and errors measured under MindSpore 2.10 on
the same layouts."""
import os

import numpy as np
import pytest

import minddata as ds
from .test_sources_caltech_food_sun import _bytes, _image, _rows, _text

def _refused(path, text, dataset, words):
    """With ``text`` written to ``path``, sizing ``dataset()`` raises RuntimeError ``words``."""
    _text(path, text)
    with pytest.raises(RuntimeError, match=words):
        dataset().get_dataset_size()


PLACES = ["a/airfield/00000001.jpg", "c/cafe/00000002.jpg", "b/bar/00000003.jpg"]


def make_places365(root):
    _text(f"{root}/categories_places365.txt", "/a/airfield 0\n/b/bar 1\n/c/cafe 2\n")
    _text(f"{root}/places365_train_standard.txt",
          "".join(f"/{p} {label}\n" for p, label in zip(PLACES, [0, 2, 1])))
    _text(f"{root}/places365_train_challenge.txt", "/b/bar/00000003.jpg 1\n")
    _text(f"{root}/places365_val.txt", "Places365_val_00000001.jpg 2\n")
    for folder, base in [("data_256_standard", 10), ("data_large_standard", 100)]:
        for i, path in enumerate(PLACES):
            _image(f"{root}/{folder}/{path}", base + i)
    _image(f"{root}/data_256_challenge/b/bar/00000003.jpg", 50)
    _image(f"{root}/val_256/Places365_val_00000001.jpg", 60)


@pytest.mark.parametrize("kwargs,files,labels", [
    ({}, [f"data_256_standard/{p}" for p in PLACES], [0, 2, 1]),
    ({"small": False}, [f"data_large_standard/{p}" for p in PLACES], [0, 2, 1]),
    ({"usage": "train-challenge"}, ["data_256_challenge/b/bar/00000003.jpg"], [1]),
    ({"usage": "val"}, ["val_256/Places365_val_00000001.jpg"], [2])])
def test_places365_rows_follow_the_list(tmp_path, kwargs, files, labels):
    make_places365(str(tmp_path))
    data = ds.Places365Dataset(str(tmp_path), shuffle=False, **kwargs)
    assert data.get_dataset_size() == len(files)
    rows = _rows(data)
    assert [r[0].tolist() for r in rows] == [_bytes(tmp_path / f) for f in files]
    assert [int(r[1]) for r in rows] == labels and rows[0][1].dtype == np.uint32


def test_places365_errors(tmp_path):
    make_places365(str(tmp_path))
    root = str(tmp_path)
    with pytest.raises(ValueError, match=r"valid set of \['train-standard', 'train-challenge'"):
        ds.Places365Dataset(root, usage="train")
    with pytest.raises(TypeError, match="Argument small with value 0"):
        ds.Places365Dataset(root, small=0)
    with pytest.raises(Exception, match="val_large/Places365_val_00000001.jpg"):
        _rows(ds.Places365Dataset(root, usage="val", small=False))
    for text, words in [("Places365_val_00000001.jpg x2\n", "not an unsigned 32-bit number"),
                        ("Places365_val_00000001.jpg 2\nPlaces365_val_2.jpg\n", "has no label")]:
        _refused(f"{root}/places365_val.txt", text,
                 lambda: ds.Places365Dataset(root, usage="val"), words)
    os.remove(f"{root}/categories_places365.txt")
    with pytest.raises(RuntimeError, match="categories_places365.txt: Places365 file is damaged"):
        ds.Places365Dataset(root).get_dataset_size()


def make_omniglot(root):
    value = 0
    for part, alphabets in [("images_background", {"Greek": ["character02", "character01"],
                                                   "Alef": ["character01"]}),
                            ("images_evaluation", {"Zed": ["character01"]})]:
        for alphabet, characters in alphabets.items():
            for character in characters:
                for i in range(2):
                    _image(f"{root}/{part}/{alphabet}/{character}/{value:04d}_{i:02d}.png",
                           value)
                    value += 1


def test_omniglot_classes_are_the_character_folders(tmp_path):
    make_omniglot(str(tmp_path))
    data = ds.OmniglotDataset(str(tmp_path), shuffle=False)
    assert data.get_dataset_size() == 6 and data.num_classes() == 3
    rows = _rows(data)
    # MindSpore 2.10: "Alef/character01" 0, "Greek/character01" 1, "Greek/character02" 2.
    assert [int(r[1]) for r in rows] == [0, 0, 1, 1, 2, 2] and rows[0][1].dtype == np.int32
    alef = tmp_path / "images_background" / "Alef" / "character01"
    assert rows[0][0].tolist() == _bytes(alef / sorted(os.listdir(alef))[0])
    evaluation = _rows(ds.OmniglotDataset(str(tmp_path), background=False, decode=True))
    assert len(evaluation) == 2 and evaluation[0][0].shape == (4, 5, 3)


def test_omniglot_errors(tmp_path):
    make_omniglot(str(tmp_path))
    with pytest.raises(TypeError, match="Argument background with value 1"):
        ds.OmniglotDataset(str(tmp_path), background=1)
    with pytest.raises(RuntimeError, match="images_background may not exist"):
        ds.OmniglotDataset(str(tmp_path / "images_evaluation")).get_dataset_size()


PEOPLE = {"Aaron_A": 2, "Bob_B": 1, "Cid_C": 3}


def make_lfw(root):
    for k, image_set in enumerate(["lfw", "lfw_funneled", "lfw-deepfunneled"]):
        for j, (name, count) in enumerate(PEOPLE.items()):
            for i in range(1, count + 1):
                _image(f"{root}/{image_set}/{name}/{name}_{i:04d}.jpg", 60 * k + 10 * j + i)
    _text(f"{root}/lfw-names.txt", "Aaron_A\t2\nBob_B\t1\nCid_C\t3\n")
    _text(f"{root}/peopleDevTrain.txt", "2\nCid_C\t3\nAaron_A\t1\n")
    _text(f"{root}/peopleDevTest.txt", "1\nBob_B\t1\n")
    _text(f"{root}/people.txt", "2\n1\nBob_B\t1\n2\nAaron_A\t2\nCid_C\t1\n")
    _text(f"{root}/pairsDevTrain.txt", "1\nCid_C\t1\t3\nAaron_A\t2\tBob_B\t1\n")
    _text(f"{root}/pairsDevTest.txt", "1\nAaron_A\t1\t2\nCid_C\t2\tBob_B\t1\n")
    _text(f"{root}/pairs.txt",
          "2\t1\nCid_C\t2\t3\nAaron_A\t1\tCid_C\t1\nAaron_A\t1\t2\nBob_B\t1\tCid_C\t3\n")


def _face(root, image_set, name, number):
    return _bytes(root / image_set / name / f"{name}_{number:04d}.jpg")


@pytest.mark.parametrize("usage,expected", [
    ("all", [("Cid_C", 1), ("Cid_C", 2), ("Cid_C", 3), ("Aaron_A", 1), ("Bob_B", 1)]),
    ("test", [("Bob_B", 1)]),
    ("10fold", [("Bob_B", 1), ("Aaron_A", 1), ("Aaron_A", 2), ("Cid_C", 1)])])
def test_lfw_people(tmp_path, usage, expected):
    make_lfw(str(tmp_path))
    data = ds.LFWDataset(str(tmp_path), usage=usage, shuffle=False)
    assert data.get_col_names() == ["image", "label"]
    rows = _rows(data)
    # The default image_set is 'funneled'; labels are lines of lfw-names.txt (uint32).
    assert [r[0].tolist() for r in rows] == [_face(tmp_path, "lfw_funneled", n, k)
                                             for n, k in expected]
    labels = {"Aaron_A": 0, "Bob_B": 1, "Cid_C": 2}
    assert [int(r[1]) for r in rows] == [labels[n] for n, _ in expected]
    assert rows[0][1].dtype == np.uint32


def test_lfw_pairs_and_image_sets(tmp_path):
    make_lfw(str(tmp_path))
    data = ds.LFWDataset(str(tmp_path), task="pairs", usage="10fold", image_set="original",
                         shuffle=False)
    assert data.get_col_names() == ["image1", "image2", "label"]
    rows = _rows(data)
    expected = [("Cid_C", 2, "Cid_C", 3, 1), ("Aaron_A", 1, "Cid_C", 1, 0),
                ("Aaron_A", 1, "Aaron_A", 2, 1), ("Bob_B", 1, "Cid_C", 3, 0)]
    for (image1, image2, label), (n1, k1, n2, k2, match) in zip(rows, expected):
        assert image1.tolist() == _face(tmp_path, "lfw", n1, k1)
        assert image2.tolist() == _face(tmp_path, "lfw", n2, k2)
        assert int(label) == match and label.dtype == np.uint32
    assert len(rows) == 4
    assert ds.LFWDataset(str(tmp_path), task="pairs", shuffle=False).get_dataset_size() == 4
    (image, _), = _rows(ds.LFWDataset(str(tmp_path), usage="test",
                                      image_set="deepfunneled", decode=True))
    assert image.shape == (4, 5, 3)


def test_lfw_errors_and_damaged_files(tmp_path):
    make_lfw(str(tmp_path))
    root = str(tmp_path)
    for kwargs, word in [({"task": "faces"}, "task"), ({"usage": "valid"}, "usage"),
                         ({"image_set": "raw"}, "image_set")]:
        with pytest.raises(ValueError, match=f"Input {word} is not within the valid set"):
            ds.LFWDataset(root, **kwargs)
    for text, words in [("3\nBob_B\t1\n", "peopleDevTest.txt ends at line 2"),  # 3 announced
                        ("1\nBob_B\tone\n", "'one' is not a number"),
                        ("1\nZed_Z\t1\n", "Zed_Z .* is not in .*lfw-names.txt")]:
        _refused(f"{root}/peopleDevTest.txt", text, lambda: ds.LFWDataset(root, usage="test"),
                 words)
    os.remove(f"{root}/pairsDevTest.txt")
    with pytest.raises(RuntimeError, match="LFW annotation file .*pairsDevTest.txt"):
        ds.LFWDataset(root, task="pairs").get_dataset_size()


def make_div2k(root):
    for usage, ids in [("train", ["0002", "0001"]), ("valid", ["0801"])]:
        for i in ids:
            value = int(i) % 50
            _image(f"{root}/DIV2K_{usage}_HR/{i}.png", value, (8, 8, 3))
            for s in (2, 3):
                _image(f"{root}/DIV2K_{usage}_LR_bicubic/X{s}/{i}x{s}.png", value + s,
                       (8 // s, 8 // s, 3))
            _image(f"{root}/DIV2K_{usage}_LR_x8/{i}x8.png", value + 8, (1, 1, 3))
            _image(f"{root}/DIV2K_{usage}_LR_mild/{i}x4m.png", value + 4, (2, 2, 3))


@pytest.mark.parametrize("kwargs,pairs", [
    ({}, [("DIV2K_train_HR/0001.png", "DIV2K_train_LR_bicubic/X2/0001x2.png"),
          ("DIV2K_train_HR/0002.png", "DIV2K_train_LR_bicubic/X2/0002x2.png")]),
    ({"usage": "all", "scale": 3},
     [("DIV2K_train_HR/0001.png", "DIV2K_train_LR_bicubic/X3/0001x3.png"),
      ("DIV2K_train_HR/0002.png", "DIV2K_train_LR_bicubic/X3/0002x3.png"),
      ("DIV2K_valid_HR/0801.png", "DIV2K_valid_LR_bicubic/X3/0801x3.png")]),
    ({"scale": 8}, [("DIV2K_train_HR/0001.png", "DIV2K_train_LR_x8/0001x8.png"),
                    ("DIV2K_train_HR/0002.png", "DIV2K_train_LR_x8/0002x8.png")]),
    ({"usage": "valid", "downgrade": "mild", "scale": 4},
     [("DIV2K_valid_HR/0801.png", "DIV2K_valid_LR_mild/0801x4m.png")])])
def test_div2k_pairs(tmp_path, kwargs, pairs):
    make_div2k(str(tmp_path))
    data = ds.DIV2KDataset(str(tmp_path), shuffle=False, **kwargs)
    assert data.get_col_names() == ["hr_image", "lr_image"]
    assert data.get_dataset_size() == len(pairs)
    got = [(hr.tolist(), lr.tolist()) for hr, lr in _rows(data)]
    assert got == [(_bytes(tmp_path / hr), _bytes(tmp_path / lr)) for hr, lr in pairs]


def test_div2k_decode_and_errors(tmp_path):
    make_div2k(str(tmp_path))
    root = str(tmp_path)
    hr, lr = _rows(ds.DIV2KDataset(root, scale=8, decode=True, num_samples=1))[0]
    assert hr.shape == (8, 8, 3) and lr.shape == (1, 1, 3)
    for kwargs, error, words in [
            ({"scale": 8, "downgrade": "unknown"}, ValueError, "allowed only in bicubic"),
            ({"scale": 2, "downgrade": "mild"}, ValueError, "mild downgrade requires scale"),
            ({"scale": 5}, ValueError, r"scale is not within the valid set of \[2, 3, 4, 8\]"),
            ({"usage": None}, TypeError, "Argument usage with value None"),
            ({"downgrade": "nearest"}, ValueError, "Input downgrade is not within")]:
        with pytest.raises(error, match=words):
            ds.DIV2KDataset(root, **kwargs)
    with pytest.raises(RuntimeError, match="lr image dir: .*DIV2K_train_LR_unknown/X2 is not"):
        ds.DIV2KDataset(root, downgrade="unknown").get_dataset_size()
    os.remove(f"{root}/DIV2K_train_LR_bicubic/X2/0002x2.png")
    with pytest.raises(RuntimeError, match="0002x2.png does not exist"):
        ds.DIV2KDataset(root).get_dataset_size()
    _text(f"{root}/DIV2K_train_LR_x8/0001x8.png", "damaged")
    with pytest.raises(Exception, match="0001x8.png"):
        _rows(ds.DIV2KDataset(root, scale=8, decode=True, shuffle=False))
