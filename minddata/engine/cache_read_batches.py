"""The cache-read node of ``Batch(Map(cache=...))`` with a plain batch (fixed size, no padding, no
per_batch_map): it emits whole batches.

In an epoch that finds the stage complete, each batch is read straight from the store into the
batch arrays (one copy per row instead of one into a row and another into the batch), ahead of
the consumer on reader threads. In other epochs, and for a batch read with rows missing or of
different shapes, the rows (read, or computed by the child from a missing row on, as in
cache_read.py) are made into a batch by the batch's own builder, handed in by the planner, so
the batches and their errors are those of the batch node it replaces.
"""
from .cache_read import CacheReadIter


class CacheReadBatchesIter(CacheReadIter):
    name = "CacheRead(batches)"

    def __init__(self, ctx, child, store, workers, batch_size, drop_remainder, build_batch,
                 replayable):
        """``build_batch(rows, batch_num, epoch)``: the batch (tuple of columns) of a list of
        rows. Other arguments as CacheReadIter's."""
        super().__init__(ctx, child, store, workers, batch_size, replayable)
        self.batch_size = batch_size
        self.drop_remainder = drop_remainder
        self._build_batch = build_batch
        self.batch_num = 0      # batches returned this epoch
        self.done = False       # the pass ended (a short or empty batch was met)

    def start(self, epoch):
        super().start(epoch)
        self.batch_num = 0
        self.done = False

    def get_state(self):
        state = super().get_state()
        state.update(batch_num=self.batch_num, done=self.done)
        return state

    def reset(self, state):
        super().reset(state)
        self.batch_num = state["batch_num"]
        self.done = state["done"]

    def _read_shape(self):
        return self.batch_size, True

    def _next(self):
        if self.done:
            return None
        want = self.batch_size
        if self.from_store and not self._rows:
            got = self._reader.take()
            if got is None:
                self.done = True
                return None
            want, batch = got
            if not isinstance(batch, list):         # stacked straight from the store
                self.index += want
                return self._emit(want, batch)
            self._rows.extend(batch)
        rows = []
        while len(rows) < want:
            row = self._next_row()
            if row is None:
                break
            rows.append(row)
        return self._emit(len(rows), rows)

    def _emit(self, n, batch):
        if n < self.batch_size:
            self.done = True
            if not n or self.drop_remainder:
                return None
        num = self.batch_num
        self.batch_num += 1
        return batch if isinstance(batch, tuple) else self._build_batch(batch, num, self.epoch)
