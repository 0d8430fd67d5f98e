"""parallel_writer=True: write-behind threads produce exactly the files of a plain write,
and every thread is gone after commit."""
import threading

import numpy as np
import pytest

from mindrecord import FileReader, FileWriter

SCHEMA = {"label": {"type": "int32"}, "name": {"type": "string"}, "img": {"type": "bytes"},
          "ids": {"type": "int64", "shape": [-1]}}


def rows(start, n):
    rng = np.random.default_rng(start)
    return [{"label": i, "name": f"n{i}", "img": rng.bytes(int(rng.integers(0, 3000))),
             "ids": np.arange(i % 7, dtype=np.int64) * 1000} for i in range(start, start + n)]


def write(path, shard_num, parallel):
    w = FileWriter(str(path), shard_num=shard_num)
    w.set_header_size(1 << 14)
    w.set_page_size(1 << 15)
    w.add_schema(SCHEMA, "parallel")
    for start in range(0, 300, 37):
        w.write_raw_data(rows(start, 37), parallel_writer=parallel)
    w.commit()


@pytest.mark.parametrize("shard_num", [1, 4])
def test_parallel_matches_sequential(tmp_path, shard_num):
    threads = threading.active_count()
    (tmp_path / "seq").mkdir()
    (tmp_path / "par").mkdir()
    write(tmp_path / "seq" / "x.mr", shard_num, False)
    write(tmp_path / "par" / "x.mr", shard_num, True)
    names = sorted(p.name for p in (tmp_path / "seq").iterdir() if not p.name.endswith(".db"))
    assert len(names) == shard_num
    for name in names:
        assert (tmp_path / "par" / name).read_bytes() == (tmp_path / "seq" / name).read_bytes()
    assert threading.active_count() == threads
    first = str(tmp_path / "par" / names[0])
    with FileReader(first) as reader:
        got = sorted(r["label"] for r in reader.get_next())
    assert got == list(range(333))              # 9 calls of 37 rows


def test_arrays_changed_after_the_call_are_written_as_given(tmp_path):
    """Pages are written after write_raw_data returns; mutable buffers are copied first."""
    w = FileWriter(str(tmp_path / "x.mr"))
    w.add_schema({"v": {"type": "float32", "shape": [-1]}})
    buf = np.ones(1000, np.float32)
    ba = bytearray(b"abc")
    w.write_raw_data([{"v": buf}], parallel_writer=True)
    buf[:] = -5
    w.commit()
    with FileReader(str(tmp_path / "x.mr")) as reader:
        (row,) = list(reader.get_next())
    assert (row["v"] == 1).all()
    w = FileWriter(str(tmp_path / "y.mr"))
    w.add_schema({"b": {"type": "bytes"}})
    w.write_raw_data([{"b": ba}], parallel_writer=True)
    ba[:] = b"xyz"
    w.commit()
    with FileReader(str(tmp_path / "y.mr")) as reader:
        assert [r["b"] for r in reader.get_next()] == [b"abc"]


def test_worker_status_checks(tmp_path, monkeypatch):
    from mindrecord.writer_pages import ShardState
    w = FileWriter(str(tmp_path / "x.mr"), shard_num=2)
    w.add_schema({"k": {"type": "int32"}})
    w.write_raw_data([{"k": 1}, {"k": 2}], parallel_writer=True)
    w.check_all_worker_status()
    assert w.check_worker_status(0) is True

    def broken(self, *args):
        raise OSError(5, "I/O error")

    monkeypatch.setattr(ShardState, "append_rows", broken)
    w.write_raw_data([{"k": 3}, {"k": 4}], parallel_writer=True)
    with pytest.raises(OSError):
        w._drain()
    assert w.check_worker_status(0) is False
    with pytest.raises(RuntimeError, match="failed earlier"):
        w.check_all_worker_status()
    assert list(tmp_path.iterdir()) == []


def test_calls_from_several_threads_are_serialised(tmp_path):
    from concurrent.futures import ThreadPoolExecutor
    w = FileWriter(str(tmp_path / "x.mr"), shard_num=2)
    w.add_schema(SCHEMA, "threads")
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda start: w.write_raw_data(rows(start, 10)), range(0, 200, 10)))
    w.commit()
    with FileReader(str(tmp_path / "x.mr0")) as reader:
        assert sorted(r["label"] for r in reader.get_next()) == list(range(200))
