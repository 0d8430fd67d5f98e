"""KITTIDataset and WIDERFaceDataset on small folders the tests write in the official layouts:
columns, dtypes and shapes of the per-object annotations, usages, decode, MindSpore's argument
errors, and missing or damaged files. Literals marked 'measured' were read from MindSpore 2.10 on
the same folders."""
import os

import numpy as np
import pytest

import minddata as ds
from minddata.sources.kitti import KITTISource
from minddata.sources.wider_face import WIDERFaceSource

from .test_sources_sbd_cityscapes import rows_of as _rows, write_image as _image


def _write(path, lines):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("".join(line + "\n" for line in lines))


# ---------------------------------------------------------------- KITTI

KITTI_LINES = [
    ["Car 0.00 0 -1.58 587.01 173.33 614.12 200.12 1.65 1.67 3.64 -0.65 1.71 46.70 -1.59",
     "Pedestrian 0.50 1 0.21 423.17 173.67 433.17 224.03 1.70 0.50 0.80 -7.57 1.73 12.56 -0.32"],
    ["DontCare -1 -1 -10 503.89 169.71 590.61 190.13 -1 -1 -1 -1000 -1000 -1000 -10"],
    ["Cyclist 0.00 2 1.89 1000.01 1.5 1100 90.2 1.3 0.6 1.7 3.1 1.5 9.8 2.1 0.93"],   # a score
]


def make_kitti(root, lines=KITTI_LINES, tests=2):
    for i, image_lines in enumerate(lines):
        _image(os.path.join(root, "data_object_image_2/training/image_2", f"{i:06d}.png"),
               3, 5 + i, i)
        _write(os.path.join(root, "data_object_label_2/training/label_2", f"{i:06d}.txt"),
               image_lines)
    for i in range(tests):
        _image(os.path.join(root, "data_object_image_2/testing/image_2", f"{i:06d}.png"),
               2, 3, 50 + i)


def test_kitti_train_columns(tmp_path):
    make_kitti(str(tmp_path))
    data = ds.KITTIDataset(str(tmp_path), shuffle=False)
    assert data.get_col_names() == ["image", "label", "truncated", "occluded", "alpha", "bbox",
                                    "dimensions", "location", "rotation_y"]
    assert data.get_dataset_size() == 3
    rows = _rows(data)
    first = rows[0]
    np.testing.assert_array_equal(first[0], np.fromfile(
        tmp_path / "data_object_image_2/training/image_2/000000.png", np.uint8))
    # measured under MindSpore 2.10: dtypes, shapes and values
    assert [(c.dtype, c.shape) for c in first[1:]] == [
        (np.uint32, (2, 1)), (np.float32, (2, 1)), (np.uint32, (2, 1)), (np.float32, (2, 1)),
        (np.float32, (2, 4)), (np.float32, (2, 3)), (np.float32, (2, 3)), (np.float32, (2, 1))]
    # labels: sorted names of all label files (Car, Cyclist, DontCare, Pedestrian)
    assert [r[1].ravel().tolist() for r in rows] == [[0, 3], [2], [1]]
    assert first[2].ravel().tolist() == [0.0, 0.5]
    assert rows[1][3].tolist() == [[4294967295]]                 # occluded -1 wraps
    np.testing.assert_array_equal(first[5], np.float32([[587.01, 173.33, 614.12, 200.12],
                                                        [423.17, 173.67, 433.17, 224.03]]))
    np.testing.assert_array_equal(first[7][1], np.float32([-7.57, 1.73, 12.56]))
    np.testing.assert_array_equal(rows[2][8], np.float32([[2.1]]))     # the score is ignored


def test_kitti_test_usage_decode_and_sharding(tmp_path):
    make_kitti(str(tmp_path))
    root = str(tmp_path)
    data = ds.KITTIDataset(root, usage="test", decode=True, shuffle=False)
    assert data.get_col_names() == ["image"] and data.get_dataset_size() == 2
    # measured: decoded RGB
    assert [r[0][0, :3].tolist() for r in _rows(data)] == [
        [[0, 0, 50], [0, 1, 50], [0, 2, 50]], [[0, 0, 51], [0, 1, 51], [0, 2, 51]]]
    shard = _rows(ds.KITTIDataset(root, shuffle=False, num_shards=2, shard_id=0))
    assert [r[1].ravel().tolist() for r in shard] == [[0, 3], [1]]
    assert ds.KITTIDataset(root).num_classes() is None


def test_kitti_errors(tmp_path):
    make_kitti(str(tmp_path))
    root = str(tmp_path)
    with pytest.raises(ValueError, match=r"usage is not within the valid set of \['train', "
                                         r"'test'\]"):
        ds.KITTIDataset(root, usage="val")
    with pytest.raises(TypeError, match="Argument decode"):
        ds.KITTIDataset(root, decode="no")
    with pytest.raises(RuntimeError, match="failed to open KITTI image dir"):
        KITTISource(str(tmp_path / "data_object_label_2"), "train", False)
    # an empty label file: the image has no row (measured), and the labels are renumbered
    open(tmp_path / "data_object_label_2/training/label_2/000001.txt", "w").close()
    rows = _rows(ds.KITTIDataset(root, shuffle=False))
    assert [r[1].ravel().tolist() for r in rows] == [[0, 2], [1]]
    with open(tmp_path / "data_object_label_2/training/label_2/000002.txt", "a") as f:
        f.write("Car 0.0 0 1.0 1 2 3\n")
    with pytest.raises(RuntimeError, match="000002.txt line 2"):
        ds.KITTIDataset(root).get_dataset_size()
    os.remove(tmp_path / "data_object_label_2/training/label_2/000002.txt")
    with pytest.raises(RuntimeError, match="000002.txt does not exist"):
        ds.KITTIDataset(root).get_dataset_size()


def test_kitti_without_objects_is_refused(tmp_path):
    make_kitti(str(tmp_path), lines=[[], []])
    # measured: MindSpore 2.10 refuses it when it counts the rows
    with pytest.raises(RuntimeError, match="no valid data matching the dataset API KITTIDataset"):
        ds.KITTIDataset(str(tmp_path)).get_dataset_size()


# ---------------------------------------------------------------- WIDER FACE

WIDER_TRAIN = [("0--Parade", "0_Parade_a_1.jpg", ["78 221 7 8 2 0 0 0 0 0 ",
                                                  "449 330 122 149 0 0 0 0 1 0 "]),
               ("0--Parade", "0_Parade_b_2.jpg", ["0 0 0 0 0 0 0 0 0 0 "]),   # count 0
               ("1--Handshaking", "1_Hand_c_3.jpg", ["5 6 7 8 1 1 0 2 0 1"])]
WIDER_VAL = [("0--Parade", "0_Parade_v_9.jpg", ["1 2 3 4 2 1 1 1 1 0 "]),
             ("2--Demo", "2_Demo_v_1.jpg", ["9 9 9 9 0 0 0 0 0 0 ", "1 1 1 1 1 1 1 1 1 1 ",
                                            "2 2 2 2 2 0 0 0 2 0 "])]
WIDER_TEST = [("0--Parade", "0_Parade_t_1.jpg"), ("3--Riot", "3_Riot_t_2.jpg")]


def make_wider(root):
    k = 0
    for base, entries, annotation in (("WIDER_train", WIDER_TRAIN, "train"),
                                      ("WIDER_val", WIDER_VAL, "val")):
        text = []
        for event, name, boxes in entries:
            k += 1
            _image(os.path.join(root, base, "images", event, name), 3, 4, k)
            count = 0 if boxes == ["0 0 0 0 0 0 0 0 0 0 "] else len(boxes)
            text += [f"{event}/{name}", str(count)] + boxes
        _write(os.path.join(root, "wider_face_split", f"wider_face_{annotation}_bbx_gt.txt"),
               text)
    for event, name in WIDER_TEST:
        k += 1
        _image(os.path.join(root, "WIDER_test", "images", event, name), 2, 2, k)


def test_wider_face_train_columns(tmp_path):
    make_wider(str(tmp_path))
    data = ds.WIDERFaceDataset(str(tmp_path), usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "bbox", "blur", "expression", "illumination",
                                    "occlusion", "pose", "invalid"]
    assert data.get_dataset_size() == 3
    rows = _rows(data)
    np.testing.assert_array_equal(rows[0][0], np.fromfile(
        tmp_path / "WIDER_train/images/0--Parade/0_Parade_a_1.jpg", np.uint8))
    # measured: int32, bbox (N, 4), the others (N,); a count of 0 keeps its one zero line
    assert [(c.dtype, c.shape) for c in rows[0][1:]] == [(np.int32, (2, 4))] + \
        [(np.int32, (2,))] * 6
    assert rows[0][1].tolist() == [[78, 221, 7, 8], [449, 330, 122, 149]]
    assert rows[1][1].tolist() == [[0, 0, 0, 0]]
    # "5 6 7 8 1 1 0 2 0 1": blur 1, expression 1, illumination 0, invalid 2, occlusion 0,
    # pose 1 in the dataset's order (MindSpore 2.10 gives occlusion 2, pose 0, invalid 1)
    assert [int(c[0]) for c in rows[2][2:]] == [1, 1, 0, 0, 1, 2]


def test_wider_face_usages_and_decode(tmp_path):
    make_wider(str(tmp_path))
    root = str(tmp_path)
    all_rows = _rows(ds.WIDERFaceDataset(root, shuffle=False, decode=True))
    assert [int(r[1][0, 0]) for r in all_rows] == [78, 0, 5, 1, 9]     # train, then valid
    assert [r[0].shape for r in all_rows] == [(3, 4, 3)] * 5
    assert all_rows[4][1].shape == (3, 4) and all_rows[4][2].tolist() == [0, 1, 2]
    test = ds.WIDERFaceDataset(root, usage="test", shuffle=False)
    assert test.get_col_names() == ["image"] and len(_rows(test)) == 2
    shard = _rows(ds.WIDERFaceDataset(root, usage="valid", num_shards=2, shard_id=1))
    assert len(shard) == 1


def test_wider_face_errors(tmp_path):
    make_wider(str(tmp_path))
    root = str(tmp_path)
    with pytest.raises(ValueError, match=r"usage is not within the valid set of \['train', "
                                         r"'test', 'valid', 'all'\]"):
        ds.WIDERFaceDataset(root, usage="val")
    with pytest.raises(RuntimeError, match="shard_id is specified but num_shards is not"):
        ds.WIDERFaceDataset(root, shard_id=1)
    with pytest.raises(RuntimeError, match="failed to open WIDERFace folder: .*WIDER_test"):
        WIDERFaceSource(str(tmp_path / "wider_face_split"), "test", False)
    # an image the annotation file does not name has no face (measured)
    _image(str(tmp_path / "WIDER_train/images/1--Handshaking/1_Hand_z.jpg"), 2, 2, 9)
    rows = _rows(ds.WIDERFaceDataset(root, usage="train", shuffle=False))
    assert rows[3][1].shape == (0, 4) and rows[3][6].shape == (0,)


@pytest.mark.parametrize("change,match", [
    (("1 2 3 4 2", "1 2 x 4 2"), "line 3 should hold integers"),
    (("\n1\n1 2 3 4", "\nmany\n1 2 3 4"), "line 2"),
    (("1 2 3 4 2 1 1 1 1 0 ", "1 2 3 4 2 1 1 1 1"), "holds 9 values"),
    (("\n3\n9 9 9 9", "\n4\n9 9 9 9"), "ends inside the faces of 2--Demo/2_Demo_v_1.jpg"),
])
def test_wider_face_damaged_annotations(tmp_path, change, match):
    make_wider(str(tmp_path))
    path = tmp_path / "wider_face_split/wider_face_val_bbx_gt.txt"
    text = path.read_text()
    assert change[0] in text
    path.write_text(text.replace(*change))
    with pytest.raises(RuntimeError, match=match):
        ds.WIDERFaceDataset(str(tmp_path), usage="valid").get_dataset_size()


def test_wider_face_missing_annotation_file_is_an_error(tmp_path):
    make_wider(str(tmp_path))
    os.remove(tmp_path / "wider_face_split/wider_face_train_bbx_gt.txt")
    # MindSpore 2.10 serves every image with no face here; a missing file is refused instead
    with pytest.raises(RuntimeError, match="wider_face_train_bbx_gt.txt"):
        ds.WIDERFaceDataset(str(tmp_path), usage="train").get_dataset_size()
