"""VOCDataset: Segmentation and Detection rows from a small VOC folder the tests write (image
sets, Annotations XML, JPEG and PNG files), label numbering, class_indexing, extra metadata,
sharding, seeded shuffles and MindSpore's errors."""
import os

import cv2
import numpy as np
import pytest

import minddata as ds
from minddata.sources.voc import VOCDataset, VOCSource


def _object(name, box, difficult=0, truncated=0):
    xmin, ymin, xmax, ymax = box
    return (f"<object><name>{name}</name><truncated>{truncated}</truncated>"
            f"<difficult>{difficult}</difficult><bndbox><xmin>{xmin}</xmin><ymin>{ymin}</ymin>"
            f"<xmax>{xmax}</xmax><ymax>{ymax}</ymax></bndbox></object>")


def make_voc(root, annotations, segmentation_ids=(), main_ids=None, usage="train"):
    """``annotations``: {image id: [object xml]}; writes the JPEGs, the XML files, the
    SegmentationClass PNGs of ``segmentation_ids`` and both image-set files."""
    for sub in ("JPEGImages", "Annotations", "SegmentationClass", "ImageSets/Main",
                "ImageSets/Segmentation"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    ids = list(annotations) + [i for i in segmentation_ids if i not in annotations]
    for k, image_id in enumerate(ids):
        cv2.imwrite(os.path.join(root, "JPEGImages", image_id + ".jpg"),
                    np.full((10, 12, 3), 10 * k, np.uint8))
    for image_id, objects in annotations.items():
        with open(os.path.join(root, "Annotations", image_id + ".xml"), "w") as f:
            f.write(f"<annotation><filename>{image_id}.jpg</filename>{''.join(objects)}"
                    f"</annotation>")
    for k, image_id in enumerate(segmentation_ids):
        cv2.imwrite(os.path.join(root, "SegmentationClass", image_id + ".png"),
                    np.full((10, 12), k + 1, np.uint8))
    with open(os.path.join(root, "ImageSets", "Main", usage + ".txt"), "w") as f:
        f.write("\n".join(main_ids if main_ids is not None else annotations) + "\n")
    with open(os.path.join(root, "ImageSets", "Segmentation", usage + ".txt"), "w") as f:
        f.write("\r\n".join(segmentation_ids) + "\r\n")


def _rows(data):
    return list(data.create_dict_iterator(output_numpy=True, num_epochs=1))


def _detection_folder(tmp_path):
    make_voc(str(tmp_path), {
        "img_b": [_object("dog", (2, 3, 7, 9), difficult=1), _object("cat", (1, 1, 4, 4))],
        "img_a": [_object("person", (5, 5, 11, 10), truncated=1)],
        "img_c": [_object("bird", (1, 2, 3, 4))],
    }, segmentation_ids=["img_a", "img_c"], main_ids=["img_b", "img_a", "img_c"])


def test_segmentation_rows_in_image_set_order(tmp_path):
    _detection_folder(tmp_path)
    data = ds.VOCDataset(str(tmp_path), shuffle=False)          # default task Segmentation
    assert data.get_col_names() == ["image", "target"]
    rows = _rows(data)
    assert len(rows) == 2 == data.get_dataset_size()
    np.testing.assert_array_equal(rows[1]["image"],
                                  np.fromfile(tmp_path / "JPEGImages" / "img_c.jpg", np.uint8))
    np.testing.assert_array_equal(rows[0]["target"], np.fromfile(
        tmp_path / "SegmentationClass" / "img_a.png", np.uint8))
    decoded = _rows(ds.VOCDataset(str(tmp_path), shuffle=False, decode=True))
    assert decoded[0]["image"].shape == (10, 12, 3)
    assert decoded[1]["target"].shape[:2] == (10, 12)


def test_detection_columns_values_and_sorted_labels(tmp_path):
    _detection_folder(tmp_path)
    data = ds.VOCDataset(str(tmp_path), task="Detection", shuffle=False)
    assert data.get_col_names() == ["image", "bbox", "label", "difficult", "truncate"]
    rows = _rows(data)
    assert len(rows) == 3
    # labels: the object names in sorted order (bird 0, cat 1, dog 2, person 3)
    assert data.get_class_indexing() == {"bird": 0, "cat": 1, "dog": 2, "person": 3}
    first = rows[0]
    assert first["bbox"].tolist() == [[2, 3, 5, 6], [1, 1, 3, 3]]    # (xmin, ymin, w, h)
    assert first["label"].tolist() == [[2], [1]]
    assert first["difficult"].tolist() == [[1], [0]]
    assert first["truncate"].tolist() == [[0], [0]]
    assert rows[1]["truncate"].tolist() == [[1]] and rows[1]["label"].tolist() == [[3]]
    for row in rows:
        assert row["bbox"].dtype == np.float32
        for col in ("label", "difficult", "truncate"):
            assert row[col].dtype == np.uint32 and row[col].shape == (len(row["bbox"]), 1)


def test_class_indexing_selects_objects_and_images(tmp_path):
    _detection_folder(tmp_path)
    data = ds.VOCDataset(str(tmp_path), task="Detection", class_indexing={"dog": 7, "bird": 1},
                         shuffle=False)
    rows = _rows(data)
    assert len(rows) == 2                                   # img_a has only a person
    assert rows[0]["label"].tolist() == [[7]] and rows[0]["bbox"].tolist() == [[2, 3, 5, 6]]
    assert rows[1]["label"].tolist() == [[1]]
    assert data.get_class_indexing() == {"dog": 7, "bird": 1}


def test_extra_metadata_is_the_image_id(tmp_path):
    _detection_folder(tmp_path)
    data = ds.VOCDataset(str(tmp_path), task="Detection", extra_metadata=True, shuffle=False)
    assert data.get_col_names()[-1] == "_meta-filename"
    shown = data.rename("_meta-filename", "filename")     # iterators hide "_meta-" columns
    assert [str(r["filename"]) for r in _rows(shown)] == ["img_b", "img_a", "img_c"]


def test_sharding_and_seeded_shuffle(tmp_path):
    _detection_folder(tmp_path)
    shards = [[r["label"].tolist() for r in _rows(ds.VOCDataset(
        str(tmp_path), task="Detection", shuffle=False, num_shards=3, shard_id=k))]
        for k in range(3)]
    assert shards == [[[[2], [1]]], [[[3]]], [[[0]]]]

    def order():
        ds.config.set_seed(5)
        return [r["label"].tolist() for r in _rows(ds.VOCDataset(str(tmp_path),
                                                                 task="Detection"))]

    assert order() == order()


def test_argument_errors(tmp_path):
    _detection_folder(tmp_path)
    root = str(tmp_path)
    with pytest.raises(ValueError, match="class_indexing is not supported in Segmentation"):
        VOCDataset(root, task="Segmentation", class_indexing={"dog": 0})
    with pytest.raises(ValueError, match="Invalid task : Classification"):
        VOCDataset(root, task="Classification")
    with pytest.raises(ValueError, match="does not exist or permission denied"):
        VOCDataset(root, task="Detection", usage="val")
    with pytest.raises(TypeError, match="usage"):
        VOCDataset(root, usage=3)
    with pytest.raises(TypeError, match="class_indexing"):
        VOCDataset(root, task="Detection", class_indexing=["dog"])
    with pytest.raises(TypeError, match="decrypt is not a callable object"):
        VOCDataset(root, decrypt=3)
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        VOCDataset(root + "/nowhere")


def test_annotation_errors(tmp_path):
    root = str(tmp_path)
    make_voc(root, {"x": [_object("dog", (0, 3, 7, 9))]})
    with pytest.raises(RuntimeError, match=r"Invalid bndbox: \{0, 3, 7, 9\} found in .*x.xml"):
        VOCSource(root, "Detection", "train", None, False, False, None)
    make_voc(root, {"x": ["<object><name>dog</name></object>"]})
    with pytest.raises(RuntimeError, match="bndbox dismatch in .*x.xml"):
        VOCSource(root, "Detection", "train", None, False, False, None)
    make_voc(root, {"x": []})
    with pytest.raises(RuntimeError, match="no object found in .*x.xml"):
        VOCSource(root, "Detection", "train", None, False, False, None)
    make_voc(root, {"x": [_object("dog", (1, 1, 2, 2))]}, main_ids=["x", "y"])
    with pytest.raises(RuntimeError, match="failed to open file: .*y.xml"):
        VOCSource(root, "Detection", "train", None, False, False, None)
    make_voc(root, {"x": [_object("dog", (1, 1, 2, 2))]}, main_ids=["x"])
    with pytest.raises(RuntimeError, match="VOCDataset API can't read the data file"):
        VOCSource(root, "Detection", "train", {"cat": 0}, False, False, None)


def test_get_class_indexing_refused_for_segmentation(tmp_path):
    _detection_folder(tmp_path)
    with pytest.raises(NotImplementedError, match="Only 'Detection' support"):
        VOCDataset(str(tmp_path)).get_class_indexing()
