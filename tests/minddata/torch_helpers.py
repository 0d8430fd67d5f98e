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


def double_image(image):
    return image * 2


def make_mapped_pipeline(num_shards=None, shard_id=None, num_rows=48, batch_size=4):
    """make_pipeline's shuffled rows with a map before the batch: image becomes 2 * (id % 251)."""
    ids, images = id_rows(num_rows)
    data = ds.NumpySlicesDataset((ids, images), column_names=["id", "image"], shuffle=True,
                                 num_shards=num_shards, shard_id=shard_id)
    return data.map(double_image, input_columns=["image"]).batch(batch_size)


def check_mapped(batches):
    """Each row's image is its own id's, mapped (the map ran on the row the id came with)."""
    for batch in batches:
        for i, image in zip(batch[0], batch[1]):
            assert (image == (int(i) % 251) * 2).all()
