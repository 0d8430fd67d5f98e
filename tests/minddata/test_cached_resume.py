"""The state harness (engine_helpers.check_resume) over pipelines that read a cached map:
row by row, in whole batches (inline and on batch worker threads), and through a shuffle."""
import pytest

import minddata as ds
from minddata.cache import generate_session

from . import cache_test_helpers as helpers
from .engine_helpers import check_resume, numbers

cache_root = helpers.cache_root     # fixture: a private cache root for each test
pytestmark = pytest.mark.usefixtures("cache_root")


def _cached(n=11):
    return numbers(n).map(lambda x: x * 3, "x", num_parallel_workers=2,
                          cache=ds.DatasetCache(generate_session()))


PIPELINES = {
    "rows": lambda: _cached(),
    "batches": lambda: _cached().batch(3),
    "batches_drop": lambda: _cached().batch(4, drop_remainder=True),
    "batch_threads": lambda: _cached().batch(2, num_parallel_workers=2),
    "shuffle_batches": lambda: _cached().shuffle(4).batch(3),
}


@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_resume_reading_a_cached_map(name):
    stream = check_resume(PIPELINES[name](), num_epochs=3, stops=(0, 1, 2, 4, 6, 9))
    epochs = [[]]
    for item in stream:
        if item == "END":
            epochs.append([])
        else:
            epochs[-1].append(item)
    if not name.startswith("shuffle"):
        assert epochs[0] == epochs[1] == epochs[2] and epochs[0]


def test_a_fill_resumed_mid_epoch_completes_the_stage():
    cache = ds.DatasetCache(generate_session())
    calls = helpers.CallCounter()
    data = numbers(12).map(lambda x: calls() or x * 3, "x", cache=cache)
    it = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    head = [int(next(it)[0]) for _ in range(5)]
    state = it.get_state()
    it.close()
    rest = [int(r[0]) for r in data.create_tuple_iterator(num_epochs=1, output_numpy=True,
                                                           state=state)]
    assert head + rest == [3 * i for i in range(12)]
    before = calls.count
    again = [int(r[0]) for r in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    assert again == head + rest and calls.count == before      # served by the cache
