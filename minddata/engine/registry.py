"""From physical node to iterator node: one builder per kind of physical node.

``register(kind, builder)`` adds a kind; ``builder(pnode, ctx, children)`` returns the
IterNode running ``pnode`` (a planner/physical.py PhysicalNode) over its already-built
``children``. The engine's own kinds are registered by engine/builders.py; a layer above may
register its own (the Ray service registers "RemoteStage"), so the engine never imports it.
Children are built before their parent, so seed positions (BuildContext.position) follow the
order rows flow in, as they always have.
"""
_BUILDERS = {}
_CODECS = {}


def register(kind, builder, codec=None):
    """``codec``: the node class whose ``state_at``/``items_in``/``child_of`` position a node
    of this kind (engine/positions.py), for kinds whose state pins the source position."""
    if kind in _BUILDERS and _BUILDERS[kind] is not builder:
        raise ValueError(f"a builder is already registered for physical node kind {kind!r}")
    _BUILDERS[kind] = builder
    if codec is not None:
        _CODECS[kind] = codec


def codec(kind):
    """The state codec of ``kind`` (a class with ``role``, ``state_at``, ``items_in`` and
    ``child_of``), or None."""
    return _CODECS.get(kind)


def build(pnode, ctx):
    """The iterator tree of physical tree ``pnode``."""
    builder = _BUILDERS.get(pnode.kind)
    if builder is None:
        raise NotImplementedError(f"no engine node runs physical node kind {pnode.kind!r} "
                                  f"({pnode.name}); registered: {sorted(_BUILDERS)}")
    children = [build(c, ctx) for c in pnode.children]
    return builder(pnode, ctx, children)
