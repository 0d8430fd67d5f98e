"""Run as a script: overwrite MindRecord datasets and kill the writer with SIGKILL at given
steps of its commit (writer_commit.step_hook), one forked process per step.

    python commit_kill_child.py DIR SHARDS STEP [STEP ...]
    python commit_kill_child.py --loop PATH SHARDS FIRST_VALUE


For each STEP, DIR/<STEP>/data.mr holds an old dataset (OLD_ROWS rows of value 1) written
here; a forked child overwrites it with NEW_ROWS rows of value 2 and kills itself after STEP.
Prints one JSON object: step -> the child's wait status ("SIGKILL", or its exit code).
With --loop, overwrites PATH for ever, commit v (from FIRST_VALUE on) holding rows_of(v) rows
of value v % 256, and prints v once it is committed (until the test kills it)."""
import json
import os
import signal
import sys

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from mindrecord import FileWriter, writer_commit  # noqa: E402

OLD_ROWS, NEW_ROWS = 7, 11
SCHEMA = {"k": {"type": "int32"}, "v": {"type": "int32"}, "b": {"type": "bytes"}}


def write(path, shards, n, value):
    with FileWriter(path, shard_num=shards, overwrite=True) as writer:
        writer.add_schema(SCHEMA, "kill test")
        writer.write_raw_data([{"k": i, "v": value, "b": bytes([value]) * (i + 1)}
                               for i in range(n)])


def rows_of(value):
    return 3 + value % 7


def loop(path, shards, value):
    while True:
        write(path, shards, rows_of(value), value % 256)
        print(value, flush=True)         # the test knows which commits completed
        value += 1


def kill_at(step):
    def hook(number):
        if number == step:
            os.kill(os.getpid(), signal.SIGKILL)
    return hook


def main(directory, shards, steps):
    results = {}
    for step in steps:
        path = os.path.join(directory, str(step), "data.mr")
        os.makedirs(os.path.dirname(path))
        write(path, shards, OLD_ROWS, 1)
        pid = os.fork()
        if pid == 0:
            writer_commit.step_hook = kill_at(step)
            try:
                write(path, shards, NEW_ROWS, 2)
            finally:
                os._exit(0)
        _, status = os.waitpid(pid, 0)
        killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        results[step] = "SIGKILL" if killed else os.WEXITSTATUS(status)
    print(json.dumps(results))


if __name__ == "__main__":
    if sys.argv[1] == "--loop":
        loop(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        main(sys.argv[1], int(sys.argv[2]), [int(s) for s in sys.argv[3:]])
