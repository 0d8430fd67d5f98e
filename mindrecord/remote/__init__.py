"""MindRecord sets in object storage (S3 and compatible stores, GCS, HTTP, any fsspec URL).

- ``urls``: telling a URL from a path, and the fsspec file system that serves it;
- ``retry``: retries with backoff around every request, and errors that name the URL;
- ``objects``: one listing and ranged reads of the objects of a set, checked for length and
  pinned to the ETag seen at open, so that a changed object is never mixed into a read;
- ``shard_cache``: the node-local cache of whole shard files (size-limited, LRU, shared by every
  process of the node through file locks, verified, safe against kill -9);
- ``remote_set``: opening a remote set (headers only) and materialising its shards on demand,
  ahead of the reader in the order the sampler will need them;
- ``upload``: putting a locally written set at a URL so that it appears complete or not at all.
"""
from .urls import is_url

__all__ = ["is_url"]
