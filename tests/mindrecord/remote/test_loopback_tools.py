"""The test tools of issue 21 themselves: the local S3 store (tools/loopback_s3.py) and the
fixtures of conftest.py."""
import http.client
import os

import pytest

import loopback_s3


def test_store_serves_what_was_uploaded_to_s3fs_and_boto3(s3_store, bucket, s3_env, tmp_path):
    import boto3
    import s3fs
    files = []
    for name, data in (("a.mindrecord", os.urandom(70000)), ("a.mindrecord.db", b"db")):
        (tmp_path / name).write_bytes(data)
        files.append(tmp_path / name)
    urls = s3_store.upload_files(files, bucket, prefix="sets/one/")
    assert urls == [f"s3://{bucket}/sets/one/a.mindrecord",
                    f"s3://{bucket}/sets/one/a.mindrecord.db"]
    assert os.environ["AWS_ENDPOINT_URL"] == s3_store.endpoint == s3_env["AWS_ENDPOINT_URL"]
    fs = s3fs.S3FileSystem()    # endpoint and credentials from the environment
    assert sorted(fs.ls(f"{bucket}/sets/one")) == [f"{bucket}/sets/one/a.mindrecord",
                                                   f"{bucket}/sets/one/a.mindrecord.db"]
    assert fs.cat(urls[0]) == files[0].read_bytes()
    body = boto3.client("s3").get_object(Bucket=bucket, Key="sets/one/a.mindrecord.db")["Body"]
    assert body.read() == b"db"


def test_buckets_are_fresh(s3_store, bucket):
    assert s3_store.client().list_objects_v2(Bucket=bucket)["KeyCount"] == 0


def test_stop_reaps_the_child():
    store = loopback_s3.LoopbackS3().start()
    proc, port = store.process, store.port
    assert store.running
    store.stop()
    assert store.process is None and not store.running
    assert proc.returncode is not None          # reaped by wait()
    with pytest.raises(ProcessLookupError):
        os.kill(proc.pid, 0)
    with pytest.raises(OSError):
        http.client.HTTPConnection("127.0.0.1", port, timeout=2).request("GET", "/")
    store.stop()                                # idempotent


def test_a_child_that_does_not_start_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(loopback_s3, "_CHILD", "import sys; sys.stderr.write('boom'); sys.exit(3)")
    store = loopback_s3.LoopbackS3(start_timeout=10)
    with pytest.raises(RuntimeError, match="did not start.*status 3(.|\n)*boom"):
        store.start()
    assert store.process is None
