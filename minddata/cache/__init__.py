"""The dataset cache: later epochs, and other processes on the same host, read a stage's rows
instead of recomputing them. Serverless: sessions are LMDB environments under a per-host cache
root (memory, /dev/shm by default) with rows beyond the memory cap spilled to disk."""
from .cacheable import assert_cacheable
from .dataset_cache import DatasetCache
from .sessions import create as create_session
from .sessions import destroy as destroy_session
from .sessions import generate as generate_session
from .sessions import list_ids as list_sessions
from .stage_store import StageStore
from .stats import CacheStats

__all__ = ["DatasetCache", "assert_cacheable", "CacheStats", "StageStore", "generate_session",
           "create_session", "destroy_session", "list_sessions"]
