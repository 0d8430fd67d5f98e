"""Property test of the page layout: for random row sizes, write-call splits and sessions
(appends), every row's bytes sit exactly where its .db entry says, inside a page whose header
entry covers it, and no page exceeds page_size. Independent of the reader."""
import json
import sqlite3
import struct

from hypothesis import HealthCheck, given, settings, strategies as st

from mindrecord import FileWriter

P = 1 << 15
H = 1 << 14

row_sizes = st.tuples(st.integers(0, 6000), st.integers(0, 12000))
calls_strategy = st.lists(st.lists(row_sizes, min_size=1, max_size=12), min_size=1, max_size=5)


def make_rows(sizes, start):
    return [{"k": start + i, "s": chr(97 + (start + i) % 26) * ns,
             "b": bytes([(start + i) % 251]) * nb} for i, (ns, nb) in enumerate(sizes)]


@settings(deadline=None, max_examples=25,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(calls=calls_strategy, sessions=st.integers(1, 3))
def test_rows_are_where_the_index_says(tmp_path_factory, calls, sessions):
    path = tmp_path_factory.mktemp("pages") / "p.mr"
    all_rows = []
    w = FileWriter(str(path))
    w.set_header_size(H)
    w.set_page_size(P)
    w.add_schema({"k": {"type": "int32"}, "s": {"type": "string"}, "b": {"type": "bytes"}})
    for n, sizes in enumerate(calls):
        if n and n % sessions == 0:
            w.commit()
            w = FileWriter.open_for_append(str(path))
        rows = make_rows(sizes, len(all_rows))
        w.write_raw_data(rows)
        all_rows += rows
    w.commit()

    data = path.read_bytes()
    (hlen,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + hlen])
    pages = header["page"]
    assert all(p["page_size"] <= P for p in pages)
    blob_pages = [p for p in pages if p["page_type"] == "BLOB_DATA"]
    assert [p["page_type_id"] for p in blob_pages] == list(range(len(blob_pages)))
    assert blob_pages[-1]["end_row_id"] == len(all_rows)
    conn = sqlite3.connect(str(path) + ".db")
    try:
        index = conn.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall()
    finally:
        conn.close()
    assert [r[0] for r in index] == list(range(len(all_rows)))
    for row, expected in zip(index, all_rows):
        rid, pr, ro, roe, group, pb, bo, boe = row[:8]
        assert pages[pr]["page_type"] == "RAW_DATA" and roe <= pages[pr]["page_size"]
        assert any(g["id"] == group for g in pages[pr]["row_group_ids"])
        assert pages[pb]["page_type_id"] == group
        assert pages[pb]["start_row_id"] <= rid < pages[pb]["end_row_id"]
        raw_at = H + pr * P + ro
        (n,) = struct.unpack("<Q", data[raw_at:raw_at + 8])
        assert roe - ro == 8 + n
        assert expected["s"].encode() in data[raw_at + 8:raw_at + 8 + n]
        blob_at = H + pb * P + bo
        (m,) = struct.unpack("<Q", data[blob_at:blob_at + 8])
        assert boe - bo == 8 + m
        assert data[blob_at + 8:blob_at + 8 + m] == expected["b"]
