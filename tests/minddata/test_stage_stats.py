"""iterator.stage_stats(): one StageStats per node, source first, with counts and times."""
from minddata.engine.stats import StageStats
from .engine_helpers import numbers


def test_stage_stats_listed_from_source_to_root():
    it = numbers(10).map(lambda x: x + 1, "x", num_parallel_workers=2).batch(3) \
        .create_tuple_iterator(num_epochs=1)
    assert len(list(it)) == 4
    stats = it.stage_stats()
    assert [s.name for s in stats] == ["NumpySlicesDataset", "Map", "Batch"]
    assert all(isinstance(s, StageStats) for s in stats)
    assert [s.rows_out for s in stats] == [10, 10, 4]
    assert all(s.busy_s >= 0 and s.wait_s >= 0 for s in stats)
    assert stats[2].wait_s > 0                       # batch waited on the map
    assert stats[1].queue_capacity and stats[2].queue_samples > 0
