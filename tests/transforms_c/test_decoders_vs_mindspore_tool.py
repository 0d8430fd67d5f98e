"""tools/decoders_vs_mindspore.py: its plumbing (the reference interpreter's run, a call that
kills or stalls it, the call-by-call comparison) checked without MindSpore, this package
standing in as the reference, and the comparison's rules on outcomes made here."""
import io
import os
import subprocess
import sys

import numpy as np

from tests.conftest import PROJECT_ROOT, load_script

TOOL = PROJECT_ROOT / "tools" / "decoders_vs_mindspore.py"
tool = load_script(TOOL)


def test_this_package_against_itself_has_no_difference():
    done = subprocess.run([sys.executable, str(TOOL), "--cases", "12", "--seed", "5",
                           "--mindspore-python", sys.executable, "--reference", "minddata"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith(
        "144 same, 0 documented, 0 different (0 MindSpore crashes, 0 of the same raise other "
        "exception types)")


def one(array, kind="array"):
    return ("ok", [(kind, array)])


def error(name, *bases):
    return ("error", name, "words", (name,) + bases + ("Exception",))


def test_the_comparison_flags_what_differs():
    ok = one(np.full((2, 3, 3), 10, np.uint8))
    assert tool.difference(ok, ok) is None
    assert tool.difference(ok, one(ok[1][0][1] + 1)) == "largest difference 1 (18 of 18 values)"
    assert tool.difference(ok, one(ok[1][0][1], "PIL RGB")) == "array here, PIL RGB in MindSpore"
    assert tool.difference(ok, one(ok[1][0][1][:1])) == \
        "uint8(2, 3, 3) here, uint8(1, 3, 3) in MindSpore"
    assert tool.difference(error("ValueError"), error("RuntimeError")) is None
    assert "raises RuntimeError in MindSpore only" in tool.difference(ok, error("RuntimeError"))
    assert "raises ValueError here only" in tool.difference(error("ValueError"), ok)
    assert tool.difference(ok, ("crash", "exit status -11")) == \
        "MindSpore's interpreter dies (exit status -11)"
    label = ("array", np.array(0, np.int32))
    assert tool.difference(("ok", [ok[1][0], label]), ("ok", [ok[1][0]])) == \
        "2 values here, 1 in MindSpore"


def test_documented_rules():
    jpeg_cut = ("jpeg", "JPEG pillow q75 cut at 300 of 900", b"", None, 75)
    webp = ("webp", "WEBP RGB lossy", b"", None, 75)
    here = "raises RuntimeError here only: Premature end of JPEG file"
    assert tool.documented(jpeg_cut, "Decode", here).startswith(
        "a JPEG cut short or whose scan is damaged raises")
    assert tool.documented(jpeg_cut, "Decode", "largest difference 3 (1 of 9 values)") is None
    flipped = ("jpeg", "JPEG 440 q90 restart 0 with bytes changed", b"", None, 75)
    assert tool.documented(flipped, "Decode", "largest difference 250 (6 of 5952 values)") \
        .startswith("a JPEG damaged where libjpeg notices nothing")
    assert tool.documented(flipped, "encode_jpeg", "largest difference 250") is None
    there = "raises RuntimeError in MindSpore only: Unsupported image type [webp]"
    assert tool.documented(webp, "Decode", there).startswith("GIF and WebP are decoded")
    assert tool.documented(webp, "Decode(to_pil)", there) is None
    assert tool.documented(jpeg_cut, "Decode", there) is None


def test_cases_repeat_for_a_seed_and_are_what_they_say():
    first, again = tool.cases(3, 40), tool.cases(3, 40)
    assert [c[:3] for c in first] == [c[:3] for c in again]
    assert all(np.array_equal(a[3], b[3]) for a, b in zip(first, again))
    from PIL import Image
    for kind, description, data, _, _ in first:
        if kind == "none" or "cut at" in description or "changed" in description \
                or "garbage" in description:
            continue
        with Image.open(io.BytesIO(data)) as image:     # every undamaged file opens
            assert image.format.lower() == {"tiff": "tiff", "jpeg": "jpeg"}.get(kind, kind)


def test_without_adobe_drops_the_app14_segment_only():
    from PIL import Image
    buffer = io.BytesIO()
    Image.new("CMYK", (8, 8), (10, 20, 30, 40)).save(buffer, "JPEG")
    data = buffer.getvalue()
    plain = tool.without_adobe(data)
    assert b"Adobe" in data and b"Adobe" not in plain
    assert len(data) - len(plain) == 2 + int.from_bytes(data[data.index(b"\xff\xee") + 2:][:2],
                                                        "big")
    with Image.open(io.BytesIO(plain)) as image:
        assert image.mode == "CMYK" and "adobe" not in image.info


def test_a_reference_that_stalls_is_killed(tmp_path):
    path = tmp_path / "out"
    path.write_bytes(b"")
    status = tool.run_stalling([sys.executable, "-c", "import time; time.sleep(30)"],
                               dict(os.environ), str(tmp_path), str(path), stall=0.6)
    assert status is None
    assert tool.run_stalling([sys.executable, "-c", "pass"], dict(os.environ), str(tmp_path),
                             str(path), stall=5) == 0


def test_the_files_written_here_are_what_pillow_reads():
    import random
    from PIL import Image
    r = random.Random(1)
    for channels in (1, 2, 3, 4):
        pixels = tool.random_pixels(r, 13, 11, channels)
        with Image.open(io.BytesIO(tool.interlaced_png(pixels))) as image:
            assert image.info["interlace"] == 1
            assert np.array_equal(np.asarray(image).reshape(pixels.shape), pixels)
    grey = tool.random_pixels(r, 5, 7, 1)[:, :, 0]
    with Image.open(io.BytesIO(tool.four_bit_bmp(grey))) as image:
        assert image.mode == "P" and image.size == (7, 5)
        assert np.array_equal(np.asarray(image.convert("L")), (grey >> 4) * 17)
