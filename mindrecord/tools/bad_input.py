"""What a converter does with input it cannot use.

A loader raises :class:`BadItem` for one source item (an image, a CSV line, a TFRecord record)
that cannot become a row. The conversion engine then either stops, removing everything it wrote
(the default), or, with ``skip_bad=True``, leaves the item out and records it in a
:class:`SkipReport` that is written next to the output.
"""
import os
import threading


class BadItem(ValueError):
    """One unusable source item. ``where`` names the file (and line/record); ``reason`` says why."""

    def __init__(self, where, reason):
        self.where = str(where)
        self.reason = str(reason)
        super().__init__(f"{self.where}: {self.reason}")


class ConversionError(RuntimeError):
    """A conversion stopped on bad input; nothing it wrote is left behind."""


class SkipReport:
    """Thread-safe list of skipped items, written as ``<where>: <reason>`` lines."""

    def __init__(self):
        self._items = []
        self._lock = threading.Lock()

    def add(self, bad):
        with self._lock:
            self._items.append((bad.where, bad.reason))

    def extend(self, items):
        with self._lock:
            self._items.extend(items)

    @property
    def items(self):
        with self._lock:
            return list(self._items)

    def __len__(self):
        with self._lock:
            return len(self._items)

    def write(self, path):
        """Write the report atomically (a temporary file renamed into place)."""
        tmp = f"{path}.tmp{os.getpid()}"
        with open(tmp, "w", encoding="utf-8", errors="backslashreplace") as f:
            for where, reason in self.items:
                f.write(f"{where}: {reason}\n")
        os.replace(tmp, path)
        return path
