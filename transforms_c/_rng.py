"""Counter-based randomness for random ops.

Every random op draws from a small generator seeded with the 64-bit `seed` the engine passes to
`apply`, so a row's result depends only on (global seed, epoch, row id, op position), whatever the
number of workers. A fused plan gives each op it contains the sub-seed `derive_seed(seed, i)`
(i: the op's position inside the plan), exactly as `Compose` does, so fused and unfused runs draw
identical numbers. Only Python draws; the native kernels receive the drawn parameters.
"""
import os
import threading

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


# splitmix64, derive_seed and Rng are implemented in Cython (_native) for speed: a row of the
# train pipeline draws a dozen numbers, and Python integers would cost more than the crop.
from transforms_c._native import Rng, derive_seed, splitmix64  # noqa: E402,F401


# Eager calls (op(img) outside a pipeline) draw seeds from one process-wide counter stream. Its
# seed is passed in by whoever configures the process (minddata.config.set_seed calls
# seed_eager_stream); transforms_c itself never imports minddata. Unseeded, it starts from
# os.urandom.
_eager_lock = threading.Lock()
_eager = {"seen": object(), "base": int.from_bytes(os.urandom(8), "little"), "counter": 0}


def eager_seed():
    """Next seed for an eager call of a random op."""
    with _eager_lock:
        _eager["counter"] += 1
        return splitmix64(_eager["base"] ^ splitmix64(_eager["counter"]))


def seed_eager_stream(seed):
    """Seed the eager stream with `seed`; a seed equal to the current one keeps the stream's
    position (configuration code may pass the same seed again)."""
    with _eager_lock:
        if seed != _eager["seen"]:
            _restart(seed)


def reset_eager_stream(seed):
    """Restart the eager stream from `seed` (tests, and callers that want a fresh stream)."""
    with _eager_lock:
        _restart(seed)


def _restart(seed):
    _eager["seen"] = seed
    _eager["base"] = splitmix64(int(seed) & _MASK)
    _eager["counter"] = 0


__all__ = ["Rng", "derive_seed", "splitmix64", "eager_seed", "seed_eager_stream",
           "reset_eager_stream"]
