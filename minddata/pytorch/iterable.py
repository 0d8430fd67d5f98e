"""``TorchIterable``: a minddata pipeline as a ``torch.utils.data.IterableDataset``.

One pass over it (one ``iter()``) is one epoch of the pipeline, read from this process's (and
DataLoader worker's) shard (built by the factory, or the built Dataset re-sharded by
``minddata.auto_shard``), each row converted to a tuple of tensors without copying. The epoch
number drives the pipeline's shuffles and random augmentations exactly as
``create_tuple_iterator`` numbers its epochs.

Position and resuming follow torchdata's ``Stateful`` protocol, which StatefulDataLoader calls in
each worker: ``state_dict()`` after a yielded item is the position after it; ``load_state_dict``
makes the next pass continue from there (it wraps the minddata iterator's ``get_state()`` and
``create_tuple_iterator(state=...)``, so the resumed rows, shuffle order and augmentations are
exactly those the interrupted pass would have produced).
"""
import copy

import torch
from torch.utils.data import IterableDataset, get_worker_info

from ..dataset import Dataset, check_columns
from ..resharding import auto_shard
from .sharding import distributed_shard, explicit_or_distributed
from .tensors import row_to_tensors

_STATE_KEYS = ("epoch", "iterator", "done", "num_shards", "shard_id")

_NEEDS_FACTORY = (
    "to_torch: this {where} must read shard {shard.shard_id} of {shard.num_shards}, but the "
    "Dataset it was given cannot be re-sharded ({why}). Pass a factory "
    "instead, make_dataset(num_shards, shard_id), that builds the pipeline with "
    "num_shards/shard_id on its source{hint}.")
_RANK_HINT = (" (or, if the Dataset already is this rank's shard, say so with num_shards=1, "
              "shard_id=0)")
_WORKER_HINT = " (or use num_workers=0 or 1: the pipeline has worker threads of its own)"


class TorchIterable(IterableDataset):
    """See ``minddata.pytorch.to_torch``."""

    def __init__(self, dataset, *, columns=None, num_shards=None, shard_id=None):
        super().__init__()
        if isinstance(dataset, Dataset):
            self._dataset, self._factory = dataset, None
        elif callable(dataset):
            self._dataset, self._factory = None, dataset
        else:
            raise TypeError(f"to_torch: 'dataset' must be a minddata Dataset or a factory "
                            f"make_dataset(num_shards, shard_id), but got "
                            f"{type(dataset).__name__}")
        self._columns = check_columns("columns", columns)
        self._rank_shard, self._explicit = explicit_or_distributed(num_shards, shard_id)
        if self._dataset is not None:
            self._check_dataset_columns(self._dataset)
        self._built = None      # (Shard, Dataset): this process's shard of the pipeline
        if self._dataset is not None and self._rank_shard.num_shards > 1:
            self._dataset_for(self._rank_shard, "rank")  # refused now rather than in a worker
        # Shared memory, so that set_epoch in the main process reaches persistent workers.
        self._epoch = torch.zeros((), dtype=torch.int64).share_memory_()
        self._pending = None    # a state given to load_state_dict, for the next pass
        self._position = None   # the current (or last) pass of this process
        self._live = None       # that pass's minddata iterator while it runs

    # -- epochs and state -------------------------------------------------------------------
    def set_epoch(self, epoch):
        """The epoch the next pass reads (its shuffle and augmentations), as
        DistributedSampler.set_epoch. Needed with DataLoader workers; a pass in the main process
        (num_workers=0) moves to the next epoch by itself."""
        if isinstance(epoch, bool) or not isinstance(epoch, int) or epoch < 0:
            raise ValueError(f"set_epoch: 'epoch' must be an int >= 0, but got {epoch!r}")
        self._epoch.fill_(epoch)

    def state_dict(self):
        """Position after the last item yielded (JSON-serialisable)."""
        if self._pending is not None:
            return copy.deepcopy(self._pending)
        state = dict(self._position or {"num_shards": None, "shard_id": None})
        if self._live is not None:
            state["iterator"] = self._live.get_state()
        elif state.get("iterator") is None and not state.get("done"):
            # No pass under way: the next one starts the epoch set_epoch (or a pass) set.
            state.update(epoch=int(self._epoch), iterator=None, done=False)
        return copy.deepcopy(state)

    def load_state_dict(self, state_dict):
        """Make the next pass continue from ``state_dict`` (a ``state_dict()`` result)."""
        if not isinstance(state_dict, dict) or set(state_dict) != set(_STATE_KEYS):
            raise ValueError(f"load_state_dict: 'state_dict' must be a dict returned by "
                             f"TorchIterable.state_dict() with keys {list(_STATE_KEYS)}, but got "
                             f"{state_dict!r:.200}")
        self._pending = copy.deepcopy(state_dict)
        if get_worker_info() is None:  # workers never write the counter they share
            self._epoch.fill_(int(state_dict["epoch"]))

    # -- iteration --------------------------------------------------------------------------
    def __iter__(self):
        worker = get_worker_info()
        shard = self._shard_of(worker)
        split = worker is not None and worker.num_workers > 1
        dataset = self._dataset_for(shard, "DataLoader worker" if split else "rank")
        resume, self._pending = self._pending, None
        if resume is None:
            position = {"epoch": int(self._epoch), "iterator": None, "done": False}
        else:
            _check_resumed_shard(resume, shard)
            position = {key: resume[key] for key in ("epoch", "iterator", "done")}
        position.update(num_shards=shard.num_shards, shard_id=shard.shard_id)
        self._position, self._live = position, None
        # The pipeline starts on the first next(): a pass that is never read starts nothing.
        return self._pass(dataset, position, advance_epoch=worker is None)

    def _pass(self, dataset, position, advance_epoch):
        if not position["done"]:
            it = self._open(dataset, position)
            self._live = it
            try:
                for row in it:
                    yield row_to_tensors(row)
            finally:
                if self._live is it:
                    self._live = None
                position["iterator"] = it.get_state()  # where an abandoned pass stopped
                it.close()
        position.update(done=True, iterator=None)
        if advance_epoch:
            position.update(epoch=position["epoch"] + 1, done=False)
            self._epoch.fill_(position["epoch"])

    def _open(self, dataset, position):
        epoch = position["epoch"]
        if position["iterator"] is not None:
            return dataset.create_tuple_iterator(columns=self._columns, num_epochs=epoch + 1,
                                                 output_numpy=True, state=position["iterator"])
        if epoch:
            # Start at epoch `epoch` through the public set_init_step, on a copy of the graph's
            # root so that the caller's Dataset is left as it was.
            size = dataset.get_dataset_size()
            dataset = copy.copy(dataset)
            dataset.set_init_step(epoch * size)
        return dataset.create_tuple_iterator(columns=self._columns, num_epochs=epoch + 1,
                                             output_numpy=True)

    # -- sharding ---------------------------------------------------------------------------
    def _shard_of(self, worker):
        if not self._explicit:
            current = distributed_shard()
            if current is not None and current != self._rank_shard:
                raise RuntimeError(
                    f"to_torch: created as rank {self._rank_shard.shard_id} of "
                    f"{self._rank_shard.num_shards}, but torch.distributed now says rank "
                    f"{current.shard_id} of {current.num_shards}: call to_torch after "
                    f"init_process_group (in Lightning: in the DataModule's setup or "
                    f"train_dataloader)")
        shard = self._rank_shard
        if worker is not None and worker.num_workers > 1:
            shard = shard.split(worker.num_workers, worker.id)
        return shard

    def _dataset_for(self, shard, where):
        if self._factory is None:
            if shard.num_shards == 1:
                return self._dataset
            if self._built is None or self._built[0] != shard:
                self._built = (shard, self._auto_sharded(shard, where))
            return self._built[1]
        if self._built is None or self._built[0] != shard:
            dataset = self._factory(shard.num_shards, shard.shard_id)
            if not isinstance(dataset, Dataset):
                raise TypeError(f"to_torch: make_dataset({shard.num_shards}, {shard.shard_id}) "
                                f"must return a minddata Dataset, but returned "
                                f"{type(dataset).__name__}")
            self._check_dataset_columns(dataset)
            self._built = (shard, dataset)
        return self._built[1]

    def _auto_sharded(self, shard, where):
        """The built Dataset re-sharded by its source (minddata.auto_shard), or the ValueError
        that says why it cannot be and asks for a factory."""
        try:
            return auto_shard(self._dataset, shard.num_shards, shard.shard_id)
        except ValueError as exc:
            hint = _RANK_HINT if where == "rank" else _WORKER_HINT
            raise ValueError(_NEEDS_FACTORY.format(where=where, shard=shard, why=exc,
                                                   hint=hint)) from None

    def _check_dataset_columns(self, dataset):
        if self._columns is None:
            return
        names = dataset.get_col_names()
        missing = [c for c in self._columns if c not in names]
        if missing:
            raise ValueError(f"to_torch: columns {missing} are not in the dataset's columns "
                             f"{names}")

    def __getstate__(self):
        # A worker gets the description, never this process's running pass or built graph.
        state = self.__dict__.copy()
        state["_live"] = state["_built"] = None
        return state


def _check_resumed_shard(state, shard):
    saved = (state["num_shards"], state["shard_id"])
    if saved != (None, None) and saved != (shard.num_shards, shard.shard_id):
        raise ValueError(f"load_state_dict: the state was saved by shard {saved[1]} of "
                         f"{saved[0]}, but this pass reads shard {shard.shard_id} of "
                         f"{shard.num_shards}: resume with the same world size and DataLoader "
                         f"num_workers")
