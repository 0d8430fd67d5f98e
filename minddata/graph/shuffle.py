"""shuffle(buffer_size): MindSpore's buffer shuffle. The buffer fills with the first rows;
each output is a random buffer entry, replaced by the next input row."""
from __future__ import annotations

from .node import LogicalNode
from .sync_wait import has_sync_wait

from .checks import INT32_MAX as _INT32_MAX
from .checks import out_of_range, wrong_type


class Shuffle(LogicalNode):
    kind = "Shuffle"

    def __init__(self, child: LogicalNode, buffer_size: int) -> None:
        super().__init__([child])
        if isinstance(buffer_size, bool) or not isinstance(buffer_size, int):
            raise wrong_type('buffer_size', buffer_size, int)
        if not 2 <= buffer_size <= _INT32_MAX:
            raise out_of_range("buffer_size", buffer_size, 2, _INT32_MAX)
        if has_sync_wait(child):
            raise RuntimeError("No shuffle after sync operators: shuffle cannot be added above "
                               "a sync_wait (it would hold back the rows the wait releases).")
        self.buffer_size = buffer_size

    def _is_random_self(self) -> bool:
        return True

    def _describe_self(self) -> str:
        return f"Shuffle({self.buffer_size})"
