"""Small numpy helpers the in-memory sources share (MNIST, CIFAR, CSV)."""
import numpy as np


def as_int_ids(ids):
    """Row ids as an int64 array (the engine may pass a list or any integer array)."""
    return np.asarray(ids, dtype=np.int64).reshape(-1)


def check_ids(ids, num_rows, provenance):
    """IndexError naming the source if any id is outside [0, num_rows)."""
    if ids.size and (ids.min() < 0 or ids.max() >= num_rows):
        bad = int(ids[(ids < 0) | (ids >= num_rows)][0])
        raise IndexError(f"row id {bad} is out of range for {provenance} ({num_rows} rows)")


def scalars(values):
    """Per-row 0-d arrays from a 1-D array, each owning its own memory.

    ``values[i, ...]`` would be a view keeping the whole chunk alive; copying keeps a row
    independent of the source (a map that writes in place must not touch its neighbours).
    """
    return [np.array(v) for v in values]


def rows_of(block):
    """Per-row arrays from a freshly gathered (fancy-indexed, hence private) block."""
    return list(block)
