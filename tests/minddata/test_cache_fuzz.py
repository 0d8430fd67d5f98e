"""A fault-and-fuzz campaign over the cache paths: random pipelines, data and code changed
between runs, damaged and lost stored rows, size caps, full file systems (small tmpfs mounts,
as root) and kill -9 during a fill. Whatever happens, every epoch must equal the same pipeline run without a cache. A short
run is part of the normal suite; the long one is marked slow (make fuzz)."""
import os
import signal
import subprocess
import sys
import textwrap
import time
import warnings

import lmdb
import numpy as np
import pytest

import minddata as ds
from minddata.cache import destroy_session, generate_session, sessions
from minddata.cache.stage_store import ROW_PREFIX, stage_hash

from . import cache_test_helpers as helpers

cache_root = helpers.cache_root     # fixture: a private cache root for each test
pytestmark = pytest.mark.usefixtures("cache_root")

DTYPES = [np.uint8, np.int32, np.float32, np.float64]


class _Case:
    """One pipeline under test: in-memory data, a map function with a closure constant, and
    optionally the source cached instead of the map (through a one-file MindRecord set)."""

    def __init__(self, rng, tmp_path):
        self.rng = rng
        self.tmp_path = tmp_path
        self.new_data()
        self.scale = int(rng.integers(1, 5))
        self.spilling = bool(rng.integers(2))
        self.size = int(rng.choice([0, 0, 1]))        # MB; 1 MB makes the cap bite

    def new_data(self):
        rows = int(self.rng.integers(1, 90))
        shape = tuple(int(d) for d in self.rng.integers(1, 40, size=int(self.rng.integers(1, 3))))
        dtype = DTYPES[int(self.rng.integers(len(DTYPES)))]
        self.data = (self.rng.random((rows,) + shape) * 100).astype(dtype)

    def pipeline(self, cache):
        scale = self.scale
        data = ds.NumpySlicesDataset(self.data, column_names=["x"], shuffle=False)
        return data.map(lambda x: x * scale + 1, cache=cache)

    def expected(self):
        return [r[0] for r in self.pipeline(None).create_tuple_iterator(
            num_epochs=1, output_numpy=True)]

    def check(self, session, epochs=2):
        cache = ds.DatasetCache(session, size=self.size, spilling=self.spilling)
        want = self.expected()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)     # "cache stops growing"
            it = self.pipeline(cache).create_tuple_iterator(num_epochs=epochs, output_numpy=True)
            for _ in range(epochs):
                got = [r[0] for r in it]
                assert len(got) == len(want)
                for g, w in zip(got, want):
                    assert g.dtype == w.dtype and np.array_equal(g, w)
        return cache


def _damage_a_row(session, case, rng):
    """Overwrite one stored row of the case's stage with random bytes (or delete it)."""
    data = case.pipeline(ds.DatasetCache(session))
    key = ROW_PREFIX + stage_hash(helpers.stage_key(data), data.get_col_names())
    key += int(rng.integers(len(case.data))).to_bytes(8, "big")
    env = lmdb.open(sessions.require(session).env_dir, subdir=True, create=False)
    try:
        with env.begin(write=True) as txn:
            if txn.get(key) is not None:
                if rng.integers(2):
                    txn.put(key, rng.bytes(int(rng.integers(0, 64))))
                else:
                    txn.delete(key)
    finally:
        env.close()


_KILLED_FILL = """
import sys
import numpy as np
import minddata as ds
data = np.load(sys.argv[2])
scale = int(sys.argv[3])
cache = ds.DatasetCache(int(sys.argv[1]))
pipe = ds.NumpySlicesDataset(data, column_names=["x"], shuffle=False).map(
    lambda x: x * scale + 1, cache=cache)
print("started", flush=True)
for _ in range(1000):
    for _ in pipe.create_tuple_iterator(num_epochs=1, output_numpy=True):
        pass
"""


def _kill_during_fill(session, case, rng):
    np.save(case.tmp_path / "data.npy", case.data)
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(_KILLED_FILL), str(session),
         str(case.tmp_path / "data.npy"), str(case.scale)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=os.getcwd())
    try:
        child.stdout.readline()
        time.sleep(float(rng.random()) * 0.3)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()


def _check_on_a_full_tmpfs(case, rng, tmp_path):
    """The case with its cache root (and maybe its spill directory) on a 1-3 MiB tmpfs, which
    fills up while the rows are stored (root only; a no-op otherwise)."""
    if os.geteuid() != 0:
        return
    mount = tmp_path / f"mem-{int(rng.integers(1 << 30))}"
    mount.mkdir()
    size = f"size={int(rng.integers(1, 4))}m"
    if subprocess.run(["mount", "-t", "tmpfs", "-o", size, "tmpfs", str(mount)],
                      capture_output=True).returncode:
        return
    saved = {k: os.environ.get(k) for k in ("MINDDATA_CACHE_DIR", "MINDDATA_CACHE_SPILL_DIR")}
    try:
        os.environ["MINDDATA_CACHE_DIR"] = str(mount / "root")
        if rng.integers(2):
            os.environ["MINDDATA_CACHE_SPILL_DIR"] = str(mount / "spill")
        case.check(generate_session())
    finally:
        for key, value in saved.items():
            os.environ.pop(key, None) if value is None else os.environ.__setitem__(key, value)
        if subprocess.run(["umount", str(mount)], capture_output=True).returncode:
            subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def _campaign(tmp_path, seed, steps, kills=False):
    rng = np.random.default_rng(seed)
    session = generate_session()
    case = _Case(rng, tmp_path)
    case.check(session)
    for _ in range(steps):
        action = int(rng.integers(9 if kills else 8))
        if action == 0:
            case.new_data()                                   # a new array
        elif action == 1:
            case.data[int(rng.integers(len(case.data)))] += 1   # changed in place
        elif action == 2:
            case.scale += 1                                   # the closure changed
        elif action == 3:
            _damage_a_row(session, case, rng)
        elif action == 4:
            destroy_session(session)
            session = generate_session()
        elif action == 5:
            case.spilling = not case.spilling
            case.size = int(rng.choice([0, 1]))
        elif action == 6:
            pass                                              # a plain rerun
        elif action == 7:
            _check_on_a_full_tmpfs(case, rng, tmp_path)
        else:
            _kill_during_fill(session, case, rng)
        cache = case.check(session)
        stat = cache.get_stat()
        assert stat.rows_in_memory >= 0 and stat.hits >= 0 and stat.misses >= 0


def test_cache_fault_campaign_short(tmp_path):
    for seed in range(3):
        _campaign(tmp_path, seed, steps=6)


@pytest.mark.slow
def test_cache_fault_campaign_long(tmp_path):
    for seed in range(100, 120):
        _campaign(tmp_path, seed, steps=25, kills=True)
