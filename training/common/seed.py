"""The global seed (`mindspore.set_seed` / `get_seed`) and the random generator
(`mindspore.Generator`, `default_generator`, `manual_seed`, `seed`, `initial_seed`,
`get_rng_state`, `set_rng_state`): initializers, dropout masks and the random ops draw from the
default generator's numpy generator; set_seed seeds numpy's global generator too, as
MindSpore's documentation says."""
import secrets

import numpy as np

_seed = None
_STATE_BYTES = 56   # the seed (int64), then numpy PCG64's state, increment, has_uint32, uinteger


class Generator:
    """A random generator with MindSpore's methods, on a numpy PCG64 generator (`numpy`).
    Its state (get_state) is a uint8 Tensor of 56 bytes that set_state restores exactly
    (MindSpore's: 16 bytes of seed and Philox offset; the two do not carry over)."""

    def __init__(self, numpy_generator=None):
        self._initial_seed = 0
        self.numpy = numpy_generator if numpy_generator is not None else \
            np.random.default_rng(0)

    def manual_seed(self, seed):
        """Seed it (any int64, negative ones too, as MindSpore); returns the generator."""
        if not isinstance(seed, int):
            raise TypeError("Seed must be an integer.")
        if not -2 ** 63 <= seed < 2 ** 63:
            raise RuntimeError(f"Cannot construct Tensor because of unsupported data type: the "
                               f"seed {seed} is out of int64's range.")
        self._initial_seed = int(seed)
        self.numpy = np.random.default_rng(int(seed) % 2 ** 64)
        return self

    def seed(self):
        """Seed it with a fresh random seed, and return that seed."""
        chosen = secrets.randbits(32)
        self.manual_seed(chosen)
        return chosen

    def initial_seed(self):
        """The last seed given (0 before any)."""
        return self._initial_seed

    def get_state(self):
        from training.tensor import Tensor
        state = self.numpy.bit_generator.state
        if state.get("bit_generator") != "PCG64":
            raise RuntimeError(f"get_state reads PCG64 generators, not {state['bit_generator']}")
        words = [self._initial_seed % 2 ** 64, state["state"]["state"], state["state"]["inc"],
                 state["has_uint32"], state["uinteger"]]
        raw = b"".join(int(w).to_bytes(n, "little") for w, n in zip(words, (8, 16, 16, 8, 8)))
        return Tensor(np.frombuffer(raw, np.uint8).copy())

    def set_state(self, state):
        data = state.asnumpy() if hasattr(state, "asnumpy") else None
        if data is None or data.dtype != np.uint8 or data.size != _STATE_BYTES:
            raise RuntimeError(f"Invalid tensor input: State must be the uint8 Tensor of "
                               f"{_STATE_BYTES} bytes that get_state gives, but got "
                               f"{type(state).__name__}")
        raw, words, at = data.tobytes(), [], 0
        for n in (8, 16, 16, 8, 8):
            words.append(int.from_bytes(raw[at:at + n], "little"))
            at += n
        seed = words[0] - 2 ** 64 if words[0] >= 2 ** 63 else words[0]
        numpy_generator = np.random.Generator(np.random.PCG64())
        numpy_generator.bit_generator.state = {
            "bit_generator": "PCG64", "state": {"state": words[1], "inc": words[2]},
            "has_uint32": words[3], "uinteger": words[4]}
        self._initial_seed, self.numpy = seed, numpy_generator
        return self


default_generator = Generator(np.random.default_rng())


def set_seed(seed):
    """Seed the initializers, dropout and numpy.random (`mindspore.set_seed`); the default
    generator's initial_seed stays (MindSpore's set_seed leaves its generator alone too)."""
    global _seed
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"For 'set_seed', 'seed' must be a non-negative int, but got {seed!r}")
    _seed = seed
    default_generator.numpy = np.random.default_rng(seed)
    np.random.seed(seed % 2 ** 32)


def get_seed():
    """The seed given to set_seed, or None."""
    return _seed


def rng():
    """The generator every random initial value and mask draws from."""
    return default_generator.numpy


def manual_seed(seed):
    return default_generator.manual_seed(seed)


def seed():
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(state):
    default_generator.set_state(state)
