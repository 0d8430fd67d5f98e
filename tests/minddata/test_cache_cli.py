"""The admin command (dataset-cache / cache_admin), run as a separate process."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from minddata.cache import DatasetCache


@pytest.fixture
def cli(tmp_path, monkeypatch):
    monkeypatch.setenv("MINDDATA_CACHE_DIR", str(tmp_path / "root"))
    monkeypatch.setenv("MINDDATA_CACHE_SPILL_DIR", str(tmp_path / "spill"))

    def run(*args):
        return subprocess.run([sys.executable, "-m", "minddata.cache.cli", *args],
                              capture_output=True, text=True, timeout=60, env=os.environ.copy())
    return run


def _generate(cli):
    out = cli("-g")
    assert out.returncode == 0, out.stderr
    match = re.fullmatch(r"Session created: (\d+)\n", out.stdout)
    assert match, out.stdout
    return int(match.group(1))


def test_generate_prints_a_usable_session_id(cli):
    sid = _generate(cli)
    with DatasetCache(sid).open_stage("k", ["x"]) as store:
        store.put(0, (np.arange(4),))
        assert store.get(0) is not None


def test_list_sessions_shows_rows_bytes_hits_and_misses(cli):
    sid = _generate(cli)
    with DatasetCache(sid).open_stage("k", ["x"]) as store:
        for i in range(3):
            assert store.get(i) is None
            store.put(i, (np.zeros(1000, np.uint8),))
        store.mark_complete(3)
        store.get(0)
    out = cli("--list_sessions")
    assert out.returncode == 0, out.stderr
    line = next(l for l in out.stdout.splitlines() if l.split() and l.split()[0] == str(sid))
    fields = line.split()
    # Session, Cache Id, Rows, Mem cached (value unit), Disk cached (value unit), Hits, Misses
    assert fields[2] == "3" and fields[5] == "0" and fields[7:10] == ["1", "3", "yes"]
    assert "Hits" in out.stdout and "Misses" in out.stdout


def test_list_sessions_totals_a_session_with_several_stages(cli, capsys):
    sid = _generate(cli)
    for key in ("a", "b"):
        with DatasetCache(sid).open_stage(key, ["x"]) as store:
            store.put(0, (np.zeros(10, np.uint8),))
    assert _main(["--list_sessions"]) == 0
    total = [l.split() for l in capsys.readouterr().out.splitlines() if " total " in l]
    assert len(total) == 1 and total[0][0] == str(sid) and total[0][2] == "2"


def test_destroy_session(cli):
    sid = _generate(cli)
    out = cli("-d", str(sid))
    assert out.returncode == 0 and "destroyed" in out.stdout
    assert str(sid) not in cli("--list_sessions").stdout
    again = cli("--destroy_session", str(sid))
    assert again.returncode == 1 and "not found" in again.stderr


@pytest.mark.parametrize("verb", ["--start", "--stop"])
def test_start_and_stop_say_no_server_is_needed(cli, verb):
    out = cli(verb)
    assert out.returncode == 0 and "No cache server" in out.stdout


def test_memory_cap_and_spill_directory_are_saved(cli, tmp_path, monkeypatch):
    monkeypatch.delenv("MINDDATA_CACHE_SPILL_DIR")
    spill = tmp_path / "disk-spill"
    out = cli("--start", "-m", "0.25", "-s", str(spill))
    assert out.returncode == 0, out.stderr
    from minddata.cache import root as roots
    assert roots.memory_cap_ratio() == 0.25
    assert roots.spill_root() == str(spill) and spill.is_dir()


def _main(argv):
    """Run the command in this process (fast) and return its exit status."""
    from minddata.cache.cli import main
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code


@pytest.mark.parametrize("args", [["-m", "1.5"], ["-m", "x"], ["-d", "abc"], ["-d", "0"],
                                  ["-g", "-d", "3"], [], ["--bogus"]])
def test_usage_errors_exit_2_with_a_message(cli, capsys, args):
    assert _main(args) == 2
    assert "error" in capsys.readouterr().err


def test_help_and_compat_flags(cli, capsys):
    assert _main(["-h"]) == 0
    assert "--generate_session" in capsys.readouterr().out
    assert _main(["--help"]) == 0
    assert "--list_sessions" in capsys.readouterr().out
    assert _main(["-h", "127.0.0.1", "-p", "50052", "-w", "4", "-l", "1", "--list_sessions"]) == 0
    assert "No sessions" in capsys.readouterr().out


def test_the_module_runs_as_a_command(cli):
    out = cli("--bogus")
    assert out.returncode == 2 and "dataset-cache: error" in out.stderr


@pytest.mark.parametrize("spill", ["", "   "])
def test_an_empty_spill_directory_is_refused(cli, capsys, tmp_path, spill):
    assert _main(["-s", spill]) == 2
    assert "spill directory must be a non-empty path" in capsys.readouterr().err
    from minddata.cache import root as roots
    assert roots.load_config() == {}                     # nothing was saved
    assert roots.spill_root() == str(tmp_path / "spill")


def test_server_info_prints_settings_limits_and_sessions(cli, capsys, tmp_path):
    assert _main(["--server_info"]) == 0
    out = capsys.readouterr().out
    assert "No active sessions." in out
    sid = _generate(cli)
    assert _main(["-m", "0.5"]) == 0
    capsys.readouterr()
    assert _main(["--server_info", "-p", "50052"]) == 0
    out = capsys.readouterr().out
    values = dict(re.findall(r"^ *(\S[^\n]*?)  (\S[^\n]*)$", out, re.M))
    assert values["cache root"] == str(tmp_path / "root")
    assert values["spill dir"] == str(tmp_path / "spill")
    assert values["memory cap ratio"] == "0.5"
    assert values["server"].startswith("none")
    assert "GiB" in values["cache root free"] or "MiB" in values["cache root free"]
    assert f"Active sessions:\n{sid}\n" in out
