"""Flipped bytes in the header and in every used byte of the pages: reading either works (a
flipped payload byte is undetectable) or raises a clean RuntimeError naming the file."""
import pytest

from .test_corruption_helpers import copy_fixture, expect_clean, header_of


def flip_and_read(path, data, positions, xor):
    failures = 0
    for pos in positions:
        mutated = bytearray(data)
        mutated[pos] ^= xor
        with open(path, "wb") as f:
            f.write(mutated)
        failures += expect_clean(path) is not None
    return failures


@pytest.mark.parametrize("xor", [0x01, 0x80, 0xFF])
def test_flips_in_header_json(shared_fixtures, tmp_path, xor):
    path = copy_fixture(shared_fixtures, "a_scalars", tmp_path)[0]
    _, data = header_of(path)
    length = int.from_bytes(data[:8], "little")
    failures = flip_and_read(path, data, range(0, 8 + length, 5), xor)
    assert failures > 0  # most header flips break the JSON or its consistency


@pytest.mark.parametrize("case", ["a_scalars", "b_arrays", "c_multi_blob", "h_edge_values"])
def test_flips_in_every_used_page_byte(shared_fixtures, tmp_path, case):
    path = copy_fixture(shared_fixtures, case, tmp_path)[0]
    header, data = header_of(path)
    positions = []
    for page in header["page"]:
        start = header["header_size"] + page["page_id"] * header["page_size"]
        positions.extend(range(start, start + page["page_size"]))
    stride = max(1, len(positions) // 600)  # keeps the run short on a shared machine
    failures = flip_and_read(path, data, positions[::stride], 0xA5)
    assert failures > 0  # length prefixes and msgpack tags are in there
