"""MindDataset as MindSpore 2.10 behaves (issue 20): what its own MindRecord dataset tests check,
measured against MindSpore 2.10 and written here independently.

A ``bytes`` field is a 1-element ``|S<n>`` array (shape (1,)), as MindSpore gives it, made as a
view of the file's map (no copy); Decode takes it as it is, and the native batch path still reads
the stored bytes without making these arrays."""
import io

import numpy as np
import pytest
from PIL import Image

import minddata as ds
import minddata.vision as vision
from mindrecord import FileWriter


def jpeg(h, w, seed):
    img = np.random.default_rng(seed).integers(0, 255, (h, w, 3), dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, "JPEG")
    return buf.getvalue()


IMAGES = [jpeg(20 + i, 30 + 2 * i, i) for i in range(6)]


@pytest.fixture
def image_set(tmp_path):
    writer = FileWriter(str(tmp_path / "img.mindrecord"), 2)
    writer.add_schema({"id": {"type": "int32"}, "file_name": {"type": "string"},
                       "data": {"type": "bytes"}, "raw": {"type": "bytes"},
                       "mask": {"type": "int32", "shape": [-1]},
                       "seg": {"type": "float32", "shape": [2, 3]}}, "images")
    writer.write_raw_data([{"id": i, "file_name": "%03d.jpg" % i, "data": IMAGES[i],
                            "raw": b"ab\x00\x00" if i % 2 else b"", "mask": np.arange(5, dtype=np.int32),
                            "seg": np.ones((2, 3), np.float32)} for i in range(6)])
    writer.commit()
    return str(tmp_path / "img.mindrecord0")


def rows(data, **kw):
    return list(data.create_dict_iterator(num_epochs=1, output_numpy=True, **kw))


def test_bytes_field_is_a_one_element_S_array_of_the_stored_bytes(image_set):
    got = rows(ds.MindDataset(image_set, shuffle=False))
    for i, row in enumerate(got):
        data = row["data"]
        assert isinstance(data, np.ndarray) and data.shape == (1,)
        assert data.dtype == np.dtype("S%d" % len(IMAGES[i]))
        assert data.tobytes() == IMAGES[i] and (data == IMAGES[i]).all()
        assert row["mask"].dtype == np.int32 and row["mask"].shape == (5,)
        assert row["seg"].dtype == np.float32 and row["seg"].shape == (2, 3)
        assert row["id"].dtype == np.int32 and row["id"].shape == ()
        assert row["file_name"].dtype.kind == "U" and row["file_name"].shape == ()
    # trailing zero bytes stay in the buffer (numpy's item drops them, as in MindSpore)
    assert got[1]["raw"].dtype == np.dtype("S4") and got[1]["raw"].tobytes() == b"ab\x00\x00"
    assert got[1]["raw"][0] == b"ab"
    # an empty value: |S1 b"" as MindSpore gives it
    assert got[0]["raw"].dtype == np.dtype("S1") and got[0]["raw"][0] == b""


def test_bytes_fields_are_views_of_the_file_map_not_copies(image_set):
    data = ds.MindDataset(image_set, columns_list=["data"], shuffle=False)
    first = rows(data)[0]["data"]
    again = rows(data)[0]["data"]
    assert not first.flags.owndata and not first.flags.writeable
    assert first.base is not None and np.frombuffer(first, np.uint8).size == len(IMAGES[0])
    assert first.tobytes() == again.tobytes()


def test_types_and_shapes_reported_for_bytes(image_set):
    data = ds.MindDataset(image_set, columns_list=["data", "id"], shuffle=False)
    types, shapes = data.output_types(), data.output_shapes()
    assert types[0].kind == "S" and shapes[0] == [1]
    assert types[1] == np.int32 and shapes[1] == []
    batched = data.batch(2)
    assert batched.output_shapes()[0] == [2, 1] and batched.output_types()[0].kind == "S"


def test_tensor_mode_leaves_bytes_as_numpy_as_mindspore(image_set):
    data = ds.MindDataset(image_set, columns_list=["data", "id"], shuffle=False)
    row = next(data.create_tuple_iterator(num_epochs=1, output_numpy=False))
    assert type(row[0]) is np.ndarray and row[0].dtype.kind == "S"
    assert type(row[1]) is not np.ndarray                  # numeric columns: Tensor


def test_batch_of_bytes_of_different_lengths(image_set):
    data = ds.MindDataset(image_set, columns_list=["data"], shuffle=False).batch(3)
    first = rows(data)[0]["data"]
    longest = max(len(b) for b in IMAGES[:3])
    assert first.shape == (3, 1) and first.dtype == np.dtype("S%d" % longest)
    assert [first[k, 0] for k in range(3)] == [b.rstrip(b"\0") for b in IMAGES[:3]]


def test_decode_takes_the_bytes_field_eagerly_and_in_a_map(image_set):
    value = rows(ds.MindDataset(image_set, columns_list=["data"], shuffle=False))[2]["data"]
    expected = vision.Decode()(IMAGES[2])
    np.testing.assert_array_equal(vision.Decode()(value), expected)
    pil = vision.Decode(to_pil=True)(value)
    assert pil.size == (expected.shape[1], expected.shape[0])
    data = ds.MindDataset(image_set, columns_list=["data"], shuffle=False)
    data = data.map(vision.Decode(), input_columns=["data"])
    decoded = [r["data"] for r in rows(data)]
    for img, raw in zip(decoded, IMAGES):
        np.testing.assert_array_equal(img, vision.Decode()(raw))


def test_native_batch_path_and_row_path_give_the_same_images(image_set):
    ops = [vision.Decode(), vision.Resize((16, 16))]
    native = ds.MindDataset(image_set, columns_list=["data", "id"], shuffle=False)
    native = native.map(ops, input_columns=["data"]).batch(3)
    by_row = ds.MindDataset(image_set, columns_list=["data", "id"], shuffle=False)
    by_row = by_row.map(ops, input_columns=["data"]).map(lambda x: x, input_columns=["id"])
    by_row = by_row.batch(3)
    assert native.plan().fired("native_batch")     # the bytes read in place by C++ threads
    assert not by_row.plan().fired("native_batch")
    for a, b in zip(rows(native), rows(by_row)):
        np.testing.assert_array_equal(a["data"], b["data"])
        np.testing.assert_array_equal(a["id"], b["id"])


def test_a_python_map_sees_the_S_array(image_set):
    seen = []

    def look(x):
        seen.append((x.dtype.kind, x.shape))
        return x
    data = ds.MindDataset(image_set, columns_list=["raw"], shuffle=False)
    out = rows(data.map(look, input_columns=["raw"], num_parallel_workers=1))
    assert seen[0] == ("S", (1,)) and out[1]["raw"].tobytes() == b"ab\x00\x00"


def test_padded_bytes_sample_is_an_S_array_too(image_set):
    padded = {"id": -1, "file_name": "pad.jpg", "data": IMAGES[0]}
    got = []
    for shard in range(4):
        data = ds.MindDataset(image_set, columns_list=["data", "file_name", "id"], shuffle=False,
                              num_shards=4, shard_id=shard, padded_sample=padded, num_padded=2)
        assert data.get_dataset_size() == 2
        got += [r for r in rows(data) if int(r["id"]) == -1]
    assert len(got) == 2
    for row in got:
        assert row["data"].shape == (1,) and row["data"].tobytes() == IMAGES[0]
        assert str(row["file_name"]) == "pad.jpg" and row["id"].dtype == np.int32


def test_pk_sampler_class_column_must_be_a_field(image_set):
    data = ds.MindDataset(image_set, columns_list=["data", "id"],
                          sampler=ds.PKSampler(2, None, True, "no_such_column"))
    with pytest.raises(RuntimeError, match="no_such_column"):
        rows(data)


def test_files_of_different_schemas_use_mindspores_words(tmp_path, image_set):
    writer = FileWriter(str(tmp_path / "other.mindrecord"), 1)
    writer.add_schema({"id": {"type": "int32"}}, "other")
    writer.write_raw_data([{"id": 1}])
    writer.commit()
    data = ds.MindDataset([image_set, str(tmp_path / "other.mindrecord")])
    with pytest.raises(RuntimeError, match="is different from others"):
        rows(data)


# ---- OBSMindDataset ------------------------------------------------------------------------
OBS_ARGS = ("https://dummy_site", "dummy_ak", "dummy_sk", "s3://dummy_sync_dir")
OBS_FILES = ["s3://dataset/imagenet0", "s3://dataset/imagenet1"]


@pytest.mark.parametrize("exc, words, args, kwargs", [
    (TypeError, "Argument dataset_files", ("err_dataset",) + OBS_ARGS, {}),
    (TypeError, "Item of dataset files", ([1, 2],) + OBS_ARGS, {}),
    (TypeError, "Argument server", (OBS_FILES, 12) + OBS_ARGS[1:], {}),
    (ValueError, "server should be a str that starts with http:// or https://",
     (OBS_FILES, "ftp://dummy_site") + OBS_ARGS[1:], {}),
    (TypeError, "Argument ak", (OBS_FILES, OBS_ARGS[0], 12) + OBS_ARGS[2:], {}),
    (TypeError, "Argument sk", (OBS_FILES,) + OBS_ARGS[:2] + (12, OBS_ARGS[3]), {}),
    (TypeError, "Argument sync_obs_path", (OBS_FILES,) + OBS_ARGS[:3] + (12,), {}),
    (ValueError, r"Input shard_id is not within the required interval of \[0, 1\]",
     (OBS_FILES,) + OBS_ARGS, {"num_shards": 2, "shard_id": -1}),
    (ValueError, r"Input shard_id is not within the required interval of \[0, 3\]",
     (OBS_FILES,) + OBS_ARGS, {"num_shards": 4, "shard_id": 4}),
    (TypeError, "Argument shard_equal_rows", (OBS_FILES,) + OBS_ARGS, {"shard_equal_rows": 1}),
])
def test_obs_mind_dataset_checks_its_arguments_as_mindspore(exc, words, args, kwargs):
    with pytest.raises(exc, match=words):      # checked when built: nothing is downloaded
        ds.OBSMindDataset(*args, **kwargs)


def test_obs_mind_dataset_reads_files_from_an_s3_compatible_store(tmp_path, monkeypatch):
    pytest.importorskip("moto.moto_server.threaded_moto_server")
    pytest.importorskip("s3fs")
    pytest.importorskip("boto3")
    import os
    import sys
    import uuid
    tools = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools")
    monkeypatch.syspath_prepend(os.path.abspath(tools))
    import loopback_s3
    for name in ("AWS_PROFILE", "AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID",
                 "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_DEFAULT_REGION", loopback_s3.REGION)
    monkeypatch.setenv("MINDDATA_REMOTE_CACHE", str(tmp_path / "cache"))
    local = []
    for k in range(2):
        path = str(tmp_path / ("part%d.mindrecord" % k))
        writer = FileWriter(path, 1)
        writer.add_schema({"id": {"type": "int32"}, "data": {"type": "bytes"}}, "obs")
        writer.write_raw_data([{"id": 3 * k + i, "data": IMAGES[3 * k + i]} for i in range(3)])
        writer.commit()
        local += [path, path + ".db"]
    with loopback_s3.LoopbackS3() as store:
        import fsspec
        fsspec.AbstractFileSystem.clear_instance_cache()
        bucket = store.create_bucket("obs-%s" % uuid.uuid4().hex[:12])
        store.upload_files(local, bucket, "mr")
        files = ["s3://%s/mr/part%d.mindrecord" % (bucket, k) for k in range(2)]
        data = ds.OBSMindDataset(files, store.endpoint, loopback_s3.ACCESS_KEY,
                                 loopback_s3.SECRET_KEY, "s3://%s/sync" % bucket, shuffle=False)
        got = rows(data)
        sys.modules.pop("loopback_s3", None)
    assert [int(r["id"]) for r in got] == list(range(6))
    assert [r["data"].tobytes() for r in got] == IMAGES
