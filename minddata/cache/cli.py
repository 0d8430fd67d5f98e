"""``dataset-cache`` / ``cache_admin``: MindSpore's cache_admin session verbs for the serverless
cache. Exit status 0 on success, 1 when the request failed, 2 on a usage error.

    dataset-cache -g                      create a session, print "Session created: <id>"
    dataset-cache --list_sessions         rows, bytes in memory, bytes spilled, hits, misses
    dataset-cache -d <id>                 destroy a session (memory and spilled rows)
    dataset-cache -m 0.5 -s /data/spill   save the host memory cap ratio and the spill directory
    dataset-cache --start | --stop        say that no server is needed (and save -m/-s)
    dataset-cache --server_info           settings, where things live, limits, session ids

``-h HOST``, ``-p PORT``, ``-w N`` and ``-l LEVEL`` are accepted as in cache_admin and ignored;
``-h`` alone (or ``--help``) prints the help."""
import argparse
import os
import sys

from . import disk_space
from . import root as roots
from . import sessions
from .stats import StageCounters
from .validation import UINT32_MAX

_HELP = object()


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _ratio(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"memory_cap_ratio must be a number, got {text!r}")
    if not 0.0 < value <= 1.0:
        raise argparse.ArgumentTypeError(f"memory_cap_ratio must be in (0.0, 1.0], got {text}")
    return value


def _session_id(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"session id must be an integer, got {text!r}")
    if not 1 <= value <= UINT32_MAX:
        raise argparse.ArgumentTypeError(f"session id must be in [1, {UINT32_MAX}], got {value}")
    return value


def _spill_dir(text):
    if not text.strip():
        # An empty path would silently make the current directory the spill directory.
        raise argparse.ArgumentTypeError("spill directory must be a non-empty path")
    return text


def build_parser(prog=None):
    parser = _Parser(
        prog=prog, add_help=False,
        description="Manage dataset cache sessions (serverless: no daemon to start or stop). "
                    f"Cache root: ${roots.ROOT_ENV} or /dev/shm/minddata-cache-<uid>.")
    actions = parser.add_mutually_exclusive_group()
    actions.add_argument("-g", "--generate_session", action="store_true",
                         help="create a session and print its id")
    actions.add_argument("-d", "--destroy_session", type=_session_id, metavar="SESSION_ID",
                         help="destroy a session and its spilled rows")
    actions.add_argument("--list_sessions", action="store_true",
                         help="list sessions: rows, bytes in memory, bytes spilled, hits, misses")
    actions.add_argument("--start", action="store_true",
                         help="no server is needed; saves -m/-s if given")
    actions.add_argument("--stop", action="store_true", help="no server to stop")
    actions.add_argument("--server_info", action="store_true",
                         help="print the settings, the cache root and spill directory with "
                              "their free space, the memory cap and the session ids")
    parser.add_argument("-m", "--memory_cap_ratio", type=_ratio, metavar="RATIO",
                        help="share of host memory all sessions together may use, in (0, 1]; "
                             f"default {roots.DEFAULT_MEMORY_CAP_RATIO}")
    parser.add_argument("-s", "--spilldir", metavar="DIR", type=_spill_dir,
                        help="directory (on disk) for rows beyond the memory cap")
    parser.add_argument("-h", "--hostname", nargs="?", const=_HELP, metavar="HOST",
                        help="accepted for compatibility (no server); -h alone prints this help")
    parser.add_argument("-p", "--port", type=int, help="accepted for compatibility (no server)")
    parser.add_argument("-w", "--workers", type=int, help="accepted for compatibility (no server)")
    parser.add_argument("-l", "--loglevel", type=int, help="accepted for compatibility")
    parser.add_argument("--help", action="help", help="show this help and exit")
    return parser


def _save_settings(args):
    updates = {}
    if args.memory_cap_ratio is not None:
        updates["memory_cap_ratio"] = args.memory_cap_ratio
    if args.spilldir is not None:
        spill = os.path.abspath(args.spilldir)
        try:
            os.makedirs(spill, mode=0o700, exist_ok=True)
        except OSError as exc:
            raise RuntimeError(f"cannot create spill directory {spill!r}: {exc}") from None
        if not os.access(spill, os.W_OK | os.X_OK):
            raise RuntimeError(f"spill directory {spill!r} is not writable")
        if roots.is_tmpfs(spill):
            print(f"warning: spill directory {spill} is on a memory file system; spilled rows "
                  "will still use memory", file=sys.stderr)
        updates["spill_dir"] = spill
    if updates:
        config = roots.save_config(updates)
        print("Settings saved in {}: memory_cap_ratio={}, spill_dir={}".format(
            os.path.join(roots.cache_root(), roots.CONFIG_NAME),
            config.get("memory_cap_ratio", roots.DEFAULT_MEMORY_CAP_RATIO),
            config.get("spill_dir", roots.spill_root())))
    return bool(updates)


def _human(n):
    if n == float("inf"):
        return "unknown"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def _list_sessions():
    sessions.recover_stale()
    ids = sessions.list_ids()
    print(f"Cache root: {roots.cache_root()}   spill directory: {roots.spill_root()}")
    if not ids:
        print("No sessions.")
        return
    header = (f"{'Session':>10} {'Cache Id':>8} {'Rows':>9} {'In memory':>11} "
              f"{'Spilled':>11} {'Hits':>9} {'Misses':>9}  Complete")
    print(header)
    for sid in ids:
        summaries = sessions.stage_summaries(sid)
        if not summaries:
            print(f"{sid:>10} {'-':>8} {0:>9} {_human(0):>11} {_human(0):>11} {0:>9} {0:>9}  -")
        total = StageCounters()
        for stage_hex, c, complete in summaries:
            total.add(c)
            print(f"{sid:>10} {stage_hex[:8]:>8} {c.rows:>9} {_human(c.bytes_mem):>11} "
                  f"{_human(c.bytes_spill):>11} {c.hits:>9} {c.misses:>9}  "
                  f"{'yes' if complete else 'no'}")
        if len(summaries) > 1:
            c = total
            print(f"{sid:>10} {'total':>8} {c.rows:>9} {_human(c.bytes_mem):>11} "
                  f"{_human(c.bytes_spill):>11} {c.hits:>9} {c.misses:>9}")


def _server_info():
    """cache_admin --server_info's report, for a cache without a server."""
    sessions.recover_stale()
    root, spill = roots.cache_root(), roots.spill_root()
    ratio = roots.memory_cap_ratio()
    host = roots.host_memory_bytes()
    rows = [("server", "none (serverless: each process opens the store)"),
            ("cache root", root),
            ("cache root free", _human(disk_space.free_bytes(root))),
            ("spill dir", spill),
            ("spill dir free", _human(disk_space.free_bytes(spill))),
            ("memory cap ratio", f"{ratio:g}"),
            ("memory cap", f"{_human(ratio * host)} of {_human(host)}" if host else "unknown"),
            ("memory in use", _human(sessions.memory_bytes_used()))]
    rule = "-" * 60
    print("Cache Server Configuration:")
    print(rule)
    print(f"{'config name':>20}  value")
    print(rule)
    for name, value in rows:
        print(f"{name:>20}  {value}")
    print(rule)
    print("Active sessions:")
    ids = sessions.list_ids()
    if ids:
        print("  ".join(str(i) for i in ids))
        print("(Use 'dataset-cache --list_sessions' for the rows, bytes, hits and misses of "
              "each session.)")
    else:
        print("No active sessions.")


def run(args):
    saved = _save_settings(args)
    if args.start:
        print("No cache server is needed: minddata's dataset cache is serverless (sessions are "
              f"LMDB stores under {roots.cache_root()}, opened by each training process). "
              "Nothing was started; create a session with -g.")
    elif args.stop:
        print("No cache server is running or needed: nothing to stop. Cached data stays until "
              "its session is destroyed with -d SESSION_ID.")
    elif args.generate_session:
        print(f"Session created: {sessions.generate()}")
    elif args.destroy_session is not None:
        if not sessions.destroy(args.destroy_session):
            raise RuntimeError(f"session {args.destroy_session} not found")
        print(f"Session {args.destroy_session} destroyed.")
    elif args.list_sessions:
        _list_sessions()
    elif args.server_info:
        _server_info()
    elif not saved:
        raise ValueError("nothing to do")


def main(argv=None):
    prog = os.path.basename(sys.argv[0]) if argv is None and sys.argv and sys.argv[0] else None
    if prog in (None, "cli.py", "__main__.py", "-c"):
        prog = "dataset-cache"
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.hostname is _HELP:
        parser.print_help()
        return 0
    try:
        run(args)
    except ValueError as exc:
        parser.print_usage(sys.stderr)
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    except (RuntimeError, OSError) as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
