"""The trainer's side of a shipped pipeline: a node standing for the shipped chain, fed by the
actors, and the split of a dataset graph into the shipped chain and what stays local.

What is shipped: the chain from the source up through maps (without cache), batches (of an
int batch_size), projects and renames, i.e. every node whose state pins the source position,
so that any piece can start anywhere. Above it only repeat, project and rename may remain:
they draw no random numbers, so the seeds of the shipped ops keep their positions.
"""

from .. import elastic
from ..dataset import Dataset
from ..device_tail import split_device_tail
from ..engine.node import IterNode
from ..engine.registry import register

_SHIPPABLE = ("map", "batch", "pass")


def split_for_service(dataset, service):
    """``dataset`` with its shipped chain replaced by a RemoteStageDataset."""
    if not isinstance(dataset, Dataset):
        raise TypeError(f"dataset must be a Dataset, got {type(dataset).__name__}")
    chain = elastic.pipeline_chain(dataset, kinds=("map", "batch", "pass", "repeat"))
    cut = len(chain) - 1          # index of the shipped chain's top node
    while cut > 0 and elastic.node_kind(chain[cut - 1]) in _SHIPPABLE:
        cut -= 1
    shipped, tail = chain[cut], None
    if service.finish_on_trainer:
        shipped, tail = split_device_tail(chain[cut])
    node = RemoteStageDataset(shipped, service, tail, chain[cut])
    for above in reversed(chain[:cut]):
        node = above.with_children([node])
    return node


class RemoteStageDataset(Dataset):
    """Stands for the chain ``whole`` in the trainer's graph: the actors run ``shipped`` (the
    chain, or the chain without the trailing Normalize/Rescale/HWC2CHW of its batches, which
    ``tail``, a DeviceTail, then applies: see scheduler.py)."""

    kind = "RemoteStage"
    #: The actors compute items ahead of the trainer: no prefetch thread above it.
    ready_ahead = True

    def __init__(self, shipped, service, tail=None, whole=None):
        super().__init__()
        self.shipped = shipped
        self.service = service
        self.tail = tail
        self.whole = whole if whole is not None else shipped

    def display_name(self):
        return "RayService"

    def col_names(self):
        return self.shipped.col_names()

    def row_count(self):
        return self.shipped.row_count()

    def _num_classes(self):
        return self.shipped._num_classes()

    def _class_indexing(self):
        return self.shipped._class_indexing()

    def _batch_size(self):
        return self.shipped._batch_size()

    def _describe_self(self):
        return f"RayService[{self.whole.describe()}]"

    def _is_random_self(self):
        return self.shipped.is_random()

    def without_device_tail(self):
        """For a device that finishes batches itself (the sink): every actor stops before the
        tail, wherever it runs, so the trainer's CPU does none of it and the batches cross
        object stores and the host-to-device copy as uint8."""
        head, tail = split_device_tail(self.whole)
        if tail is None:
            return self, None
        return RemoteStageDataset(head, self.service, None, self.whole), tail



class RemoteStageIter(IterNode):
    """Items of the shipped chain, from the actors, in the order a local run returns them;
    its state is the one the shipped chain's nodes would have (a service run and a local
    run resume from each other's states, and reshard_state reads them)."""

    name = "RayService"

    def __init__(self, ds, ctx, children=()):
        self._scheduler = None      # before anything can fail: close() must work
        super().__init__(ctx, (), num_workers=ds.service.num_workers)
        self.chain = elastic.pipeline_chain(ds.shipped, kinds=_SHIPPABLE)
        self._shard = self.chain[-1].shard()
        self._pos = 0
        self._world = None
        self._scheduler = ds.service.open_scheduler(ds.shipped, ds.tail)
        self.stats.queue_capacity = self.ready_ahead

    @property
    def ready_ahead(self):
        """The items the actors compute ahead of the trainer (pieces in flight or finished)."""
        return self._scheduler.max_ahead * self._scheduler.piece_items

    def start(self, epoch):
        self._begin(epoch, 0, None)

    def reset(self, state):
        epoch, pos, world = elastic.chain_position(self.chain, state)
        if epoch is None:
            raise ValueError(f"RayService: state {state} does not match the shipped pipeline")
        self._begin(epoch, pos, world)

    def _begin(self, epoch, pos, world):
        self.epoch = epoch
        self._pos = pos
        self._world = world
        self._scheduler.begin(self.ctx.seed, epoch, world, pos)

    def _next(self):
        item = self._scheduler.next_item()
        self.stats.sample_queue(self._scheduler.sample_depth())
        if item is not None:
            self._pos += 1
        return item

    def get_state(self):
        return elastic.positioned_state(self.chain, self.epoch, self._pos, self._world,
                                        self._shard)

    def _close_self(self):
        if self._scheduler is not None:
            self._scheduler.close()


register("RemoteStage", lambda pnode, ctx, children: RemoteStageIter(pnode.logical, ctx))
