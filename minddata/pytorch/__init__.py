"""PyTorch interop: a minddata pipeline as a ``torch.utils.data.IterableDataset``.

    from minddata.pytorch import to_torch
    loader = torch.utils.data.DataLoader(to_torch(make_dataset), batch_size=None,
                                         num_workers=2, pin_memory=True)

``import minddata`` never imports torch, and neither does importing this package: torch is
imported when ``to_torch`` is first called (or ``TorchIterable`` first named).
"""

__all__ = ["to_torch", "TorchIterable"]


def to_torch(dataset, *, columns=None, num_shards=None, shard_id=None):
    """A ``torch.utils.data.IterableDataset`` yielding each row (or batch) of the pipeline as a
    tuple of torch tensors that share memory with the pipeline's numpy arrays.

    ``dataset`` is either a ``minddata.Dataset`` (iterated as it is: it cannot be re-sharded) or
    a factory ``make_dataset(num_shards, shard_id)`` that builds the pipeline for one shard (it
    must pass both to its source). With a factory, the epoch is split over
    ``num_shards x DataLoader workers``: shard ``shard_id * num_workers + worker_id`` of
    ``num_shards * num_workers``. ``num_shards``/``shard_id`` default to torch.distributed's
    world size and rank when it is initialised (1 and 0 otherwise); explicit values win.
    ``columns`` selects and orders the output columns (all of them by default).
    """
    from .iterable import TorchIterable
    return TorchIterable(dataset, columns=columns, num_shards=num_shards, shard_id=shard_id)


def __getattr__(name):
    if name == "TorchIterable":
        from .iterable import TorchIterable
        return TorchIterable
    raise AttributeError(f"module 'minddata.pytorch' has no attribute {name!r}")
