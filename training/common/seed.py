"""The global seed (`mindspore.set_seed` / `get_seed`): initializers, dropout masks and the
random ops draw from the generator it seeds; numpy's global generator is seeded too, as
MindSpore's documentation says."""
import numpy as np

_seed = None
_rng = np.random.default_rng()


def set_seed(seed):
    """Seed the initializers, dropout and numpy.random (`mindspore.set_seed`)."""
    global _seed, _rng
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"For 'set_seed', 'seed' must be a non-negative int, but got {seed!r}")
    _seed = seed
    _rng = np.random.default_rng(seed)
    np.random.seed(seed % 2 ** 32)


def get_seed():
    """The seed given to set_seed, or None."""
    return _seed


def rng():
    """The generator every random initial value and mask draws from."""
    return _rng
