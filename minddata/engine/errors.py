"""Turning an exception raised inside a stage (any thread or process) into one that names the
op and the row it failed on, keeping the original type where it can be rebuilt."""


class WorkerDiedError(RuntimeError):
    """A worker process exited without reporting (killed, crashed, out of memory)."""


def wrap_error(exc, op_name, provenance=None):
    """Return an exception of ``exc``'s type whose message names the op and the row.

    The original is kept as ``__cause__`` (its traceback shows where it was raised). Types
    whose constructor does not take one message fall back to RuntimeError, and so does
    StopIteration: raised again as it is, it would end the user's loop as if the data had run
    out (MindSpore raises RuntimeError there too).
    """
    if getattr(exc, "_minddata_wrapped", False) or isinstance(exc, (KeyboardInterrupt,
                                                                     SystemExit)):
        return exc
    where = f" on {provenance}" if provenance else ""
    msg = f"{op_name} failed{where}: {type(exc).__name__}: {exc}"
    new = None
    if not isinstance(exc, (StopIteration, StopAsyncIteration)):
        try:
            new = type(exc)(msg)
            if new.args != (msg,):
                new = None
        except Exception:  # constructor with another signature
            new = None
    if new is None:
        new = RuntimeError(msg)
    new.__cause__ = exc
    new._minddata_wrapped = True
    return new
