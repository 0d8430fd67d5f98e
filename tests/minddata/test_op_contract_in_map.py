"""map and the op contract (transforms_c/contract.py): an Operation gets its row's seed through
``apply``; a plain callable is called as ``fn(*columns)``; an object that is neither callable
nor an Operation is refused when the map is built."""
import numpy as np
import pytest

from .engine_helpers import numbers, values


class SeedOf:
    """An Operation whose output is the seed it was given (never called eagerly by map)."""

    is_random = True

    def apply(self, arrays, seed):
        return (np.int64(seed % 1000003),)

    def __call__(self, *arrays):
        raise AssertionError("map must run an Operation through apply(arrays, seed)")


class ApplyOnly:
    is_random = False

    def apply(self, arrays, seed):
        return arrays


def test_an_operation_runs_through_apply_with_its_rows_seed():
    first = values(numbers(6).map(SeedOf(), "x"))
    second = values(numbers(6).map(SeedOf(), "x", num_parallel_workers=3))
    assert first == second and len(set(first)) == 6   # one seed per row, any worker count


def test_a_plain_callable_beside_an_operation():
    seeds = values(numbers(4).map(SeedOf(), "x"))
    got = values(numbers(4).map([SeedOf(), lambda v: v + 1], "x"))
    assert got == [s + 1 for s in seeds]


def test_an_object_that_is_not_callable_is_refused_when_the_map_is_built():
    # measured in MindSpore 2.10: a ValueError
    with pytest.raises(ValueError, match=r"operations\[1\] is neither a transforms op nor a "
                                        r"callable pyfunc.*ApplyOnly"):
        numbers(3).map([lambda v: v, ApplyOnly()], "x")
