"""A seeded pipeline gives identical rows for any worker count and for threads vs processes,
shuffles and random ops included."""
import numpy as np
import pytest

import minddata as ds
from .engine_helpers import RandomAdd, epochs, numbers


def _pipe(workers, processes, source_workers=1):
    src = ds.GeneratorDataset([(np.array(i), np.array([i, -i])) for i in range(40)],
                              ["x", "v"], num_parallel_workers=source_workers,
                              python_multiprocessing=processes)
    return (src.map(RandomAdd(), "x", num_parallel_workers=workers,
                    python_multiprocessing=processes)
            .shuffle(7).batch(5))


def _run(pipe, n_epochs=2):
    it = pipe.create_tuple_iterator(num_epochs=n_epochs)
    try:
        return epochs(it, n_epochs)
    finally:
        it.close()


def test_same_rows_for_any_worker_count_and_kind():
    ds.config.set_seed(7)
    ref = _run(_pipe(1, False))
    for workers, processes, src_workers in ((2, False, 2), (4, False, 1), (2, True, 2),
                                            (3, True, 1)):
        ds.config.set_seed(7)
        assert _run(_pipe(workers, processes, src_workers)) == ref, (workers, processes)


def test_epochs_differ_but_repeat_reproducibly():
    ds.config.set_seed(3)
    a = _run(_pipe(2, False))
    assert a[0] != a[1]          # a new shuffle and new random draws each epoch
    ds.config.set_seed(3)
    assert _run(_pipe(2, False)) == a


def test_different_seeds_differ():
    ds.config.set_seed(1)
    a = _run(numbers(30, shuffle=True), 1)
    ds.config.set_seed(2)
    b = _run(numbers(30, shuffle=True), 1)
    assert a != b
    assert sorted(a[0]) == sorted(b[0])


def test_python_random_seeded_per_row_in_processes_and_inline():
    def noisy(x):
        return x + np.random.randint(0, 1000)

    ds.config.set_seed(11)
    inline = _run(numbers(20).map(noisy, "x", num_parallel_workers=1), 1)
    ds.config.set_seed(11)
    procs = _run(numbers(20).map(noisy, "x", num_parallel_workers=2,
                                 python_multiprocessing=True), 1)
    assert inline == procs


@pytest.mark.parametrize("workers", [1, 2, 5])
def test_output_order_is_input_order(workers):
    out = _run(numbers(50).map(lambda x: x * 3, "x", num_parallel_workers=workers), 1)
    assert [r[0] for r in out[0]] == [3 * i for i in range(50)]


def test_debug_mode_gives_the_same_rows():
    ds.config.set_seed(5)
    ref = _run(_pipe(2, False))
    ds.config.set_debug_mode(True)
    ds.config.set_seed(5)
    assert _run(_pipe(2, False)) == ref
