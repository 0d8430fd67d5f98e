"""Turning an exception raised inside a stage (any thread or process) into the RuntimeError
MindSpore raises there, naming the op and the row it failed on, with the original as
``__cause__``; and the errors of an iterator read after its end or after ``stop()``."""
import os
import pickle
import re
import sysconfig
import traceback


class WorkerDiedError(RuntimeError):
    """A worker process exited without reporting (killed, crashed, out of memory)."""


class PipelineError(RuntimeError):
    """The RuntimeError MindSpore raises for a failure inside the pipeline (made by
    ``wrap_error``): the original exception is its ``__cause__``, also when it crossed from a
    worker process."""

    def __reduce__(self):
        cause = self.__cause__
        try:
            pickle.dumps(cause)
        except Exception:  # an unpicklable original: its text is in the message already
            cause = None
        return (_rebuild, (type(self), self.args, dict(self.__dict__), cause))


def _rebuild(cls, args, state, cause):
    exc = cls(*args)
    exc.__dict__.update(state)
    exc.__cause__ = cause
    return exc


class IteratorStoppedError(RuntimeError, AttributeError):
    """Reading an iterator after ``stop()``/``close()``. MindSpore 2.10 raises
    AttributeError there (its ``stop()`` deletes the attribute its ``__next__`` reads; the
    RuntimeError it means to raise is never reached): this error is both."""


#: MindSpore's words for reading past the last epoch (its iterators raise RuntimeError).
PAST_LAST_EPOCH = ("EOF buffer encountered. User tries to fetch data beyond the specified "
                   "number of epochs.")

_RULE = "-" * 66
_USER_HEADER = "Exception thrown from user defined Python function in dataset."
_PIPELINE_HEADER = ("Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline "
                    "Error Message'.")
# MindSpore names the failing op "<op> operation" in its pipeline error message.
_OP_WORDS = {"Map": "map operation", "Batch": "batch operation", "Filter": "filter operation",
             "BucketBatchByLength": "bucket_batch_by_length operation"}
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_NOT_USER = tuple(os.path.join(_ROOT, p) + os.sep for p in
                  ("minddata", "transforms_c", "mindrecord", "training")) + tuple(
    os.path.abspath(p) + os.sep for k, p in sysconfig.get_paths().items()
    if k in ("stdlib", "platstdlib", "purelib", "platlib"))
_FRAME = re.compile(r'^\s*File "([^"]+)", line \d+')


def _is_user_file(filename):
    if filename.startswith("<") and "frozen" not in filename:
        return True     # <stdin>, <string>: code the user typed or exec'd
    return not os.path.abspath(filename).startswith(_NOT_USER)


def _python_stack(exc):
    """The traceback text of ``exc`` when user code (anything outside this project and the
    installed libraries) is among its frames, else None (the pipeline's own failure)."""
    notes = [n for n in getattr(exc, "__notes__", ()) if isinstance(n, str)
             and "Traceback (most recent call last)" in n]
    if notes:   # raised in a worker process: its traceback came back as text
        text = notes[-1].split("\n", 1)[-1] if notes[-1].startswith("in worker") else notes[-1]
    else:
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    lines = text.rstrip("\n").splitlines()
    for i, line in enumerate(lines):
        m = _FRAME.match(line)
        if m and _is_user_file(m.group(1)):
            # From the first frame of user code on: the engine's frames above it are noise.
            return "\n".join(["Traceback (most recent call last):"] + lines[i:])
    return None


def _failed_op(exc, op_name):
    """The op MindSpore's map error names in brackets: the one the map noted on ``exc``
    (``PyFunc`` for a Python function, engine/nodes/map.py), else one of ``op_name``'s; of a
    fused plan, the op whose name starts the message (native ops' messages do)."""
    label = getattr(exc, "_minddata_failed_op", None) or op_name
    names = [n for n in re.split(r"[(),+ ]+", label) if n and n not in ("Map", "FusedPlan")]
    text = str(exc)
    for name in names:
        if text.startswith(name + ":"):
            return name
    return names[0] if names else label


def _data_files_phrase(provenance):
    """MindSpore's " The corresponding data file is: <f>." (" ... data files: <f>, <g>." for
    several): the files named in the row's provenance, if any."""
    files, seen = [], set()
    for token in re.split(r"[\s(),]+", provenance or ""):
        if token and os.path.isfile(token) and os.path.realpath(token) not in seen:
            seen.add(os.path.realpath(token))
            files.append(token)
    if not files:
        return ""
    if len(files) == 1:
        return f" The corresponding data file is: {files[0]}."
    return f" The corresponding data files: {', '.join(files)}."


def wrap_error(exc, op_name, provenance=None):
    """Return the RuntimeError (MindSpore's type for any failure inside the pipeline) that
    names the op and the row, with ``exc`` as ``__cause__``.

    Its first line is ``<op> failed on <row>: <type>: <message>``; then MindSpore's words: the
    header of a user function's failure (with its "Python Call Stack") or of the pipeline's
    own, and the "Dataset Pipeline Error Message". A RuntimeError subclass keeps its type
    where its constructor takes one message (WorkerDiedError). KeyboardInterrupt, SystemExit
    and an exception wrapped already are returned as they are.
    """
    if getattr(exc, "_minddata_wrapped", False) or not isinstance(exc, Exception):
        return exc
    where = f" on {provenance}" if provenance else ""
    summary = f"{op_name} failed{where}: {type(exc).__name__}: {exc}"
    kind = op_name.split("(", 1)[0]
    words = _OP_WORDS.get(kind)
    if kind == "Map":
        # MindSpore's sentence: "map operation: [PyFunc] failed. The corresponding data file
        # is: <file>." (its suite matches on it), then ours.
        words = f"{words}: [{_failed_op(exc, op_name)}] failed.{_data_files_phrase(provenance)}"
    stack = _python_stack(exc)
    if stack is not None:
        detail = (f"{words or op_name}: {op_name} failed{where}. Execute user Python code "
                  f"failed, check 'Python Call Stack' above.")
        if kind == "Map":
            detail = (f"{words} Error description: {type(exc).__name__}: {exc}. {op_name} "
                      f"failed{where}. Execute user Python code failed, check 'Python Call "
                      f"Stack' above.")
        msg = (f"{summary}\n{_USER_HEADER}\n\n{_RULE}\n- Python Call Stack:\n{_RULE}\n"
               f"{stack}\n\n")
    else:
        detail = f"{words} {summary}" if kind == "Map" else (
            f"{words}: {summary}" if words else summary)
        msg = f"{summary}\n{_PIPELINE_HEADER}\n\n"
    msg += f"{_RULE}\n- Dataset Pipeline Error Message:\n{_RULE}\n[ERROR] {detail}"
    new = None
    if isinstance(exc, RuntimeError) and type(exc) is not RuntimeError:
        try:
            new = type(exc)(msg)
            if new.args != (msg,):
                new = None
        except Exception:  # constructor with another signature
            new = None
    if new is None:
        new = PipelineError(msg)
    new.__cause__ = exc
    new._minddata_wrapped = True
    return new
