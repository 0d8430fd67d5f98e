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


# Eager calls (op(img) outside a pipeline) draw seeds from one process-wide counter stream. When
# minddata is importable, its config.set_seed value seeds the stream (checked at each draw, so a
# later set_seed restarts it); transforms_c never imports minddata at import time.
_eager_lock = threading.Lock()
_eager = {"seen": object(), "base": int.from_bytes(os.urandom(8), "little"), "counter": 0,
          "config": None}


def _configured_seed():
    config = _eager["config"]
    if config is None:
        try:
            import importlib
            config = importlib.import_module("minddata.config")
        except Exception:  # minddata absent or partial: the stream stays unseeded
            config = False
        _eager["config"] = config
    if config is False:
        return None
    try:
        return config.get_seed()
    except Exception:
        return None


def eager_seed():
    """Next seed for an eager call of a random op."""
    configured = _configured_seed()
    with _eager_lock:
        if configured is not None and configured != _eager["seen"]:
            _eager["seen"] = configured
            _eager["base"] = splitmix64(int(configured) & _MASK)
            _eager["counter"] = 0
        _eager["counter"] += 1
        return splitmix64(_eager["base"] ^ splitmix64(_eager["counter"]))


def reset_eager_stream(seed):
    """Restart the eager stream from `seed` (used when minddata is absent, and by tests)."""
    with _eager_lock:
        _eager["seen"] = seed
        _eager["base"] = splitmix64(int(seed) & _MASK)
        _eager["counter"] = 0


__all__ = ["Rng", "derive_seed", "splitmix64", "eager_seed", "reset_eager_stream"]
