"""sync_wait / sync_update: the pipeline holds rows back until the training loop says so.

``ds.sync_wait(condition_name, num_batch=1, callback=None)`` lets ``num_batch`` batches through
at the start of each epoch, then blocks before each further row until
``ds.sync_update(condition_name, num_batch=None, data=None)`` releases ``num_batch`` more
batches (the wait's own ``num_batch`` by default), calling ``callback(data)`` first. A batch is
as many rows as the batches above the wait put together (batch(4) above it: 4 rows).

The logical node holds a ``SyncCondition``: shared by the node, the copies a rewrite makes and
each running pipeline's gate (engine/nodes/sync_wait.py); a gate is one run's allowance of rows.
"""
from __future__ import annotations

import contextlib
import threading
from typing import Any, Callable, Iterator, List, Optional, Tuple

from ..config import check_independent_mode
from .batch import Batch
from .node import LogicalNode, walk


class SyncCondition:
    """A named condition: the callback, the batches released by default, the rows a batch
    is made of (set when an iterator is created, from the batches above the wait) and the
    gates of the pipelines running it."""

    def __init__(self, name: str, num_batch: int, callback: Optional[Callable[[Any], Any]]):
        self.name = name
        self.num_batch = num_batch
        self.callback = callback
        self.rows_per_batch = 1
        self.disabled = False
        self.cv = threading.Condition()
        self._gates: List[Any] = []

    def initial_rows(self) -> int:
        return self.num_batch * self.rows_per_batch

    def add_gate(self, gate: Any) -> None:
        with self.cv:
            self._gates.append(gate)

    def remove_gate(self, gate: Any) -> None:
        with self.cv:
            self._gates = [g for g in self._gates if g is not gate]
            self.cv.notify_all()

    def release(self, rows: Optional[int], data: Any) -> None:
        """Call the callback with ``data``, then let ``rows`` more rows through each running
        pipeline (the wait's ``num_batch`` batches when None)."""
        if self.callback is not None:
            self.callback(data)
        with self.cv:
            n = self.initial_rows() if rows is None else rows
            for gate in self._gates:
                gate.allowance += n
            self.cv.notify_all()

    def disable(self) -> None:
        """Let every row through from now on (MindSpore does so after a wrong sync_update and
        after a wait timed out)."""
        with self.cv:
            self.disabled = True
            self.cv.notify_all()


_local = threading.local()


@contextlib.contextmanager
def waits_open() -> Iterator[None]:
    """Pipelines built inside it (in this thread) pass every row through their waits: the
    passes that read a pipeline's metadata (its size, its first row), which no sync_update
    accompanies."""
    before = getattr(_local, "open", False)
    _local.open = True
    try:
        yield
    finally:
        _local.open = before


def waits_are_open() -> bool:
    return getattr(_local, "open", False)


def _check_name(condition_name: Any) -> None:
    if not isinstance(condition_name, str):
        raise TypeError(f"Argument condition_name with value {condition_name!r} is not of type "
                        f"[<class 'str'>], but got {type(condition_name)}.")


class SyncWait(LogicalNode):
    kind = "SyncWait"
    passes_rows = True
    keeps_positions = True

    condition: SyncCondition

    def __init__(self, child: LogicalNode, condition_name: str, num_batch: int = 1,
                 callback: Optional[Callable[[Any], Any]] = None) -> None:
        super().__init__([child])
        _check_name(condition_name)
        check_independent_mode("Dataset sync wait")
        if isinstance(num_batch, bool) or not isinstance(num_batch, int):
            raise TypeError(f"Argument num_batch with value {num_batch!r} is not of type "
                            f"[<class 'int'>], but got {type(num_batch)}.")
        if num_batch <= 0:
            raise ValueError(f"num_batch need to be greater than 0, but got {num_batch}.")
        if callback is not None and not callable(callback):
            raise TypeError(f"callback must be callable or None, but got "
                            f"{type(callback).__name__}")
        if any(w.condition.name == condition_name for w in _waits_in(child)):
            raise RuntimeError(f"Condition name is already in use: sync_wait "
                               f"{condition_name!r} is already in this pipeline.")
        self.condition = SyncCondition(condition_name, num_batch, callback)

    def _shippable_self(self) -> bool:
        return False    # the training loop releases it in this process

    def _describe_self(self) -> str:
        return f"SyncWait({self.condition.name!r})"


def _waits_in(node: LogicalNode) -> List[SyncWait]:
    return [n for n in walk(node) if isinstance(n, SyncWait)]


def has_sync_wait(node: LogicalNode) -> bool:
    return bool(_waits_in(node))


def sync_waits(root: LogicalNode) -> Iterator[Tuple[SyncWait, int]]:
    """Each sync_wait under ``root`` with the rows one batch above it is made of (the product
    of the fixed batch sizes between; a callable batch size counts as 1)."""
    seen = set()

    def visit(node: LogicalNode, rows: int) -> Iterator[Tuple[SyncWait, int]]:
        if isinstance(node, SyncWait) and id(node.condition) not in seen:
            seen.add(id(node.condition))
            yield node, rows
        if isinstance(node, Batch) and isinstance(node.batch_size, int):
            rows *= node.batch_size
        for child in node.children:
            yield from visit(child, rows)

    try:
        yield from visit(root, 1)
    finally:
        del visit    # a recursive closure refers to itself: free the graph without the GC


def bind_sync_waits(root: LogicalNode) -> None:
    """Before a pipeline over ``root`` is built: tell each of its waits how many rows a batch
    is (MindSpore sets it when a batch is added above the wait), and block again where
    ``disable_sync`` or a misused sync_update let every row through (as MindSpore resets its
    waits when an iterator starts)."""
    for wait, rows in sync_waits(root):
        wait.condition.rows_per_batch = rows
        wait.condition.disabled = False


def disable_sync(root: LogicalNode) -> None:
    """``Dataset.disable_sync``: let every row through the first sync_wait on the way down
    ``root``'s first children (MindSpore's walk), from now on; nothing when there is none."""
    node: Optional[LogicalNode] = root
    while node is not None and not isinstance(node, SyncWait):
        node = node.children[0] if node.children else None
    if node is not None:
        node.condition.disable()


def sync_update(root: LogicalNode, condition_name: Any, num_batch: Any = None,
                data: Any = None) -> None:
    """``Dataset.sync_update``: release the waits named ``condition_name`` under ``root``."""
    check_independent_mode("Dataset sync update")
    waits = list(sync_waits(root))
    if num_batch is not None and (isinstance(num_batch, bool) or not isinstance(num_batch, int)
                                  or num_batch <= 0):
        # MindSpore lets every wait of the pipeline through when sync_update is misused, so
        # that the pipeline does not hang behind the error.
        for wait, _ in waits:
            wait.condition.disable()
        raise RuntimeError(f"Sync_update batch size can only be positive integer, got: "
                           f"{num_batch}.")
    _check_name(condition_name)
    named = [(w, rows) for w, rows in waits if w.condition.name == condition_name]
    if not named:
        for wait, _ in waits:
            wait.condition.disable()
        known = [w.condition.name for w, _ in waits]
        raise RuntimeError(f"Condition name not found: no sync_wait named {condition_name!r} "
                           f"in this pipeline (its sync_waits: {known}).")
    for wait, rows in named:
        wait.condition.release(None if num_batch is None else num_batch * rows, data)
