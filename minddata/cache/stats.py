"""Per-stage counters stored inside the session's LMDB environment, and the summary users see.

Counters live under key b"s" + stage hash as seven little-endian uint64s. Writers update them in
the same transaction as the rows they describe, so row counts and byte counts never disagree with
the rows; hit/miss counts are accumulated in each process and added in batches (a process killed
with -9 loses its last unflushed hits and misses, never rows)."""
import struct
from dataclasses import dataclass, fields

STATS_PREFIX = b"s"
_STRUCT = struct.Struct("<7Q")


@dataclass
class StageCounters:
    rows_mem: int = 0
    rows_spill: int = 0
    bytes_mem: int = 0
    bytes_spill: int = 0
    hits: int = 0
    misses: int = 0
    dropped: int = 0

    @property
    def rows(self):
        return self.rows_mem + self.rows_spill

    def pack(self):
        return _STRUCT.pack(*(getattr(self, f.name) for f in fields(self)))

    @classmethod
    def unpack(cls, buf):
        if buf is None or len(buf) != _STRUCT.size:
            return cls()
        return cls(*_STRUCT.unpack(bytes(buf)))

    def add(self, other):
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def read_counters(txn, stage_hash):
    return StageCounters.unpack(txn.get(STATS_PREFIX + stage_hash))


def write_counters(txn, stage_hash, counters):
    txn.put(STATS_PREFIX + stage_hash, counters.pack())


def iter_stage_counters(txn):
    """(stage_hash, StageCounters) for every stage of the session."""
    cursor = txn.cursor()
    if not cursor.set_range(STATS_PREFIX):
        return
    for key, value in cursor:
        key = bytes(key)
        if not key.startswith(STATS_PREFIX):
            break
        yield key[len(STATS_PREFIX):], StageCounters.unpack(value)


def session_counters(txn):
    total = StageCounters()
    for _, counters in iter_stage_counters(txn):
        total.add(counters)
    return total


@dataclass
class CacheStats:
    """What ``DatasetCache.get_stat()`` returns. ``num_mem_cached``, ``num_disk_cached`` and
    ``avg_cache_sz`` are MindSpore's names; the rest are this cache's own counters."""
    session_id: int
    stages: int = 0
    rows_in_memory: int = 0
    rows_spilled: int = 0
    bytes_in_memory: int = 0
    bytes_spilled: int = 0
    hits: int = 0
    misses: int = 0
    rows_not_cached: int = 0  # puts refused because the memory cap was reached (no spilling)

    @classmethod
    def from_counters(cls, session_id, stages, counters):
        return cls(session_id=session_id, stages=stages, rows_in_memory=counters.rows_mem,
                   rows_spilled=counters.rows_spill, bytes_in_memory=counters.bytes_mem,
                   bytes_spilled=counters.bytes_spill, hits=counters.hits,
                   misses=counters.misses, rows_not_cached=counters.dropped)

    @property
    def rows(self):
        return self.rows_in_memory + self.rows_spilled

    @property
    def num_mem_cached(self):
        return self.rows_in_memory

    @property
    def num_disk_cached(self):
        return self.rows_spilled

    @property
    def avg_cache_sz(self):
        """Average stored row size in bytes."""
        total = self.bytes_in_memory + self.bytes_spilled
        return total // self.rows if self.rows else 0
