"""Reading MindRecord sets from an S3-compatible store on loopback (issue 21): the same rows as
the local files, few requests, the node-local cache, and faults that never give wrong rows."""
import glob
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from mindrecord import FileReader, FileWriter, ShardReader
from mindrecord.remote.shard_cache import ShardCache, parse_size

ROWS = 120


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    path = tmp_path / "remote-cache"
    monkeypatch.setenv("MINDDATA_REMOTE_CACHE", str(path))
    monkeypatch.delenv("MINDDATA_REMOTE_CACHE_SIZE", raising=False)
    return path


def write_set(directory, shards=4, rows=ROWS, page_size=None):
    os.makedirs(str(directory), exist_ok=True)
    path = os.path.join(str(directory), "train.mindrecord")
    w = FileWriter(path, shard_num=shards)
    if page_size:
        w.set_page_size(page_size)
    w.add_schema({"label": {"type": "int32"}, "data": {"type": "bytes"},
                  "name": {"type": "string"}, "vec": {"type": "float32", "shape": [3]}}, "t")
    rng = np.random.default_rng(0)
    w.write_raw_data([{"label": i, "data": rng.bytes(int(rng.integers(1, 3000))),
                       "name": f"row{i}", "vec": np.full(3, i, np.float32)}
                      for i in range(rows)])
    w.commit()
    return sorted(glob.glob(path + "*"))


def put_set(local_dir, store, bucket, prefix, **kwargs):
    """A set written locally and uploaded under prefix: (its shard 0's URL, local files)."""
    files = write_set(local_dir, **kwargs)
    store.upload_files(files, bucket, prefix)
    return f"s3://{bucket}/{prefix}/train.mindrecord0", files


@pytest.fixture
def remote_set(tmp_path, s3_store, bucket):
    url, files = put_set(tmp_path / "local", s3_store, bucket, "sets/a")
    return url, files[0]


def rows_equal(a, b):
    assert a.keys() == b.keys()
    for name in a:
        assert len(a[name]) == len(b[name])
        for x, y in zip(a[name], b[name]):
            np.testing.assert_array_equal(np.asarray(x), np.asarray(y))


def test_same_rows_as_the_local_files(remote_set, s3_env):
    url, local = remote_set
    ids = np.random.default_rng(1).permutation(ROWS)
    with ShardReader(url) as remote, ShardReader(local) as disk:
        assert remote.files == [url[:-1] + str(k) for k in range(4)]
        assert remote.num_rows == ROWS and remote.schema == disk.schema
        remote.will_read(ids)
        rows_equal(remote.read_rows(ids), disk.read_rows(ids))
        np.testing.assert_array_equal(remote.scalar_column("label")[ids],
                                      disk.scalar_column("label")[ids])
    got = [r["label"] for r in FileReader(url).get_next()]
    assert got == list(range(ROWS))


def test_a_list_of_urls_and_file_urls(remote_set, s3_env, tmp_path):
    url, local = remote_set
    with ShardReader([url, url[:-1] + "2"]) as r:
        assert r.num_rows == ROWS // 2
    with ShardReader("file://" + local) as r:
        assert r.num_rows == ROWS
    with pytest.raises(ValueError, match="mixes URLs and local paths"):
        ShardReader([url, local])


def test_minddataset_pipeline_over_s3_equals_local(remote_set, s3_env):
    import minddata as ds
    url, local = remote_set

    def run(path, shuffle):
        ds.config.set_seed(3)
        d = ds.MindDataset(path, columns_list=["label", "vec", "name"], shuffle=shuffle,
                           num_parallel_workers=2).batch(16)
        return [[np.asarray(c) for c in b] for b in d.create_tuple_iterator(output_numpy=True,
                                                                            num_epochs=1)]
    for shuffle in (True, False):
        a, b = run(url, shuffle), run(local, shuffle)
        assert len(a) == len(b) == ROWS // 16 + 1
        for p, q in zip(a, b):
            for x, y in zip(p, q):
                np.testing.assert_array_equal(x, y)


def test_opening_costs_one_listing_and_one_read_per_shard(tmp_path, s3_store, bucket,
                                                          proxy_env, faulty_proxy):
    shards = 10
    url, _ = put_set(tmp_path / "local", s3_store, bucket, "many", shards=shards, rows=40)
    faulty_proxy.reset()
    with ShardReader(url) as r:
        assert r.num_rows == 40
        opened = faulty_proxy.counts()
        assert opened["total"] <= shards + 2, opened
        assert opened.get("LIST", 0) == 1
        faulty_proxy.reset()
        r.read_rows(np.arange(40))          # a cold read: whole shards, a few ranges each
        cold = faulty_proxy.counts()
        assert cold.get("GET_range", 0) <= 2 * shards, cold      # raw and blob page
    faulty_proxy.reset()
    with ShardReader(url) as r:             # headers and shards come from the node cache
        r.read_rows(np.arange(40))
    again = faulty_proxy.counts()
    assert again["total"] == 1 and again.get("LIST") == 1, again


def test_every_row_right_with_a_tenth_of_requests_failing(remote_set, proxy_env, faulty_proxy,
                                                         tmp_path, monkeypatch):
    url, local = remote_set
    faulty_proxy.fault_kinds = ("500", "503", "drop", "truncate")
    faulty_proxy.failure_rate = 0.1
    ids = np.random.default_rng(2).permutation(ROWS)
    with ShardReader(local) as disk:
        expected = disk.read_rows(ids)
    for run in range(4):            # each run a cold cache: open, download, check
        monkeypatch.setenv("MINDDATA_REMOTE_CACHE", str(tmp_path / f"cache{run}"))
        if run == 0:                # one of each fault for certain, on the shard downloads
            for kind in ("truncate", "drop", "500", "503"):
                faulty_proxy.inject(kind, on={"GET_range"})
        with ShardReader(url) as remote:
            rows_equal(remote.read_rows(ids), expected)
    assert set(faulty_proxy.faults()) >= {"500", "503", "drop", "truncate"}, \
        faulty_proxy.faults()


def test_missing_object_names_the_url(remote_set, s3_env, s3_store, bucket):
    url, _ = remote_set
    missing = f"s3://{bucket}/sets/a/nothing.mindrecord0"
    with pytest.raises(RuntimeError, match=f"{missing} can not be found"):
        ShardReader(missing)
    s3_store.client().delete_object(Bucket=bucket, Key="sets/a/train.mindrecord2")
    with pytest.raises(RuntimeError, match="train.mindrecord2 can not be found"):
        ShardReader(url)
    s3_store.client().delete_object(Bucket=bucket, Key="sets/a/train.mindrecord1.db")
    with pytest.raises(RuntimeError, match=r"train.mindrecord1.db is not exists"):
        ShardReader([url, url[:-1] + "1"])


def test_denied_access_names_the_url(remote_set, proxy_env, faulty_proxy, bucket):
    url, _ = remote_set
    faulty_proxy.deny(f"{bucket}/sets/a/")
    with pytest.raises(PermissionError, match="sets/a"):
        ShardReader(url)


def test_a_changed_object_is_refused_not_mixed(remote_set, s3_env, s3_store, bucket, tmp_path):
    url, _ = remote_set
    with ShardReader(url) as r:
        other = write_set(tmp_path / "other", rows=ROWS + 8)
        shard1 = [f for f in other if f.endswith("train.mindrecord1")]
        s3_store.upload_files(shard1, bucket, "sets/a")      # shard 1 replaced
        with pytest.raises(RuntimeError, match="changed"):
            r.read_rows(np.arange(ROWS))


def test_unusable_urls_and_options(s3_env):
    with pytest.raises(ValueError, match="nosuchproto://"):
        ShardReader("nosuchproto://x/y.mindrecord")
    with pytest.raises(TypeError, match="storage_options"):
        ShardReader("s3://bucket-x/y.mindrecord", storage_options=["anon"])


def test_cache_evicts_least_recently_used(remote_set, s3_env, cache_dir):
    url, _ = remote_set
    with ShardReader(url) as r:
        r.read_rows(np.arange(ROWS))
    entries = sorted(glob.glob(str(cache_dir / "*.shard")))
    assert len(entries) == 4
    for k, path in enumerate(entries):                 # last used: entries[0] longest ago
        os.utime(path, (1000 + k, 1000 + k))
    cache = ShardCache(str(cache_dir), max_bytes=ShardCache(str(cache_dir), 1).used_bytes())
    cache._make_room(1)
    left = sorted(glob.glob(str(cache_dir / "*.shard")))
    assert left == entries[1:]
    assert cache.used_bytes() <= cache.max_bytes - 1


def test_cache_size_settings(monkeypatch, tmp_path):
    assert parse_size("20GiB") == 20 << 30 and parse_size("500MB") == 500_000_000
    monkeypatch.setenv("MINDDATA_REMOTE_CACHE_SIZE", "lots")
    with pytest.raises(ValueError, match="MINDDATA_REMOTE_CACHE_SIZE"):
        ShardCache(str(tmp_path / "c"))


def test_kill_9_mid_download_leaves_a_cache_the_next_run_repairs(remote_set, s3_env,
                                                                   cache_dir):
    url, local = remote_set
    script = textwrap.dedent(f"""
        import os, signal
        from mindrecord.remote import objects, remote_set
        from mindrecord import ShardReader
        remote_set.CHUNK_BYTES = 4096
        calls = []
        real = objects.RemoteStore.read_into
        def dying(self, obj, a, b, fd):
            calls.append(a)
            if len(calls) == 3:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(self, obj, a, b, fd)
        objects.RemoteStore.read_into = dying
        ShardReader({url!r}).read_rows(list(range({ROWS})))
    """)
    proc = subprocess.run([sys.executable, "-c", script], env=dict(os.environ), timeout=120)
    assert proc.returncode == -signal.SIGKILL
    assert glob.glob(str(cache_dir / "*.partial.*")), "the kill left no partial download"
    with ShardReader(url) as remote, ShardReader(local) as disk:
        rows_equal(remote.read_rows(np.arange(ROWS)), disk.read_rows(np.arange(ROWS)))
    assert not glob.glob(str(cache_dir / "*.partial.*"))


def test_processes_share_the_node_cache(remote_set, proxy_env, faulty_proxy, cache_dir):
    url, _ = remote_set
    script = textwrap.dedent(f"""
        from mindrecord import ShardReader
        with ShardReader({url!r}) as r:
            assert sorted(r.read_rows(list(range({ROWS})), ["label"])["label"]) == \\
                list(range({ROWS}))
    """)
    faulty_proxy.reset()
    procs = [subprocess.Popen([sys.executable, "-c", script], env=dict(os.environ))
             for _ in range(3)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0]
    # Each shard was downloaded once: one check of the object after each download, and two
    # ranges each (its raw and its blob page) beside the processes' header reads.
    counts = faulty_proxy.counts()
    assert counts.get("HEAD", 0) == 4 and counts.get("GET_range", 0) <= 4 * 2 + 3 * 4, counts
    assert len(glob.glob(str(cache_dir / "*.shard"))) == 4


def test_storage_options_instead_of_the_environment(remote_set, s3_store, monkeypatch):
    import minddata as ds
    url, local = remote_set
    for name in ("AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.delenv(name, raising=False)
    options = {"endpoint_url": s3_store.endpoint, "key": "testing", "secret": "testing",
               "client_kwargs": {"region_name": "us-east-1"}}
    data = ds.MindDataset(url, columns_list=["label"], shuffle=ds.Shuffle.BLOCKS,
                          shuffle_block_rows=8, storage_options=options)
    labels = sorted(int(row[0]) for row in data.create_tuple_iterator(output_numpy=True,
                                                                     num_epochs=1))
    assert labels == list(range(ROWS))
    with pytest.raises(TypeError, match="storage_options"):
        ds.MindDataset(url, storage_options="endpoint")


@pytest.mark.slow   # about 15 s: s3fs's own retries and timeouts run before ours (make fuzz)
def test_a_store_that_stops_answering_is_an_error_not_a_hang(remote_set, proxy_env,
                                                              faulty_proxy, monkeypatch):
    from mindrecord.remote.retry import DEFAULT_POLICY
    url, _ = remote_set
    monkeypatch.setattr(DEFAULT_POLICY, "attempts", 2)
    faulty_proxy.latency = 5.0                   # every answer comes 5 s late
    options = {"config_kwargs": {"read_timeout": 0.5, "connect_timeout": 0.5,
                                 "retries": {"total_max_attempts": 1}}}
    with pytest.raises(RuntimeError, match=r"after 2 attempts.*|timed out|Timeout"):
        ShardReader(url, storage_options=options)


def test_a_dataset_lists_its_set_once_for_all_its_opens(tmp_path, s3_store, bucket, proxy_env,
                                                        faulty_proxy, monkeypatch):
    import minddata as ds
    shards = 6
    url, _ = put_set(tmp_path / "local", s3_store, bucket, "six", shards=shards, rows=36)
    faulty_proxy.reset()
    data = ds.MindDataset(url, columns_list=["label"]).batch(6)
    assert data.get_dataset_size() == 6                  # opens the source for its metadata
    for _ in range(2):                                   # two pipelines, one listing
        assert sum(len(b[0]) for b in data.create_tuple_iterator(num_epochs=1)) == 36
    counts = faulty_proxy.counts()
    assert counts.get("LIST") == 1, counts
    assert counts["total"] - counts.get("GET_range", 0) - counts.get("HEAD", 0) == 1
    assert counts.get("HEAD") == shards                  # one download (and check) per shard


def test_exact_resume_over_s3(remote_set, s3_env):
    import minddata as ds
    from tests.minddata.engine_helpers import check_resume
    url, _ = remote_set
    for shuffle in (ds.Shuffle.GLOBAL, ds.Shuffle.BLOCKS):
        data = ds.MindDataset(url, columns_list=["label", "vec"], shuffle=shuffle,
                              num_shards=2, shard_id=1).batch(8)
        stream = check_resume(data, num_epochs=2, stops=(0, 3, 9))
        assert sum(1 for x in stream if x != "END") == 2 * (ROWS // 2 // 8 + 1)


def test_a_reader_opened_before_a_fork_reads_in_the_child(remote_set, s3_env):
    url, local = remote_set
    with ShardReader(url) as remote, ShardReader(local) as disk:
        expected = disk.read_rows(np.arange(ROWS), ["label", "data"])
        remote.read_rows([0])                       # the parent downloaded shard 0 only
        pid = os.fork()
        if pid == 0:                                # the child: its own download threads
            code = 1
            try:
                got = remote.read_rows(np.arange(ROWS), ["label", "data"])
                code = 0 if all(np.array_equal(a, b) for c in got
                                for a, b in zip(got[c], expected[c])) else 2
            finally:
                os._exit(code)
        for _ in range(600):                        # a child that hangs is killed, not left
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.1)
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail("the forked child hung reading the reader it inherited")
        assert os.waitstatus_to_exitcode(status) == 0


class _RangeFiles(__import__("http.server").server.SimpleHTTPRequestHandler):
    """Static files with byte ranges (what any web server or CDN offers), no directory pages."""

    def log_message(self, *args):
        pass

    def list_directory(self, path):
        self.send_error(404)

    def send_head(self):
        rng = self.headers.get("Range")
        path = self.translate_path(self.path)
        if not rng or not os.path.isfile(path):
            return super().send_head()
        start, _, stop = rng.split("=", 1)[1].partition("-")
        size = os.path.getsize(path)
        start, stop = int(start), min(int(stop or size - 1), size - 1)
        f = open(path, "rb")
        f.seek(start)
        self.send_response(206)
        self.send_header("Content-Range", f"bytes {start}-{stop}/{size}")
        self.send_header("Content-Length", str(stop - start + 1))
        self.end_headers()
        self._remaining = stop - start + 1
        return f

    def copyfile(self, source, outputfile):
        remaining = getattr(self, "_remaining", None)
        if remaining is None:
            return super().copyfile(source, outputfile)
        outputfile.write(source.read(remaining))


def test_plain_https_style_urls_with_byte_ranges(tmp_path):
    import functools
    import http.server
    import threading
    pytest.importorskip("aiohttp")
    files = write_set(tmp_path / "www", shards=2, rows=30)
    handler = functools.partial(_RangeFiles, directory=str(tmp_path / "www"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        with ShardReader(base + "/train.mindrecord0") as remote, ShardReader(files[0]) as disk:
            assert remote.num_rows == 30
            rows_equal(remote.read_rows(np.arange(30)), disk.read_rows(np.arange(30)))
        with pytest.raises(RuntimeError, match="nothing.mindrecord0 can not be found"):
            ShardReader(base + "/nothing.mindrecord0")
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_block_shuffle_lets_a_rank_download_only_its_shards(remote_set, proxy_env, faulty_proxy,
                                                             tmp_path, monkeypatch):
    """4 shards of 30 rows, 2 ranks: with blocks of one shard each rank reads 2 shards' data;
    the global shuffle's strided split needs every shard on every rank."""
    import minddata as ds
    url, _ = remote_set
    downloads = {}
    for shuffle, options in ((ds.Shuffle.BLOCKS, {"shuffle_block_rows": 30,
                                                  "shuffle_window_rows": 30}),
                             (ds.Shuffle.GLOBAL, {})):
        monkeypatch.setenv("MINDDATA_REMOTE_CACHE", str(tmp_path / f"cache-{shuffle.value}"))
        faulty_proxy.reset()
        data = ds.MindDataset(url, columns_list=["label"], shuffle=shuffle, num_shards=2,
                              shard_id=0, **options)
        labels = [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True,
                                                                num_epochs=1)]
        assert len(labels) == ROWS // 2
        downloads[shuffle] = faulty_proxy.counts().get("HEAD", 0)   # one check per download
    assert downloads == {ds.Shuffle.BLOCKS: 2, ds.Shuffle.GLOBAL: 4}
