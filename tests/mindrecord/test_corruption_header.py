"""A header that lies (sizes, offsets, ids, counts, schema) is a clean RuntimeError naming the
file, never a crash, a hang or a read outside the file."""
import struct

import pytest

from mindrecord import FileReader, ShardReader

from .test_corruption_helpers import copy_fixture, expect_clean, header_of, write_header


def blob_page(h, k=0):
    return [p for p in h["page"] if p["page_type"] == "BLOB_DATA"][k]


def raw_page(h, k=0):
    return [p for p in h["page"] if p["page_type"] == "RAW_DATA"][k]


def set_field_type(h, name, spec):
    h["schema"][0]["schema"][name] = spec


# (case, mutation of the header dict, text expected in the error)
LIES = {
    "zero_page_size": ("a_scalars", lambda h: h.update(page_size=0), "'page_size'"),
    "negative_page_size": ("a_scalars", lambda h: h.update(page_size=-32768), "'page_size'"),
    "huge_page_size": ("a_scalars", lambda h: h.update(page_size=1 << 62), "'page_size'"),
    "string_page_size": ("a_scalars", lambda h: h.update(page_size="32768"), "'page_size'"),
    "header_size_below_json": ("a_scalars", lambda h: h.update(header_size=100), "'header_size'"),
    "header_size_moves_pages": ("a_scalars", lambda h: h.update(header_size=16388), ""),
    "used_above_page_size": ("a_scalars", lambda h: blob_page(h).update(page_size=40000),
                             "'page_size'"),
    "page_id_far_away": ("a_scalars", lambda h: raw_page(h).update(page_id=10 ** 9),
                         "Failed to read file"),
    "page_id_negative": ("a_scalars", lambda h: raw_page(h).update(page_id=-1), "'page_id'"),
    "page_id_repeated": ("e_pages", lambda h: h["page"][1].update(page_id=0), "appears twice"),
    "row_count_huge": ("a_scalars", lambda h: blob_page(h).update(end_row_id=10 ** 9),
                       "claims"),
    "rows_reversed": ("a_scalars", lambda h: blob_page(h).update(start_row_id=3, end_row_id=1),
                      "'end_row_id'"),
    "rows_not_from_zero": ("a_scalars", lambda h: blob_page(h).update(start_row_id=1,
                                                                       end_row_id=5),
                           "missing or repeated"),
    "fewer_rows": ("a_scalars", lambda h: blob_page(h).update(end_row_id=3),
                   "Unequal number of index entries"),
    "group_offset_past_page": ("a_scalars", lambda h: raw_page(h)["row_group_ids"][0].update(
        offset=10 ** 6), "'offset'"),
    "group_offset_shifted": ("a_scalars", lambda h: raw_page(h)["row_group_ids"][0].update(
        offset=1), ""),
    "group_id_unknown": ("a_scalars", lambda h: raw_page(h)["row_group_ids"][0].update(id=7),
                         "no blob page"),
    "group_listed_twice": ("a_scalars", lambda h: raw_page(h)["row_group_ids"].append(
        {"id": 0, "offset": 0}), "two raw pages"),
    "group_without_raw_page": ("a_scalars", lambda h: raw_page(h).update(row_group_ids=[]),
                               "no raw page"),
    "raw_used_too_small": ("a_scalars", lambda h: raw_page(h).update(page_size=20), ""),
    "blob_used_too_small": ("a_scalars", lambda h: blob_page(h).update(page_size=40), ""),
    "blob_type_id_repeated": ("e_pages", lambda h: blob_page(h, 1).update(
        page_type_id=blob_page(h, 0)["page_type_id"]), "page_type_id"),
    "unknown_page_type": ("a_scalars", lambda h: raw_page(h).update(page_type="JSON"),
                          "page_type"),
    "page_not_object": ("a_scalars", lambda h: h["page"].append(5), "not an object"),
    "no_schema": ("a_scalars", lambda h: h.update(schema=[]), "'schema'"),
    "two_schemas": ("a_scalars", lambda h: h["schema"].append(h["schema"][0]), "'schema'"),
    "unknown_type": ("a_scalars", lambda h: set_field_type(h, "i32", {"type": "int16"}),
                     "invalid spec"),
    "bad_shape": ("b_arrays", lambda h: set_field_type(h, "v_i32", {"type": "int32",
                                                                     "shape": [-1, -1]}),
                  "invalid shape"),
    "blob_fields_wrong": ("a_scalars", lambda h: h["schema"][0].update(blob_fields=[]),
                          "blob_fields"),
    "int_field_read_as_string": ("a_scalars", lambda h: set_field_type(h, "i32",
                                                                        {"type": "string"}),
                                 "does not hold a string"),
    "string_field_read_as_int": ("a_scalars", lambda h: set_field_type(h, "s",
                                                                        {"type": "int64"}),
                                 "does not hold an integer"),
    "float_field_read_as_int": ("a_scalars", lambda h: set_field_type(h, "f64",
                                                                       {"type": "int64"}),
                                "does not hold an integer"),
    "missing_raw_field": ("a_scalars", lambda h: set_field_type(h, "zz", {"type": "int32"}),
                          "missing from the raw row"),
    "int64_read_as_int32": ("a_scalars", lambda h: set_field_type(h, "i64", {"type": "int32"}),
                            "out of range"),
    "bytes_read_as_int_array": ("a_scalars", lambda h: set_field_type(
        h, "b", {"type": "int32", "shape": [-1]}), ""),
    "float_array_shape_mismatch": ("b_arrays", lambda h: set_field_type(
        h, "m_f64", {"type": "float64", "shape": [4, 4]}), "schema shape"),
    "int_array_read_as_int32": ("b_arrays", lambda h: set_field_type(
        h, "v_i64", {"type": "int32", "shape": [-1]}), "wider than the field type"),
    "blob_split_changed": ("c_multi_blob", lambda h: (h["schema"][0]["schema"].pop("zeta"),
                                                      h["schema"][0]["blob_fields"].remove(
                                                          "zeta")), "trailing bytes"),
    "shard_addresses_empty": ("a_scalars", lambda h: h.update(shard_addresses=[]),
                              "'shard_addresses'"),
    "shard_addresses_escape": ("a_scalars", lambda h: h.update(
        shard_addresses=["../a_scalars.mindrecord"]), "'shard_addresses'"),
}


@pytest.mark.parametrize("lie", sorted(LIES))
def test_lying_header_fails_cleanly(shared_fixtures, tmp_path, lie):
    case, mutate, expected = LIES[lie]
    path = copy_fixture(shared_fixtures, case, tmp_path)[0]
    header, data = header_of(path)
    mutate(header)
    write_header(path, header, data)
    err = expect_clean(path, must_fail=True)
    assert expected in str(err)


def test_fewer_rows_read_without_index_check(shared_fixtures, tmp_path):
    path = copy_fixture(shared_fixtures, "a_scalars", tmp_path)[0]
    header, data = header_of(path)
    blob_page(header).update(end_row_id=3)
    write_header(path, header, data)
    with ShardReader(path, check_index=False) as reader:
        assert reader.num_rows == 3
        assert [int(v) for v in reader.read_rows([0, 1, 2], ["i32"])["i32"]] == [0, 1, -200]


@pytest.mark.parametrize("text", [b"[1,2,3]", b"{\"header_size\":", b"\xff\xfe{}",
                                  b"[" * 100000 + b"]" * 100000, b"null"])
def test_header_that_is_not_a_json_object(shared_fixtures, tmp_path, text):
    path = copy_fixture(shared_fixtures, "a_scalars", tmp_path)[0]
    _, data = header_of(path)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data[8 + len(text):])
    with pytest.raises(RuntimeError, match="failed to parse header content of file: .*a_scalars"):
        FileReader(path)


def test_header_length_beyond_file(shared_fixtures, tmp_path):
    path = copy_fixture(shared_fixtures, "a_scalars", tmp_path)[0]
    _, data = header_of(path)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", 2 ** 64 - 1) + data[8:])
    with pytest.raises(RuntimeError, match="failed to read header content"):
        ShardReader(path)


def test_schemas_of_listed_files_must_agree(shared_fixtures, tmp_path):
    a = copy_fixture(shared_fixtures, "a_scalars", tmp_path)[0]
    d = copy_fixture(shared_fixtures, "d_no_blob", tmp_path)[0]
    with pytest.raises(RuntimeError, match="schema differs"):
        ShardReader([a, d])
