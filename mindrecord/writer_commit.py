"""Putting a whole shard set in place so that no reader sees a mixture of two commits.

A commit names 2N files (N shards and their .db); no file system renames a set at once, and
the shard bytes must stay MindSpore's, so the files cannot carry a commit id. The protocol:

1. every finished file gets a hidden name (``writer_files.temp_path``), so it outlives the
   writer;
2. a commit marker ``<hidden stem of shard 0>~commit`` is written atomically beside shard 0:
   JSON with the writer's pid and the identity (device, inode) of every new file;
3. the files are renamed into place (the indexes, then the data files from the last shard to
   shard 0);
4. the marker is removed.

A reader (``check_one_commit``) that finds a marker compares every file it opened with it:
all new or all old is one commit; a mixture left by a dead writer is refused with an error
saying so, and one of a live writer makes the reader open the set again a little later (as
does, marker or not, a file replaced while the reader was opening the set).
A writer killed between 2 and 4 leaves its marker; the next commit on that path replaces it.
Nothing here is needed to read the files: MindSpore ignores the hidden names.
"""
import json
import os

from .writer_files import hidden_stem, name_file, process_alive, temp_path

MARKER_SUFFIX = "~commit"

# Test hook: called with the number of each step of publish_set as it completes (0: hidden
# names given, 1: marker written, 2..: one per rename, last: marker removed); a test sets it
# in a child process to kill itself at a chosen step.
step_hook = None


class ShardSetChanged(Exception):
    """A file of the set was replaced while a reader opened it, or a live FileWriter is
    replacing the set: open it again."""


def marker_path(shard0_path):
    return os.path.join(os.path.dirname(shard0_path), hidden_stem(shard0_path) + MARKER_SUFFIX)


def _step(number):
    if step_hook is not None:
        step_hook(number)


def publish_set(files, shard0_path, temp_files):
    """Give every finished file its final name as one commit (see the module doc).

    files: [(fd, hidden temporary name or None for an unnamed file, final path)] in rename
    order. temp_files: the writer's list of hidden names to remove if this fails."""
    named = []
    for fd, tmp, final in files:
        if tmp is None:
            tmp = temp_path(final)
            temp_files.append(tmp)
            name_file(fd, tmp)
        stat = os.stat(tmp)
        named.append((tmp, final, [stat.st_dev, stat.st_ino]))
    _step(0)
    marker = marker_path(shard0_path)
    content = {"pid": os.getpid(),
               "files": [[os.path.basename(final), *ident] for _, final, ident in named]}
    marker_tmp = temp_path(shard0_path)
    temp_files.append(marker_tmp)
    with open(marker_tmp, "w", encoding="utf-8") as f:
        json.dump(content, f)
    os.replace(marker_tmp, marker)
    _step(1)
    for number, (tmp, final, _) in enumerate(named, start=2):
        os.replace(tmp, final)
        _step(number)
    os.unlink(marker)
    _step(len(named) + 2)


def _read_marker(path):
    try:
        with open(path, encoding="utf-8") as f:
            content = json.load(f)
        files = {name: (dev, ino) for name, dev, ino in content["files"]}
        return int(content["pid"]), files
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RuntimeError(f"[ERROR] Invalid file, the commit marker {path} of a FileWriter is "
                           f"unreadable ({exc}); the files beside it may mix two commits. "
                           f"Write the dataset again.") from None


def _identity(path):
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


def check_one_commit(data_paths, opened_ids, shard0_paths):
    """After a reader opened data_paths (whose files had identities opened_ids): raise
    ShardSetChanged if a path now names another file, RuntimeError if a commit marker shows
    that the set, indexes included, mixes two commits."""
    markers = {m: _read_marker(m) for m in {marker_path(p) for p in shard0_paths}}
    for path, opened in zip(data_paths, opened_ids):
        if _identity(path) != tuple(opened):
            raise ShardSetChanged(f"{path} was replaced while the set was being opened")
    for marker, found in markers.items():
        if found is None:
            continue
        pid, new_ids = found
        directory = os.path.dirname(marker)
        mine = [p for data in data_paths for p in (data, data + ".db")
                if os.path.dirname(p) == directory and os.path.basename(p) in new_ids]
        fresh = [p for p in mine if _identity(p) == new_ids[os.path.basename(p)]]
        if fresh and len(fresh) != len(mine):
            if process_alive(pid):
                raise ShardSetChanged(f"the FileWriter (pid {pid}) is replacing these files "
                                      f"now (commit marker {marker})")
            stale = sorted(set(mine) - set(fresh))
            raise RuntimeError(
                f"[ERROR] Invalid file, the mindrecord files mix two commits: {len(fresh)} of "
                f"{len(mine)} files (e.g. {fresh[0]}) are from a new commit and the others "
                f"(e.g. {stale[0]}) from the old one. The FileWriter (pid {pid}) was stopped "
                f"while replacing them; write the dataset again (commit marker {marker}).")
