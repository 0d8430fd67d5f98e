"""The same pipeline run by MindSpore, in this invocation: ``minddata-bench --mindspore-python``.

``run_mindspore`` starts MindSpore's interpreter on this file (as a script, so it needs nothing
of minddata there): it builds the pipeline with ``pipelines.py`` and ``mindspore.dataset``, runs
it with the same limits as the minddata run (the clock starts before the iterator is created,
epochs repeat until the limit), and prints its figures as one JSON line. A ratio is only ever
computed against such a run, never against a figure measured elsewhere.
"""
import importlib.util
import json
import os
import subprocess
import sys
import time

_PIPELINES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pipelines.py")
_START_UP_S = 600      # MindSpore's import and the pipeline's start, on top of --seconds


def run_mindspore(python, job, timeout=None):
    """Figures of ``job`` (a JSON-ready dict: pipeline, data, spec, workers, batch_size,
    batches, seconds, batched) run by MindSpore in interpreter ``python``:
    ``{"rows", "batches", "seconds", "rows_per_s", "mindspore_version"}``."""
    if timeout is None:
        timeout = (job.get("seconds") or 3600) + _START_UP_S
    try:
        done = subprocess.run([python, os.path.abspath(__file__), json.dumps(job)],
                              capture_output=True, text=True, timeout=timeout, check=False)
    except OSError as exc:
        raise RuntimeError(f"--mindspore-python {python}: cannot run it: {exc}") from None
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"--mindspore-python {python}: MindSpore's run took more than "
                           f"{timeout:.0f} s") from None
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-8:])
        raise RuntimeError(f"--mindspore-python {python}: MindSpore's run of the same pipeline "
                           f"failed (exit status {done.returncode}):\n{tail}")
    return json.loads(lines[-1])


def _load_pipelines():
    spec = importlib.util.spec_from_file_location("minddata_bench_pipelines", _PIPELINES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _build(pipelines, job):
    if job.get("spec") is not None:
        return pipelines.build_from_file(job["spec"], job["pipeline"], job["data"],
                                         job["workers"], framework="mindspore")
    return pipelines.build_standard(job["pipeline"], job["data"], job["workers"],
                                    job.get("batch_size"), framework="mindspore")


def limited(iterator, batches=None, seconds=None, start=None):
    """(row, seconds since ``start``) from ``iterator``, epoch after epoch (one per pass, as both
    frameworks' iterators give them), until ``batches`` items were given or ``seconds`` passed;
    without either limit, one epoch."""
    forever = batches is not None or seconds is not None
    start = time.perf_counter() if start is None else start
    count = 0
    while True:
        got_any = False
        for row in iterator:
            got_any = True
            count += 1
            now = time.perf_counter() - start
            yield row, now
            if (batches is not None and count >= batches) or \
                    (seconds is not None and now >= seconds):
                return
        if not forever or not got_any:
            return


def measure(dataset, batches=None, seconds=None, batched=True):
    """Run ``dataset`` as minddata's profile() does: (rows, batches, wall seconds)."""
    forever = batches is not None or seconds is not None
    start = time.perf_counter()
    iterator = dataset.create_tuple_iterator(num_epochs=-1 if forever else 1, output_numpy=True)
    done_batches = rows = 0
    for row, _ in limited(iterator, batches, seconds, start):
        done_batches += 1
        rows += len(row[0]) if batched and getattr(row[0], "ndim", 0) else 1
    return rows, done_batches, time.perf_counter() - start


def main(argv):
    job = json.loads(argv[0])
    import mindspore
    pipelines = _load_pipelines()
    dataset = _build(pipelines, job)
    rows, batches, wall = measure(dataset, job.get("batches"), job.get("seconds"),
                                  job.get("batched", True))
    print(json.dumps({"rows": rows, "batches": batches, "seconds": round(wall, 4),
                      "rows_per_s": round(rows / max(wall, 1e-9), 2),
                      "mindspore_version": getattr(mindspore, "__version__", "unknown")}),
          flush=True)
    # Workers and threads of an iterator left open are not waited for.
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
