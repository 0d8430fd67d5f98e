"""GeneratorDataset(batch_sampler=..., collate_fn=...): rows of a random-access source grouped
by a batch sampler (MindSpore 2.x, in the manner of torch's DataLoader).

Each list of indices the batch sampler yields becomes one row of the dataset: the source's rows
at those indices, each column stacked into one array, or whatever ``collate_fn(*columns)``
returns (each column a list of the rows' arrays). The batch sampler is iterated once per epoch,
so a random one gives new batches every epoch.
"""
import copy

import numpy as np


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
        self.epochs_drawn = 0

    def for_run(self):
        """These batches for one run (an iterator): with its own copy of the batch sampler, as
        MindSpore copies a pipeline's samplers for each iterator (a sampler that cannot be
        copied is shared)."""
        run = copy.copy(self)
        try:
            run.batch_sampler = copy.deepcopy(self.batch_sampler)
        except Exception:
            pass
        return run

    def batches_of(self, epoch):
        """The batches of ``epoch`` of this run. A run that starts at a later epoch
        (set_init_step, a resumed state) draws the batch sampler through the epochs before
        first, as MindSpore does, so that a stateful sampler gives that epoch's batches."""
        for _ in range(self.epochs_drawn, epoch):
            for _ in self.batch_sampler:
                pass
        self.epochs_drawn = epoch + 1
        return iter(self)

    def __iter__(self):
        from .engine.nodes.batch import stack_column
        names = self.column_names
        for indices in self.batch_sampler:
            rows = [self.make_row(self.source[i], names, None, f"source[{i}]")
                    for i in _batch_indices(indices)]
            if not rows:
                raise RuntimeError("GeneratorDataset: batch_sampler yielded an empty batch")
            columns = [list(c) for c in zip(*rows)]
            if self.collate_fn is not None:
                yield self.collate_fn(*columns)
            else:
                yield tuple(stack_column(n, c, None, "GeneratorDataset(batch_sampler)")
                            for n, c in zip(names, columns))


def _batch_indices(indices):
    """A batch's row ids, checked as MindSpore checks them (RuntimeError, its words)."""
    if not isinstance(indices, (list, tuple, np.ndarray)):
        raise RuntimeError(f"Batch sampler should return a list, but got an integer "
                           f"({type(indices).__name__}: {indices!r})")
    for i in indices:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise RuntimeError(f"Python sampler should return index of type integer, but got "
                               f"{type(i).__name__}: {i!r}")
    return [int(i) for i in indices]


class SizedSampledBatches(SampledBatches):
    """SampledBatches of a batch sampler with ``__len__`` (the dataset size, known at once)."""

    def __len__(self):
        return len(self.batch_sampler)


def sampled_batches(source, batch_sampler, collate_fn, column_names, make_row):
    cls = SizedSampledBatches if hasattr(batch_sampler, "__len__") else SampledBatches
    return cls(source, batch_sampler, collate_fn, column_names, make_row)
