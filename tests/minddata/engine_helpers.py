"""Shared helpers for the engine-core tests: small datasets, row conversion, the state
harness (one check used for every node) and resource probes."""
import json
import os
import threading

import numpy as np
import psutil

import minddata as ds


def numbers(n=10, shuffle=False, **kw):
    """Rows (x=i, y=10*i) from a NumpySlicesDataset (in order unless shuffle or a sampler)."""
    if "sampler" in kw:
        shuffle = None
    return ds.NumpySlicesDataset({"x": np.arange(n, dtype=np.int64),
                                  "y": np.arange(n, dtype=np.int64) * 10},
                                 shuffle=shuffle, **kw)


def values(dataset, column=0, num_epochs=1):
    """One epoch as a list of Python values of one column (lists for arrays)."""
    it = dataset.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True)
    try:
        return [r[column].tolist() for r in it]
    finally:
        it.close()


def rows(dataset):
    it = dataset.create_tuple_iterator(num_epochs=1, output_numpy=True)
    try:
        return [[a.tolist() for a in r] for r in it]
    finally:
        it.close()


def epochs(it, n):
    """n epochs of an iterator as lists of row lists."""
    out = []
    for _ in range(n):
        out.append([[a.tolist() for a in r] for r in it])
    return out


class RandomAdd:
    """A random op in the engine protocol: adds a value drawn from the row's seed."""

    is_random = True

    def apply(self, arrays, seed):
        rng = np.random.default_rng(seed)
        return (arrays[0] + int(rng.integers(0, 1000)),) + tuple(arrays[1:])

    def __call__(self, *arrays):
        return self.apply(arrays, np.random.randint(0, 2 ** 31))


def check_resume(dataset, num_epochs=2, stops=(0, 1, 3, 7), start_state=None):
    """THE state harness: for every stop point k (rows consumed across epochs), a new iterator
    created from the state taken after k rows yields exactly the rows a single uninterrupted
    iterator yields after those k rows (epoch boundaries included). Returns the full stream.
    ``start_state``: where both iterators start (e.g. a state resharded by elastic resume)."""
    ds.config.set_seed(1234)
    it = dataset.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True,
                                       state=start_state)
    full = []
    for _ in range(num_epochs):
        full.extend([a.tolist() for a in r] for r in it)
        full.append("END")
    it.close()
    flat = [x for x in full]
    n_rows = sum(1 for x in flat if x != "END")
    for k in stops:
        if k > n_rows:
            continue
        it = dataset.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True,
                                           state=start_state)
        got_before = []
        consumed = 0
        while consumed < k:
            try:
                got_before.append([a.tolist() for a in next(it)])
                consumed += 1
            except StopIteration:
                got_before.append("END")
        state = json.loads(json.dumps(it.get_state()))   # must survive JSON
        it.close()
        it2 = dataset.create_tuple_iterator(num_epochs=num_epochs, output_numpy=True,
                                            state=state)
        rest = []
        ended = sum(1 for x in got_before if x == "END")
        for _ in range(num_epochs - ended):
            rest.extend([a.tolist() for a in r] for r in it2)
            rest.append("END")
        it2.close()
        expected = _after(flat, k, ended)
        assert rest == expected, f"resume after {k} rows differs"
    return flat


def _after(flat, k, ended):
    """Items of the full stream after the k-th row (an END right after the k-th row belongs
    to the remainder unless it was consumed)."""
    seen = 0
    i = 0
    ends = 0
    while seen < k:
        if flat[i] == "END":
            ends += 1
        else:
            seen += 1
        i += 1
    # skip ENDs the first iterator already consumed
    while ends < ended and i < len(flat) and flat[i] == "END":
        ends += 1
        i += 1
    return flat[i:]


def child_pids():
    return {p.pid for p in psutil.Process().children(recursive=True)}


def live_children():
    out = set()
    for p in psutil.Process().children(recursive=True):
        try:
            if p.status() != psutil.STATUS_ZOMBIE:
                out.add(p.pid)
        except psutil.NoSuchProcess:
            pass
    return out


def shm_entries():
    """/dev/shm segments this process (or its children) has open or mapped. (The directory's
    listing is shared with every other process on the machine, so it is not checked.)"""
    out = set()
    procs = [psutil.Process()] + psutil.Process().children(recursive=True)
    for p in procs:
        try:
            paths = [f.path for f in p.open_files()] + \
                [m.path for m in p.memory_maps(grouped=True)]
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        out.update(x for x in paths if x.startswith("/dev/shm/"))
    return out


def minddata_threads():
    return [t for t in threading.enumerate() if t.name.startswith("minddata")]


def wait_until(pred, timeout=5.0):
    import time
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.05)
    return pred()
