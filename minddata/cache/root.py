"""Where the cache lives on this host, and the host-wide settings the admin tool saves.

There is no server: every client process opens the same directory tree.

    <root>/                       $MINDDATA_CACHE_DIR, else /dev/shm/minddata-cache-<uid>
        config.json               settings saved by `dataset-cache -m/-s` (atomic replace)
        sessions/<session_id>/    one LMDB environment per session (data.mdb, lock.mdb)
    <spill_dir>/session-<id>/     rows beyond the memory cap (on disk), one LMDB env per session

The root defaults to /dev/shm so cached rows are served from memory; the spill directory
defaults to a folder under the system temporary directory, which is on disk."""
import json
import os
import tempfile
import time

ROOT_ENV = "MINDDATA_CACHE_DIR"
SPILL_ENV = "MINDDATA_CACHE_SPILL_DIR"
CONFIG_NAME = "config.json"
SESSIONS_DIR = "sessions"
# Default share of the host's memory that all sessions together may hold in the cache root.
DEFAULT_MEMORY_CAP_RATIO = 0.8


def cache_root():
    configured = os.environ.get(ROOT_ENV)
    if configured:
        return os.path.abspath(configured)
    base = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
    return os.path.join(base, f"minddata-cache-{os.getuid()}")


def sessions_dir(root=None):
    return os.path.join(root or cache_root(), SESSIONS_DIR)


def ensure_root(root=None):
    root = root or cache_root()
    try:
        os.makedirs(sessions_dir(root), mode=0o700, exist_ok=True)
    except OSError as exc:
        raise RuntimeError(f"cannot create the dataset cache root {root!r} "
                           f"(set ${ROOT_ENV} to a writable directory): {exc}") from exc
    return root


def load_config(root=None):
    """Settings saved by the admin tool; missing or unreadable file -> defaults."""
    path = os.path.join(root or cache_root(), CONFIG_NAME)
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_config(updates, root=None):
    """Merge ``updates`` into config.json, written to a temporary file and renamed into place so
    that a reader (or a kill -9 of the writer) never sees half a file."""
    root = ensure_root(root)
    config = load_config(root)
    config.update(updates)
    path = os.path.join(root, CONFIG_NAME)
    fd, tmp = tempfile.mkstemp(prefix=".config-", suffix=".tmp", dir=root)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(config, f, indent=1, sort_keys=True)
        os.replace(tmp, path)
    except BaseException:
        _remove_quietly(tmp)
        raise
    return config


def spill_root(root=None):
    configured = os.environ.get(SPILL_ENV) or load_config(root).get("spill_dir")
    if configured:
        return os.path.abspath(configured)
    return os.path.join(tempfile.gettempdir(), f"minddata-cache-spill-{os.getuid()}")


def memory_cap_ratio(root=None):
    ratio = load_config(root).get("memory_cap_ratio", DEFAULT_MEMORY_CAP_RATIO)
    try:
        ratio = float(ratio)
    except (TypeError, ValueError):
        return DEFAULT_MEMORY_CAP_RATIO
    return ratio if 0.0 < ratio <= 1.0 else DEFAULT_MEMORY_CAP_RATIO


def host_memory_bytes():
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 0


def is_tmpfs(path):
    """True when ``path`` lies on a memory file system (tmpfs/ramfs): there, fsync is pointless."""
    path = os.path.realpath(path)
    best, fstype = "", ""
    try:
        with open("/proc/self/mounts", encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) < 3:
                    continue
                mount = parts[1].replace("\\040", " ")
                inside = path == mount or path.startswith(mount.rstrip("/") + "/")
                if inside and len(mount) >= len(best):
                    best, fstype = mount, parts[2]
    except OSError:
        return False
    return fstype in ("tmpfs", "ramfs")


def clean_stale_temp_files(root=None):
    """A killed admin tool may leave a .config-*.tmp behind; remove those older than a minute."""
    root = root or cache_root()
    try:
        names = os.listdir(root)
    except OSError:
        return
    for name in names:
        if name.startswith(".config-") and name.endswith(".tmp"):
            path = os.path.join(root, name)
            try:
                if time.time() - os.stat(path).st_mtime > 60:
                    os.remove(path)
            except OSError:
                pass


def _remove_quietly(path):
    try:
        os.remove(path)
    except OSError:
        pass
