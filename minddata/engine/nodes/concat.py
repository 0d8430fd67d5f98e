"""The concat node: the rows of each child in turn. The children must give the same column
types and ranks: the first row of each child is checked against the first row seen (MindSpore
refuses a float32 column concatenated with an int one, or batches with rows; serving both would
hand the consumer a column whose type changes midway).

With a sampler (``ConcatDataset.use_sampler``, graph/concat.py): a DistributedSampler keeps the
rows at positions k, k+N, ... of the concatenated order (``position`` counts every row pulled
this epoch, kept or not); a RandomSampler interleaves the children in a seeded order drawn at the
start of each epoch (each child's own order kept), so all children run at once; when a child's
size is unknown before reading (a generator without __len__), each row's child is drawn instead
among those not yet exhausted, from the row position's seed."""
import numpy as np

from ... import seeds
from ...graph.checks import PipelineArgumentError
from ...state_check import COUNT, NODE, check_node_state, up_to
from ..node import IterNode


def _element_type(value):
    """The name of the column type a row's value has, as MindSpore names it: its dtype's, and
    "string" or "bytes" whatever the width (rows of "a" and "bbb" concatenate)."""
    dtype = getattr(value, "dtype", None)
    if dtype is None:
        return None
    return {"U": "string", "S": "bytes"}.get(dtype.kind, dtype.name)


class ConcatIter(IterNode):
    name = "Concat"

    def __init__(self, ds, ctx, children):
        mismatch = ds.column_mismatch()
        if mismatch is not None:
            raise PipelineArgumentError(mismatch)
        super().__init__(ctx, list(children))
        self.columns = ds.col_names()
        self.current = 0
        self._types = None          # column types of the first row seen
        self._checked = set()       # children whose first row was checked this epoch
        self._shards = ds.distributed_shards()
        self._interleave = ds.interleaves()
        self._sizes = [c.row_count() for c in ds.children] if self._interleave else None
        # Children of unknown size (generators without __len__) cannot be laid out as a seeded
        # permutation up front: each row then comes from a child drawn among those not yet
        # exhausted (from the row position's own seed, so a resume draws the same).
        self._draw_live = self._interleave and None in self._sizes
        self._live = None           # the children not exhausted this epoch (_draw_live)
        self._base = None
        self.seed_position = ctx.position()
        self.position = 0           # rows pulled this epoch (DistributedSampler)
        self._order = None          # child of each row this epoch (RandomSampler)

    def start(self, epoch):
        self.epoch = epoch
        self.current = 0
        self.position = 0
        self._checked = set()
        if self._draw_live:
            self._live = list(range(len(self.children)))
            self._base = seeds.stage_base(self.ctx.seed, epoch, self.seed_position)
            for child in self.children:
                child.start(epoch)
        elif self._interleave:
            rng = seeds.rng(self.ctx.seed, epoch, self.seed_position)
            self._order = rng.permutation(np.repeat(np.arange(len(self.children)), self._sizes))
            for child in self.children:
                child.start(epoch)
        else:
            self.children[0].start(epoch)

    def _next(self):
        if self._interleave:
            return self._next_interleaved()
        while self.current < len(self.children):
            row = self.pull(self.children[self.current])
            if row is not None:
                if self.current not in self._checked:
                    self._check_types(row)
                if self._shards is not None:
                    position, self.position = self.position, self.position + 1
                    num_shards, shard_id = self._shards
                    if position % num_shards != shard_id:
                        continue
                return row
            self.current += 1
            if self.current < len(self.children):
                self.children[self.current].start(self.epoch)
        return None

    def _next_drawn(self):
        while self._live:
            child = self._live[seeds.row_seed(self._base, self.position) % len(self._live)]
            row = self.pull(self.children[child])
            if row is None:
                self._live.remove(child)
                continue
            self.position += 1
            self.current = child
            if child not in self._checked:
                self._check_types(row)
            return row
        return None

    def _next_interleaved(self):
        if self._draw_live:
            return self._next_drawn()
        if self.position >= len(self._order):
            return None
        child = int(self._order[self.position])
        row = self.pull(self.children[child])
        if row is None:
            raise RuntimeError(f"Concat: dataset {child} of the concat gave fewer rows than its "
                               f"size ({self._sizes[child]}) while a RandomSampler interleaved "
                               f"it")
        self.position += 1
        self.current = child
        if child not in self._checked:
            self._check_types(row)
        return row

    def _check_types(self, row):
        types = [(_element_type(a), np.ndim(a)) for a in row]
        self._checked.add(self.current)
        if self._types is None:
            self._types = types
            return
        for name, (want, want_rank), (got, rank) in zip(self.columns, self._types, types):
            if want != got:
                raise RuntimeError(
                    f"Concat: the type of column {name!r} does not match: {want} in the rows "
                    f"before, {got} in dataset {self.current} of the concat; concatenated "
                    f"datasets must have the same column types (cast one with a map first). "
                    f"[ERROR] Concat: the data types of the two datasets to be concatenated "
                    f"should be the same, but got: {want} and {got}.")
            if want_rank != rank:
                raise RuntimeError(
                    f"Concat: column {name!r} has rank {want_rank} in the rows before and "
                    f"{rank} in dataset {self.current} of the concat. [ERROR] Concat: the data "
                    f"tensor rank of the two datasets to be concatenated should be the same, "
                    f"but got: {want_rank} and {rank}.")

    def prov_token(self):
        if self.current < len(self.children):
            return self.children[self.current].prov_token()
        return None

    def get_state(self):
        if self._interleave:
            state = {"epoch": self.epoch, "position": self.position,
                     "children": [c.get_state() for c in self.children]}
            if self._draw_live:
                state["live"] = list(self._live)
            return state
        i = min(self.current, len(self.children) - 1)
        state = {"epoch": self.epoch, "current": self.current,
                 "child": self.children[i].get_state()}
        if self._shards is not None:
            state["position"] = self.position
        return state

    def reset(self, state):
        if self._interleave:
            check_node_state(self, state, epoch=COUNT, position=COUNT)
            self.start(state["epoch"])
            children = state.get("children")
            if not isinstance(children, list) or len(children) != len(self.children):
                raise ValueError(f"state does not fit this pipeline: {self.name}'s state must "
                                 f"hold the states of its {len(self.children)} datasets")
            self.position = state["position"]
            for child, child_state in zip(self.children, children):
                child.reset(child_state)
            if self._draw_live:
                live = state.get("live")
                if not isinstance(live, list) or not set(live) <= set(range(len(self.children))):
                    raise ValueError(f"state does not fit this pipeline: {self.name}'s state "
                                     f"must list the datasets not yet exhausted ('live')")
                self._live = list(live)
            return
        # current == number of inputs: every input has ended.
        rules = dict(epoch=COUNT, current=up_to(len(self.children)), child=NODE)
        if self._shards is not None:
            rules["position"] = COUNT
        check_node_state(self, state, **rules)
        self.epoch = state["epoch"]
        self.current = state["current"]
        self.position = state.get("position", 0)
        if self.current < len(self.children):
            self.children[self.current].reset(state["child"])
