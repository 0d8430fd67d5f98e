"""tools/tfrecord_vs_mindspore.py: its plumbing (the cases handed to the reference
interpreter in a file, its run case by case, the comparison of every item) checked without
MindSpore, this package standing in as the reference, and its rules on outcomes made here."""

from tests.conftest import PROJECT_ROOT, load_script
from tests.differential_tool_runs import no_difference, run_against_itself

TOOL = PROJECT_ROOT / "tools" / "tfrecord_vs_mindspore.py"
tool = load_script(TOOL)

RUNTIME = ("RuntimeError", "Exception", "BaseException", "object")
INT64 = [[("<i8", (1,), b"\x01" + b"\x00" * 7)]]


def ok(value):
    return ("ok", value)


def fails(message, kind="RuntimeError"):
    return ("error", kind, message, (kind,) + RUNTIME[1:])


def plain_case(**kwargs):
    return {"files": [("part0.tfrecord", b"")], "kwargs": dict({"shuffle": False}, **kwargs),
            "damaged": None, "packed": True, "compressed": "", "empty bytes": False,
            "no records": [False]}


def test_this_package_against_itself_has_no_difference():
    assert run_against_itself(TOOL, 40, 5, timeout=120) == no_difference(40, 5)


def test_cases_repeat_for_a_seed_and_draw_every_form():
    first = tool.cases(3, 150)
    assert repr(first) == repr(tool.cases(3, 150)) != repr(tool.cases(4, 150))
    assert {tool.order(case) for case in first} == {"as read", "sorted", "counted"}
    schemas = [case["kwargs"].get("schema") for case in first]
    assert {schema[0] for schema in schemas if schema} == {"object", "file"}
    assert None in schemas
    assert {case["damaged"] for case in first} >= {None, "length crc", "data crc", "truncated"}
    assert {case["compressed"] for case in first} == {"", "GZIP", "ZLIB"}
    assert any("shards" in case and case["kwargs"]["shard_equal_rows"] for case in first)
    assert any("columns_list" in case["kwargs"] for case in first)


def test_records_encode_as_this_package_reads_them(tmp_path):
    import minddata as ds
    features = {"i": ("int64", [-1, 2 ** 63 - 1]), "f": ("float", [0x80000000]),
                "b": ("bytes", [b"\x00\xff"]), "e": ("float", [])}
    for packed in (True, False):
        path = tmp_path / f"{packed}.tfrecord"
        path.write_bytes(tool.frame(tool.example_bytes(features, packed)))
        (b, e, f, i), = ds.TFRecordDataset(str(path), shuffle=False).create_tuple_iterator(
            num_epochs=1, output_numpy=True)
        assert i.tolist() == [-1, 2 ** 63 - 1] and f.tobytes() == b"\x00\x00\x00\x80"
        assert b.tobytes() == b"\x00\xff" and e.dtype.kind == "f" and e.shape == (0,)


def test_the_comparison_flags_what_differs():
    case = plain_case()
    same = [("get_col_names", ok(["a"])), ("rows", ok(INT64))]
    assert tool.classify(case, same, same) == (None, None, None)
    kind, item, why = tool.classify(case, same, [same[0], ("rows", ok([]))])
    assert (kind, item) == ("different", "rows") and "in MindSpore" in why
    kind, item, _ = tool.classify(case, same, [same[0], ("rows", fails("bad row"))])
    assert (kind, item) == ("different", "rows")
    # metadata that reads the first row, where iterating raises on both sides: soft
    both = [("output_types", ok(["<i8"])), ("rows", fails("bad"))]
    assert tool.classify(case, both, [("output_types", fails("bad")),
                                      ("rows", fails("bad"))])[0] == "error elsewhere"
    assert tool.classify(case, same, tool.CRASH)[0] == "MindSpore crashed"


def test_documented_rules_read_the_case_and_both_outcomes():
    damaged = dict(plain_case(), damaged="data crc")
    mine = [("rows", fails("Invalid TFRecord file /x record 2: data checksum mismatch"))]
    assert tool.classify(damaged, mine, [("rows", ok(INT64))])[0] == "documented"
    assert tool.classify(plain_case(), mine, [("rows", ok(INT64))])[0] == "different"
    # zero padding here, end to end in MindSpore
    ours = [("rows", ok([[("|u1", (4,), b"ab\x00c")]]))]
    theirs = [("rows", ok([[("|u1", (3,), b"abc")]]))]
    assert tool.classify(plain_case(), ours, theirs)[0] == "documented"
    assert tool.classify(plain_case(), ours, [("rows", ok([[("|u1", (3,), b"abd")]]))])[0] == \
        "different"
    # an int64_list read as float32: refused here, converted there
    refused = [("rows", fails("/x record 0: Invalid column type, the column type of f should "
                              "be uint64, int64, uint32, int32, uint16, int16, uint8 or int8, "
                              "but got float32."))]
    assert tool.classify(plain_case(), refused, [("rows", ok(INT64))])[0] == "documented"
