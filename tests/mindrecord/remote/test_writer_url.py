"""FileWriter and the converters writing a MindRecord set to a URL (issue 21, "Writing"): the set
is written in a local staging directory, then uploaded with shard 0 last, so that it appears
complete or not at all. Checked against the loopback S3 store (conftest.py) by comparing the
objects' bytes with the same set written locally."""
import gc
import glob
import os
import tempfile
import urllib.parse

import fsspec
import pytest

from mindrecord import FileWriter
from mindrecord.remote import upload
from mindrecord.remote.retry import RetryPolicy

SCHEMA = {"label": {"type": "int32"}, "data": {"type": "bytes"}}
ROWS = [{"label": i, "data": bytes([i % 251]) * (50 + i)} for i in range(200)]


@pytest.fixture(autouse=True)
def fast_retries(monkeypatch):
    """Retries of a failing upload in milliseconds, not seconds."""
    monkeypatch.setattr(upload, "UPLOAD_POLICY", RetryPolicy(attempts=4, base_delay=0.001,
                                                             max_delay=0.01, deadline=30))
    monkeypatch.setattr(upload, "CLEANUP_POLICY", RetryPolicy(attempts=3, base_delay=0.001,
                                                              max_delay=0.01, deadline=10))


@pytest.fixture(autouse=True)
def small_files(monkeypatch):
    """16 KiB header areas and 32 KiB pages instead of 16 and 32 MiB: the upload carries the
    files' sparse zeros too, and the tests need not move 50 MB per shard."""
    import mindrecord.writer
    monkeypatch.setattr(mindrecord.writer, "DEFAULT_HEADER_SIZE", 1 << 14)
    monkeypatch.setattr(mindrecord.writer, "DEFAULT_PAGE_SIZE", 1 << 15)


@pytest.fixture(autouse=True)
def own_tmpdir(tmp_path, monkeypatch):
    """Staging directories go under this test's own temporary directory, so that the test can
    tell that none is left."""
    root = tmp_path / "tmp"
    root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    return root


def staging_dirs():
    return glob.glob(os.path.join(tempfile.gettempdir(), upload.STAGING_PREFIX + "*"))


def write_set(name, shard_num=4, rows=ROWS, overwrite=False, **kwargs):
    writer = FileWriter(name, shard_num, overwrite, **kwargs)
    writer.add_schema(SCHEMA, "url test")
    writer.write_raw_data(rows)
    writer.commit()
    return writer


def objects(s3_store, bucket, prefix=""):
    """{key: bytes} of every object in the bucket under prefix."""
    client = s3_store.client()
    listing = client.list_objects_v2(Bucket=bucket, Prefix=prefix)
    return {o["Key"]: client.get_object(Bucket=bucket, Key=o["Key"])["Body"].read()
            for o in listing.get("Contents", [])}


def local_files(directory):
    return {name: (directory / name).read_bytes() for name in sorted(os.listdir(directory))}


def put_keys(proxy):
    """Keys of the PUT requests the proxy passed on, in order."""
    return [urllib.parse.unquote(urllib.parse.urlsplit(e.path).path).split("/", 2)[2]
            for e in proxy.log if e.method == "PUT" and e.outcome == 200]


# -- the set arrives whole, in order ---------------------------------------------------------

def test_four_shards_at_a_url_are_the_local_files_byte_for_byte(s3_store, bucket, s3_env,
                                                                tmp_path):
    local = tmp_path / "local"
    local.mkdir()
    write_set(str(local / "train.mindrecord"))
    writer = write_set(f"s3://{bucket}/dir/train.mindrecord")
    expected = {f"dir/{name}": data for name, data in local_files(local).items()}
    assert len(expected) == 8
    assert objects(s3_store, bucket) == expected
    assert writer._staging.removed and staging_dirs() == []


def test_one_shard_and_storage_options_without_environment(s3_store, bucket, tmp_path,
                                                           monkeypatch):
    for name in ("AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.delenv(name, raising=False)
    fsspec.AbstractFileSystem.clear_instance_cache()
    env = s3_store.env()
    options = {"key": env["AWS_ACCESS_KEY_ID"], "secret": env["AWS_SECRET_ACCESS_KEY"],
               "client_kwargs": {"endpoint_url": s3_store.endpoint,
                                 "region_name": "us-east-1"}}
    write_set(str(tmp_path / "one.mindrecord"), shard_num=1)
    write_set(f"s3://{bucket}/one.mindrecord", shard_num=1, storage_options=options)
    got = objects(s3_store, bucket)
    assert got == {"one.mindrecord": (tmp_path / "one.mindrecord").read_bytes(),
                   "one.mindrecord.db": (tmp_path / "one.mindrecord.db").read_bytes()}
    fsspec.AbstractFileSystem.clear_instance_cache()


def test_upload_order_puts_shard_0_last(s3_store, bucket, faulty_proxy, proxy_env):
    write_set(f"s3://{bucket}/dir/train.mindrecord")
    assert put_keys(faulty_proxy) == [f"dir/train.mindrecord{k}{ext}" for k in (3, 2, 1, 0)
                                      for ext in (".db", "")]
    counts = faulty_proxy.counts()
    # a listing at construction and one at commit (s3fs lists the parent of an empty prefix
    # too), a check of the bucket at construction, a size check per object; nothing per row
    assert counts["PUT"] == 8 and counts["HEAD"] == 8 + 1 and counts["LIST"] == 4
    assert counts["total"] == 21


def test_transient_faults_are_retried_and_the_set_arrives_whole(s3_store, bucket, faulty_proxy,
                                                                proxy_env, tmp_path,
                                                                monkeypatch):
    monkeypatch.setattr(upload, "UPLOAD_POLICY", RetryPolicy(attempts=30, base_delay=0.001,
                                                             max_delay=0.01, deadline=60))
    local = tmp_path / "local"
    local.mkdir()
    write_set(str(local / "t.mindrecord"), shard_num=2)
    faulty_proxy.fault_kinds = ("500", "503", "drop")
    faulty_proxy.failure_rate = 0.3
    write_set(f"s3://{bucket}/t.mindrecord", shard_num=2)
    faulty_proxy.failure_rate = 0.0
    assert sum(faulty_proxy.faults().values()) > 0
    assert objects(s3_store, bucket) == local_files(local)


# -- failures leave nothing behind -----------------------------------------------------------

def test_denied_at_shard_0_leaves_no_object_and_no_staging(s3_store, bucket, faulty_proxy,
                                                           proxy_env):
    url = f"s3://{bucket}/dir/train.mindrecord"
    writer = FileWriter(url, 4)
    writer.add_schema(SCHEMA, "x")
    writer.write_raw_data(ROWS)
    faulty_proxy.deny(f"{bucket}/dir/train.mindrecord0")     # shard 0 and its .db
    with pytest.raises(RuntimeError) as info:
        writer.commit()
    faulty_proxy.undeny()
    message = str(info.value)
    assert url in message and "train.mindrecord0.db" in message and "denied" in message
    assert "nothing of the set was left there" in message
    assert put_keys(faulty_proxy)[:6] == [f"dir/train.mindrecord{k}{ext}" for k in (3, 2, 1)
                                          for ext in (".db", "")]
    assert objects(s3_store, bucket) == {}
    assert staging_dirs() == []
    with pytest.raises(RuntimeError, match="failed earlier"):
        writer.write_raw_data(ROWS)


@pytest.mark.parametrize("fail_at", [0, 3, 7])
def test_a_put_failing_on_the_kth_file_deletes_what_was_put(s3_store, bucket, s3_env,
                                                            monkeypatch, fail_at):
    url = f"s3://{bucket}/train.mindrecord"
    writer = FileWriter(url, 4)
    writer.add_schema(SCHEMA, "x")
    writer.write_raw_data(ROWS)
    fs = writer._remote.fs
    real_put, calls = fs.put_file, []

    def put_file(lpath, rpath, *args, **kwargs):
        calls.append(rpath)
        if len(set(calls)) - 1 == fail_at:
            raise OSError("connection reset by the test")
        return real_put(lpath, rpath, *args, **kwargs)
    monkeypatch.setattr(fs, "put_file", put_file)
    with pytest.raises(RuntimeError, match=f"{url}.*connection reset by the test"):
        writer.commit()
    assert len(set(calls)) == fail_at + 1
    assert objects(s3_store, bucket) == {}
    assert staging_dirs() == []


def test_a_size_mismatch_is_retried_then_fails_clean(s3_store, bucket, s3_env, monkeypatch):
    writer = FileWriter(f"s3://{bucket}/s.mindrecord", 2)
    writer.add_schema(SCHEMA, "x")
    writer.write_raw_data(ROWS)
    fs = writer._remote.fs
    real_info = fs.info

    def info(path, **kwargs):
        got = real_info(path, **kwargs)
        return dict(got, size=got["size"] - 1) if path.endswith("s.mindrecord0") else got
    monkeypatch.setattr(fs, "info", info)
    with pytest.raises(RuntimeError, match=r"s\.mindrecord0 after 4 attempts.*SizeMismatch"):
        writer.commit()
    assert objects(s3_store, bucket) == {}


def test_abort_and_garbage_collection_remove_the_staging_directory(s3_store, bucket, s3_env):
    with pytest.raises(ZeroDivisionError):
        with FileWriter(f"s3://{bucket}/a.mindrecord", 2) as writer:
            writer.add_schema(SCHEMA, "x")
            writer.write_raw_data(ROWS)
            assert len(staging_dirs()) == 1
            1 / 0
    assert staging_dirs() == []
    writer = FileWriter(f"s3://{bucket}/b.mindrecord", 2)
    writer.add_schema(SCHEMA, "x")
    writer.write_raw_data(ROWS, parallel_writer=True)
    assert len(staging_dirs()) == 1
    del writer
    gc.collect()
    assert staging_dirs() == []
    assert objects(s3_store, bucket) == {}


def test_staging_directories_of_killed_writers_are_removed(own_tmpdir):
    """A writer killed with SIGKILL cannot clean up: the next one removes its staging directory
    (its lock is free), never a live writer's, nor a directory without the lock file."""
    import signal
    import subprocess
    import sys
    child = (f"from mindrecord import FileWriter\n"
             f"w = FileWriter('memory://d/x.mindrecord', 2)\n"
             f"w.add_schema({SCHEMA!r}, 'x')\n"
             f"w.write_raw_data([{{'label': 1, 'data': b'x'}}] * 10)\n"
             f"print(w._staging.path, flush=True)\n"
             f"import os, signal; os.kill(os.getpid(), signal.SIGKILL)\n")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))
    env = dict(os.environ, TMPDIR=str(own_tmpdir),
               PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    dead = proc.stdout.strip()
    assert os.path.dirname(dead) == str(own_tmpdir) and os.listdir(dead)
    unlocked = own_tmpdir / f"{upload.STAGING_PREFIX}1-nolock"
    unlocked.mkdir()
    live = upload.Staging()
    fresh = upload.Staging()
    assert not os.path.exists(dead)
    assert os.path.isdir(live.path) and unlocked.is_dir()
    live.remove()
    fresh.remove()
    assert not os.path.exists(live.path) and not os.path.exists(fresh.path)


# -- existing sets ---------------------------------------------------------------------------

def test_an_existing_set_is_refused_at_construction_with_one_listing(s3_store, bucket,
                                                                     faulty_proxy, proxy_env):
    url = f"s3://{bucket}/dir/train.mindrecord"
    write_set(url, shard_num=2)
    before = objects(s3_store, bucket)
    faulty_proxy.reset()
    with pytest.raises(RuntimeError, match=r"already exist\. Please check file path: "
                                           rf"s3://{bucket}/dir/train\.mindrecord0\.\n"
                                           r"If you do not want to keep the files, set the "
                                           r"'overwrite' parameter to True"):
        FileWriter(url, 2)
    assert faulty_proxy.counts()["total"] == 1
    assert staging_dirs() == []
    with pytest.raises(RuntimeError, match="already exist"):
        FileWriter(url, 4)                       # another shard count: shard 0.db differs...
    assert objects(s3_store, bucket) == before


def test_a_set_created_before_commit_is_refused_at_commit(s3_store, bucket, s3_env):
    url = f"s3://{bucket}/race.mindrecord"
    slow = FileWriter(url, 2)
    slow.add_schema(SCHEMA, "slow")
    slow.write_raw_data(ROWS[:10])
    write_set(url, shard_num=2)                  # someone else finished first
    theirs = objects(s3_store, bucket)
    with pytest.raises(RuntimeError, match="already exist"):
        slow.commit()
    assert objects(s3_store, bucket) == theirs
    assert staging_dirs() == []


def test_overwrite_replaces_an_existing_set(s3_store, bucket, s3_env, tmp_path):
    url = f"s3://{bucket}/o.mindrecord"
    write_set(url, shard_num=2, rows=ROWS[:50])
    local = tmp_path / "local"
    local.mkdir()
    write_set(str(local / "o.mindrecord"), shard_num=2, rows=ROWS[50:])
    write_set(url, shard_num=2, rows=ROWS[50:], overwrite=True)
    assert objects(s3_store, bucket) == local_files(local)


def test_a_failed_overwrite_after_replacing_deletes_the_old_set(s3_store, bucket, s3_env,
                                                                monkeypatch):
    url = f"s3://{bucket}/o.mindrecord"
    write_set(url, shard_num=2, rows=ROWS[:50])
    writer = FileWriter(url, 2, overwrite=True)
    writer.add_schema(SCHEMA, "new")
    writer.write_raw_data(ROWS[50:])
    fs = writer._remote.fs
    real_put = fs.put_file

    def put_file(lpath, rpath, *args, **kwargs):
        if rpath.endswith("o.mindrecord0.db"):
            raise OSError("store went away")
        return real_put(lpath, rpath, *args, **kwargs)
    monkeypatch.setattr(fs, "put_file", put_file)
    with pytest.raises(RuntimeError, match="replaced part of the set that was there, so that "
                                           "set was deleted too"):
        writer.commit()
    assert objects(s3_store, bucket) == {}


def test_a_failed_overwrite_before_replacing_keeps_the_old_set(s3_store, bucket, s3_env,
                                                               monkeypatch):
    url = f"s3://{bucket}/o.mindrecord"
    write_set(url, shard_num=2, rows=ROWS[:50])
    old = objects(s3_store, bucket)
    writer = FileWriter(url, 2, overwrite=True)
    writer.add_schema(SCHEMA, "new")
    writer.write_raw_data(ROWS[50:])
    monkeypatch.setattr(writer._remote.fs, "put_file",
                        lambda *a, **k: (_ for _ in ()).throw(OSError("no route")))
    with pytest.raises(RuntimeError, match="the set that was there is unchanged"):
        writer.commit()
    assert objects(s3_store, bucket) == old


# -- what cannot be done, and bad input ------------------------------------------------------

def test_open_for_append_refuses_a_url(s3_store, bucket, s3_env):
    url = f"s3://{bucket}/a.mindrecord"
    write_set(url, shard_num=1)
    with pytest.raises(NotImplementedError, match=rf"{url}.*append to the local files"):
        FileWriter.open_for_append(url)
    with pytest.raises(RuntimeError):            # NotImplementedError is a RuntimeError
        FileWriter.open_for_append(url)


def test_bad_urls_fail_at_construction(s3_store, bucket, s3_env, monkeypatch, tmp_path):
    with pytest.raises(ValueError, match="nosuchproto://"):
        FileWriter("nosuchproto://b/x.mindrecord")
    with pytest.raises(ValueError, match="does not name a file"):
        FileWriter(f"s3://{bucket}")
    with pytest.raises(RuntimeError, match="bucket of mindrecord file: s3://no-such-bucket-x/"):
        FileWriter("s3://no-such-bucket-x/d/x.mindrecord")
    import fsspec.core

    def missing(*args, **kwargs):
        raise ImportError("Install gcsfs to access Google Storage")
    monkeypatch.setattr(fsspec.core, "url_to_fs", missing)
    with pytest.raises(ImportError, match="pip install gcsfs"):
        FileWriter("gs://b/x.mindrecord")
    monkeypatch.undo()
    from mindrecord import ParamValueError
    with pytest.raises(ParamValueError, match="storage_options"):
        FileWriter(str(tmp_path / "x.mindrecord"), storage_options={"anon": True})
    assert staging_dirs() == []


# -- converters ------------------------------------------------------------------------------

def test_cifar10_converter_writes_to_a_url(s3_store, bucket, s3_env, tmp_path):
    from mindrecord.tools import Cifar10ToMR
    from ..test_tools_helpers import make_cifar10
    make_cifar10(tmp_path / "c10", n_train=(5, 4), n_test=3)
    local = tmp_path / "local"
    local.mkdir()
    Cifar10ToMR(str(tmp_path / "c10"), str(local / "c.mr"), partition_number=2).transform()
    url = f"s3://{bucket}/sets/c.mr"
    result = Cifar10ToMR(str(tmp_path / "c10"), url, partition_number=2).transform(
        workers=2)
    assert result.files == [f"{url}0", f"{url}1", f"{url}_test0", f"{url}_test1"]
    assert result.rows == 12
    assert objects(s3_store, bucket) == {f"sets/{n}": d for n, d in local_files(local).items()}
    assert staging_dirs() == []
    with pytest.raises(RuntimeError, match="already exist"):
        Cifar10ToMR(str(tmp_path / "c10"), url, partition_number=2).transform()
    Cifar10ToMR(str(tmp_path / "c10"), url, partition_number=2).transform(overwrite=True)
    assert objects(s3_store, bucket) == {f"sets/{n}": d for n, d in local_files(local).items()}


def test_csv_converter_skip_report_and_failure_at_a_url(s3_store, bucket, s3_env, tmp_path,
                                                        monkeypatch):
    from mindrecord.tools import CsvToMR
    # CsvToMR asks for 16 MiB header areas and 64 MiB pages: keep the writer's small defaults
    monkeypatch.setattr(FileWriter, "set_header_size", lambda self, size: None)
    monkeypatch.setattr(FileWriter, "set_page_size", lambda self, size: None)
    (tmp_path / "a.csv").write_text("a,b\n1,2\n3\n5,6\n")
    url = f"s3://{bucket}/csv/a.mr"
    result = CsvToMR(str(tmp_path / "a.csv"), url).transform(skip_bad=True)
    assert result.report_file == url + ".skipped.txt" and result.rows == 2
    got = objects(s3_store, bucket)
    assert sorted(got) == ["csv/a.mr", "csv/a.mr.db", "csv/a.mr.skipped.txt"]
    assert b"line 3" in got["csv/a.mr.skipped.txt"]
    # An upload that fails removes the set, the report and the staging directory.
    real = upload.RemoteSet.put

    def put(self, local, name, policy=None):
        if name == "b.mr":
            raise RuntimeError("upload of b.mr failed")
        return real(self, local, name, policy)
    monkeypatch.setattr(upload.RemoteSet, "put", put)
    with pytest.raises(RuntimeError, match=f"s3://{bucket}/csv/b.mr.*upload of b.mr failed"):
        CsvToMR(str(tmp_path / "a.csv"), f"s3://{bucket}/csv/b.mr").transform(skip_bad=True)
    assert sorted(objects(s3_store, bucket)) == sorted(got)
    assert staging_dirs() == []


def test_a_failed_second_output_removes_the_first_from_the_url(s3_store, bucket, s3_env,
                                                               tmp_path):
    from mindrecord.tools import Cifar10ToMR, ConversionError
    from ..test_tools_helpers import cifar_images, make_cifar10, write_cifar_batch
    make_cifar10(tmp_path / "c10", n_train=(3,), n_test=1)
    write_cifar_batch(tmp_path / "c10" / "test_batch", cifar_images(2), labels=[1, 10])
    with pytest.raises(ConversionError, match="label 10 outside the class"):
        Cifar10ToMR(str(tmp_path / "c10"), f"s3://{bucket}/c.mr").transform()
    assert objects(s3_store, bucket) == {}          # the train set was uploaded, then removed
    assert staging_dirs() == []


def test_the_command_line_converts_to_a_url(s3_store, bucket, s3_env, tmp_path, monkeypatch):
    from mindrecord.tools import cli
    monkeypatch.setattr(FileWriter, "set_header_size", lambda self, size: None)
    monkeypatch.setattr(FileWriter, "set_page_size", lambda self, size: None)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.csv").write_text("a,b\n1,2\n5,6\n")
    url = f"s3://{bucket}/cli/a.mr"
    assert cli.main(["csv", "a.csv", url, "--shards", "2", "--no-progress"]) == 0
    assert sorted(objects(s3_store, bucket)) == [f"cli/a.mr{k}{ext}" for k in (0, 1)
                                                 for ext in ("", ".db")]
    assert sorted(os.listdir(tmp_path)) == ["a.csv", "tmp"]      # no local "s3:" directory
    assert cli.main(["csv", "a.csv", url, "--shards", "2", "--no-progress"]) == 1


def test_a_file_url_is_a_local_path(tmp_path):
    write_set(f"file://{tmp_path}/f.mindrecord", shard_num=2)
    assert sorted(os.listdir(tmp_path)) == ["f.mindrecord0", "f.mindrecord0.db", "f.mindrecord1",
                                            "f.mindrecord1.db", "tmp"]
    assert staging_dirs() == []
