"""What sources and operations put into a cached stage's key, and the refusal of keys that
cannot identify their data.

A stage's key is the text ``LogicalNode.describe()`` builds from every node's description. Some
parts are content fingerprints (fingerprint.py), computed when the text is built: in-memory
arrays are hashed each time a pipeline opens a cached stage, so arrays changed in place
between two runs are seen. A part that cannot be identified (a callable holding an open file,
a generator without ``cache_identity``) is written as a marker; ``refuse_unidentified`` raises
``RuntimeError`` with every marker's explanation when a cache stage is opened with such a key.
The marker stays text because the description is also the dataset's repr, which must not
raise; nothing can be cached under it, so it never serves rows.

This module imports no LMDB: sources and ``map`` use it without loading the cache store."""
import re

from .fingerprint import Unidentifiable, fingerprint

_MARK = "<<cannot identify: "
_MARK_END = " :end>>"
_MARK_RE = re.compile(re.escape(_MARK) + r"(.*?)" + re.escape(_MARK_END), re.S)


def unidentified(explanation):
    """The marker for a part of a description that cannot be identified."""
    return f"{_MARK}{explanation}{_MARK_END}"


def refuse_unidentified(pipeline_key):
    """RuntimeError listing what cannot be identified in ``pipeline_key``, if anything."""
    found = _MARK_RE.findall(pipeline_key)
    if found:
        reasons = "; ".join(dict.fromkeys(found))
        raise RuntimeError(f"DatasetCache cannot cache this pipeline, because it cannot tell "
                           f"whether its rows are the ones already cached: {reasons}")


class Deferred:
    """A description computed when it is formatted into a key (or a repr), not when the
    dataset is built: fingerprinting large arrays costs time only for pipelines that cache."""

    __slots__ = ("_compute",)

    def __init__(self, compute):
        self._compute = compute

    def __str__(self):
        return self._compute()

    def __format__(self, spec):
        return format(self._compute(), spec)

    def __repr__(self):
        return self._compute()


def describe_operation(op):
    """The key text of one ``map`` operation: its class or name and a fingerprint of its code
    and state; the marker when it cannot be fingerprinted."""
    name = getattr(op, "__qualname__", None) or type(op).__qualname__
    module = getattr(op, "__module__", None) or type(op).__module__
    try:
        return f"{module}.{name}#{fingerprint(op, name)}"
    except Unidentifiable as exc:
        return unidentified(
            f"the map operation {module}.{name} cannot be fingerprinted ({exc}); make it a "
            "function of numbers, strings, arrays, functions and modules, or remove cache=")


def describe_value(value, what):
    """Fingerprint of in-memory data, or the marker naming ``what`` when it has none."""
    try:
        return fingerprint(value, what)
    except Unidentifiable as exc:
        return unidentified(f"{what} cannot be fingerprinted ({exc})")


def describe_arrays(names, columns):
    """Key text of in-memory columns (numpy arrays, or lists of per-row arrays)."""
    parts = [describe_value(col, f"column {name!r}") for name, col in zip(names, columns)]
    return f"{list(names)}#{'/'.join(parts)}"


__all__ = ["Deferred", "describe_arrays", "describe_operation", "describe_value",
           "refuse_unidentified", "unidentified", "Unidentifiable"]
