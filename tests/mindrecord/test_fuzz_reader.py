"""Fuzzing the reader with hypothesis: the seed corpus is the MindSpore-written fixtures, mutated
(bytes set anywhere / in the header / in used page bytes, numbers in the header JSON replaced,
truncation, appended junk). Every mutant must read or fail with a clean RuntimeError.

The short run is part of the normal suite; `make fuzz` runs the long one (marked slow).
"""
import json
import os
import re
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .test_corruption_helpers import expect_clean

CASES = ["a_scalars", "b_arrays", "c_multi_blob", "d_no_blob", "e_pages", "e2_raw_shift",
         "f_multi_shard", "h_edge_values", "i_jpeg"]
INTERESTING = [0, 1, 7, 8, 255, 4096, 16384, 32768, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 40,
               2 ** 63 - 1, 2 ** 63, 2 ** 64 + 5, 10 ** 30]

mutation = st.tuples(st.sampled_from(["byte", "header_byte", "page_byte", "number", "truncate",
                                      "append"]),
                     st.floats(0, 1, exclude_max=True), st.integers(0, 255),
                     st.sampled_from(INTERESTING), st.booleans())


def page_regions(data):
    try:
        (length,) = struct.unpack("<Q", data[:8])
        header = json.loads(data[8:8 + length])
        return [(header["header_size"] + p["page_id"] * header["page_size"], p["page_size"])
                for p in header["page"] if p["page_size"] > 0]
    except Exception:  # noqa: BLE001 - an earlier mutation broke the header; no page regions
        return []


def mutate(data, kind, where, byte, number, negative):
    data = bytearray(data)
    if not data:
        return bytes([byte]) if kind in ("byte", "append") else b""
    length = int.from_bytes(data[:8], "little") if len(data) >= 8 else 0
    length = max(0, min(length, len(data) - 8))
    if kind == "byte":
        data[int(where * len(data))] = byte
    elif kind == "header_byte":
        data[int(where * min(len(data), 8 + length))] = byte
    elif kind == "page_byte":
        regions = page_regions(bytes(data))
        if regions:
            start, used = regions[int(where * len(regions))]
            pos = start + int(where * len(regions) % 1 * used)
            if 0 <= pos < len(data):
                data[pos] = byte
    elif kind == "number":
        text = bytes(data[8:8 + length])
        numbers = list(re.finditer(rb"\d+", text))
        if numbers:
            m = numbers[int(where * len(numbers))]
            new = str(-number if negative else number).encode()
            text = text[:m.start()] + new + text[m.end():]
            data = bytearray(struct.pack("<Q", len(text)) + text) + data[8 + length:]
    elif kind == "truncate":
        data = data[:int(where * len(data))]
    else:
        data += bytes([byte]) * (1 + int(where * 5000))
    return bytes(data)


class Corpus(dict):
    def __repr__(self):  # hypothesis prints the arguments of a failing example
        return "<fixture corpus>"


@pytest.fixture(scope="module")
def corpus(shared_fixtures, tmp_path_factory):
    """One writable copy of every case; tests rewrite one data file per example."""
    root = tmp_path_factory.mktemp("fuzz")
    out = Corpus()
    for case in CASES:
        src = shared_fixtures / "mindrecord" / case
        dest = root / case
        dest.mkdir()
        manifest = json.loads((src / "manifest.json").read_text())
        for f in os.listdir(src):
            if f != "manifest.json":
                (dest / f).write_bytes((src / f).read_bytes())
        files = [str(dest / f) for f in manifest["files"]]
        out[case] = (files, {f: open(f, "rb").read() for f in files})
    return out


def run_one(corpus, case, member, mutations):
    files, pristine = corpus[case]
    target = files[member % len(files)]
    data = pristine[target]
    for m in mutations:
        data = mutate(data, *m)
    try:
        with open(target, "wb") as f:
            f.write(data)
        expect_clean(files[0])
    finally:
        with open(target, "wb") as f:
            f.write(pristine[target])


fuzz_input = (st.sampled_from(CASES), st.integers(0, 2), st.lists(mutation, min_size=1,
                                                                   max_size=4))


@settings(deadline=None, max_examples=400, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(*fuzz_input)
def test_fuzz_short(corpus, case, member, mutations):
    run_one(corpus, case, member, mutations)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@settings(deadline=None, max_examples=20000,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(*fuzz_input)
def test_fuzz_long(corpus, case, member, mutations):
    run_one(corpus, case, member, mutations)
