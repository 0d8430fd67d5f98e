"""The dataset cache: later epochs, and other processes on the same host, read a stage's rows
instead of recomputing them. Serverless: sessions are LMDB environments under a per-host cache
root (memory, /dev/shm by default) with rows beyond the memory cap spilled to disk.

Names are loaded on first use, so that sources and ``map`` can use ``minddata.cache.identity``
(cache keys) without loading LMDB and the store."""
import importlib

_EXPORTS = {
    "DatasetCache": ("dataset_cache", "DatasetCache"),
    "assert_cacheable": ("cacheable", "assert_cacheable"),
    "CacheStats": ("stats", "CacheStats"),
    "StageStore": ("stage_store", "StageStore"),
    "generate_session": ("sessions", "generate"),
    "create_session": ("sessions", "create"),
    "destroy_session": ("sessions", "destroy"),
    "list_sessions": ("sessions", "list_ids"),
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    try:
        module, attr = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f"{__name__}.{module}"), attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
