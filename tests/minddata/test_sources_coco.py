"""CocoDataset: rows, columns and dtypes of every task, row order, class indexing, extra metadata,
decode, sharding, seeded shuffles and MindSpore's argument errors, on a small annotation file the
tests write."""
import json
import os

import cv2
import numpy as np
import pytest

import minddata as ds
from minddata.sources.coco import CocoDataset, CocoSource


def _write_images(root, names, shape=(6, 8, 3)):
    for k, name in enumerate(names):
        cv2.imwrite(os.path.join(root, name), np.full(shape, 20 * k, np.uint8))


def _annotation(tmp_path, tree):
    path = tmp_path / "ann.json"
    path.write_text(json.dumps(tree))
    return str(path)


IMAGES = [{"id": 10, "file_name": "c.jpg"}, {"id": 11, "file_name": "a.jpg"},
          {"id": 12, "file_name": "b.jpg"}, {"id": 13, "file_name": "none.jpg"}]


def _detection(tmp_path):
    _write_images(tmp_path, ["a.jpg", "b.jpg", "c.jpg", "none.jpg"])
    tree = {"images": IMAGES,
            "categories": [{"id": 3, "name": "person"}, {"id": 1, "name": "car"}],
            "annotations": [
                {"id": 1, "image_id": 12, "bbox": [1, 2, 3, 4], "category_id": 3},
                {"id": 2, "image_id": 10, "bbox": [0.5, 1.5, 2, 2], "category_id": 1,
                 "iscrowd": 1},
                {"id": 3, "image_id": 12, "bbox": [4, 0, 2, 5], "category_id": 1, "iscrowd": 0},
                {"id": 4, "image_id": 11, "bbox": [0, 0, 8, 6], "category_id": 3}]}
    return _annotation(tmp_path, tree)


def _rows(data):
    return list(data.create_dict_iterator(output_numpy=True, num_epochs=1))


def test_detection_rows_in_images_order_with_mindspore_dtypes(tmp_path):
    ann = _detection(tmp_path)
    data = ds.CocoDataset(str(tmp_path), ann, shuffle=False)
    assert data.get_col_names() == ["image", "bbox", "category_id", "iscrowd"]
    assert data.get_dataset_size() == 3        # none.jpg has no annotation: no row
    rows = _rows(data)
    # the "images" order (c, a, b), annotations grouped per image in file order
    expected_files = ["c.jpg", "a.jpg", "b.jpg"]
    for row, name in zip(rows, expected_files):
        np.testing.assert_array_equal(row["image"], np.fromfile(tmp_path / name, np.uint8))
        assert row["image"].dtype == np.uint8 and row["image"].ndim == 1
    assert rows[0]["bbox"].tolist() == [[0.5, 1.5, 2.0, 2.0]]
    assert rows[2]["bbox"].tolist() == [[1, 2, 3, 4], [4, 0, 2, 5]]
    assert rows[2]["category_id"].tolist() == [[3], [1]]
    assert rows[0]["iscrowd"].tolist() == [[1]] and rows[2]["iscrowd"].tolist() == [[0], [0]]
    for row in rows:
        assert row["bbox"].dtype == np.float32 and row["bbox"].shape[1] == 4
        assert row["category_id"].dtype == np.uint32 and row["iscrowd"].dtype == np.uint32
        assert row["category_id"].shape == (len(row["bbox"]), 1)


def test_class_indexing_and_num_classes(tmp_path):
    data = ds.CocoDataset(str(tmp_path), _detection(tmp_path))
    assert data.get_class_indexing() == {"person": [3], "car": [1]}
    assert data.num_classes() is None       # measured in MindSpore 2.10


def test_get_class_indexing_refused_for_other_tasks(tmp_path):
    data = ds.CocoDataset(str(tmp_path), _detection(tmp_path), task="Stuff")
    with pytest.raises(NotImplementedError, match="Only 'Detection' and 'Panoptic'"):
        data.get_class_indexing()


def test_decode_and_extra_metadata(tmp_path):
    data = ds.CocoDataset(str(tmp_path), _detection(tmp_path), shuffle=False, decode=True,
                          extra_metadata=True)
    assert data.get_col_names()[-1] == "_meta-filename"
    assert "_meta-filename" not in _rows(data)[0]       # iterators hide it, as MindSpore's do
    rows = _rows(data.rename("_meta-filename", "filename"))
    assert rows[0]["image"].shape == (6, 8, 3) and rows[0]["image"].dtype == np.uint8
    assert [str(r["filename"]) for r in rows] == ["c", "a", "b"]
    assert rows[0]["filename"].shape == ()


def test_stuff_task_pads_polygons_with_minus_one(tmp_path):
    _write_images(tmp_path, ["a.jpg", "b.jpg"])
    tree = {"images": [{"id": 1, "file_name": "a.jpg"}, {"id": 2, "file_name": "b.jpg"}],
            "annotations": [
                {"id": 1, "image_id": 1, "iscrowd": 0,
                 "segmentation": [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10]]},
                {"id": 2, "image_id": 1, "iscrowd": 1, "segmentation": {"counts": [4, 5]}},
                {"id": 3, "image_id": 2, "iscrowd": 0, "segmentation": [[1, 1, 2, 2]]}]}
    data = ds.CocoDataset(str(tmp_path), _annotation(tmp_path, tree), task="Stuff",
                          shuffle=False)
    assert data.get_col_names() == ["image", "segmentation", "iscrowd"]
    first, second = _rows(data)
    assert first["segmentation"].dtype == np.float32
    assert first["segmentation"].tolist() == [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, -1, -1],
                                              [4, 5, -1, -1, -1, -1]]
    assert first["iscrowd"].tolist() == [[0], [1]] and first["iscrowd"].dtype == np.uint32
    assert second["segmentation"].tolist() == [[1, 1, 2, 2]]


def test_keypoint_task(tmp_path):
    _write_images(tmp_path, ["a.jpg"])
    tree = {"images": [{"id": 1, "file_name": "a.jpg"}],
            "annotations": [{"id": 1, "image_id": 1, "num_keypoints": 2,
                             "keypoints": [1, 2, 2, 3, 4, 2]},
                            {"id": 2, "image_id": 1, "num_keypoints": 0, "keypoints": [0, 0, 0]}]}
    data = ds.CocoDataset(str(tmp_path), _annotation(tmp_path, tree), task="Keypoint")
    assert data.get_col_names() == ["image", "keypoints", "num_keypoints"]
    (row,) = _rows(data)
    assert row["keypoints"].tolist() == [[1, 2, 2, 3, 4, 2], [0, 0, 0, -1, -1, -1]]
    assert row["num_keypoints"].tolist() == [[2], [0]]
    assert row["num_keypoints"].dtype == np.uint32


def test_panoptic_task_reads_segments_info(tmp_path):
    _write_images(tmp_path, ["a.jpg", "b.jpg"])
    tree = {"images": [{"id": 1, "file_name": "a.jpg"}, {"id": 2, "file_name": "b.jpg"}],
            "categories": [{"id": 1, "name": "person", "isthing": 1},
                           {"id": 2, "name": "sky", "isthing": 0}],
            "annotations": [
                {"image_id": 1, "file_name": "a.png", "segments_info": [
                    {"id": 5, "bbox": [0, 0, 2, 2], "category_id": 1, "iscrowd": 0, "area": 4},
                    {"id": 6, "bbox": [1, 1, 3, 3], "category_id": 2, "iscrowd": 1, "area": 9}]},
                {"image_id": 2, "file_name": "b.png", "segments_info": []}]}
    data = ds.CocoDataset(str(tmp_path), _annotation(tmp_path, tree), task="Panoptic")
    assert data.get_col_names() == ["image", "bbox", "category_id", "iscrowd", "area"]
    assert data.get_dataset_size() == 1       # b.jpg has no segment
    (row,) = _rows(data)
    assert row["bbox"].tolist() == [[0, 0, 2, 2], [1, 1, 3, 3]]
    assert row["category_id"].tolist() == [[1], [2]]
    assert row["iscrowd"].tolist() == [[0], [1]]
    assert row["area"].tolist() == [[4], [9]] and row["area"].dtype == np.uint32
    assert data.get_class_indexing() == {"person": [1, 1], "sky": [2, 0]}


def test_captioning_task(tmp_path):
    _write_images(tmp_path, ["a.jpg", "b.jpg"])
    tree = {"images": [{"id": 1, "file_name": "a.jpg"}, {"id": 2, "file_name": "b.jpg"}],
            "annotations": [{"id": 1, "image_id": 2, "caption": "a dog"},
                            {"id": 2, "image_id": 2, "caption": "the dog runs"}]}
    data = ds.CocoDataset(str(tmp_path), _annotation(tmp_path, tree), task="Captioning")
    assert data.get_col_names() == ["image", "captions"]
    (row,) = _rows(data)
    assert row["captions"].shape == (2, 1)
    assert [str(c) for c in row["captions"][:, 0]] == ["a dog", "the dog runs"]


def test_sharding_splits_rows_round_robin(tmp_path):
    ann = _detection(tmp_path)
    seen = []
    for shard in range(2):
        data = ds.CocoDataset(str(tmp_path), ann, shuffle=False, num_shards=2, shard_id=shard)
        assert data.get_dataset_size() == 2
        seen.append([r["bbox"].tolist() for r in _rows(data)])
    assert seen[0][0] == [[0.5, 1.5, 2.0, 2.0]]                 # rows 0 and 2
    assert seen[1][0] == [[0, 0, 8, 6]]                         # rows 1 and 0 (wrapped)
    assert seen[0][1] == [[1, 2, 3, 4], [4, 0, 2, 5]]


def test_seeded_shuffle_repeats(tmp_path):
    ann = _detection(tmp_path)

    def order():
        ds.config.set_seed(7)
        return [r["bbox"].tolist() for r in _rows(ds.CocoDataset(str(tmp_path), ann))]

    first = order()
    assert first == order()
    assert sorted(map(str, first)) == sorted(map(str, [r["bbox"].tolist() for r in _rows(
        ds.CocoDataset(str(tmp_path), ann, shuffle=False))]))


def test_argument_errors(tmp_path):
    ann = _detection(tmp_path)
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        CocoDataset(str(tmp_path / "missing"), ann)
    with pytest.raises(ValueError, match="does not exist or permission denied"):
        CocoDataset(str(tmp_path), str(tmp_path / "missing.json"))
    with pytest.raises(ValueError, match="Invalid task type: Segmentation"):
        CocoDataset(str(tmp_path), ann, task="Segmentation")
    with pytest.raises(TypeError, match="task"):
        CocoDataset(str(tmp_path), ann, task=1)
    with pytest.raises(TypeError, match="decrypt is not a callable object"):
        CocoDataset(str(tmp_path), ann, decrypt="key")
    with pytest.raises(TypeError, match="shuffle"):
        CocoDataset(str(tmp_path), ann, shuffle=1)
    with pytest.raises(ValueError, match="doesn't support PKSampler"):
        CocoDataset(str(tmp_path), ann, sampler=ds.PKSampler(1))
    with pytest.raises(RuntimeError, match="sampler and shuffle"):
        CocoDataset(str(tmp_path), ann, sampler=ds.SequentialSampler(), shuffle=False)
    with pytest.raises(ValueError, match="shard_id"):
        CocoDataset(str(tmp_path), ann, num_shards=2, shard_id=2)


def test_annotation_file_errors_name_the_file(tmp_path):
    _write_images(tmp_path, ["a.jpg"])
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(RuntimeError, match="load failed"):
        CocoSource(str(tmp_path), str(bad), "Detection", False, False, None)
    tree = {"images": [{"id": 1, "file_name": "a.jpg"}], "categories": [{"id": 1, "name": "x"}],
            "annotations": [{"id": 1, "image_id": 1, "bbox": [0, 0, 1, 1], "category_id": 9}]}
    with pytest.raises(RuntimeError, match="'category_id': 9 is missing"):
        CocoSource(str(tmp_path), _annotation(tmp_path, tree), "Detection", False, False, None)
    tree["annotations"][0].update(category_id=1, image_id=5)
    with pytest.raises(RuntimeError, match="'image_id': 5 is missing"):
        CocoSource(str(tmp_path), _annotation(tmp_path, tree), "Detection", False, False, None)
    tree["annotations"] = []
    with pytest.raises(RuntimeError, match="can't read the data file"):
        CocoSource(str(tmp_path), _annotation(tmp_path, tree), "Detection", False, False, None)
    del tree["categories"]
    with pytest.raises(RuntimeError, match="'categories' is missing"):
        CocoSource(str(tmp_path), _annotation(tmp_path, tree), "Detection", False, False, None)


def test_decrypt_reads_through_the_function(tmp_path):
    ann = _detection(tmp_path)
    seen = []

    def decrypt(path):
        seen.append(os.path.basename(path))
        return b"\x01\x02"

    (first, *_) = _rows(ds.CocoDataset(str(tmp_path), ann, shuffle=False, decrypt=decrypt))
    assert first["image"].tolist() == [1, 2] and "c.jpg" in seen
