"""Counter-based randomness for random ops.

Every random op draws from a small generator seeded with the 64-bit `seed` the engine passes to
`apply`, so a row's result depends only on (global seed, epoch, row id, op position), whatever the
number of workers. A fused plan gives each op it contains the sub-seed `derive_seed(seed, i)`
(i: the op's position inside the plan), exactly as `Compose` does, so fused and unfused runs draw
identical numbers. Only Python draws; the native kernels receive the drawn parameters.
"""
import math
import os
import sys
import threading

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z):
    """splitmix64's output function."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def splitmix64(value):
    """The first splitmix64 output of a generator seeded with `value`: a well-mixed 64-bit
    function of it."""
    z = (value + _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def derive_seed(seed, index):
    """Seed of the index-th op inside a composed/fused run whose seed is `seed`."""
    return splitmix64((int(seed) & _MASK) ^ splitmix64(int(index) + 1))


class Rng:
    """splitmix64 stream: uniform doubles in [0, 1) and bounded integers."""

    __slots__ = ("_state",)

    def __init__(self, seed):
        self._state = int(seed) & _MASK

    def next_u64(self):
        self._state = (self._state + _GOLDEN) & _MASK
        return _mix(self._state)

    def random(self):
        return (self.next_u64() >> 11) * (1.0 / 9007199254740992.0)

    def uniform(self, low, high):
        return low + (high - low) * self.random()

    def randint(self, low, high):
        """Integer in [low, high], both ends included."""
        if high <= low:
            return int(low)
        return int(low) + self.next_u64() % (int(high) - int(low) + 1)

    def log_uniform(self, low, high):
        return math.exp(self.uniform(math.log(low), math.log(high)))

    def gauss(self):
        """Standard normal (Box-Muller; one draw per call keeps the stream simple)."""
        u1 = max(self.random(), 1e-300)
        u2 = self.random()
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)

    def beta(self, alpha, beta):
        """Beta(alpha, beta) through two gamma draws (Marsaglia-Tsang)."""
        x = self.gamma(alpha)
        y = self.gamma(beta)
        return x / (x + y) if x + y > 0 else 0.5

    def gamma(self, shape):
        if shape < 1.0:
            return self.gamma(shape + 1.0) * self.random() ** (1.0 / shape)
        d = shape - 1.0 / 3.0
        c = 1.0 / math.sqrt(9.0 * d)
        while True:
            x = self.gauss()
            v = (1.0 + c * x) ** 3
            if v <= 0:
                continue
            u = self.random()
            if math.log(max(u, 1e-300)) < 0.5 * x * x + d - d * v + d * math.log(v):
                return d * v


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
