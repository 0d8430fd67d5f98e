"""mindrecord-convert: subcommands, summary, exit codes and error messages."""
import os
import subprocess
import sys

import pytest

from mindrecord.tools import cli
from .test_tools_helpers import make_image_folder, make_mnist, read_rows


def test_imagefolder_success_prints_summary(tmp_path, capsys):
    expected = make_image_folder(tmp_path / "src", per_class=2)
    code = cli.main(["imagefolder", str(tmp_path / "src"), str(tmp_path / "out" / "o.mr"),
                     "--shards", "2", "--workers", "2", "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0
    assert f"converted {len(expected)} rows into 2 file(s)" in out and "rows/s" in out
    assert len(read_rows(str(tmp_path / "out" / "o.mr0"))) == len(expected)


def test_progress_bar_goes_to_stderr(tmp_path, capsys):
    make_image_folder(tmp_path / "src", per_class=1)
    assert cli.main(["imagefolder", str(tmp_path / "src"), str(tmp_path / "o.mr")]) == 0
    err = capsys.readouterr().err
    assert "imagefolder -> o.mr" in err and "rows/s" in err


def test_existing_output_fails_then_overwrite_succeeds(tmp_path, capsys):
    make_image_folder(tmp_path / "src", per_class=1)
    args = ["imagefolder", str(tmp_path / "src"), str(tmp_path / "o.mr"), "--no-progress"]
    assert cli.main(args) == 0
    assert cli.main(args) == 1
    assert "already exist" in capsys.readouterr().err
    assert cli.main(args + ["--overwrite"]) == 0


def test_bad_image_exit_status_and_skip_bad(tmp_path, capsys):
    make_image_folder(tmp_path / "src", per_class=2)
    (tmp_path / "src" / "cat" / "img_1.jpg").write_bytes(b"\xff\xd8broken")
    args = ["imagefolder", str(tmp_path / "src"), str(tmp_path / "o.mr"), "--no-progress"]
    assert cli.main(args) == 1
    err = capsys.readouterr().err
    assert err.startswith("mindrecord-convert: error: bad input:") and "cat/img_1.jpg" in err
    assert not os.path.exists(tmp_path / "o.mr")
    assert cli.main(args + ["--skip-bad", "--report", str(tmp_path / "r.txt")]) == 0
    assert "skipped 1 bad item(s); see " + str(tmp_path / "r.txt") in capsys.readouterr().out


def test_mnist_and_csv_subcommands(tmp_path):
    make_mnist(tmp_path / "m")
    assert cli.main(["mnist", str(tmp_path / "m"), str(tmp_path / "mn"), "--no-progress",
                     "--image-format", "png"]) == 0
    assert os.path.exists(tmp_path / "mn_train.mindrecord")
    (tmp_path / "a.csv").write_text("x,y\n1,a\n2,b\n")
    assert cli.main(["csv", str(tmp_path / "a.csv"), str(tmp_path / "a.mr"), "--columns", "y",
                     "--no-progress"]) == 0
    assert read_rows(str(tmp_path / "a.mr")) == [{"y": "a"}, {"y": "b"}]


def test_tfrecord_subcommand_parses_features(tmp_path):
    from mindrecord.tools import tfrecord
    tfrecord.write_tfrecord(str(tmp_path / "t.rec"), [{"img": [b"\x01"], "v": [1.5, 2.5]}])
    assert cli.main(["tfrecord", str(tmp_path / "t.rec"), str(tmp_path / "t.mr"),
                     "--feature", "img:string", "--feature", "v:float32:2",
                     "--bytes-fields", "img", "--no-progress"]) == 0
    row = read_rows(str(tmp_path / "t.mr"))[0]
    assert row["img"] == b"\x01" and row["v"].tolist() == [1.5, 2.5]


def test_usage_errors_exit_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["imagefolder", str(tmp_path), str(tmp_path / "o.mr"), "--shards", "0"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        cli.main(["tfrecord", "a", "b", "--feature", "oops"])
    assert info.value.code == 2 and "NAME:TYPE" in capsys.readouterr().err


def test_missing_source_message(tmp_path, capsys):
    assert cli.main(["cifar10", str(tmp_path / "none"), str(tmp_path / "c.mr")]) == 1
    assert "source" in capsys.readouterr().err


def test_console_entry_point_runs_as_a_program(tmp_path):
    make_image_folder(tmp_path / "src", per_class=1)
    proc = subprocess.run([sys.executable, "-m", "mindrecord.tools.cli", "imagefolder",
                           str(tmp_path / "src"), str(tmp_path / "o.mr"), "--no-progress"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([sys.executable, "-m", "mindrecord.tools.cli", "imagefolder",
                           str(tmp_path / "nope"), str(tmp_path / "o2.mr")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "does not exist" in proc.stderr


def test_transform_refuses_a_progress_that_is_not_callable(tmp_path):
    from mindrecord.tools import CsvToMR
    (tmp_path / "a.csv").write_text("a\n1\n")
    with pytest.raises(TypeError, match="progress must be a callable"):
        CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr")).transform(progress=False)
    assert not os.path.exists(tmp_path / "a.mr")
