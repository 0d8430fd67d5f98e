"""Round trip over many pages: rows large enough to fill several blob and raw pages, several
write calls, two shards and an append session, read back through both readers."""
import numpy as np
import pytest

from mindrecord import FileReader, ShardReader

pytest.importorskip("mindrecord.writer")
from mindrecord import FileWriter  # noqa: E402

SCHEMA = {"id": {"type": "int64"}, "text": {"type": "string"}, "blob": {"type": "bytes"},
          "ints": {"type": "int32", "shape": [-1]}, "grid": {"type": "float64", "shape": [2, -1]}}


def make_rows(start, n):
    rng = np.random.default_rng(start)
    out = []
    for i in range(start, start + n):
        size = int(rng.integers(0, 9000))
        out.append({"id": i, "text": chr(0x41 + i % 26) * int(rng.integers(0, 2500)) + "é",
                    "blob": rng.integers(0, 256, size, dtype=np.uint8).tobytes(),
                    "ints": rng.integers(-2 ** 31, 2 ** 31, int(rng.integers(0, 50)),
                                         dtype=np.int64).astype(np.int32),
                    "grid": rng.standard_normal((2, int(rng.integers(0, 4))))})
    return out


def check(first, rows):
    by_id = {r["id"]: r for r in rows}
    with FileReader(first) as reader:
        got = list(reader.get_next())
    assert sorted(r["id"] for r in got) == sorted(by_id)
    for row in got:
        want = by_id[row["id"]]
        assert row["text"] == want["text"] and row["blob"] == want["blob"]
        assert np.array_equal(row["ints"], want["ints"]) and row["ints"].dtype == np.int32
        assert np.array_equal(row["grid"], want["grid"]) and row["grid"].shape == want["grid"].shape
    with ShardReader(first) as reader:
        values = reader.read_rows(np.arange(reader.num_rows)[::-1])
        ids = [int(v) for v in values["id"]]
        assert ids == [r["id"] for r in got][::-1]  # same global order through both readers
        for pos, i in enumerate(ids):
            assert values["blob"][pos].tobytes() == by_id[i]["blob"]
            assert str(values["text"][pos]) == by_id[i]["text"]
    return got


def test_many_pages_two_shards_and_append(tmp_path):
    path = str(tmp_path / "pages.mindrecord")
    writer = FileWriter(path, shard_num=2, overwrite=True)
    writer.set_header_size(1 << 14)
    writer.set_page_size(1 << 15)
    writer.add_schema(SCHEMA, "pages")
    rows = []
    for start, n in ((0, 40), (40, 1), (41, 25)):
        batch = make_rows(start, n)
        writer.write_raw_data(batch)
        rows += batch
    writer.commit()
    with ShardReader(path + "0") as reader:
        pages = len(reader.header["page"])
    assert pages > 5  # the data really spans many pages
    check(path + "1", rows)

    appender = FileWriter.open_for_append(path + "0")
    extra = make_rows(66, 9)
    appender.write_raw_data(extra)
    appender.commit()
    check(path + "0", rows + extra)
