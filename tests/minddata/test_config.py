import logging

import pytest

import minddata as ds
from minddata.debug import DebugHook
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

    class Hook(DebugHook):
        def compute(self, *args):
            seen.append((self.prev_op_name, self.is_first_op, len(args[0])))

    ds.config.set_debug_mode(True, [Hook()])
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
    # measured in MindSpore 2.10: a hook sees the first op's input, then every op's output
    assert seen == [("<lambda>", True, 1), ("<lambda>", False, 1)] * 3
    with pytest.raises(TypeError):
        ds.config.set_debug_mode("yes")
