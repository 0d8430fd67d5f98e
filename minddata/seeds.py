"""Derivation of every random decision's seed from (global seed, epoch, row id, op position).

A pure function of those four numbers, so a seeded pipeline draws the same values whatever
the number of workers and whether they are threads or processes.
"""
import numpy as np

_MASK = (1 << 64) - 1


def _mix64(z):
    # splitmix64 finaliser: a bijective, well-distributed 64-bit mix.
    z = (z + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def derive_seed(global_seed, epoch, row_id, op_position):
    """64-bit unsigned seed for one random decision."""
    h = _mix64(int(global_seed) & _MASK)
    h = _mix64(h ^ (int(epoch) & _MASK))
    h = _mix64(h ^ (int(op_position) & _MASK))
    return _mix64(h ^ (int(row_id) & _MASK))


def stage_base(global_seed, epoch, op_position):
    """Per-(epoch, op) prefix; ``row_seed(base, row)`` finishes the derivation cheaply."""
    h = _mix64(int(global_seed) & _MASK)
    h = _mix64(h ^ (int(epoch) & _MASK))
    return _mix64(h ^ (int(op_position) & _MASK))


def row_seed(base, row_id):
    return _mix64(base ^ (int(row_id) & _MASK))


def row_seeds(base, first, count):
    """``row_seed(base, first + i)`` for i in range(count), as a uint64 array: the same
    arithmetic on numpy's uint64, which wraps modulo 2**64 as the masks above do (a GPU batch
    node derives a whole batch's seeds at once, without a Python loop per row)."""
    z = np.uint64(int(base) & _MASK) ^ np.arange(first, first + count, dtype=np.uint64)
    z = z + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def rng(global_seed, epoch, op_position, stream=0):
    """numpy Generator for whole-epoch decisions of one op (sampler permutations, shuffle)."""
    return np.random.Generator(np.random.PCG64(derive_seed(global_seed, epoch, stream,
                                                           op_position)))
