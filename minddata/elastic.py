"""Elastic exact resume: continue an epoch saved by N ranks on M ranks (M != N allowed).

The rule
--------
Each old rank k of N saved a state in which its source had returned ``consumed[k]`` rows of
its epoch id list ``ids_k`` (shard k of N, as the dataset splits an epoch: row j of shard k is
position ``k + j*N`` of the epoch's order). The rows not yet delivered are, in this order::

    remaining = [ids_k[j] for j in 0, 1, 2, ... for k in 0..N-1 if j >= consumed[k]]

i.e. the old ranks' rest interleaved back into the epoch's global order. New rank r of M
reads ``remaining[r::M]`` for the rest of that epoch: every row of the epoch (the old world's
rows, its wrap-around padding included) is delivered exactly once over all ranks, old and
new; new ranks' counts differ by at most one (nothing is padded or dropped to even them out).
The epochs after it, and the passes of a repeat after the one the ranks stopped in, follow
the dataset's own split over M ranks, as a fresh run would. States saved by every rank at
the same epoch boundary (nothing of the epoch delivered) resume that epoch as a fresh run
of M ranks.

The resumed epoch is described in the source's state as a *world*
``{"num_shards": N, "consumed": [...], "from": <world the old ranks read, or None>}``, so a
resumed epoch can be resharded again (the ``from`` chain grows by one link per change within
the same epoch).

Supported pipelines: one source (not a generator stream) under map (without cache), batch,
project, rename and repeat. A shuffle buffer, filter, take, skip, zip or concat keeps rows whose
source positions the state does not record: ``reshard_state`` rejects them with ValueError.
"""
__all__ = ["reshard_state"]


from .engine import registry
from .engine.positions import Position
from .graph.node import LogicalNode
from .graph.source import Source
from .state_check import check_old_world


# -- turning N states into the state of one new rank -------------------------------------------
class _RankPosition:
    """Where one old rank stands: the pass of a repeat, and rows its source returned."""

    def __init__(self, rep, consumed, source_state):
        self.rep = rep
        self.consumed = consumed
        self.source_state = source_state


def pipeline_chain(dataset, kinds=("map", "batch", "pass", "repeat")):
    """The pipeline as a list of nodes from the root down to its source; ValueError for a node
    whose kind (see ``node_kind``) is not in ``kinds``: its state does not say which source
    rows it has delivered (a shuffle buffer, filter, take, skip, zip, concat, cache)."""
    nodes = []
    node = dataset
    while True:
        nodes.append(node)
        if isinstance(node, Source):
            return nodes
        kind = node_kind(node)
        if kind not in kinds or len(node.children) != 1:
            allowed = ", ".join(sorted({_KIND_NAMES[k] for k in kinds}))
            raise ValueError(f"this needs a pipeline of one source under {allowed}; the "
                             f"pipeline has {type(node).__name__}, whose state does not "
                             f"record which rows it has delivered")
        if kind == "repeat" and any(node_kind(n) == "repeat" for n in nodes[:-1]):
            raise ValueError("this supports at most one repeat in the pipeline")
        node = node.children[0]


_KIND_NAMES = {"map": "map (without cache)", "batch": "batch (int batch_size)",
               "pass": "project, rename", "repeat": "repeat"}


def node_kind(node):
    """"source", "map", "batch", "repeat", "pass" (project, rename: their state is their
    child's), as the engine node running it declares (its state codec's ``role``), or "other"
    for a node whose state hides the source position."""
    codec = _codec(node)
    return "other" if codec is None else codec.role


def _codec(node):
    """The state codec of the engine node that runs ``node``, when its state pins the source
    position (engine/positions.py)."""
    if not node.keeps_positions:
        return None
    return registry.codec(node.kind)


def _position(chain, root_state, epoch, rank):
    """A _RankPosition from one old rank's root state (not None) at ``epoch``."""
    rep = 0
    st = root_state
    for node in chain:
        codec = _codec(node)
        kind = codec.role
        if st is None:   # the node's child has not returned a row in this pass yet
            return _RankPosition(rep, 0, None)
        if not isinstance(st, dict):
            raise ValueError(f"elastic resume: state of rank {rank} does not match the "
                             f"pipeline at {type(node).__name__}")
        if kind == "source":
            if "shard" not in st or "pos" not in st:
                raise ValueError(f"elastic resume: rank {rank}'s source state {st} records no "
                                 f"shard (saved by a generator stream or a node that does not "
                                 f"support elastic resume)")
            return _RankPosition(rep, codec.items_in(st), st)
        if kind == "repeat":
            rep = int(st["rep"])
        st = codec.child_of(st)
    raise AssertionError("a chain ends at its source")


def _world_of(positions, states, num_old):
    """The world spec new ranks read the epoch from, after validating the old ranks."""
    worlds = []
    for k, (pos, st) in enumerate(zip(positions, states)):
        src = pos.source_state
        if src is None:
            continue
        shard = [int(x) for x in src["shard"]]
        if shard != [num_old, k]:
            raise ValueError(f"elastic resume: states[{k}] was saved by shard {shard[1]} of "
                             f"{shard[0]}; pass the states of all {num_old} ranks in shard "
                             f"order")
        worlds.append(src.get("world"))
    prior = worlds[0] if worlds else None
    if any(w != prior for w in worlds):
        raise ValueError("elastic resume: the ranks' states come from different resumed "
                         "worlds of the same epoch")
    return {"num_shards": num_old, "consumed": [p.consumed for p in positions], "from": prior}


def positioned_state(chain, epoch, pos=0, world=None, shard=(1, 0), rep=0, rows=0):
    """The state ``chain`` (root first) has after ``pos`` items of its root in ``epoch``, as
    its nodes' get_state() would return it: a repeat is in pass ``rep`` (having returned
    ``rows`` rows in it), the source reads the epoch resumed from ``world`` as shard ``shard``.
    Each node writes its own state (its codec's ``state_at``)."""
    def build(i, at):
        node = chain[i]
        return _codec(node).state_at(node, at, lambda child_at: build(i + 1, child_at))

    return build(0, Position(epoch, pos, world, tuple(shard), rep, rows))


def chain_position(chain, state):
    """Inverse of ``positioned_state`` for a chain without repeat: (epoch, items of the root
    returned, world) from a state its nodes returned, each node reading its own."""
    epoch, pos, world = None, None, None
    st = state
    for node in chain:
        codec = _codec(node)
        if codec.role == "pass":
            continue
        if st is None:      # the rest of the chain has not returned a row this epoch
            break
        if epoch is None:
            epoch = int(st["epoch"])
            pos = codec.items_in(st)
        if codec.role == "source":
            world = st.get("world")
            break
        st = codec.child_of(st)
    return epoch, pos, world


def _check_states(states):
    if isinstance(states, dict) or not isinstance(states, (list, tuple)) or not states:
        raise TypeError("states must be a non-empty list of get_state() dicts, one per old rank "
                        "in shard order")
    for k, st in enumerate(states):
        if not isinstance(st, dict) or not {"seed", "epoch", "root"} <= set(st):
            raise ValueError(f"states[{k}] must be a dict returned by an iterator's get_state()")
    seeds_ = {int(st["seed"]) for st in states}
    if len(seeds_) != 1:
        raise ValueError(f"elastic resume: the ranks' states have different seeds {sorted(seeds_)}")


def reshard_state(dataset, states):
    """The state from which ``dataset`` (built with the new ``num_shards``/``shard_id``)
    continues a run whose N ranks saved ``states`` (a list in shard order: states[k] came
    from shard k of N). Every rank of the new world calls it with the same ``states`` and
    passes the result as ``state=`` to ``create_tuple_iterator``/``create_dict_iterator``;
    the rest of the epoch is split among the new ranks by the rule in this module's
    docstring. Raises TypeError/ValueError for states that cannot be combined."""
    if not isinstance(dataset, LogicalNode):
        raise TypeError(f"dataset must be a Dataset, got {type(dataset).__name__}")
    _check_states(states)
    chain = pipeline_chain(dataset)
    # The old ranks' states must be of this pipeline but for the shards; the result carries
    # the new rank's signature.
    signature = check_old_world(dataset, states)
    seed = int(states[0]["seed"])
    epoch = min(int(st["epoch"]) for st in states)
    positions = []
    for k, st in enumerate(states):
        e = int(st["epoch"])
        if e == epoch and st["root"] is not None:
            positions.append(_position(chain, st["root"], epoch, k))
        elif e == epoch:
            positions.append(_RankPosition(0, 0, None))     # epoch not started
        elif e == epoch + 1 and st["root"] is None:
            positions.append(_RankPosition(None, -1, None))  # epoch finished
        else:
            raise ValueError(f"elastic resume: rank {k} is in epoch {e}, more than one epoch "
                             f"after rank(s) in epoch {epoch}")
    if all(st["root"] is None for st in states) and len({st["epoch"] for st in states}) == 1:
        # Every rank at the same epoch boundary: that epoch is the new world's from its start.
        return {"seed": seed, "epoch": epoch, "root": None, "pipeline": signature}
    reps = {p.rep for p in positions if p.rep is not None}
    if len(reps) > 1:
        raise ValueError(f"elastic resume: the ranks are in different passes {sorted(reps)} "
                         f"of the repeat; save the states at a step all ranks share")
    rep = reps.pop()
    last_rep = 1
    for node in chain:
        if node_kind(node) == "repeat":
            last_rep = node.count
    if any(p.consumed == -1 for p in positions) and last_rep != -1 and rep != last_rep - 1:
        raise ValueError("elastic resume: some ranks finished the epoch while others are in an "
                         "earlier pass of the repeat")
    world = _world_of(positions, states, len(states))
    shard = chain[-1].shard()
    rows = max((_repeat_rows(chain, st["root"]) for st in states
                if st["root"] is not None and int(st["epoch"]) == epoch), default=0)
    return {"seed": seed, "epoch": epoch, "pipeline": signature,
            "root": positioned_state(chain, epoch, 0, world, shard, rep, rows)}


def _repeat_rows(chain, root_state):
    """Rows the (outermost) repeat returned in its current pass, 0 without a repeat."""
    st = root_state
    for node in chain:
        if st is None:
            return 0
        codec = _codec(node)
        if codec.role == "repeat":
            return codec.items_in(st)
        if codec.role == "source":
            return 0
        st = codec.child_of(st)
    return 0
