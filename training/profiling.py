"""Per-step timing spans (data wait, forward+backward, update) written as a Chrome trace JSON
(open it in Perfetto or chrome://tracing).

Enabled with `set_context(enable_profiling=True, profiling_options='{"output": "/dir"}')`
(a JSON string or a dict; the default output directory is ./data/profiler). `Model.train` starts
a recorder and writes <output>/trace_view.json when training ends."""
import contextlib
import json
import os
import threading
import time

_NULL = contextlib.nullcontext()
_active = None


class TraceRecorder:
    def __init__(self, output):
        self.output = output
        self.events = []
        self._origin = time.perf_counter()
        self._lock = threading.Lock()
        self._pid = os.getpid()

    def add(self, name, start, end, category="step", args=None):
        event = {"name": name, "cat": category, "ph": "X", "pid": self._pid,
                 "tid": threading.get_ident() % 100000,
                 "ts": (start - self._origin) * 1e6, "dur": (end - start) * 1e6}
        if args:
            event["args"] = args
        with self._lock:
            self.events.append(event)

    @contextlib.contextmanager
    def span(self, name, category="step", **args):
        start = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, start, time.perf_counter(), category, args or None)

    def write(self):
        os.makedirs(self.output, exist_ok=True)
        path = os.path.join(self.output, "trace_view.json")
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"traceEvents": self.events, "displayTimeUnit": "ms"}, f)
        os.replace(tmp, path)
        return path


def options_output(options):
    if options is None:
        return os.path.abspath(os.path.join("data", "profiler"))
    if isinstance(options, str):
        try:
            options = json.loads(options)
        except ValueError as exc:
            raise ValueError(f"'profiling_options' must be a JSON object string, got {options!r}: "
                             f"{exc}") from None
    if not isinstance(options, dict):
        raise ValueError("'profiling_options' must be a JSON object")
    return os.path.abspath(options.get("output", os.path.join("data", "profiler")))


def start(output):
    """Record spans into a new recorder writing under `output` (replaces any active one)."""
    global _active
    _active = TraceRecorder(output)
    return _active


def start_from_context():
    """A recorder if the context asks for profiling, else None."""
    from training import context
    if not context.get_context("enable_profiling"):
        return None
    return start(options_output(context.get_context("profiling_options")))


def stop(recorder):
    global _active
    if recorder is None:
        return None
    if _active is recorder:
        _active = None
    return recorder.write()


def span(name, category="step", **args):
    """Context manager timing `name` when profiling is on; a no-op otherwise."""
    recorder = _active
    return recorder.span(name, category, **args) if recorder is not None else _NULL


def add(name, start, end, category="step"):
    recorder = _active
    if recorder is not None:
        recorder.add(name, start, end, category)
