"""Truncation at every region of a shard file is a clean RuntimeError naming the file."""
import pytest

from .test_corruption_helpers import copy_fixture, expect_clean, header_of


def cut_points(path):
    header, data = header_of(path)
    length = int.from_bytes(data[:8], "little")
    hs, ps = header["header_size"], header["page_size"]
    points = {0, 4, 7, 8, 9, 8 + length // 2, 8 + length - 1, 8 + length, hs - 1, hs}
    for page in header["page"]:
        start = hs + page["page_id"] * ps
        used = page["page_size"]
        points.update({start + 1, start + 7, start + 8, start + used // 2, start + used - 1})
        for group in page["row_group_ids"]:
            points.add(start + group["offset"] + 3)  # inside a row's length prefix
    return sorted(p for p in points if 0 <= p < len(data)), data


@pytest.mark.parametrize("case", ["a_scalars", "b_arrays", "e_pages", "e2_raw_shift",
                                  "h_edge_values"])
def test_truncation_anywhere_fails_cleanly(shared_fixtures, tmp_path, case):
    path = copy_fixture(shared_fixtures, case, tmp_path)[0]
    points, data = cut_points(path)
    for cut in points:
        with open(path, "wb") as f:
            f.write(data[:cut])
        err = expect_clean(path, must_fail=True)
        assert str(err).startswith(("[ERROR]", "Invalid file")), err


def test_short_file_message(shared_fixtures, tmp_path):
    path = copy_fixture(shared_fixtures, "a_scalars", tmp_path)[0]
    with open(path, "wb") as f:
        f.write(b"\1\2\3\4")
    err = expect_clean(path, must_fail=True)
    assert "size of mindrecord file: 4 is smaller than the lower limit: 8" in str(err)


def test_header_shorter_than_announced(shared_fixtures, tmp_path):
    path = copy_fixture(shared_fixtures, "a_scalars", tmp_path)[0]
    _, data = header_of(path)
    with open(path, "wb") as f:
        f.write(data[:100])
    err = expect_clean(path, must_fail=True)
    assert "failed to read header content of file" in str(err)


def test_truncated_inside_pages(shared_fixtures, tmp_path):
    path = copy_fixture(shared_fixtures, "e_pages", tmp_path)[0]
    _, data = header_of(path)
    with open(path, "wb") as f:
        f.write(data[:len(data) - 10])
    err = expect_clean(path, must_fail=True)
    assert "Failed to read file" in str(err)
