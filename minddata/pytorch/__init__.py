"""PyTorch interop: a minddata pipeline as a ``torch.utils.data.IterableDataset``.

    from minddata.pytorch import to_torch
    loader = torch.utils.data.DataLoader(to_torch(dataset), batch_size=None,
                                         num_workers=2, pin_memory=True)

``import minddata`` never imports torch, and neither does importing this package: torch is
imported when ``to_torch`` is first called (or ``TorchIterable`` first named).
"""

__all__ = ["to_torch", "TorchIterable"]


def to_torch(dataset, *, columns=None, num_shards=None, shard_id=None):
    """A ``torch.utils.data.IterableDataset`` yielding each row (or batch) of the pipeline as a
    tuple of torch tensors that share memory with the pipeline's numpy arrays.

    ``dataset`` is either a built ``minddata.Dataset`` or a factory
    ``make_dataset(num_shards, shard_id)`` that builds the pipeline for one shard (it must pass
    both to its source). The epoch is split over ``num_shards x DataLoader workers``: each
    (rank, worker) reads shard ``shard_id * num_workers + worker_id`` of
    ``num_shards * num_workers``. A factory is called with that shard; a Dataset is re-sharded
    to it by ``minddata.auto_shard`` (its source rewritten to read that shard, the rest of the
    pipeline unchanged). Where auto_shard refuses (a take, skip or zip above the source, a source
    already sharded or with a sampler, a stream source) a ValueError says why and asks for a
    factory: at once for a rank's shard, in the worker for a worker's. A Dataset that already
    is this rank's shard is declared with ``num_shards=1, shard_id=0``.
    ``num_shards``/``shard_id`` default to torch.distributed's world size and rank when it is
    initialised (1 and 0 otherwise); explicit values win.
    ``columns`` selects and orders the output columns (all of them by default).
    """
    from .iterable import TorchIterable
    return TorchIterable(dataset, columns=columns, num_shards=num_shards, shard_id=shard_id)


def __getattr__(name):
    if name == "TorchIterable":
        from .iterable import TorchIterable
        return TorchIterable
    raise AttributeError(f"module 'minddata.pytorch' has no attribute {name!r}")
