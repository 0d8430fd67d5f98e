import logging

import pytest

import minddata as ds
from .engine_helpers import numbers


def test_seed_roundtrip_and_validation():
    ds.config.set_seed(42)
    assert ds.config.get_seed() == 42
    with pytest.raises(TypeError):
        ds.config.set_seed("1")
    with pytest.raises(ValueError):
        ds.config.set_seed(-1)


def test_workers_prefetch_shared_mem():
    old = ds.config.get_num_parallel_workers()
    ds.config.set_num_parallel_workers(3)
    assert ds.config.get_num_parallel_workers() == 3
    ds.config.set_num_parallel_workers(old)
    with pytest.raises(ValueError):
        ds.config.set_num_parallel_workers(0)
    with pytest.raises(ValueError):
        ds.config.set_prefetch_size(0)
    with pytest.raises(TypeError):
        ds.config.set_enable_shared_mem(1)


def test_debug_mode_logs_shapes_and_calls_hooks(caplog):
    seen = []
    ds.config.set_debug_mode(True, [lambda name, i, o: seen.append(name)])
    try:
        with caplog.at_level(logging.INFO, logger="minddata"):
            d = numbers(3).map(lambda x: x * 2, "x", num_parallel_workers=4).batch(2)
            it = d.create_tuple_iterator(num_epochs=1)
            assert it._run._thread is None          # one thread: no producer thread
            assert len(list(it)) == 2
    finally:
        ds.config.set_debug_mode(False)
    text = caplog.text
    assert "Batch out [((2,), 'int64'), ((2,), 'int64')]" in text
    assert "map op <lambda> in [((), 'int64')]" in text
    assert seen == ["<lambda>"] * 3
    with pytest.raises(TypeError):
        ds.config.set_debug_mode("yes")
