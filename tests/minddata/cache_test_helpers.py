"""Helpers for the engine <-> cache tests: a private cache root per test, and direct access
to a stage's rows (to simulate a row lost from a complete stage)."""
import lmdb
import numpy as np
import pytest

from minddata.cache import sessions
from minddata.cache.stage_store import ROW_PREFIX, stage_hash


@pytest.fixture
def cache_root(tmp_path, monkeypatch):
    monkeypatch.setenv("MINDDATA_CACHE_DIR", str(tmp_path / "cache-root"))
    monkeypatch.setenv("MINDDATA_CACHE_SPILL_DIR", str(tmp_path / "cache-spill"))
    return tmp_path


def stage_key(dataset):
    """The key of the stage ``dataset`` caches: a source's own rows (shared by its shards and
    samplings), or a map's upstream description."""
    rows_key = getattr(dataset, "rows_key", None)
    return rows_key() if rows_key is not None else dataset.describe()


def write_mindrecord(tmp_path, n):
    """A MindRecord file of ``n`` rows: ``data`` (1 to 5 bytes, each the row's number) and
    ``label`` (the row's number)."""
    from mindrecord import FileWriter
    path = str(tmp_path / "rows.mindrecord")
    writer = FileWriter(path, shard_num=1)
    writer.add_schema({"data": {"type": "bytes"}, "label": {"type": "int32"}}, "rows")
    writer.write_raw_data([{"data": bytes([i]) * (i % 5 + 1), "label": i} for i in range(n)])
    writer.commit()
    return path


def delete_cached_row(session_id, dataset, row_key):
    """Remove one stored row of ``dataset``'s cached stage, leaving its counters and its
    completion marker: the stage still says complete but one row is gone."""
    columns = dataset.get_col_names()
    key = ROW_PREFIX + stage_hash(stage_key(dataset), columns) + int(row_key).to_bytes(8, "big")
    env = lmdb.open(sessions.require(session_id).env_dir, subdir=True, create=False)
    try:
        with env.begin(write=True) as txn:
            assert txn.delete(key), f"row {row_key} was not stored"
    finally:
        env.close()


def epochs(data, n, **kwargs):
    it = data.create_tuple_iterator(num_epochs=n, output_numpy=True, **kwargs)
    return [[tuple(np.array(c) for c in row) for row in it] for _ in range(n)]


def same_rows(a, b):
    return len(a) == len(b) and all(
        len(r) == len(s) and all(x.dtype == y.dtype and np.array_equal(x, y)
                                 for x, y in zip(r, s)) for r, s in zip(a, b))


class CallCounter:
    """Counts the calls of a cached map's function. A function's cache key covers the values
    it references, so a plain list that grows would change the key; the counter's state, as
    pickle sees it (``__getstate__``), leaves the count out: it does not change the rows."""

    def __init__(self):
        self.count = 0

    def __call__(self):
        self.count += 1

    def __getstate__(self):
        return {}
