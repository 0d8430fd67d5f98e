"""tools/image_sources_vs_mindspore.py: its plumbing (the reference interpreter's run, case by
case, and the comparison) checked without MindSpore, this package standing in as the
reference, and the documented rules on outcomes made here."""
import subprocess
import sys

from tests.conftest import PROJECT_ROOT, load_script

TOOL = PROJECT_ROOT / "tools" / "image_sources_vs_mindspore.py"
tool = load_script(TOOL)


def test_this_package_against_itself_has_no_difference():
    done = subprocess.run([sys.executable, str(TOOL), "--cases", "28", "--seed", "5",
                           "--mindspore-python", sys.executable, "--reference", "minddata"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("0 MindSpore crashed, 0 different")
    assert int(done.stdout.split("seed 5: ")[1].split(" same")[0]) == 28


def test_cases_repeat_for_a_seed_and_draw_every_kind():
    assert repr(tool.cases(3, 40)) == repr(tool.cases(3, 40))
    assert repr(tool.cases(3, 40)) != repr(tool.cases(4, 40))
    drawn = tool.cases(7, 400)
    assert {case["kind"] for case in drawn} == set(tool.KINDS)
    assert any(case["fault"] for case in drawn)
    # rows in file order: shuffle=False or a sampler (or a wrong shuffle argument)
    assert all(case["kwargs"].get("shuffle") in (False, None) for case in drawn
               if not str(case["fault"]).startswith("argument shuffle"))


def test_each_kind_writes_files_that_this_package_reads(tmp_path):
    import minddata
    for number, kind in enumerate(tool.KINDS):
        # (an image_size of two numbers is drawn for both to refuse)
        case = next(case for case in tool.cases(11, 400, (kind,)) if not case["fault"]
                    and len(case["kwargs"].get("image_size", "hwc")) == 3)
        case = dict(case, kwargs={k: v for k, v in case["kwargs"].items()
                                  if k not in ("num_samples", "num_shards", "shard_id",
                                               "sampler")})
        outcomes = dict(tool.run_case(minddata, case, str(tmp_path / str(number))))
        rows = outcomes.get("tuple iterator", outcomes.get("build"))
        assert rows[0] == "ok" or kind == "flowers102", (kind, rows)


ROW = [("|u1", (2,), b"\x01\x02"), ("<u4", (), b"\xff\x00\x00\x00")]
WRAPPED = [("|u1", (2,), b"\x01\x02"), ("<u4", (), b"\xff\xff\xff\xff")]


def test_the_rules_name_the_readme_deviations():
    case = {"kind": "kmnist", "kwargs": {"shuffle": False}, "fault": None, "rows": 1}
    ours = [("get_dataset_size", ("ok", 1)), ("tuple iterator", ("ok", [ROW]))]
    theirs = [("get_dataset_size", ("ok", 1)), ("tuple iterator", ("ok", [WRAPPED]))]
    assert tool.classify(case, ours, theirs)[0] == "documented"
    other = [("get_dataset_size", ("ok", 1)), ("tuple iterator", ("ok", [ROW[:1] + [
        ("<u4", (), b"\x03\x00\x00\x00")]]))]
    assert tool.classify(case, ours, other)[:2] == ("different", "tuple iterator")
    celeba = dict(case, kind="celeba")
    attr = [("|u1", (2,), b"\x01\x02"), ("<u4", (1,), b"\x01\x00\x00\x00")]
    zero_d = [attr[0], ("<u4", (), b"\x01\x00\x00\x00")]
    assert tool.documented(celeba, "tuple iterator", [("tuple iterator", ("ok", [attr]))],
                           [("tuple iterator", ("ok", [zero_d]))]) == \
        "CelebA's attr is (A,) for one attribute too (MindSpore: 0-d)"


def test_wider_face_columns_moved_by_mindspore_are_documented():
    def row(occlusion, pose, invalid):
        return [("|u1", (1,), b"\x00"), ("<i4", (1, 4), b"\x00" * 16)] + [
            ("<i4", (1,), bytes([v, 0, 0, 0])) for v in (0, 0, 0, occlusion, pose, invalid)]
    ours = [("tuple iterator", ("ok", [row(1, 2, 0)]))]          # fields 8, 9, 7
    theirs = [("tuple iterator", ("ok", [row(0, 1, 2)]))]        # fields 7, 8, 9
    assert tool.wider_face_fields_moved(ours, theirs, "tuple iterator")
    assert not tool.wider_face_fields_moved(ours, ours, "tuple iterator")


def test_a_sixteen_bit_png_clipped_by_pil_is_documented_only_for_pil_read_sources():
    # measured in MindSpore 2.10: Flowers102Dataset, Caltech101Dataset and SBDataset (read in
    # Python with PIL) decode a 16-bit grey PNG of 0, 5000, 10000 as 0, 255, 255;
    # Caltech256Dataset (C++, OpenCV) as 0, 19, 39, as this package does for every source
    pixels = bytes([0] * 3 + [19] * 3 + [39] * 3)
    ours = [("tuple iterator", ("ok", [[("|u1", (1, 3, 3), pixels)]]))]
    theirs = [("tuple iterator", ("ok", [[("|u1", (1, 3, 3), bytes([0] * 3 + [255] * 6))]]))]
    case = {"kind": "flowers102", "kwargs": {"decode": True}, "fault": None, "rows": 1}
    assert tool.classify(case, ours, theirs)[0] == "documented"
    assert tool.classify(dict(case, kind="caltech256"), ours, theirs)[0] == "different"
    wrong = [("tuple iterator", ("ok", [[("|u1", (1, 3, 3), bytes([0] * 3 + [18] * 6))]]))]
    assert tool.classify(case, ours, wrong)[0] == "different"
