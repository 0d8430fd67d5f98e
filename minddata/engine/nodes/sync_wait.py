"""The sync_wait node: its child's rows, each let through only while this run's allowance
(minddata/graph/sync_wait.py: the wait's batches at the start of each epoch, plus what
``Dataset.sync_update`` released) lasts."""
import logging
import time

from ... import config
from ...graph.sync_wait import waits_are_open
from ..node import IterNode

logger = logging.getLogger("minddata")

_POLL_S = 0.05


class SyncWaitIter(IterNode):
    name = "SyncWait"

    def __init__(self, ds, ctx, children):
        super().__init__(ctx, [children[0]], name=f"SyncWait({ds.condition.name!r})")
        self.condition = ds.condition
        self.allowance = 0
        # A pass reading the pipeline's size or first row: nobody will call sync_update.
        self.open = waits_are_open()
        # The rows already produced must reach the training loop, which releases the next
        # ones: the producer may not hold them back in a chunk.
        ctx.hand_over_each_row = True
        self.condition.add_gate(self)

    def start(self, epoch):
        super().start(epoch)
        with self.condition.cv:
            self.allowance = self.condition.initial_rows()

    def reset(self, state):
        super().reset(state)
        with self.condition.cv:
            self.allowance = self.condition.initial_rows()

    def _next(self):
        # The row is read first, so that the end of an epoch is never held back.
        row = self.pull(self.children[0])
        if row is not None and not self.open:
            self._wait()
        return row

    def _wait(self):
        cond = self.condition
        timeout = float(config.get_callback_timeout())
        deadline = time.monotonic() + timeout
        with cond.cv:
            while self.allowance <= 0 and not cond.disabled:
                if self.ctx.debug:
                    # Debug mode runs the pipeline in the caller's thread: waiting there
                    # for the caller's sync_update could only time out.
                    logger.warning("minddata: sync_wait %r does not block in debug mode",
                                   cond.name)
                    cond.disabled = True
                    break
                if self.ctx.stopping.is_set():
                    raise RuntimeError(f"sync_wait {cond.name!r}: the pipeline was closed "
                                       f"while waiting for sync_update")
                if time.monotonic() >= deadline:
                    logger.warning(
                        "minddata: timeout happened in sync_wait %r after %s second(s): no "
                        "dataset.sync_update(condition_name=%r) came; maybe it is missing "
                        "after create_dict_iterator(...). Now disabling the lock (every row "
                        "passes).", cond.name, timeout, cond.name)
                    cond.disabled = True
                    break
                cond.cv.wait(_POLL_S)
            self.allowance -= 1

    def _close_self(self):
        self.condition.remove_gate(self)
