"""shuffle(buffer_size): MindSpore's buffer shuffle. The buffer fills with the first rows;
each output is a random buffer entry, replaced by the next input row."""
from __future__ import annotations

from .node import LogicalNode
from .sync_wait import has_sync_wait

from .checks import INT32_MAX as _INT32_MAX
from .checks import out_of_range, wrong_type


class Shuffle(LogicalNode):
    kind = "Shuffle"

    reshuffle_each_epoch: bool

    def __init__(self, child: LogicalNode, buffer_size: int,
                 reshuffle_each_epoch: bool = True) -> None:
        """``reshuffle_each_epoch=False`` (MindSpore's attribute, which split sets): the same
        order every epoch, and in every pipeline with the same nodes below."""
        super().__init__([child])
        if isinstance(buffer_size, bool) or not isinstance(buffer_size, int):
            raise wrong_type('buffer_size', buffer_size, int)
        if not 2 <= buffer_size <= _INT32_MAX:
            raise out_of_range("buffer_size", buffer_size, 2, _INT32_MAX)
        if has_sync_wait(child):
            raise RuntimeError("No shuffle after sync operators: shuffle cannot be added above "
                               "a sync_wait (it would hold back the rows the wait releases).")
        self.buffer_size = buffer_size
        self.reshuffle_each_epoch = reshuffle_each_epoch

    def _is_random_self(self) -> bool:
        return True

    def _describe_self(self) -> str:
        fixed = "" if self.reshuffle_each_epoch else ", reshuffle_each_epoch=False"
        return f"Shuffle({self.buffer_size}{fixed})"
