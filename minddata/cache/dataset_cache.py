"""``DatasetCache``: what users pass as ``cache=`` to a source or to ``map``.

It holds only its arguments (so a dataset that carries it pickles, and each process opens its
own handles); the engine calls ``open_stage`` when a pipeline starts iterating. There is no
server: stores are LMDB environments under the host's cache root (see root.py)."""

import warnings

import lmdb

from . import sessions
from .cacheable import assert_cacheable
from .disk_space import is_full_error
from .no_room_store import NoRoomStore
from .identity import refuse_unidentified
from .stage_store import DEFAULT_READ_AHEAD, StageStore
from .validation import check_int_range, check_pos_int32, check_pos_uint32, check_pos_uint64, \
    check_type

_MB = 1 << 20


class DatasetCache:
    """A client of the host's dataset cache.

    Args:
        session_id (int): a session made by ``dataset-cache -g`` (or ``cache_admin -g``), in
            [1, 2**32-1].
        size (int, optional): memory, in MB, the session may hold (default 0: no per-session
            cap; the host cap set by ``dataset-cache -m`` still applies).
        spilling (bool, optional): when the memory cap is reached, write further rows to the
            spill directory on disk (default False: the cache stops growing and warns once).
        hostname (str, optional), port (int, optional), num_connections (int, optional):
            accepted and validated as in MindSpore, for scripts that pass them; this cache has
            no server, so they change nothing.
        prefetch_size (int, optional): rows read ahead when a complete stage is read in order
            (default None: 20, MindSpore's default).
    """

    def __init__(self, session_id, size=0, spilling=False, hostname=None, port=None,
                 num_connections=None, prefetch_size=None):
        check_pos_uint32(session_id, "session_id")
        check_type(size, (int,), "size")
        if size != 0:
            check_pos_uint64(size, "size")
        check_type(spilling, (bool,), "spilling")
        if hostname is not None:
            check_type(hostname, (str,), "hostname")
        if port is not None:
            check_int_range(port, 1025, 65535, "port")
        if num_connections is not None:
            check_pos_int32(num_connections, "num_connections")
        if prefetch_size is not None:
            check_pos_int32(prefetch_size, "prefetch_size")
        self.session_id = session_id
        self.size = size
        self.spilling = spilling
        self.hostname = hostname
        self.port = port
        self.num_connections = num_connections
        self.prefetch_size = prefetch_size

    def __repr__(self):
        return (f"DatasetCache(session_id={self.session_id}, size={self.size}, "
                f"spilling={self.spilling})")

    def __deepcopy__(self, memo):
        # Copies of a pipeline share the cache, as in MindSpore.
        memo[id(self)] = self
        return self

    def __copy__(self):
        return self

    # -- the engine's side ---------------------------------------------------------------------
    def open_stage(self, pipeline_key, column_names):
        """The store for the stage whose upstream pipeline is described by ``pipeline_key``.
        Raises RuntimeError if the session does not exist, or if the key says that part of
        the upstream pipeline cannot be identified (identity.py)."""
        refuse_unidentified(pipeline_key)
        found = sessions.require(self.session_id)
        try:
            return StageStore(found, pipeline_key, column_names, size_bytes=self.size * _MB,
                              spilling=self.spilling,
                              read_ahead=self.prefetch_size or DEFAULT_READ_AHEAD)
        except lmdb.Error as exc:
            if not is_full_error(exc, (found.env_dir, found.spill_dir)):
                raise
            warnings.warn(f"DatasetCache session {self.session_id}: the file system of the "
                          f"cache ({found.env_dir}) is full ({exc}); this pipeline runs "
                          "without the cache. Free space there or move the cache "
                          "($MINDDATA_CACHE_DIR).", RuntimeWarning, stacklevel=2)
            return NoRoomStore(self.session_id)

    @staticmethod
    def check_cacheable(operations):
        """RuntimeError naming the op if any of ``operations`` is random (see assert_cacheable)."""
        assert_cacheable(operations)

    # -- users' side ---------------------------------------------------------------------------
    def get_stat(self):
        """Counters of this session: ``num_mem_cached``, ``num_disk_cached``, ``avg_cache_sz``
        (MindSpore's names) and rows, bytes_in_memory, bytes_spilled, hits, misses."""
        sessions.require(self.session_id)
        return sessions.session_stats(self.session_id)
