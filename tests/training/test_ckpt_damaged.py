"""load_checkpoint on damaged files (issue 11, item 6): every truncation and bit flip of the
MindSpore-written fixtures either loads or raises ValueError naming the file (MindSpore raises
ValueError "Failed to read the checkpoint file ..."); no other exception escapes."""
import os

import numpy as np
import pytest

from training.checkpoint import load_checkpoint


def damaged_variants(data, rng, flips, truncations):
    """(description, bytes): truncations, then single bit flips, at the given positions."""
    for size in truncations:
        yield f"truncated to {size}", data[:size]
    for pos, bit in flips:
        raw = bytearray(data)
        raw[pos] ^= 1 << bit
        yield f"bit {bit} of byte {pos} flipped", bytes(raw)
    for _ in range(len(flips) // 8):          # a few multi-byte garbles
        raw = bytearray(data)
        pos = int(rng.integers(0, len(raw)))
        raw[pos:pos + 8] = rng.integers(0, 256, 8, dtype=np.uint8).tobytes()
        yield f"8 bytes at {pos} garbled", bytes(raw)


def load_all(path, variants):
    """Load each variant from `path`; returns how many raised (the rest loaded)."""
    refused = 0
    for what, data in variants:
        with open(path, "wb") as f:
            f.write(data)
        try:
            params = load_checkpoint(path)
        except ValueError as exc:
            assert path in str(exc), (what, exc)
            refused += 1
        except Exception as exc:  # noqa: BLE001 - the point of the test
            raise AssertionError(f"{what}: {type(exc).__name__}: {exc}") from None
        else:
            assert all(isinstance(p.asnumpy(), np.ndarray) for p in params.values()), what
    return refused


def structure_positions(size, dense, stride):
    """Every position of the first `dense` bytes, then every `stride`-th."""
    return list(range(min(size, dense))) + list(range(dense, size, stride))


def run_campaign(fixtures, tmp_path, dense, stride, seed):
    rng = np.random.default_rng(seed)
    path = str(tmp_path / "damaged.ckpt")
    refused = total = 0
    for name in ("mixed.ckpt", "lenet5.ckpt"):
        data = (fixtures / "ckpt" / name).read_bytes()
        positions = structure_positions(len(data), dense, stride)
        flips = [(p, int(rng.integers(0, 8))) for p in positions]
        variants = list(damaged_variants(data, rng, flips, positions))
        refused += load_all(path, variants)
        total += len(variants)
    os.unlink(path)
    return refused, total


def test_damaged_checkpoints_raise_value_error_naming_the_file(shared_fixtures, tmp_path):
    refused, total = run_campaign(shared_fixtures, tmp_path, dense=400, stride=4099, seed=0)
    assert total > 1500 and refused > total // 4


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_damaged_checkpoints_long_campaign(shared_fixtures, tmp_path):
    refused, total = run_campaign(shared_fixtures, tmp_path, dense=4000, stride=97, seed=1)
    assert total > 14000 and refused > total // 10
