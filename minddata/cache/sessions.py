"""The session registry: a session is a directory under <root>/sessions named by its id.

Creating one is an atomic mkdir; destroying one renames the directory aside (atomic) before
deleting it, so no process ever opens a half-deleted session; leftovers of an interrupted destroy
(a kill -9 of the admin tool) and spill areas whose session no longer exists are removed by the
next registry scan (``recover_stale``)."""
import os
import secrets
import shutil
from dataclasses import dataclass

from . import envs
from . import root as roots
from .stats import CacheStats, iter_stage_counters, StageCounters
from .validation import UINT32_MAX, check_pos_uint32

TRASH_PREFIX = ".trash-"
SPILL_PREFIX = "session-"


@dataclass(frozen=True)
class SessionPaths:
    session_id: int
    env_dir: str      # LMDB environment in the (memory) cache root
    spill_dir: str    # LMDB environment for spilled rows, on disk

    def has_data(self):
        return os.path.exists(os.path.join(self.env_dir, "data.mdb"))

    def has_spill(self):
        return os.path.exists(os.path.join(self.spill_dir, "data.mdb"))


def paths(session_id, root=None):
    root = root or roots.cache_root()
    return SessionPaths(session_id, os.path.join(roots.sessions_dir(root), str(session_id)),
                        os.path.join(roots.spill_root(root), f"{SPILL_PREFIX}{session_id}"))


def exists(session_id, root=None):
    return os.path.isdir(paths(session_id, root).env_dir)


def require(session_id, root=None):
    """Paths of an existing session, or RuntimeError saying how to create one."""
    found = paths(session_id, root)
    if not os.path.isdir(found.env_dir):
        raise RuntimeError(
            f"DatasetCache session {session_id} not found under {roots.sessions_dir(root)}: "
            "generate a session first with `dataset-cache -g` (or cache_admin -g) and pass the "
            "printed id as session_id")
    return found


def generate(root=None):
    """Create a new session with a random id in [1, 2**32-1] and return the id."""
    root = roots.ensure_root(root)
    recover_stale(root)
    for _ in range(100):
        session_id = secrets.randbelow(UINT32_MAX) + 1
        try:
            os.mkdir(paths(session_id, root).env_dir, 0o700)
        except FileExistsError:
            continue
        return session_id
    raise RuntimeError("could not find a free session id")  # 100 collisions: not plausible


def create(session_id, root=None):
    """Create a session with a chosen id (tests, scripts); no error if it already exists."""
    check_pos_uint32(session_id, "session_id")
    root = roots.ensure_root(root)
    os.makedirs(paths(session_id, root).env_dir, 0o700, exist_ok=True)
    return session_id


def destroy(session_id, root=None):
    """Remove a session and its spilled rows. Returns False when there was no such session."""
    root = root or roots.cache_root()
    found = paths(session_id, root)
    existed = False
    if os.path.isdir(found.env_dir):
        trash = os.path.join(roots.sessions_dir(root),
                             f"{TRASH_PREFIX}{session_id}-{os.getpid()}-{secrets.token_hex(4)}")
        try:
            os.rename(found.env_dir, trash)
            existed = True
        except FileNotFoundError:
            trash = None  # destroyed concurrently by another process
        if trash:
            envs.forget_under(found.env_dir)
            shutil.rmtree(trash, ignore_errors=True)
    if os.path.isdir(found.spill_dir):
        envs.forget_under(found.spill_dir)
        shutil.rmtree(found.spill_dir, ignore_errors=True)
        existed = True
    return existed


def list_ids(root=None):
    try:
        names = os.listdir(roots.sessions_dir(root))
    except OSError:
        return []
    return sorted(int(n) for n in names if n.isdigit())


def recover_stale(root=None):
    """Delete what interrupted operations left: half-destroyed sessions, spill areas without a
    session (e.g. after a reboot emptied /dev/shm), stale temporary config files."""
    root = root or roots.cache_root()
    sdir = roots.sessions_dir(root)
    try:
        names = os.listdir(sdir)
    except OSError:
        names = []
    for name in names:
        if name.startswith(TRASH_PREFIX):
            shutil.rmtree(os.path.join(sdir, name), ignore_errors=True)
    spill = roots.spill_root(root)
    try:
        spill_names = os.listdir(spill)
    except OSError:
        spill_names = []
    for name in spill_names:
        ident = name[len(SPILL_PREFIX):]
        if name.startswith(SPILL_PREFIX) and ident.isdigit() and not exists(int(ident), root):
            shutil.rmtree(os.path.join(spill, name), ignore_errors=True)
    roots.clean_stale_temp_files(root)


def stage_summaries(session_id, root=None):
    """[(stage_hash_hex, StageCounters, complete: bool)] for one session, read-only."""
    from .stage_store import COMPLETE_PREFIX  # local import: stage_store imports this module
    found = paths(session_id, root)
    if not found.has_data():
        return []
    env = envs.acquire(found.env_dir, create=False)
    try:
        with envs.txn(env) as txn:
            return [(h.hex(), c, txn.get(COMPLETE_PREFIX + h) is not None)
                    for h, c in iter_stage_counters(txn)]
    finally:
        envs.release(found.env_dir)


def session_stats(session_id, root=None):
    total = StageCounters()
    summaries = stage_summaries(session_id, root)
    for _, counters, _ in summaries:
        total.add(counters)
    return CacheStats.from_counters(session_id, len(summaries), total)


def memory_bytes_used(root=None):
    """Bytes all sessions' environments occupy in the cache root (allocated blocks)."""
    total = 0
    try:
        with os.scandir(roots.sessions_dir(root)) as it:
            for entry in it:
                try:
                    total += os.stat(os.path.join(entry.path, "data.mdb")).st_blocks * 512
                except OSError:
                    pass
    except OSError:
        pass
    return total
