"""Shuffle levels of a file source: how local their reads are, and how well they mix.

    .venv/bin/python benchmarks/shuffle_quality_bench.py [--rows 100000] [--files 16]
        [--classes 10] [--epochs 3]

The worst case for any shuffle that keeps rows of a file together: ``--rows`` rows in
``--files`` equal files, written in class order (row i has label ``i * classes // rows``, so
each class fills a run of consecutive rows, 1.6 files with the defaults). The epoch orders are
computed by the engine's own ``Source.epoch_ids`` (nothing is read or decoded), for
``Shuffle.GLOBAL``, ``Shuffle.BLOCKS`` at a few block/window sizes, ``Shuffle.FILES`` and
``Shuffle.INFILE``, and averaged over ``--epochs`` epochs. Columns:

- files/1k, blocks/1k: distinct files, and distinct 256-row ranges of a file (about one 32 MiB
  MindRecord page of ImageNet-sized rows: what a remote read fetches), among each 1,000
  consecutive rows of the epoch (mean). Fewer is more local. ``rank0/8``: the same blocks
  count for rank 0 of 8 (``num_shards=8``), whose rows are every 8th of the order under the
  strided split and a contiguous eighth of it under BLOCKS.
- TVD/batch: mean total-variation distance between each batch of 128 rows' label histogram and
  the whole set's (0 = each batch has the global class mix; a batch of 128 independent uniform
  draws has about 0.11 from sampling noise alone, which GLOBAL shows).
- spearman: rank correlation between a row's id and its position in the epoch (0 = no trace of
  the file order; 1 = file order).
- order ms: time to compute one epoch's order.

Nothing is asserted. The last line times one epoch's order at ImageNet's size.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from minddata.graph.source import Source  # noqa: E402
from minddata.samplers import Shuffle  # noqa: E402

PAGE_ROWS = 256        # the locality unit: rows of about one 32 MiB page
WINDOW_ROWS = 1000     # rows per locality window
BATCH = 128
BLOCK_SETTINGS = [(64, 1024), (256, 1024), (256, 4096), (256, 16384), (1024, 16384),
                  (8192, 16384)]


class _Rows:
    """Just what ``Source.epoch_ids`` reads of a RowSource: its length and file ranges."""

    def __init__(self, file_rows):
        self._starts = np.concatenate([[0], np.cumsum(file_rows)]).astype(np.int64)

    def __len__(self):
        return int(self._starts[-1])

    def file_row_ranges(self):
        return [(int(a), int(b)) for a, b in zip(self._starts[:-1], self._starts[1:])]

    def close(self):
        pass


def _source(level, block=None, window=None, num_shards=None, shard_id=None):
    modes = (Shuffle.GLOBAL, Shuffle.FILES, Shuffle.INFILE, Shuffle.BLOCKS)
    return Source(lambda: None, shuffle=level, shuffle_modes=modes, column_names=["label"],
                  num_shards=num_shards, shard_id=shard_id, shuffle_block_rows=block,
                  shuffle_window_rows=window)


def _distinct_per_window(keys):
    """Mean number of distinct values in each run of WINDOW_ROWS consecutive keys."""
    full = keys.size // WINDOW_ROWS
    runs = np.sort(keys[:full * WINDOW_ROWS].reshape(full, WINDOW_ROWS), axis=1)
    return float(np.mean(1 + np.count_nonzero(np.diff(runs, axis=1), axis=1)))


def _measures(order, rows, file_of, page_of, labels, classes):
    files = _distinct_per_window(file_of[order])
    pages = _distinct_per_window(page_of[order])
    full = order.size // BATCH
    batch_labels = labels[order[:full * BATCH]].reshape(full, BATCH)
    hist = np.stack([np.count_nonzero(batch_labels == c, axis=1) for c in range(classes)],
                    axis=1) / BATCH
    overall = np.bincount(labels, minlength=classes) / labels.size
    tvd = float(np.mean(0.5 * np.abs(hist - overall).sum(axis=1)))
    # A permutation of 0..n-1 is its own rank: Spearman's rho is the Pearson correlation of
    # the ids with their positions.
    spearman = float(np.corrcoef(np.arange(order.size), order)[0, 1]) if rows > 1 else 0.0
    return files, pages, tvd, spearman


def _row(name, setting, level, src, tables, epochs, block=None, window=None):
    whole = _source(level, block, window)
    rank0 = _source(level, block, window, num_shards=8, shard_id=0)
    sums = np.zeros(5)
    seconds = []
    for epoch in range(epochs):
        start = time.perf_counter()
        order = whole.epoch_ids(src, 1234, epoch, 0)
        seconds.append(time.perf_counter() - start)
        sums[:4] += _measures(order, len(src), *tables)
        sums[4] += _distinct_per_window(tables[1][rank0.epoch_ids(src, 1234, epoch, 0)])
    files, pages, tvd, spearman, rank_pages = sums / epochs
    print(f"{name:<8}{setting:<24}{files:>9.1f}{pages:>10.1f}{rank_pages:>9.1f}{tvd:>11.3f}"
          f"{spearman:>10.3f}{1000 * min(seconds):>10.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--files", type=int, default=16)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    n, nf, classes = args.rows, args.files, args.classes
    file_rows = np.full(nf, n // nf, dtype=np.int64)
    file_rows[:n % nf] += 1
    src = _Rows(file_rows)
    ids = np.arange(n, dtype=np.int64)
    file_of = np.repeat(np.arange(nf), file_rows)
    local = ids - np.repeat(src._starts[:-1], file_rows)
    page_of = file_of * (1 + int(file_rows.max()) // PAGE_ROWS) + local // PAGE_ROWS
    labels = (ids * classes // n).astype(np.int64)
    tables = (file_of, page_of, labels, classes)
    print(f"{n:,} rows in {nf} files of ~{n // nf:,} rows, {classes} classes in file order; "
          f"means over {args.epochs} epochs")
    print(f"{'level':<8}{'setting':<24}{'files/1k':>9}{'blocks/1k':>10}{'rank0/8':>9}"
          f"{'TVD/batch':>11}{'spearman':>10}{'order ms':>10}")
    _row("GLOBAL", "", Shuffle.GLOBAL, src, tables, args.epochs)
    for block, window in BLOCK_SETTINGS:
        _row("BLOCKS", f"block {block}, window {window}", Shuffle.BLOCKS, src, tables,
             args.epochs, block, window)
    _row("FILES", "", Shuffle.FILES, src, tables, args.epochs)
    _row("INFILE", "", Shuffle.INFILE, src, tables, args.epochs)

    big = _Rows(np.full(1024, 1_281_167 // 1024) + (np.arange(1024) < 1_281_167 % 1024))
    for name, node in (("GLOBAL", _source(Shuffle.GLOBAL)), ("BLOCKS", _source(Shuffle.BLOCKS))):
        start = time.perf_counter()
        node.epoch_ids(big, 1234, 0, 0)
        print(f"one epoch's order of 1,281,167 rows in 1024 files, {name} (default sizes): "
              f"{1000 * (time.perf_counter() - start):.0f} ms")


if __name__ == "__main__":
    main()
