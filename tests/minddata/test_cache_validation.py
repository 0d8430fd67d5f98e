"""DatasetCache validates its arguments as MindSpore does: TypeError for a wrong type,
ValueError for a value out of range, each naming the argument."""
import copy
import pickle

import pytest

from minddata.cache import DatasetCache


def test_defaults_are_mindspores():
    cache = DatasetCache(7)
    assert (cache.session_id, cache.size, cache.spilling) == (7, 0, False)
    assert cache.hostname is None and cache.port is None
    assert cache.num_connections is None and cache.prefetch_size is None


def test_compat_arguments_are_accepted():
    cache = DatasetCache(1, size=64, spilling=True, hostname="127.0.0.1", port=50052,
                         num_connections=12, prefetch_size=20)
    assert (cache.hostname, cache.port, cache.num_connections, cache.prefetch_size) == \
        ("127.0.0.1", 50052, 12, 20)


@pytest.mark.parametrize("kwargs, name", [
    ({"session_id": "1"}, "session_id"),
    ({"session_id": 1.0}, "session_id"),
    ({"session_id": True}, "session_id"),
    ({"session_id": 1, "size": 1.5}, "size"),
    ({"session_id": 1, "spilling": 1}, "spilling"),
    ({"session_id": 1, "hostname": 127}, "hostname"),
    ({"session_id": 1, "port": "50052"}, "port"),
    ({"session_id": 1, "num_connections": 2.0}, "num_connections"),
    ({"session_id": 1, "prefetch_size": None, "size": None}, "size"),
])
def test_wrong_types_raise_type_error(kwargs, name):
    with pytest.raises(TypeError, match=name):
        DatasetCache(**kwargs)


@pytest.mark.parametrize("kwargs, name", [
    ({"session_id": 0}, "session_id"),
    ({"session_id": -3}, "session_id"),
    ({"session_id": 2**32}, "session_id"),
    ({"session_id": 1, "size": -1}, "size"),
    ({"session_id": 1, "port": 80}, "port"),
    ({"session_id": 1, "port": 65536}, "port"),
    ({"session_id": 1, "num_connections": 0}, "num_connections"),
    ({"session_id": 1, "prefetch_size": 2**31}, "prefetch_size"),
])
def test_out_of_range_raises_value_error(kwargs, name):
    with pytest.raises(ValueError, match=name):
        DatasetCache(**kwargs)


def test_pickles_as_its_arguments():
    cache = DatasetCache(9, size=3, spilling=True)
    clone = pickle.loads(pickle.dumps(cache))
    assert (clone.session_id, clone.size, clone.spilling) == (9, 3, True)


def test_deepcopy_shares_the_cache():
    cache = DatasetCache(9)
    assert copy.deepcopy({"c": cache})["c"] is cache


def test_exported_from_minddata():
    import minddata
    assert minddata.DatasetCache is DatasetCache
