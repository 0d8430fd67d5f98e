"""Fault-and-fuzz campaign over the decoders: mutated images of every format go through
Decode and `--verify decode`; each either decodes within the pixel limit or raises the
documented error (RuntimeError; BadItem for the converter check). Short here, long with
`make fuzz`."""
import numpy as np
import pytest

from mindrecord.tools.bad_input import BadItem
from mindrecord.tools.image_check import check_image
from transforms_c.vision import Decode

from tests.transforms_c.image_samples import pixel_limit, valid_images

LIMIT = 1 << 20      # a low limit: whatever is accepted stays small


def mutations(data, rng, count):
    """`count` damaged copies of `data`: bit flips, size-field inflation in the header,
    truncations, garbled runs and inserted bytes."""
    for k in range(count):
        raw = bytearray(data)
        kind = k % 5
        if kind == 0:
            for _ in range(int(rng.integers(1, 5))):
                raw[int(rng.integers(0, len(raw)))] ^= 1 << int(rng.integers(0, 8))
        elif kind == 1:                           # a header field made huge
            pos = int(rng.integers(0, min(len(raw), 64)))
            raw[pos:pos + 2] = b"\xff\x7f"
        elif kind == 2:
            del raw[int(rng.integers(1, len(raw))):]
        elif kind == 3:
            pos = int(rng.integers(0, len(raw)))
            raw[pos:pos + 16] = rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
        else:
            pos = int(rng.integers(0, len(raw)))
            raw[pos:pos] = rng.integers(0, 256, int(rng.integers(1, 9)), dtype=np.uint8).tobytes()
        yield bytes(raw)


def run_campaign(per_format, seed):
    with pixel_limit(LIMIT):
        return _campaign(per_format, seed)


def _campaign(per_format, seed):
    rng = np.random.default_rng(seed)
    decode = Decode()
    decoded = refused = 0
    for name, data in sorted(valid_images().items()):
        for mutated in mutations(data, rng, per_format):
            try:
                out = decode(np.frombuffer(mutated, np.uint8))
            except RuntimeError:
                refused += 1
            else:
                assert out.dtype == np.uint8 and out.ndim == 3 and out.shape[2] == 3, name
                assert out.shape[0] * out.shape[1] <= LIMIT, name
                decoded += 1
            try:
                check_image(mutated, name, "decode")
            except BadItem as bad:
                assert bad.where == name
    return decoded, refused


def test_mutated_images_decode_or_raise():
    decoded, refused = run_campaign(20, seed=0)
    assert decoded > 0 and refused > 0


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_mutated_images_long_campaign():
    decoded, refused = run_campaign(600, seed=1)
    assert decoded > 0 and refused > 0
