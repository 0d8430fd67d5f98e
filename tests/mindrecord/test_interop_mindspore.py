"""Interoperability with real MindSpore: files we write are read by MindSpore's FileReader and
MindDataset, and files MindSpore writes are read by ours. Skipped when mindspore is absent."""
import math

import numpy as np
import pytest

ms_mindrecord = pytest.importorskip("mindspore.mindrecord")
ms_dataset = pytest.importorskip("mindspore.dataset")

from mindrecord import FileReader, ShardReader  # noqa: E402

pytestmark = pytest.mark.mindspore

SCHEMA = {"label": {"type": "int32"}, "big": {"type": "int64"}, "score": {"type": "float64"},
          "name": {"type": "string"}, "data": {"type": "bytes"},
          "vec": {"type": "int64", "shape": [-1]}, "mat": {"type": "float32", "shape": [2, 2]}}


def rows(n=7):
    return [{"label": i - 3, "big": (1 << 40) + i, "score": i / 4, "name": "név%d" % i,
             "data": bytes([i]) * (i + 1), "vec": np.arange(i, dtype=np.int64) * -1000,
             "mat": np.full((2, 2), i / 2, np.float32)} for i in range(n)]


def same(name, got, want):
    if isinstance(want, np.ndarray):
        return np.array_equal(np.asarray(got).reshape(want.shape), want)
    if isinstance(want, float):
        return math.isclose(float(got), want)   # MindSpore's FileReader turns 1.0 into 1
    if isinstance(want, bytes):
        return bytes(got) == want
    return got == want


def write_ours(path, shard_num=1):
    from mindrecord import FileWriter
    w = FileWriter(path, shard_num=shard_num, overwrite=True)
    w.add_schema(SCHEMA, "interop")
    w.add_index(["label", "name"])
    w.write_raw_data(rows())
    w.commit()


def write_theirs(path, shard_num=1):
    w = ms_mindrecord.FileWriter(path, shard_num=shard_num, overwrite=True)
    w.add_schema(SCHEMA, "interop")
    w.add_index(["label", "name"])
    w.write_raw_data(rows())
    w.commit()


@pytest.mark.parametrize("shard_num", [1, 3])
def test_mindspore_reads_our_files(tmp_path, shard_num):
    pytest.importorskip("mindrecord.writer")
    path = str(tmp_path / "ours.mindrecord")
    write_ours(path, shard_num)
    first = path if shard_num == 1 else path + "0"
    reader = ms_mindrecord.FileReader(first)
    got = sorted(reader.get_next(), key=lambda r: r["label"])
    reader.close()
    assert len(got) == 7
    for g, w in zip(got, rows()):
        for name in SCHEMA:
            assert same(name, g[name], w[name]), name
    labels = [int(x["label"]) for x in ms_dataset.MindDataset(first, shuffle=False)
              .create_dict_iterator(output_numpy=True, num_epochs=1)]
    assert sorted(labels) == list(range(-3, 4))


@pytest.mark.parametrize("shard_num", [1, 3])
def test_we_read_mindspore_files(tmp_path, shard_num):
    path = str(tmp_path / "theirs.mindrecord")
    write_theirs(path, shard_num)
    first = path if shard_num == 1 else path + "0"
    with FileReader(first) as reader:
        got = sorted(reader.get_next(), key=lambda r: r["label"])
    assert len(got) == 7
    for g, w in zip(got, rows()):
        for name in SCHEMA:
            assert same(name, g[name], w[name]), name
    with ShardReader(first) as reader:
        labels = sorted(int(v) for v in reader.read_rows(np.arange(7), ["label"])["label"])
    assert labels == list(range(-3, 4))


def canonical(schema, row):
    """A hashable form of a row that is equal for equal values (NaN == NaN, -0.0 != 0.0)."""
    out = []
    for name, spec in sorted(schema.items()):
        v = row[name]
        if "shape" in spec:
            out.append(np.asarray(v, dtype=spec["type"]).tobytes())
        elif spec["type"].startswith("float"):
            out.append(np.array(v, dtype=spec["type"]).tobytes())
        elif spec["type"] == "bytes":
            out.append(bytes(v))
        else:
            out.append(v)
    return tuple(out)


def _mindspore_safe(data):
    """MindSpore drops (or fails on) an empty value when the schema has exactly one blob field
    (§4.1); give such rows a non-empty value."""
    schema = data["schema"]
    blobs = [n for n, s in schema.items() if "shape" in s or s["type"] == "bytes"]
    if len(blobs) == 1:
        name, spec = blobs[0], schema[blobs[0]]
        for row in data["rows"]:
            if len(row[name]) == 0 or (isinstance(row[name], np.ndarray) and row[name].size == 0):
                row[name] = (b"\1" if spec["type"] == "bytes" else
                             np.ones([1 if d == -1 else d for d in spec["shape"]], spec["type"]))
    return data


def _property_test():
    from hypothesis import HealthCheck, given, settings

    from .test_roundtrip_property import datasets

    @settings(deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow])
    @given(datasets().map(_mindspore_safe))
    def test_we_read_what_mindspore_writes(data):
        import os
        import shutil
        import tempfile
        d = tempfile.mkdtemp(prefix="ms-interop-")
        try:
            path = os.path.join(d, "ms.mindrecord")
            w = ms_mindrecord.FileWriter(path, shard_num=data["shards"], overwrite=True)
            w.set_header_size(data["header_size"])
            w.set_page_size(data["page_size"])
            w.add_schema(data["schema"], "property")
            if data["index"]:
                w.add_index(data["index"])
            calls = data["calls"]
            for a, b in zip(calls, calls[1:]):
                w.write_raw_data([dict(r) for r in data["rows"][a:b]])
            w.commit()
            first = path if data["shards"] == 1 else path + "0"
            schema = data["schema"]
            want = sorted(canonical(schema, r) for r in data["rows"])
            with FileReader(first) as reader:
                assert sorted(canonical(schema, r) for r in reader.get_next()) == want
            with ShardReader(first) as reader:
                cols = reader.read_rows(np.arange(reader.num_rows))
                rows = [{k: (v[i].tobytes() if schema[k]["type"] == "bytes" and "shape" not in
                             schema[k] else (str(v[i]) if schema[k]["type"] == "string"
                                             else v[i])) for k, v in cols.items()}
                        for i in range(reader.num_rows)]
            got = sorted(canonical(schema, r) for r in rows)
            # numpy str_ drops trailing NULs: compare strings without them; an empty bytes
            # value is np.array([b""]) (|S1, as MindSpore gives it), whose tobytes() is b"\0"
            strip = [i for i, n in enumerate(sorted(schema)) if schema[n]["type"] == "string"
                     and "shape" not in schema[n]]
            empty = [i for i, n in enumerate(sorted(schema)) if schema[n]["type"] == "bytes"
                     and "shape" not in schema[n]]

            def fix(t):
                return tuple(x.rstrip("\0") if i in strip else
                             (b"" if x == b"\0" else x) if i in empty else x
                             for i, x in enumerate(t))
            assert sorted(map(fix, got)) == sorted(map(fix, want))
        finally:
            shutil.rmtree(d, ignore_errors=True)

    return test_we_read_what_mindspore_writes


test_we_read_what_mindspore_writes = _property_test()
