"""A full cache file system degrades as documented (README "Dataset cache" / Guarantees): the
cache stops growing (or spills), the pipeline goes on and no row is lost, whatever errno the
store reports. The file systems are small tmpfs mounts made by the test (root only)."""
import errno
import os
import subprocess
import sys
import textwrap

import lmdb
import numpy as np
import pytest

import minddata as ds
from minddata.cache import generate_session
from minddata.cache.disk_space import StoreFull, is_full_error, preallocate, require_room

ROWS = 300
DATA = np.arange(ROWS * 4096, dtype=np.uint8).reshape(ROWS, 4096)   # ~2.4 MB stored


@pytest.fixture
def small_tmpfs(tmp_path):
    """A 2 MiB tmpfs at tmp_path/mem, unmounted afterwards."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = tmp_path / "mem"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)],
                          capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        if subprocess.run(["umount", str(mount)], capture_output=True).returncode:
            subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def _use(monkeypatch, root, spill):
    monkeypatch.setenv("MINDDATA_CACHE_DIR", str(root))
    monkeypatch.setenv("MINDDATA_CACHE_SPILL_DIR", str(spill))


def _fill(path):
    with open(path, "wb") as f:
        try:
            while True:
                f.write(b"\0" * 65536)
                f.flush()
        except OSError as exc:
            assert exc.errno == errno.ENOSPC


def _pipeline(cache):
    return ds.NumpySlicesDataset(DATA, shuffle=False).map(lambda x: x + 1, cache=cache)


def _check_epochs(data, n=2):
    for _ in range(n):
        rows = [r[0] for r in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]
        assert len(rows) == ROWS
        assert all(np.array_equal(r, DATA[i] + 1) for i, r in enumerate(rows))


def test_an_io_error_on_a_full_file_system_counts_as_full(small_tmpfs, tmp_path):
    _fill(small_tmpfs / "filler")
    eio = lmdb.Error("mdb_txn_commit: Input/output error")
    assert is_full_error(eio, [str(small_tmpfs / "sessions" / "1")])
    assert not is_full_error(eio, [str(tmp_path)])          # room there: a real I/O error
    assert is_full_error(OSError(errno.ENOSPC, "No space left on device"))
    with pytest.raises(StoreFull, match="no room"):      # a new store is refused up front
        require_room(str(small_tmpfs / "x"), "a store")


def test_allocating_a_file_on_a_full_file_system_says_so(small_tmpfs):
    sparse = small_tmpfs / "sparse"
    with pytest.raises(StoreFull):
        preallocate(str(sparse), 8 << 20)    # larger than the file system


def test_a_full_cache_root_stops_growing_and_the_pipeline_goes_on(small_tmpfs, tmp_path,
                                                                  monkeypatch):
    _use(monkeypatch, small_tmpfs / "root", tmp_path / "spill")
    cache = ds.DatasetCache(generate_session())
    with pytest.warns(RuntimeWarning, match="is full"):
        _check_epochs(_pipeline(cache))
    stat = cache.get_stat()
    assert 0 < stat.rows_in_memory < ROWS and stat.rows_spilled == 0
    assert stat.rows_not_cached > 0


def test_a_full_cache_root_spills_every_row(small_tmpfs, tmp_path, monkeypatch):
    _use(monkeypatch, small_tmpfs / "root", tmp_path / "spill")
    cache = ds.DatasetCache(generate_session(), spilling=True)
    _check_epochs(_pipeline(cache))
    stat = cache.get_stat()
    assert stat.rows_in_memory + stat.rows_spilled == ROWS and stat.rows_spilled > 0
    assert stat.hits == ROWS and stat.rows_not_cached == 0    # epoch 2 read them all


def test_a_full_spill_directory_stops_growing_and_the_pipeline_goes_on(small_tmpfs,
                                                                       monkeypatch):
    _use(monkeypatch, small_tmpfs / "root", small_tmpfs / "spill")
    cache = ds.DatasetCache(generate_session(), spilling=True)
    with pytest.warns(RuntimeWarning, match="is full"):
        _check_epochs(_pipeline(cache))
    assert cache.get_stat().rows_not_cached > 0


def test_a_source_cache_on_a_full_root_serves_every_row(small_tmpfs, tmp_path, monkeypatch):
    from mindrecord import FileWriter
    path = str(tmp_path / "rows.mindrecord")
    writer = FileWriter(path, shard_num=1)
    writer.add_schema({"data": {"type": "bytes"}, "label": {"type": "int32"}}, "rows")
    writer.write_raw_data([{"data": DATA[i].tobytes(), "label": i} for i in range(ROWS)])
    writer.commit()
    _use(monkeypatch, small_tmpfs / "root", tmp_path / "spill")
    cache = ds.DatasetCache(generate_session())
    data = ds.MindDataset(path, shuffle=False, cache=cache)
    with pytest.warns(RuntimeWarning, match="is full"):
        for _ in range(2):
            rows = list(data.create_tuple_iterator(num_epochs=1, output_numpy=True))
            assert [int(r[1]) for r in rows] == list(range(ROWS))
            assert all(r[0].tobytes() == DATA[int(r[1])].tobytes() for r in rows)


def test_a_cache_root_full_before_the_pipeline_starts(small_tmpfs, tmp_path):
    # In a child process: LMDB on a full tmpfs used to die of SIGBUS (its memory-mapped lock
    # file), which would take the test run with it.
    script = textwrap.dedent(f"""
        import os, warnings
        import numpy as np
        os.environ["MINDDATA_CACHE_DIR"] = {str(small_tmpfs / "root")!r}
        os.environ["MINDDATA_CACHE_SPILL_DIR"] = {str(small_tmpfs / "spill")!r}
        import minddata as ds
        from minddata.cache import generate_session
        sid = generate_session()
        with open({str(small_tmpfs / "filler")!r}, "wb") as f:
            try:
                while True:
                    f.write(b"\\0" * 65536); f.flush()
            except OSError:
                pass
        data = np.arange(40 * 1024, dtype=np.uint8).reshape(40, 1024)
        cache = ds.DatasetCache(sid, spilling=True)
        pipe = ds.NumpySlicesDataset(data, shuffle=False).map(lambda x: x + 1, cache=cache)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for _ in range(2):
                rows = [r[0] for r in pipe.create_tuple_iterator(num_epochs=1,
                                                                 output_numpy=True)]
                assert all(np.array_equal(r, data[i] + 1) for i, r in enumerate(rows))
                assert len(rows) == 40
        assert any("runs without the cache" in str(w.message) for w in caught)
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, cwd=os.getcwd())
    assert done.returncode == 0 and done.stdout.strip() == "ok", \
        (done.returncode, done.stdout[-500:], done.stderr[-2000:])
