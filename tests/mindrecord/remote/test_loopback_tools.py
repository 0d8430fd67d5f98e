"""The test tools of issue 21 themselves: the local S3 store (tools/loopback_s3.py) and the
fixtures of conftest.py."""
import http.client
import os
import threading
import urllib.parse

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


# -- FaultyProxy -------------------------------------------------------------------------------

def _raw(proxy, method, bucket, key, headers=None, conn=None):
    """(response, connection) of one raw request to the proxy (body unread), presigned so that
    the store takes it for an authenticated one."""
    url = proxy.client().generate_presigned_url(
        "head_object" if method == "HEAD" else "get_object",
        Params={"Bucket": bucket, "Key": key})
    split = urllib.parse.urlsplit(url)
    conn = conn or http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=10)
    conn.request(method, f"{split.path}?{split.query}", headers=headers or {})
    return conn.getresponse(), conn


@pytest.fixture
def big_object(s3_store, bucket):
    data = os.urandom(300_000)      # several of the proxy's 64 KiB chunks
    s3_store.put_bytes(bucket, "sets/big.mindrecord", data)
    return bucket, "sets/big.mindrecord", data


def test_objects_read_back_unchanged_through_the_proxy(faulty_proxy, proxy_env, big_object):
    import s3fs
    from botocore.config import Config
    bucket, key, data = big_object
    client = faulty_proxy.client(config=Config(retries={"total_max_attempts": 1}))
    assert client.get_object(Bucket=bucket, Key=key)["Body"].read() == data
    part = client.get_object(Bucket=bucket, Key=key, Range="bytes=1000-199999")["Body"].read()
    assert part == data[1000:200000]
    fs = s3fs.S3FileSystem()        # AWS_ENDPOINT_URL is the proxy's
    assert fs.cat(f"{bucket}/{key}") == data
    with fs.open(f"{bucket}/{key}", "rb", block_size=50_000) as f:
        f.seek(123_456)
        assert f.read(1000) == data[123_456:124_456]
    fs.pipe(f"{bucket}/sets/written", b"through the proxy")       # a PUT
    assert client.get_object(Bucket=bucket, Key="sets/written")["Body"].read() == \
        b"through the proxy"
    counts = faulty_proxy.counts()
    assert counts["GET_range"] >= 2 and counts["GET_whole"] >= 1 and counts["PUT"] == 1
    assert all(isinstance(entry.outcome, int) and entry.outcome < 300
               for entry in faulty_proxy.log)
    assert not faulty_proxy.faults()


def test_keep_alive_to_the_client(faulty_proxy, big_object):
    bucket, key, data = big_object
    resp, conn = _raw(faulty_proxy, "GET", bucket, key, {"Range": "bytes=0-9"})
    sock = conn.sock
    assert resp.status == 206 and resp.read() == data[:10]
    resp, _ = _raw(faulty_proxy, "GET", bucket, key, {"Range": "bytes=10-19"}, conn)
    assert resp.read() == data[10:20] and conn.sock is sock    # the same connection
    conn.close()


def test_500_and_503_are_s3_errors(faulty_proxy, big_object):
    from botocore.config import Config
    from botocore.exceptions import ClientError
    bucket, key, _ = big_object
    faulty_proxy.failure_rate = 1.0
    for kind, status, code in (("500", 500, "InternalError"), ("503", 503, "SlowDown")):
        faulty_proxy.fault_kinds = (kind,)
        resp, conn = _raw(faulty_proxy, "GET", bucket, key)
        assert resp.status == status
        assert f"<Code>{code}</Code>".encode() in resp.read()
        conn.close()
        client = faulty_proxy.client(config=Config(retries={"total_max_attempts": 1}))
        with pytest.raises(ClientError) as info:
            client.head_object(Bucket=bucket, Key=key)
        assert info.value.response["ResponseMetadata"]["HTTPStatusCode"] == status
    assert faulty_proxy.faults() == {"500": 2, "503": 2}


def test_drop_closes_without_an_answer(faulty_proxy, big_object):
    bucket, key, _ = big_object
    faulty_proxy.failure_rate = 1.0
    faulty_proxy.fault_kinds = ("drop",)
    with pytest.raises((ConnectionError, http.client.HTTPException)):
        _raw(faulty_proxy, "GET", bucket, key, {"Range": "bytes=0-99"})
    assert faulty_proxy.log[-1].outcome == "drop"


def test_truncate_sends_less_than_its_content_length(faulty_proxy, big_object):
    bucket, key, data = big_object
    faulty_proxy.failure_rate = 1.0
    faulty_proxy.fault_kinds = "truncate"
    for _ in range(3):
        resp, conn = _raw(faulty_proxy, "GET", bucket, key,
                          {"Range": "bytes=0-199999"})
        assert resp.status == 206 and int(resp.getheader("Content-Length")) == 200_000
        with pytest.raises(http.client.IncompleteRead) as info:
            resp.read()
        assert len(info.value.partial) < 200_000
        assert info.value.partial == data[:len(info.value.partial)]     # a prefix, unchanged
        conn.close()
    assert faulty_proxy.faults() == {"truncate": 3}


def test_faults_are_seeded_and_injectable(s3_store, big_object):
    import loopback_s3
    bucket, key, _ = big_object

    def outcomes(seed):
        with loopback_s3.FaultyProxy(s3_store.endpoint, seed=seed, failure_rate=0.5,
                                     fault_kinds=("500", "503")) as proxy:
            for _ in range(20):
                resp, conn = _raw(proxy, "HEAD", bucket, key)
                resp.read()
                conn.close()
            return [entry.outcome for entry in proxy.log]

    first = outcomes(7)
    assert first == outcomes(7) and {200, "500", "503"} <= set(first)
    with loopback_s3.FaultyProxy(s3_store.endpoint) as proxy:
        proxy.inject("503", count=2, on="GET_range")
        statuses = []
        for headers in ({}, {"Range": "bytes=0-9"}, {"Range": "bytes=0-9"}, {"Range": "bytes=0-9"}):
            resp, conn = _raw(proxy, "GET", bucket, key, headers)
            resp.read()
            conn.close()
            statuses.append(resp.status)
        assert statuses == [200, 503, 503, 206]
    with pytest.raises(ValueError):
        proxy.fault_kinds = ("timeout",)
    with pytest.raises(ValueError):
        proxy.failure_rate = 1.5


def test_counts_classify_requests(faulty_proxy, big_object):
    bucket, key, _ = big_object
    client = faulty_proxy.client()
    client.head_object(Bucket=bucket, Key=key)
    client.get_object(Bucket=bucket, Key=key, Range="bytes=0-9")["Body"].read()
    client.list_objects_v2(Bucket=bucket, Prefix="sets/")
    assert faulty_proxy.counts() == {"HEAD": 1, "GET_range": 1, "LIST": 1, "total": 3}
    assert [(e.method, e.range, e.outcome) for e in faulty_proxy.log] == \
        [("HEAD", None, 200), ("GET", "bytes=0-9", 206), ("GET", None, 200)]
    assert faulty_proxy.log[0].path == f"/{bucket}/sets/big.mindrecord"
    client.get_object(Bucket=bucket, Key=key)["Body"].read()
    client.delete_object(Bucket=bucket, Key=key)
    assert faulty_proxy.counts()["GET_whole"] == 1 and faulty_proxy.counts()["DELETE"] == 1
    faulty_proxy.reset()
    assert faulty_proxy.counts() == {} and faulty_proxy.log == []


def test_deny_answers_access_denied(faulty_proxy, proxy_env, big_object):
    import s3fs
    from botocore.exceptions import ClientError
    bucket, key, data = big_object
    faulty_proxy.deny(f"{bucket}/sets/")
    resp, conn = _raw(faulty_proxy, "GET", bucket, key, {"Range": "bytes=0-9"})
    assert resp.status == 403 and b"<Code>AccessDenied</Code>" in resp.read()
    conn.close()
    with pytest.raises(ClientError, match="AccessDenied"):
        faulty_proxy.client().get_object(Bucket=bucket, Key=key)
    with pytest.raises(PermissionError):
        s3fs.S3FileSystem().cat(f"{bucket}/{key}")
    assert faulty_proxy.client().list_objects_v2(Bucket=bucket)["KeyCount"] == 1  # not denied
    faulty_proxy.undeny()
    assert s3fs.S3FileSystem().cat(f"{bucket}/{key}") == data


def test_stop_leaves_no_thread_or_socket(s3_store, big_object):
    import loopback_s3
    bucket, key, _ = big_object
    before = set(threading.enumerate())
    proxy = loopback_s3.FaultyProxy(s3_store.endpoint)
    resp, conn = _raw(proxy, "GET", bucket, key, {"Range": "bytes=0-9"})
    resp.read()                     # the client keeps its connection open through stop()
    assert set(threading.enumerate()) - before
    proxy.stop()
    assert set(threading.enumerate()) - before == set()
    with pytest.raises(OSError):
        http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=2).request("GET", "/")
    conn.close()
    proxy.stop()                    # idempotent
