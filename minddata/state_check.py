"""What a saved iterator state belongs to, and the checks before a run resumes from it.

An iterator's ``get_state()`` is ``{"seed", "epoch", "root", "pipeline"}``:

- ``seed``, ``epoch``: the run's seed and the epoch the position is in;
- ``root``: the tree of the nodes' own states. Each node's ``reset`` checks the fields it reads
  with ``check_node_state`` (an int >= 0 where a count belongs, a bool for a flag, a source's
  shard and resumed world), so a damaged state is refused by the node that owns the format;
- ``pipeline``: the signature of the pipeline that saved it (``pipeline_signature``): its
  logical nodes in depth-first order, root first, each its kind and the fields that decide
  which rows come out: a source's class, shuffle (with Shuffle.BLOCKS's block and window
  sizes), sampler chain, num_samples and shard; a batch's size and drop_remainder; the counts
  of repeat, take and skip; a shuffle buffer's size; the buckets of bucket_batch_by_length.
  What may differ between the save and the resume is left out: workers, threads or
  processes, caches, a map's operations and columns, and whatever the planner decides (native
  or general nodes, fused maps), since the signature is read from the logical graph, never
  from the plan.

``check_state`` compares a state's signature with the dataset's before anything is built; a
state without one (saved by a version of minddata before it existed) is resumed without that
comparison. ``minddata.reshard_state`` compares each old rank's signature but for the shards
(``check_old_world``) and stamps the new rank's on the state it returns.
"""
from .graph.batch import Batch
from .graph.bucket_batch import BucketBatch
from .graph.repeat import Repeat
from .graph.shuffle import Shuffle
from .graph.skip import Skip
from .graph.source import Source
from .graph.take import Take

_UINT32_MAX = 2 ** 32 - 1
_TOP_KEYS = ("seed", "epoch", "root")


# -- the signature ------------------------------------------------------------------------------
def pipeline_signature(dataset):
    """The JSON-serialisable list of ``dataset``'s nodes (depth-first, root first), each
    ``{"node": kind, <fields that decide which rows come out>}``."""
    out = []

    def visit(node):
        # A node that stands for a chain run elsewhere (the Ray service's RemoteStageDataset)
        # signs as that chain: a service run and a local run resume from each other's states.
        node = getattr(node, "whole", None) or node
        entry = {"node": node.kind}
        entry.update(_fields(node))
        if len(node.children) > 1:
            entry["inputs"] = len(node.children)
        out.append(entry)
        for child in node.children:
            visit(child)

    visit(dataset)
    del visit    # a recursive closure refers to itself: free the graph without the GC
    return out


def _fields(node):
    if isinstance(node, Source):
        fields = {"source": node.display_name(),
                  "shuffle": None if node.sampler is not None else node.shuffle_level.name,
                  "sampler": _sampler_chain(node.sampler),
                  "num_samples": _int_or_none(node.num_samples),
                  "shard": list(node.shard())}
        if getattr(node, "shuffle_block_rows", None) is not None:
            # Shuffle.BLOCKS: its block and window sizes decide the order too.
            fields["shuffle_blocks"] = [node.shuffle_block_rows, node.shuffle_window_rows]
        return fields
    if isinstance(node, Batch):
        size = node.batch_size if isinstance(node.batch_size, int) else "callable"
        return {"batch_size": size, "drop_remainder": node.drop_remainder}
    if isinstance(node, BucketBatch):
        return {"boundaries": [int(b) for b in node.boundaries],
                "batch_sizes": [int(b) for b in node.batch_sizes],
                "drop_remainder": node.drop_remainder}
    if isinstance(node, (Repeat, Take, Skip)):
        return {"count": node.count}
    if isinstance(node, Shuffle):
        # (the fixed order of split's shuffle only when set: older states stay valid)
        fixed = {} if node.reshuffle_each_epoch else {"reshuffle_each_epoch": False}
        return {"buffer_size": node.buffer_size, **fixed}
    return {}


def _sampler_chain(sampler):
    """Each sampler of a chain: its class, whether it draws at random, num_samples (and a
    RandomSampler's replacement); not a DistributedSampler's shard, which the source's
    ``shard`` field records (reshard_state compares signatures but for it)."""
    chain = []
    while sampler is not None:
        entry = {"sampler": type(sampler).__name__, "random": bool(sampler.is_random()),
                 "num_samples": _int_or_none(sampler.num_samples)}
        if hasattr(sampler, "replacement"):
            entry["replacement"] = bool(sampler.replacement)
        chain.append(entry)
        sampler = sampler.child_sampler
    return chain or None


# -- the checks of a state ----------------------------------------------------------------------
def check_state(state, dataset):
    """ValueError unless ``state`` (None: a fresh run) is an iterator's get_state() of
    ``dataset``: its top-level fields and, when it has one, its pipeline signature. Returns
    ``dataset``'s signature, which the iterator stamps on the states it saves."""
    signature = pipeline_signature(dataset)
    if state is not None:
        _check_top(state, "state")
        _compare(signature, state.get("pipeline"), "state")
    return signature


def check_old_world(dataset, states):
    """reshard_state's check of the old ranks' states: each one's top-level fields, and its
    signature against ``dataset``'s but for the shards (the old world had another number of
    ranks). Returns ``dataset``'s signature, to stamp on the resharded state."""
    signature = pipeline_signature(dataset)
    for k, st in enumerate(states):
        _check_top(st, f"states[{k}]")
        _compare(signature, st.get("pipeline"), f"states[{k}]", ignore=("shard",))
    return signature


def _check_top(state, what):
    if not isinstance(state, dict) or not set(_TOP_KEYS) <= set(state):
        raise ValueError(f"{what} must be a dict returned by an iterator's get_state() (with "
                         f"keys {list(_TOP_KEYS)}), got {_short(state)}")
    _need(what, "seed", state["seed"], _is_int(state["seed"]) and
          0 <= state["seed"] <= _UINT32_MAX, f"an int in [0, {_UINT32_MAX}]")
    _need(what, "epoch", state["epoch"], _is_count(state["epoch"]), "an int >= 0")
    _need(what, "root", state["root"], state["root"] is None or isinstance(state["root"], dict),
          "a dict (the nodes' states) or None")


def _compare(expected, saved, what, ignore=()):
    if saved is None:
        return      # saved before states recorded their pipeline: no signature to compare
    if not isinstance(saved, list) or not all(isinstance(e, dict) for e in saved):
        raise ValueError(f"{what}: 'pipeline' must be the list of node signatures "
                         f"get_state() records, got {_short(saved)}")
    kinds = [e["node"] for e in expected]
    saved_kinds = [e.get("node") for e in saved]
    if kinds != saved_kinds:
        raise ValueError(f"{what} does not fit this pipeline: it was saved by a pipeline "
                         f"of nodes {saved_kinds}, this dataset's nodes are {kinds}")
    for i, (mine, theirs) in enumerate(zip(expected, saved)):
        for key in sorted(set(mine) | set(theirs)):
            if key in ignore or mine.get(key) == theirs.get(key):
                continue
            if key == "shard":
                raise ValueError(
                    f"{what} does not fit this pipeline: it was saved by shard "
                    f"{_shard_text(theirs.get(key))} (another rank's state), but this "
                    f"dataset's {mine.get('source', mine['node'])} reads shard "
                    f"{_shard_text(mine[key])}; resume each rank from its own state, or "
                    f"from minddata.reshard_state for another number of ranks")
            raise ValueError(
                f"{what} does not fit this pipeline: {mine['node']} (node {i} from the "
                f"root) has {key}={mine.get(key)!r} in this dataset, but the state was saved "
                f"with {key}={theirs.get(key)!r}")


def _shard_text(shard):
    if isinstance(shard, list) and len(shard) == 2:
        return f"{shard[1]} of {shard[0]}"
    return repr(shard)


# -- the checks of a node's own state (called by the nodes' reset) ------------------------------
class Rule:
    """What a field of a node's state must be: ``ok(value)`` and its description."""

    def __init__(self, what, ok):
        self.what = what
        self.ok = ok


COUNT = Rule("an int >= 0", lambda v: _is_count(v))
FLAG = Rule("a bool", lambda v: isinstance(v, bool))
NODE = Rule("a node's state (a dict)", lambda v: isinstance(v, dict))
CHILD = Rule("a node's state (a dict) or None", lambda v: v is None or isinstance(v, dict))


def up_to(high):
    """An int in [0, high]."""
    return Rule(f"an int in [0, {high}]", lambda v: _is_count(v) and v <= high)


def states_of(n):
    """A list of ``n`` node states (one per input)."""
    return Rule(f"a list of {n} node states", lambda v: isinstance(v, list) and len(v) == n
                and all(isinstance(s, dict) for s in v))


def check_node_state(node, state, **rules):
    """ValueError unless ``state`` (what ``node``'s reset was given) is a dict whose fields
    follow ``rules`` (field name -> Rule), naming the node, the field, what was expected and
    what the state has."""
    if not isinstance(state, dict):
        raise ValueError(f"state does not fit this pipeline: {node.name}'s state must be a dict, "
                         f"got {_short(state)}")
    for field, rule in rules.items():
        if field not in state:
            raise ValueError(f"state does not fit this pipeline: {node.name}'s state has no "
                             f"field {field!r} (it has {sorted(state)})")
        _need(f"{node.name}'s state", field, state[field], rule.ok(state[field]), rule.what)


def check_source_state(node, state, shard):
    """A source's state (engine/nodes/source.py's ``source_state``) read by ``node``, whose
    source reads ``shard`` = (num_shards, shard_id): its fields, the shard it was saved by
    (another rank's state is refused) and the resumed world, if any."""
    check_node_state(node, state, epoch=COUNT, pos=COUNT)
    if "shard" in state and state["shard"] != list(shard):
        raise ValueError(f"state does not fit this pipeline: {node.name}'s state was saved by "
                         f"shard {_shard_text(state['shard'])} (another rank's state), but "
                         f"this source reads shard {_shard_text(list(shard))}; resume each "
                         f"rank from its own state, or from minddata.reshard_state for another "
                         f"number of ranks")
    what = f"{node.name}'s state"
    world = state.get("world")
    while world is not None:    # the resumed worlds, each one's "from" the one before it
        _need(what, "world", world, isinstance(world, dict), "a dict (elastic.py's world)")
        n = world.get("num_shards")
        _need(what, "world.num_shards", n, _is_int(n) and n >= 1, "an int >= 1")
        consumed = world.get("consumed")
        _need(what, "world.consumed", consumed, isinstance(consumed, list) and len(consumed) == n
              and all(_is_int(c) and c >= -1 for c in consumed),
              f"a list of {n} ints >= -1 (rows each old rank delivered)")
        world = world.get("from")


def _need(what, field, value, ok, expected):
    if not ok:
        raise ValueError(f"state does not fit this pipeline: {what} has {field}="
                         f"{_short(value)}, expected {expected}")


def _int_or_none(v):
    return None if v is None else int(v)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_count(v):
    return _is_int(v) and v >= 0


def _short(value):
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
