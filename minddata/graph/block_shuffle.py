"""``Shuffle.BLOCKS``: the epoch order that reads a few contiguous blocks of files at a time.

The order of one epoch, a pure function of the files' row ranges, the two sizes and the
epoch's random generator (so exact and elastic resume recompute it like any other level):

1. **Blocks.** Each file's rows are cut into blocks of ``block_rows`` consecutive rows, from
   the file's first row. The rows left over at a file's end (fewer than ``block_rows``) join
   its last block, which thus holds ``block_rows`` to ``2 * block_rows - 1`` rows; a file
   smaller than ``block_rows`` is one block. A block never spans two files, so it is one
   contiguous byte range of one file. (Keeping every block at least ``block_rows`` long is
   what makes the bound below hold whatever the files' sizes.)
2. **Blocks permuted.** The blocks are put in a random order (one permutation drawn from the
   generator) and their rows laid end to end, each block's rows in file order.
3. **Rows shuffled in windows.** That sequence is cut into consecutive windows of
   ``window_rows`` rows (the last one shorter), and the rows of each window are permuted
   (``Generator.permuted`` on the windows as rows of a matrix, then the last window).

Locality: a window of the epoch order (rows ``i * window_rows`` to ``(i + 1) * window_rows -
1``) holds rows of at most ``window_rows / block_rows + 2`` blocks: the blocks wholly inside
it hold at least ``block_rows`` rows each, plus the two it shares with its neighbours (files
smaller than ``block_rows`` are the exception: their blocks are smaller). Any run of
``window_rows`` consecutive rows meets at most two windows, so at most ``2 * window_rows /
block_rows + 4`` blocks. A reader thus keeps about ``window_rows / block_rows + 1`` blocks
open at a time, each a byte range of one file.

Sharding with this level splits the epoch order in contiguous parts (``contiguous_split``):
rank k of N reads positions ``k * per .. (k + 1) * per - 1`` (``per = ceil(n / N)``, positions
past the end wrapping to the order's start, as the strided split pads), so each rank reads its
own blocks, whole windows but for its first and last. The other levels keep MindSpore's
strided split (position ``k + j * N``), under which every rank would read a few rows of every
block of a window.

Resume: exact resume recomputes the order from the seed and epoch. Elastic resume
(graph/sharding.py, elastic.py) hands the old ranks' undelivered rows out to the new ranks
row by row (new rank r takes every M-th of them), which delivers every row exactly once under
this split too; in that one resumed epoch a new rank reads from the rest of every old rank's
part at once (about M times the blocks per window), and the epochs after it are contiguous
again.
"""
from __future__ import annotations

import math
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from .checks import INT32_MAX

#: Rows per block when ``shuffle_block_rows`` is not given: 256 ImageNet-sized rows (about
#: 110 KiB each, encoded) are about 28 MiB, just under one 32 MiB MindRecord page (the
#: writer's default page size), so a block is one or two pages of a file: one ranged read of
#: a remote file, or one contiguous stretch of a cached one.
DEFAULT_BLOCK_ROWS = 256

#: Blocks per window when ``shuffle_window_rows`` is not given (window = 16 * block rows:
#: 4096 rows, about 450 MB of ImageNet-sized rows, with the default block).
DEFAULT_WINDOW_BLOCKS = 16


def _check_positive(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be of type int, but got {type(value).__name__}")
    if not 1 <= value <= INT32_MAX:
        raise ValueError(f"{name} must be a positive int (at most {INT32_MAX}), but got {value}")
    return int(value)


def check_block_options(is_blocks: bool, ordering: str, block_rows: Any,
                        window_rows: Any) -> Tuple[Optional[int], Optional[int]]:
    """The effective ``(shuffle_block_rows, shuffle_window_rows)`` of a source whose shuffle
    level is ``Shuffle.BLOCKS`` (``is_blocks``), or (None, None) for another level or a
    sampler (``ordering`` says which, for the error: "shuffle=Shuffle.GLOBAL", "a
    sampler"). TypeError for a value that is not an int, ValueError for a value out of range,
    a window smaller than a block, or an option given without ``Shuffle.BLOCKS``."""
    if not is_blocks:
        for name, value in (("shuffle_block_rows", block_rows),
                            ("shuffle_window_rows", window_rows)):
            if value is not None:
                raise ValueError(f"{name} is only used with shuffle=Shuffle.BLOCKS, but the "
                                 f"dataset is read with {ordering}")
        return None, None
    block = DEFAULT_BLOCK_ROWS if block_rows is None else \
        _check_positive("shuffle_block_rows", block_rows)
    if window_rows is None:
        window = min(block * DEFAULT_WINDOW_BLOCKS, INT32_MAX)
    else:
        window = _check_positive("shuffle_window_rows", window_rows)
    if window < block:
        given = "" if block_rows is not None else ", the default"
        raise ValueError(f"shuffle_window_rows ({window}) must be at least shuffle_block_rows "
                         f"({block}{given}): a window spans one block or more")
    return block, window


def file_blocks(ranges: Sequence[Tuple[int, int]], block_rows: int) -> Tuple[np.ndarray,
                                                                              np.ndarray]:
    """``(starts, stops)`` (int64 arrays) of the blocks of every file, in file order: blocks of
    ``block_rows`` rows from each file's first row, the rest of a file joining its last block
    (a file smaller than ``block_rows`` is one block; an empty file has none)."""
    starts: List[np.ndarray] = []
    stops: List[np.ndarray] = []
    for a, b in ranges:
        a, b = int(a), int(b)
        if b <= a:
            continue
        count = max(1, (b - a) // block_rows)
        first = a + np.arange(count, dtype=np.int64) * block_rows
        last = np.append(first[1:], b)
        starts.append(first)
        stops.append(last)
    if not starts:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(starts), np.concatenate(stops)


def _concat_ranges(starts: np.ndarray, stops: np.ndarray) -> np.ndarray:
    """The ids ``starts[0]..stops[0]-1, starts[1]..stops[1]-1, ...`` as one int64 array."""
    lengths = stops - starts
    total = int(lengths.sum())
    before = np.cumsum(lengths) - lengths          # where each range begins in the output
    return np.arange(total, dtype=np.int64) + np.repeat(starts - before, lengths)


def _shuffle_windows(seq: np.ndarray, window_rows: int, rng: np.random.Generator) -> np.ndarray:
    """``seq`` with the rows of each consecutive window of ``window_rows`` permuted."""
    n = seq.size
    full = n // window_rows
    body = rng.permuted(seq[:full * window_rows].reshape(full, window_rows), axis=1)
    tail = seq[full * window_rows:]
    return np.concatenate([body.reshape(-1), tail[rng.permutation(tail.size)]])


def block_shuffle_order(ranges: Sequence[Tuple[int, int]], block_rows: int, window_rows: int,
                        rng: np.random.Generator) -> np.ndarray:
    """The epoch order (int64 row ids, each once) of ``Shuffle.BLOCKS`` over files whose
    global row-id ranges are ``ranges`` (the module docstring has the rule). Draws one block
    permutation, then the windows' permutations, from ``rng``."""
    starts, stops = file_blocks(ranges, block_rows)
    perm = rng.permutation(starts.size)
    seq = _concat_ranges(starts[perm], stops[perm])
    return _shuffle_windows(seq, window_rows, rng)


def contiguous_split(n: int, num_shards: int, shard_id: int) -> np.ndarray:
    """Positions of the epoch order that shard ``shard_id`` of ``num_shards`` reads under
    ``Shuffle.BLOCKS``: the ``shard_id``-th of ``num_shards`` contiguous parts of
    ``ceil(n / num_shards)`` positions each, the positions past the end wrapping to the
    order's start (as the strided split pads, so every shard reads as many rows)."""
    per = math.ceil(n / num_shards)
    return (shard_id * per + np.arange(per, dtype=np.int64)) % n
