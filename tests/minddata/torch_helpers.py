"""Small pipelines for the torch adapter's tests: rows carry their id, so tests can check which
rows each shard, worker or rank read."""
import numpy as np

import minddata as ds


def id_rows(num_rows):
    ids = np.arange(num_rows, dtype=np.int64)
    images = (ids[:, None, None] % 251).astype(np.uint8) * np.ones((1, 4, 3), np.uint8)
    return ids, images


def make_pipeline(num_shards=None, shard_id=None, num_rows=48, batch_size=4, shuffle=True):
    """(id, image) rows, shuffled and batched; a module-level function, so it pickles."""
    ids, images = id_rows(num_rows)
    data = ds.NumpySlicesDataset((ids, images), column_names=["id", "image"], shuffle=shuffle,
                                 num_shards=num_shards, shard_id=shard_id)
    return data.batch(batch_size)


def ids_of(batches):
    """Every row id in a sequence of (id, image) tensor batches, in order."""
    return [int(i) for batch in batches for i in batch[0]]
