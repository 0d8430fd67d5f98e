"""Retries with backoff around every request, and errors that name the URL.

Transient failures (5xx answers, throttling, timeouts, dropped connections, a body shorter than
asked for) are retried with jittered exponential backoff up to a number of attempts and a
deadline, so a flaky store slows a run down but never fails or hangs it. Missing objects and
denied access are not transient: they raise at once, naming the URL.
"""
import errno
import random
import time

from ..header import not_found

# Error texts of the stores' clients that mean "not there" or "not allowed".
_MISSING = ("NoSuchKey", "NoSuchBucket", "404", "Not Found")
_DENIED = ("AccessDenied", "403", "Forbidden", "InvalidAccessKeyId", "SignatureDoesNotMatch")


class ChangedObject(RuntimeError):
    """The object's ETag or size differs from the one seen when the set was opened."""


class ShortRead(OSError):
    """A ranged read returned fewer bytes than asked for (a truncated body): transient."""


class RetryPolicy:
    """attempts: tries per request; delays grow from base_delay by 2x per try up to max_delay,
    jittered; deadline: seconds after which the last error is raised however many tries are
    left (a request's own timeout is the file system's: botocore's read_timeout for s3)."""

    def __init__(self, attempts=10, base_delay=0.05, max_delay=2.0, deadline=300.0):
        if attempts < 1:
            raise ValueError(f"attempts must be at least 1, got {attempts}")
        self.attempts = attempts
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.deadline = deadline

    def delay(self, attempt, rng=random):
        return min(self.max_delay, self.base_delay * (2 ** attempt)) * (0.5 + rng.random() / 2)


DEFAULT_POLICY = RetryPolicy()


def access_denied(url, exc):
    return PermissionError(errno.EACCES, f"Access to {url} was denied by the store ({exc}); "
                                         "check the credentials (AWS_ACCESS_KEY_ID, AWS_PROFILE, "
                                         "storage_options) and the object's permissions", url)


def classify(exc):
    """'missing', 'denied', 'fatal' or 'transient'."""
    if isinstance(exc, ChangedObject):
        return "fatal"
    if isinstance(exc, FileNotFoundError):
        return "missing"
    if isinstance(exc, PermissionError):
        return "denied"
    text = f"{type(exc).__name__} {exc}"
    if any(word in text for word in _DENIED):
        return "denied"
    if any(word in text for word in ("NoSuchKey", "NoSuchBucket")):
        return "missing"
    if isinstance(exc, (ValueError, TypeError, ImportError, NotImplementedError)):
        return "fatal"   # a programming or configuration error: retrying cannot help
    return "transient"


def with_retries(call, url, what, policy=DEFAULT_POLICY, sleep=time.sleep):
    """call() with retries on transient errors. `what` says what was asked ("reading bytes
    0-65535 of") for the final error."""
    start = time.monotonic()
    for attempt in range(policy.attempts):
        try:
            return call()
        except Exception as exc:  # noqa: BLE001 - classified below
            kind = classify(exc)
            if kind == "missing":
                raise not_found(url) from exc
            if kind == "denied":
                raise access_denied(url, exc) from exc
            if kind == "fatal":
                raise
            last = exc
            if attempt + 1 == policy.attempts or time.monotonic() - start > policy.deadline:
                break
            sleep(policy.delay(attempt))
    raise RuntimeError(f"[ERROR] Failed {what} {url} after {attempt + 1} attempts in "
                       f"{time.monotonic() - start:.1f} s: {type(last).__name__}: {last}") \
        from last
