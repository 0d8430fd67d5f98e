"""FileWriter(overwrite=True).commit() is atomic for readers: SIGKILL at every step of the
commit leaves the old dataset, the new one, or an error naming the mixture; never a mixture
served as data. The next writer on the path removes what a killed one left."""
import json
import os
import subprocess
import sys

import pytest

from mindrecord import FileReader, FileWriter, writer_commit
from tests.mindrecord.commit_kill_child import NEW_ROWS, OLD_ROWS, rows_of, write

CHILD = os.path.join(os.path.dirname(__file__), "commit_kill_child.py")


def run_kills(directory, shards, steps):
    out = subprocess.run([sys.executable, CHILD, str(directory), str(shards),
                          *map(str, steps)], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return {int(k): v for k, v in json.loads(out.stdout.splitlines()[-1]).items()}


def read_values(path):
    """(row count, set of values) read through FileReader."""
    with FileReader(path) as reader:
        rows = list(reader.get_next())
    return len(rows), {r["v"] for r in rows} | {r["b"][:1] for r in rows}


def expected_outcome(step, shards):
    """What a reader must get after a kill at `step` (2*shards files are renamed)."""
    renamed = max(0, step - 1)
    if renamed == 0:
        return "old"
    if renamed < 2 * shards:
        return "mixed"
    return "new"


def check_killed_commits(tmp_path, shards):
    steps = list(range(2 * shards + 3))
    statuses = run_kills(tmp_path, shards, steps)
    assert statuses == {s: "SIGKILL" for s in steps}
    for step in steps:
        path = str(tmp_path / str(step) / "data.mr")
        width = len(str(shards - 1))
        shard0 = path + "0" * width
        outcome = expected_outcome(step, shards)
        if outcome == "mixed":
            with pytest.raises(RuntimeError, match="mix two commits.*was stopped"):
                FileReader(shard0)
            from minddata import MindDataset
            with pytest.raises(RuntimeError, match="mix two commits"):
                MindDataset(shard0, shuffle=False).get_dataset_size()
        else:
            assert read_values(shard0) == ((OLD_ROWS, {1, b"\x01"}) if outcome == "old"
                                           else (NEW_ROWS, {2, b"\x02"})), step
        # The next writer on the path cleans up what the killed one left and commits.
        write(path, shards, 5, 3)
        assert read_values(shard0) == (5, {3, b"\x03"})
        names = sorted(os.listdir(tmp_path / str(step)))
        assert names == sorted(f"data.mr{i:0{width}d}{ext}" for i in range(shards)
                               for ext in ("", ".db"))


def test_sigkill_at_every_commit_step_never_serves_a_mixture(tmp_path):
    check_killed_commits(tmp_path, 2)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_sigkill_at_every_commit_step_many_shards(tmp_path):
    check_killed_commits(tmp_path, 12)


def kill_a_looping_writer(path, shards, first_value, rng):
    """Start a process that overwrites `path` in a loop, SIGKILL it at a random moment after
    its first commit, and check what a reader gets: the last commit the writer reported, the
    one it was finishing, or an error naming the mixture. Returns "rows" or "error"."""
    import signal
    import time
    child = subprocess.Popen([sys.executable, CHILD, "--loop", path, str(shards),
                              str(first_value)], stdout=subprocess.PIPE, text=True)
    try:
        assert int(child.stdout.readline()) == first_value
        time.sleep(float(rng.uniform(0, 0.5)))
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    committed = [first_value] + [int(line) for line in child.stdout.read().split()]
    child.stdout.close()
    try:
        with FileReader(path + "0" * len(str(shards - 1))) as reader:
            rows = list(reader.get_next())
    except RuntimeError as exc:
        assert "mix two commits" in str(exc) and "was stopped" in str(exc), exc
        return "error"
    last = committed[-1]
    value = last if rows[0]["v"] == last % 256 else last + 1
    assert rows[0]["v"] == value % 256, (rows[0]["v"], last)
    assert len(rows) == rows_of(value)
    assert all(r["v"] == value % 256 and r["b"] == bytes([value % 256]) * (r["k"] + 1)
               for r in rows)
    return "rows"


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_sigkill_at_random_moments_of_repeated_overwrites(tmp_path):
    import numpy as np
    rng = np.random.default_rng(11)
    path = str(tmp_path / "loop.mr")
    outcomes = [kill_a_looping_writer(path, 16, 1000 * run, rng) for run in range(1, 13)]
    assert "rows" in outcomes
    write(path, 16, 4, 9)                  # the next writer cleans up after the killed ones
    assert len(os.listdir(tmp_path)) == 32


def test_reader_during_a_live_commit_waits_or_names_the_writer(tmp_path, monkeypatch):
    path = str(tmp_path / "d.mr")
    write(path, 2, OLD_ROWS, 1)
    seen = {}

    def read_now(step):
        try:
            seen[step] = read_values(path + "0")
        except RuntimeError as exc:
            seen[step] = str(exc)

    monkeypatch.setattr(writer_commit, "step_hook", read_now)
    write(path, 2, NEW_ROWS, 2)
    assert seen[0] == seen[1] == (OLD_ROWS, {1, b"\x01"})
    for step in (2, 3, 4):          # this process is the live writer: it never finishes
        assert "could not be opened as one commit" in seen[step]
        assert f"pid {os.getpid()}) is replacing these files now" in seen[step]
    assert seen[5] == seen[6] == (NEW_ROWS, {2, b"\x02"})


def test_stale_partials_of_dead_writers_are_removed_live_ones_kept(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead_pid = int(dead.stdout)
    for name, pid in ((".x.mr~{}-0123abcd.partial", dead_pid),
                      (".x.mr.db~{}-0123abcd.partial", dead_pid),
                      (".x.mr~{}-89abcdef.partial", os.getppid()),    # alive: kept
                      (".x.mrz~{}-0123abcd.partial", dead_pid)):       # another path: kept
        (tmp_path / name.format(pid)).write_bytes(b"left over")
    FileWriter(str(tmp_path / "x.mr"))
    assert sorted(os.listdir(tmp_path)) == sorted([f".x.mr~{os.getppid()}-89abcdef.partial",
                                                   f".x.mrz~{dead_pid}-0123abcd.partial"])


@pytest.mark.parametrize("length", [232, 240, 252])
def test_long_file_names_up_to_name_max(tmp_path, length, monkeypatch):
    name = "n" * length                        # + ".db" reaches 255 at length 252
    path = str(tmp_path / name)
    write(path, 1, 3, 1)
    write(path, 1, 4, 2)                        # an overwrite goes through the hidden names
    assert sorted(os.listdir(tmp_path)) == [name, name + ".db"]
    assert read_values(path) == (4, {2, b"\x02"})


def test_long_file_names_without_unnamed_files(tmp_path, monkeypatch):
    import mindrecord.writer_files as files_module
    monkeypatch.delattr(files_module.os, "O_TMPFILE", raising=False)
    name = "é" * 120 + "n" * 9                 # 249 bytes in UTF-8: NAME_MAX counts bytes
    path = str(tmp_path / name)
    write(path, 1, 3, 1)
    write(path, 1, 4, 2)
    monkeypatch.undo()
    assert sorted(os.listdir(tmp_path)) == [name, name + ".db"]
    assert read_values(path) == (4, {2, b"\x02"})


def test_file_names_past_name_max_fail_at_construction(tmp_path):
    with pytest.raises(ValueError, match="longer than 255 bytes"):
        FileWriter(str(tmp_path / ("n" * 253)))
    with pytest.raises(ValueError, match="longer than 255 bytes"):
        FileWriter(str(tmp_path / ("n" * 251)), shard_num=100)   # 251 + len("99.db")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("overwrite", [False, True])
@pytest.mark.parametrize("directory_name", ["d.mr", "d.mr.db"])
def test_existing_directory_as_file_name_fails_at_construction(tmp_path, overwrite,
                                                               directory_name):
    (tmp_path / directory_name).mkdir()
    with pytest.raises(RuntimeError, match="is an existing directory"):
        FileWriter(str(tmp_path / "d.mr"), overwrite=overwrite)
    assert os.listdir(tmp_path) == [directory_name]
    assert os.listdir(tmp_path / directory_name) == []


def test_a_set_replaced_while_a_reader_opens_it_is_opened_again(tmp_path, monkeypatch):
    import mindrecord.shard_reader as reader_module
    path = str(tmp_path / "r.mr")
    write(path, 3, OLD_ROWS, 1)
    real = reader_module.read_header_and_id
    calls = []

    def overwrite_after_first_header(file_path):
        result = real(file_path)
        calls.append(file_path)
        if len(calls) == 1:           # shard 0 read from the old set, the others from the new
            write(path, 3, NEW_ROWS, 2)
        return result

    monkeypatch.setattr(reader_module, "read_header_and_id", overwrite_after_first_header)
    assert read_values(path + "0") == (NEW_ROWS, {2, b"\x02"})
    assert len(calls) == 6            # the first opening was abandoned and done again


def test_open_for_append_removes_partials_of_dead_writers(tmp_path):
    path = str(tmp_path / "a.mr")
    write(path, 1, OLD_ROWS, 1)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    (tmp_path / f".a.mr~{int(dead.stdout)}-0123abcd.partial").write_bytes(b"left over")
    writer = FileWriter.open_for_append(path)
    writer.write_raw_data([{"k": 99, "v": 1, "b": b"\x01"}])
    writer.commit()
    assert sorted(os.listdir(tmp_path)) == ["a.mr", "a.mr.db"]
    assert read_values(path) == (OLD_ROWS + 1, {1, b"\x01"})
