"""Any sequence of puts, gets, flushes, completions and reopenings behaves like a dictionary:
a row read back is the row first put under its key, and a stage is complete only when a
mark_complete(n) saw at least n rows stored."""
import os
from unittest import mock

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from minddata.cache import DatasetCache, generate_session, stage_store

OPS = st.lists(st.tuples(st.sampled_from(["put", "get", "flush", "mark", "reopen"]),
                         st.integers(0, 12)), max_size=50)


def _row(key, version):
    return (np.full(3 + key, key * 10 + version, np.int32),)


@settings(deadline=None, max_examples=40)
@given(ops=OPS)
def test_store_behaves_like_a_dict(tmp_path_factory, ops):
    root = tmp_path_factory.mktemp("model")
    env = {"MINDDATA_CACHE_DIR": str(root / "root"), "MINDDATA_CACHE_SPILL_DIR": str(root / "sp")}
    with mock.patch.dict(os.environ, env), mock.patch.object(stage_store, "BATCH_ROWS", 3):
        cache = DatasetCache(generate_session())
        store = cache.open_stage("model", ["x"])
        model, complete_at, version = {}, None, 0
        try:
            for op, key in ops:
                if op == "put":
                    version += 1
                    store.put(key, _row(key, version % 7))
                    model.setdefault(key, version % 7)   # the first row put under a key stays
                elif op == "get":
                    row = store.get(key)
                    if key in model:
                        assert np.array_equal(row[0], _row(key, model[key])[0])
                    else:
                        assert row is None
                elif op == "flush":
                    store.flush()
                elif op == "mark":
                    done = store.mark_complete(key)
                    assert done == (len(model) >= key)
                    if done:
                        complete_at = key
                else:
                    store.close()
                    store = cache.open_stage("model", ["x"])
                assert store.is_complete() == (complete_at is not None)
        finally:
            store.close()
