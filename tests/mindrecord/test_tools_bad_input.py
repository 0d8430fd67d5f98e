"""Bad input during a conversion: stop and remove everything, or skip and report."""
import os

import pytest

from mindrecord.tools import ConversionError, ImageFolderToMR
from .test_tools_helpers import make_image_folder, read_rows


def _corrupt(path):
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[: len(data) // 2])          # truncated: no end-of-image marker


def test_corrupt_image_stops_and_removes_all_shards(tmp_path):
    make_image_folder(tmp_path / "src", per_class=4)
    _corrupt(tmp_path / "src" / "dog" / "img_2.jpg")
    conv = ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "out" / "o.mr"), 3)
    os.makedirs(tmp_path / "out")
    with pytest.raises(ConversionError, match=r"dog/img_2\.jpg: JPEG file is truncated"):
        conv.transform(workers=2)
    assert os.listdir(tmp_path / "out") == []


def test_unreadable_file_names_it(tmp_path):
    make_image_folder(tmp_path / "src", per_class=1)
    os.mkdir(tmp_path / "src" / "cat" / "dir.jpg")          # matches the extension, not a file
    with pytest.raises(ConversionError, match=r"dir\.jpg: cannot read"):
        ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "o.mr")).transform()
    assert sorted(os.listdir(tmp_path)) == ["src"]


def test_skip_bad_writes_the_rest_and_a_report(tmp_path):
    expected = make_image_folder(tmp_path / "src", per_class=3)
    _corrupt(tmp_path / "src" / "cat" / "img_1.jpg")
    with open(tmp_path / "src" / "eel" / "img_0.jpg", "wb") as f:
        f.write(b"not an image at all")
    result = ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "o.mr"), 2).transform(
        skip_bad=True)
    assert result.rows == len(expected) - 2
    assert len(result.skipped) == 2
    with open(result.report_file) as f:
        report = f.read().splitlines()
    assert result.report_file == str(tmp_path / "o.mr.skipped.txt")
    assert any("cat/img_1.jpg: JPEG file is truncated" in line for line in report)
    assert any("eel/img_0.jpg: not an image" in line for line in report)
    names = {r["file_name"] for r in read_rows(result.files[0])}
    assert names == set(expected) - {"cat/img_1.jpg", "eel/img_0.jpg"}


def test_skip_bad_custom_report_path(tmp_path):
    make_image_folder(tmp_path / "src", per_class=1)
    _corrupt(tmp_path / "src" / "cat" / "img_0.jpg")
    report = tmp_path / "skipped.txt"
    result = ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "o.mr")).transform(
        skip_bad=True, report_file=str(report))
    assert result.report_file == str(report) and report.read_text().count("\n") == 1


def test_decode_verification_catches_what_the_header_check_cannot(tmp_path):
    make_image_folder(tmp_path / "src", per_class=1)
    path = tmp_path / "src" / "cat" / "img_0.jpg"
    data = bytearray(path.read_bytes())
    # Keep the markers but destroy the Huffman tables' counts: the header walk still passes.
    dht = data.find(b"\xff\xc4")
    data[dht + 5:dht + 21] = b"\xff" * 16
    path.write_bytes(bytes(data))
    ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "a.mr")).transform()
    with pytest.raises(ConversionError, match="does not decode"):
        ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "b.mr"),
                        verify="decode").transform()


def _conversion_threads():
    import threading
    return [t for t in threading.enumerate() if t.name.startswith(("mr-load", "mr-shard"))]


def test_failure_leaves_no_threads_or_temporary_files(tmp_path):
    make_image_folder(tmp_path / "src", per_class=4)
    _corrupt(tmp_path / "src" / "eel" / "img_3.jpg")
    os.makedirs(tmp_path / "out")
    with pytest.raises(ConversionError):
        ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "out" / "o.mr"), 4).transform(
            workers=3)
    assert _conversion_threads() == []
    assert os.listdir(tmp_path / "out") == []          # hidden .partial files included


def test_interrupt_removes_everything(tmp_path):
    make_image_folder(tmp_path / "src", per_class=4)
    os.makedirs(tmp_path / "out")

    def interrupt(_n):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "out" / "o.mr"), 2).transform(
            progress=interrupt)
    assert os.listdir(tmp_path / "out") == [] and _conversion_threads() == []


def test_file_name_that_is_not_utf8_is_bad_input(tmp_path):
    make_image_folder(tmp_path / "src", per_class=1)
    src = os.fsencode(tmp_path / "src" / "cat" / "img_0.jpg")
    os.rename(src, os.fsencode(tmp_path / "src" / "cat") + b"/bad\xff.jpg")
    result = ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "o.mr")).transform(
        skip_bad=True)
    assert result.rows == 2
    assert "bad\\udcff.jpg" in result.skipped[0][0] and "not valid UTF-8" in result.skipped[0][1]


def test_skip_bad_with_nothing_usable_fails_and_keeps_only_the_report(tmp_path):
    make_image_folder(tmp_path / "src", classes=("a",), per_class=2)
    for name in ("img_0.jpg", "img_1.jpg"):
        (tmp_path / "src" / "a" / name).write_bytes(b"junk")
    os.makedirs(tmp_path / "out")
    with pytest.raises(ConversionError, match=r"no usable rows: all 2 item\(s\)"):
        ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "out" / "o.mr")).transform(
            skip_bad=True)
    assert os.listdir(tmp_path / "out") == ["o.mr.skipped.txt"]
