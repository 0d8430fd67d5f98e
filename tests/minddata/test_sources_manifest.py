"""ManifestDataset: the JSON-lines manifest (source, usage, annotation names), label numbering
(sorted names or class_indexing), single and multi labels, skipped non-images, decode, order,
shuffle, shards, num_samples, samplers and errors."""
import json
import os

import cv2
import numpy as np
import pytest

import minddata as ds
from minddata.sources.manifest import ManifestSource


def _jpeg(path, value):
    img = np.full((6, 8, 3), value, np.uint8)
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    path.write_bytes(buf.tobytes())
    return str(path)


def _line(source, usage, *names):
    return json.dumps({"source": source, "usage": usage,
                       "annotation": [{"name": n, "type": "label"} for n in names]})


def _manifest(tmp_path, lines, name="data.manifest"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def data_file(tmp_path):
    images = [_jpeg(tmp_path / f"{i}.jpg", 40 * i) for i in range(6)]
    (tmp_path / "notes.txt").write_text("not an image")
    lines = [_line(images[0], "train", "dog"),
             _line(images[1], "TRAIN", "cat"),
             _line(str(tmp_path / "notes.txt"), "train", "cat"),     # no image: skipped
             _line(images[2], "eval", "flower"),
             _line(images[3], "train", "cat"),
             _line(images[4], "train", "cat", "flower"),
             _line(images[5], "inference", "dog")]
    return _manifest(tmp_path, lines), images


def _rows(data):
    return list(data.create_dict_iterator(num_epochs=1, output_numpy=True))


def _labels(data):
    return [r["label"].tolist() for r in _rows(data)]


def test_rows_labels_and_class_indexing(data_file):
    path, images = data_file
    data = ds.ManifestDataset(path, shuffle=False)
    assert data.get_col_names() == ["image", "label"]
    assert data.get_dataset_size() == 4
    # Names of the train lines sorted: cat 0, dog 1, flower 2; several labels -> a 1-D array.
    assert data.get_class_indexing() == {"cat": 0, "dog": 1, "flower": 2}
    assert data.num_classes() == 3
    rows = _rows(data)
    assert [r["label"].tolist() for r in rows] == [1, 0, 0, [0, 2]]
    assert all(r["label"].dtype == np.int32 for r in rows)
    assert rows[0]["label"].shape == () and rows[3]["label"].shape == (2,)
    image = rows[1]["image"]
    assert image.dtype == np.uint8 and image.ndim == 1
    assert image.tobytes() == open(images[1], "rb").read()


def test_usage_selects_lines(data_file):
    path, images = data_file
    assert _labels(ds.ManifestDataset(path, "eval", shuffle=False)) == [0]
    assert ds.ManifestDataset(path, usage="eval").get_class_indexing() == {"flower": 0}
    assert _labels(ds.ManifestDataset(path, usage="inference", shuffle=False)) == [0]


def test_class_indexing_keeps_only_its_names(data_file):
    path, _ = data_file
    data = ds.ManifestDataset(path, class_indexing={"dog": 11, "flower": 4}, shuffle=False)
    assert data.get_class_indexing() == {"dog": 11, "flower": 4}
    assert _labels(data) == [11, 4]     # the lines with only 'cat' are dropped


def test_decode_gives_rgb_images(data_file):
    path, _ = data_file
    rows = _rows(ds.ManifestDataset(path, decode=True, shuffle=False))
    assert rows[0]["image"].shape == (6, 8, 3) and rows[0]["image"].dtype == np.uint8
    assert abs(int(rows[1]["image"].mean()) - 40) <= 2


def test_relative_source_paths(tmp_path, monkeypatch):
    _jpeg(tmp_path / "r.jpg", 10)
    os.makedirs(tmp_path / "m")
    # Relative to the current directory (as MindSpore reads it) ...
    monkeypatch.chdir(tmp_path)
    path = _manifest(tmp_path / "m", [_line("r.jpg", "train", "a")])
    assert len(_rows(ds.ManifestDataset(path))) == 1
    # ... or, when that does not exist, to the manifest's folder.
    path = _manifest(tmp_path, [_line("m/../r.jpg", "train", "a")], "top.manifest")
    monkeypatch.chdir(tmp_path / "m")
    assert len(_rows(ds.ManifestDataset(path))) == 1


def test_shuffle_shards_num_samples_and_sampler(tmp_path):
    images = [_jpeg(tmp_path / f"{i}.jpg", i) for i in range(10)]
    path = _manifest(tmp_path, [_line(p, "train", f"c{i}") for i, p in enumerate(images)])
    everything = list(range(10))
    assert _labels(ds.ManifestDataset(path, shuffle=False)) == everything
    ds.config.set_seed(9)
    first = _labels(ds.ManifestDataset(path))
    ds.config.set_seed(9)
    assert _labels(ds.ManifestDataset(path, num_parallel_workers=3)) == first
    assert sorted(first) == everything and first != everything
    for shuffle in (False, True):
        shards = [_labels(ds.ManifestDataset(path, shuffle=shuffle, num_shards=2, shard_id=k))
                  for k in range(2)]
        assert sorted(shards[0] + shards[1]) == everything and len(shards[0]) == 5
    assert _labels(ds.ManifestDataset(path, shuffle=False, num_samples=3)) == [0, 1, 2]
    assert ds.ManifestDataset(path, num_samples=3).get_dataset_size() == 3
    sampler = ds.SubsetSampler([7, 2])
    assert _labels(ds.ManifestDataset(path, sampler=sampler)) == [7, 2]


def test_source_reads_by_id(data_file):
    path, images = data_file
    src = ManifestSource(path, "train", {}, False)
    assert len(src) == 4 and images[3] in src.provenance(2)
    assert src.column_values("label") is None     # one row has two labels
    single = ManifestSource(path, "train", {"cat": 0}, False)
    np.testing.assert_array_equal(single.column_values("label"), [0, 0, 0])


def test_argument_errors(data_file, tmp_path):
    path, _ = data_file
    with pytest.raises(ValueError, match="does not exist or permission denied"):
        ds.ManifestDataset(str(tmp_path / "missing.manifest"))
    with pytest.raises(RuntimeError, match="does not match any mode in"):
        ds.ManifestDataset(path, usage="test")
    with pytest.raises(TypeError, match="usage"):
        ds.ManifestDataset(path, usage=1)
    with pytest.raises(TypeError, match="decode"):
        ds.ManifestDataset(path, decode=1)
    with pytest.raises(TypeError, match="class_indexing"):
        ds.ManifestDataset(path, class_indexing=[("dog", 1)])
    with pytest.raises(RuntimeError, match="sampler and shuffle"):
        ds.ManifestDataset(path, sampler=ds.SequentialSampler(), shuffle=False)
    with pytest.raises(ValueError, match="shard_id"):
        ds.ManifestDataset(path, num_shards=2, shard_id=3)


def test_data_errors_when_opened(tmp_path):
    image = _jpeg(tmp_path / "x.jpg", 1)
    cases = {
        "nosource": (json.dumps({"usage": "train", "annotation": [{"name": "a"}]}),
                     "Invalid manifest file, 'source' is missing in"),
        "nousage": (json.dumps({"source": image, "annotation": [{"name": "a"}]}),
                    "Invalid manifest file, 'usage' is missing in"),
        "noname": (json.dumps({"source": image, "usage": "train", "annotation": [{"x": 1}]}),
                   "'name' attribute of label is missing"),
        "json": ("{not json", "Invalid manifest file, parse ManiFest file"),
        "missing": (_line(str(tmp_path / "gone.jpg"), "train", "a"), "does not exist"),
    }
    for name, (line, message) in cases.items():
        path = _manifest(tmp_path, [line], f"{name}.manifest")
        with pytest.raises(RuntimeError, match=message):
            _rows(ds.ManifestDataset(path))
    (tmp_path / "short.jpg").write_bytes(b"\xff")
    path = _manifest(tmp_path, [_line(str(tmp_path / "short.jpg"), "train", "a")], "s.manifest")
    with pytest.raises(RuntimeError, match="Invalid manifest file, failed to read"):
        ds.ManifestDataset(path).get_dataset_size()
    path = _manifest(tmp_path, [_line(image, "eval", "a")], "none.manifest")
    with pytest.raises(RuntimeError, match="ManifestDataset API can't read the data file"):
        ds.ManifestDataset(path).get_dataset_size()
