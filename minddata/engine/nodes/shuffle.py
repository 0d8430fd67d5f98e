"""The shuffle node: MindSpore's buffer shuffle."""
from ... import seeds
from ...state_check import COUNT, check_node_state
from ..node import ReplayNode


class ShuffleIter(ReplayNode):
    """State = (epoch, rows returned); reset replays the epoch (the buffer holds rows, which
    are not worth serialising)."""

    name = "Shuffle"

    def __init__(self, ds, ctx, children):
        super().__init__(ctx, [children[0]],
                         queue_capacity=ds.buffer_size)
        self.size = ds.buffer_size
        self.reshuffle = ds.reshuffle_each_epoch
        self.position = ctx.position()
        self._buf = []
        self._child_done = False
        self._rng = None

    def _start_epoch(self, epoch):
        self._buf = []
        self._child_done = False
        self._rng = seeds.rng(self.ctx.seed, epoch if self.reshuffle else 0, self.position)
        self._draws = []

    def reset(self, state):
        check_node_state(self, state, epoch=COUNT, returned=COUNT)
        super().reset(state)

    def _draw(self, n):
        # Draw random indices in blocks (one numpy call per 1024 rows).
        if not self._draws:
            self._draws = list(self._rng.random(1024))
            self._draws.reverse()
        return int(self._draws.pop() * n)

    def _next(self):
        child = self.children[0]
        buf = self._buf
        while not self._child_done and len(buf) < self.size:
            row = self.pull(child)
            if row is None:
                self._child_done = True
            else:
                buf.append(row)
        if not buf:
            return None
        j = self._draw(len(buf))
        row = buf[j]
        nxt = None if self._child_done else self.pull(child)
        if nxt is None:
            self._child_done = True
            buf[j] = buf[-1]
            buf.pop()
        else:
            buf[j] = nxt
        self.stats.sample_queue(len(buf))
        return row

    def prov_token(self):
        return None
