"""One executor budget per pipeline: every node's worker threads come from one pool, sized by
the largest worker count a node asks for, and released with the run."""
import threading

import numpy as np

import minddata as ds


def worker_threads():
    return [t for t in threading.enumerate() if t.name.startswith("minddata-worker")]


def pipeline(workers):
    data = ds.NumpySlicesDataset({"x": np.arange(400)}, shuffle=False,
                                 num_parallel_workers=workers[0])
    data = data.map(lambda x: x + 1, "x", num_parallel_workers=workers[1])
    return data.batch(8, num_parallel_workers=workers[2])


def test_source_map_and_batch_share_the_largest_reservation():
    it = pipeline((2, 3, 2)).create_tuple_iterator(output_numpy=True, num_epochs=1)
    first = next(it)
    # Three nodes asking for 2, 3 and 2 workers run on one pool of 3 threads, not 7.
    assert 1 <= len(worker_threads()) <= 3
    rows = [int(v) for v in first[0]] + [int(v) for batch in it for v in batch[0]]
    assert rows == list(range(1, 401))
    it.close()
    assert not worker_threads()


def test_threads_seen_while_running_are_bounded_by_the_budget():
    seen = set()

    def spy(x):
        seen.add(threading.current_thread().name)
        return x
    data = ds.NumpySlicesDataset({"x": np.arange(300)}, shuffle=False, num_parallel_workers=2)
    data = data.map(spy, "x", num_parallel_workers=2).batch(4, num_parallel_workers=2)
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=1)
    assert sum(len(b[0]) for b in it) == 300
    assert seen and all(n.startswith("minddata-worker") for n in seen) and len(seen) <= 2
    it.close()
    assert not worker_threads()
