"""GeneratorDataset(batch_sampler=..., collate_fn=...): rows of a random-access source grouped
by a batch sampler (MindSpore 2.x, in the manner of torch's DataLoader).

Each list of indices the batch sampler yields becomes one row of the dataset: the source's rows
at those indices, each column stacked into one array, or whatever ``collate_fn(*columns)``
returns (each column a list of the rows' arrays). The batch sampler is iterated once per epoch,
so a random one gives new batches every epoch.
"""


def check_batch_sampler(source, batch_sampler, collate_fn, num_samples, shuffle, sampler,
                        num_shards, shard_id):
    """MindSpore's checks (ValueError / TypeError with its texts)."""
    if batch_sampler is None:
        if collate_fn is not None:
            raise ValueError("collate_fn can be specified only when batch_sampler is set.")
        return
    if any(a is not None for a in (num_samples, shuffle, sampler, num_shards, shard_id)):
        raise ValueError("batch_sampler is mutually exclusive with num_samples, shuffle, "
                         "num_shards, shard_id and sampler.")
    if not (hasattr(batch_sampler, "__getitem__") or hasattr(batch_sampler, "__iter__")):
        raise TypeError("batch_sampler should have __getitem__ or __iter__ method.")
    if collate_fn is not None and not callable(collate_fn):
        raise TypeError(f"collate_fn should be callable, got {type(collate_fn).__name__}")
    if not hasattr(source, "__getitem__"):
        raise ValueError("GeneratorDataset: batch_sampler needs a random-access source "
                         "(__getitem__ and __len__): batch_sampler is not supported if source "
                         "does not have attribute '__getitem__'.")


class SampledBatches:
    """An iterable of batches (one per list of indices), read by GeneratorDataset's stream node."""

    def __init__(self, source, batch_sampler, collate_fn, column_names, make_row):
        self.source = source
        self.batch_sampler = batch_sampler
        self.collate_fn = collate_fn
        self.column_names = column_names
        self.make_row = make_row

    def __iter__(self):
        from .engine.nodes.batch import stack_column
        names = self.column_names
        for indices in self.batch_sampler:
            rows = [self.make_row(self.source[int(i)], names, None, f"source[{int(i)}]")
                    for i in indices]
            if not rows:
                raise RuntimeError("GeneratorDataset: batch_sampler yielded an empty batch")
            columns = [list(c) for c in zip(*rows)]
            if self.collate_fn is not None:
                yield self.collate_fn(*columns)
            else:
                yield tuple(stack_column(n, c, None, "GeneratorDataset(batch_sampler)")
                            for n, c in zip(names, columns))


class SizedSampledBatches(SampledBatches):
    """SampledBatches of a batch sampler with ``__len__`` (the dataset size, known at once)."""

    def __len__(self):
        return len(self.batch_sampler)


def sampled_batches(source, batch_sampler, collate_fn, column_names, make_row):
    cls = SizedSampledBatches if hasattr(batch_sampler, "__len__") else SampledBatches
    return cls(source, batch_sampler, collate_fn, column_names, make_row)
