"""End to end: sources and map with cache= over several epochs, through the dataset API."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import minddata as ds
from minddata.cache import generate_session


@pytest.fixture
def cache_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("MINDDATA_CACHE_DIR", str(tmp_path / "root"))
    monkeypatch.setenv("MINDDATA_CACHE_SPILL_DIR", str(tmp_path / "spill"))
    return tmp_path


def _image_folder(root, n_per_class=6):
    import cv2
    rng = np.random.default_rng(0)
    for cls in ("a", "b"):
        os.makedirs(root / cls, exist_ok=True)
        for i in range(n_per_class):
            img = rng.integers(0, 256, (20 + i, 24, 3), dtype=np.uint8)
            cv2.imwrite(str(root / cls / f"{i:02d}.jpg"), img)
    return str(root)


def _epochs(data, n):
    it = data.create_tuple_iterator(num_epochs=n, output_numpy=True)
    return [[tuple(np.array(c) for c in row) for row in it] for _ in range(n)]


def _same_rows(a, b):
    return len(a) == len(b) and all(
        len(r) == len(s) and all(np.array_equal(x, y) for x, y in zip(r, s)) for r, s in zip(a, b))


def test_map_cache_computes_once_over_epochs(cache_dirs):
    calls = []

    def square(x):
        calls.append(int(x))
        return x * x

    cache = ds.DatasetCache(generate_session())
    data = ds.NumpySlicesDataset({"x": np.arange(30, dtype=np.int64)}, shuffle=False)
    data = data.map(square, input_columns=["x"], cache=cache)
    epochs = _epochs(data, 3)
    assert len(calls) == 30
    assert [int(r[0]) for r in epochs[2]] == [i * i for i in range(30)]
    assert _same_rows(epochs[0], epochs[1]) and _same_rows(epochs[0], epochs[2])
    stat = cache.get_stat()
    assert stat.rows == 30 and stat.hits == 60


def test_generator_source_with_cached_map(cache_dirs):
    class Source:
        cache_identity = "filled-4x4-v1"   # a generator's rows are identified by its author

        def __getitem__(self, i):
            return (np.full((4, 4), i, np.float32),)

        def __len__(self):
            return 12

    cache = ds.DatasetCache(generate_session())
    data = ds.GeneratorDataset(Source(), ["x"], shuffle=False)
    data = data.map(lambda x: x + 0.5, input_columns=["x"], cache=cache)
    epochs = _epochs(data, 2)
    assert [float(r[0][0, 0]) for r in epochs[1]] == [i + 0.5 for i in range(12)]
    assert cache.get_stat().hits == 12


def test_image_folder_decode_resize_cached_and_reused_by_a_new_pipeline(cache_dirs, tmp_path):
    import transforms_c.vision as vision
    folder = _image_folder(tmp_path / "images")
    cache = ds.DatasetCache(generate_session())

    def pipeline():
        data = ds.ImageFolderDataset(folder, shuffle=False, num_parallel_workers=2)
        return data.map([vision.Decode(), vision.Resize((16, 16))], input_columns=["image"],
                        num_parallel_workers=2, cache=cache)

    first = _epochs(pipeline(), 2)
    assert _same_rows(first[0], first[1]) and first[0][0][0].shape == (16, 16, 3)
    hits = cache.get_stat().hits
    again = _epochs(pipeline(), 1)[0]     # a new dataset object, same upstream
    assert _same_rows(again, first[0])
    stat = cache.get_stat()
    assert stat.rows == 12 and stat.hits == hits + 12


def test_a_different_upstream_gets_its_own_rows(cache_dirs, tmp_path):
    import transforms_c.vision as vision
    folder = _image_folder(tmp_path / "images")
    cache = ds.DatasetCache(generate_session())
    shapes = []
    for size in (16, 8):
        data = ds.ImageFolderDataset(folder, shuffle=False)
        data = data.map([vision.Decode(), vision.Resize((size, size))], input_columns=["image"],
                        cache=cache)
        shapes.append({r[0].shape for r in _epochs(data, 2)[1]})
    assert shapes == [{(16, 16, 3)}, {(8, 8, 3)}]
    assert cache.get_stat().stages == 2


def test_mindrecord_source_cache(cache_dirs, tmp_path):
    from mindrecord import FileWriter
    path = str(tmp_path / "rows.mindrecord")
    writer = FileWriter(path, shard_num=1)
    writer.add_schema({"data": {"type": "bytes"}, "label": {"type": "int32"}}, "rows")
    writer.write_raw_data([{"data": bytes([i]) * (i + 1), "label": i} for i in range(10)])
    writer.commit()
    cache = ds.DatasetCache(generate_session())
    data = ds.MindDataset(path, shuffle=False, cache=cache)
    epochs = _epochs(data, 3)
    assert _same_rows(epochs[0], epochs[2])
    assert sorted(int(r[1]) for r in epochs[1]) == list(range(10))
    stat = cache.get_stat()
    assert stat.rows == 10 and stat.hits >= 20


def test_random_ops_cannot_be_cached(cache_dirs):
    import transforms_c.vision as vision
    data = ds.NumpySlicesDataset({"image": np.zeros((2, 8, 8, 3), np.uint8)}, shuffle=False)
    with pytest.raises(RuntimeError, match="RandomHorizontalFlip"):
        data.map([vision.RandomHorizontalFlip()], input_columns=["image"],
                 cache=ds.DatasetCache(1))


def test_an_interrupted_first_epoch_is_not_taken_for_complete(cache_dirs):
    calls = []

    def plus(x):
        calls.append(1)
        return x + 100

    cache = ds.DatasetCache(generate_session())
    data = ds.NumpySlicesDataset({"x": np.arange(20, dtype=np.int64)}, shuffle=False)
    data = data.map(plus, input_columns=["x"], cache=cache)
    it = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    for k, _ in enumerate(it):
        if k == 5:
            break
    del it
    rows = [int(r[0]) for r in _epochs(data, 1)[0]]
    assert rows == [i + 100 for i in range(20)]
    assert [int(r[0]) for r in _epochs(data, 1)[0]] == rows


def test_unknown_session_fails_when_the_pipeline_runs(cache_dirs):
    data = ds.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False)
    data = data.map(lambda x: x, input_columns=["x"], cache=ds.DatasetCache(31337))
    with pytest.raises(RuntimeError, match="31337"):
        _epochs(data, 1)


SHARED_READER = textwrap.dedent("""
    import sys
    import numpy as np
    import minddata as ds
    import transforms_c.vision as vision
    folder, sid = sys.argv[1], int(sys.argv[2])
    cache = ds.DatasetCache(sid)
    data = ds.ImageFolderDataset(folder, shuffle=False)
    data = data.map([vision.Decode(), vision.Resize((16, 16))], input_columns=["image"],
                    cache=cache)
    before = cache.get_stat().hits
    total = sum(int(r[0].astype(np.int64).sum())
                for r in data.create_tuple_iterator(num_epochs=1, output_numpy=True))
    print(total, cache.get_stat().hits - before)
""")


def test_a_second_process_reads_the_cached_pipeline(cache_dirs, tmp_path):
    import transforms_c.vision as vision
    folder = _image_folder(tmp_path / "images")
    sid = generate_session()
    data = ds.ImageFolderDataset(folder, shuffle=False)
    data = data.map([vision.Decode(), vision.Resize((16, 16))], input_columns=["image"],
                    cache=ds.DatasetCache(sid))
    total = sum(int(r[0].astype(np.int64).sum()) for r in _epochs(data, 1)[0])
    out = subprocess.run([sys.executable, "-c", SHARED_READER, folder, str(sid)],
                         capture_output=True, text=True, timeout=120, env=os.environ.copy())
    assert out.returncode == 0, out.stderr
    other_total, other_hits = map(int, out.stdout.split())
    assert other_total == total and other_hits == 12
