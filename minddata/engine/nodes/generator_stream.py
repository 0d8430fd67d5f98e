"""The stream source node: rows of an iterable or generator function, in order (a source that
cannot be read by row id). The logical node gives the stream of this run
(``stream_for_run()``), which opens each epoch's rows (``open(epoch)``, a fresh iterator); the
state is the rows returned, and a reset restarts the stream and skips them, the only way to
reposition a generator."""
from ...state_check import COUNT, check_node_state
from ..node import IterNode


class GeneratorStreamIter(IterNode):
    def __init__(self, ds, ctx, children):
        super().__init__(ctx, (), name=ds.display_name())
        self.ds = ds
        self._stream = ds.stream_for_run()
        self._it = None
        self._pos = 0
        ctx.position()

    def start(self, epoch):
        self.epoch = epoch
        self._restart()

    def _restart(self):
        self._close_stream()
        try:
            self._it = self._stream.open(self.epoch)
        except BaseException as e:
            raise self.fail(e, "the generator's start")
        self._pos = 0

    def _next(self):
        limit = self.ds.num_samples
        if limit and self._pos >= limit:
            return None
        try:
            row = next(self._it)
        except StopIteration:
            return None
        except BaseException as e:
            raise self.fail(e, f"generator row {self._pos}")
        self._pos += 1
        return row

    def get_state(self):
        return {"epoch": self.epoch, "pos": self._pos}

    def reset(self, state):
        check_node_state(self, state, epoch=COUNT, pos=COUNT)
        self.start(state["epoch"])
        for _ in range(int(state["pos"])):
            if self._next() is None:
                break

    def prov_token(self):
        return (self, self._pos - 1)

    def _format_prov(self, key):
        return f"generator row {key}"

    def _close_stream(self):
        it, self._it = self._it, None
        close = getattr(it, "close", None)
        if close is not None:
            try:
                close()
            except Exception:
                pass

    def _close_self(self):
        self._close_stream()
