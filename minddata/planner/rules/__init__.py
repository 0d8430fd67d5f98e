"""The planner's rules, one per module, in the order they are tried.

Adding a rule: write a module here with one ``GraphRule`` or ``LoweringRule`` (planner/rule.py)
and put an instance of it in the right list below; if it makes a new kind of physical node,
register that kind's iterator in the engine (minddata/engine/registry.py). Test it on graphs
alone (tests/minddata/test_planner_rules.py).
"""
from .auto_shard import AutoShard
from .cache_map import CacheMap
from .cache_source import CacheSource
from .cached_batches import CachedBatches
from .gpu_batch import GpuBatch
from .map_fusion import MapFusion
from .native_batch import NativeBatch
from .process_batches import ProcessBatches
from .sync_wait_serial import SyncWaitSerial
from . import prefetch  # noqa: F401  (the plan-level rule, applied last)

#: logical -> logical, applied bottom-up before lowering
GRAPH_RULES = (AutoShard(), MapFusion(), SyncWaitSerial())

#: logical -> physical, the first that fires on a node takes it
LOWERING_RULES = (GpuBatch(), NativeBatch(), ProcessBatches(), CachedBatches(), CacheMap(),
                  CacheSource())
