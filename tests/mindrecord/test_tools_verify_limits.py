"""mindrecord-convert --verify decode applies the decoder's pixel limit (issue 11, item 5):
a decompression bomb is a bad item (reported, or skipped with --skip-bad), never a crash."""
import struct

from mindrecord.tools import cli
from mindrecord.tools.bad_input import BadItem
from mindrecord.tools.image_check import check_image

from .test_tools_helpers import make_image_folder, read_rows
from tests.transforms_c.image_samples import gif_bomb, huge_headers


def _declare_jpeg_size(data, width, height):
    """The JPEG `data` with its frame header (SOF) patched to declare width x height."""
    raw = bytearray(data)
    pos = 2
    while raw[pos + 1] not in (0xC0, 0xC1, 0xC2):
        pos += 2 + struct.unpack_from(">H", raw, pos + 2)[0]
    struct.pack_into(">HH", raw, pos + 5, height, width)
    return bytes(raw)


def test_skip_bad_skips_and_reports_a_jpeg_declaring_65000_square(tmp_path, capsys):
    expected = make_image_folder(tmp_path / "src", per_class=2)
    bomb = tmp_path / "src" / "cat" / "img_1.jpg"
    bomb.write_bytes(_declare_jpeg_size(bomb.read_bytes(), 65000, 65000))
    report = tmp_path / "r.txt"
    args = ["imagefolder", str(tmp_path / "src"), str(tmp_path / "o.mr"), "--no-progress",
            "--verify", "decode"]
    assert cli.main(args) == 1
    err = capsys.readouterr().err
    assert "bad input:" in err and "img_1.jpg" in err and "65000x65000" in err
    assert cli.main(args + ["--skip-bad", "--report", str(report)]) == 0
    assert "skipped 1 bad item(s)" in capsys.readouterr().out
    (line,) = report.read_text().splitlines()
    assert "cat/img_1.jpg" in line and "declares 65000x65000 pixels" in line
    assert len(read_rows(str(tmp_path / "o.mr"))) == len(expected) - 1


def test_verify_decode_refuses_every_huge_header():
    for name, data in sorted(huge_headers().items()) + [("gif35", gif_bomb())]:
        try:
            check_image(data, name, "decode")
        except BadItem as bad:
            assert bad.where == name
            # (formats that converters do not store are refused by their signature)
            assert any(why in bad.reason for why in ("declares", "unknown signature")), \
                bad.reason
        else:
            raise AssertionError(f"{name} was accepted")
