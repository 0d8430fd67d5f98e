"""A batch decoded into one device buffer, as the direct nvJPEG decoder writes it."""
import numpy as np


class DecodedBatch:
    """A batch's rows decoded one after another into one device buffer, each (3, H, W)
    planar RGB: ``flat`` (1-D uint8) and ``hw`` ((N, 2) int64 numpy). The crop-resize reads
    ``flat`` in place with the sizes from ``hw``, without a tensor object per row; indexing
    and iterating give each row's (3, H, W) view for the other paths."""

    def __init__(self, flat, hw):
        self.flat, self.hw = flat, np.asarray(hw, np.int64).reshape(-1, 2)
        self.starts = np.concatenate([[0], np.cumsum(3 * self.hw[:, 0] * self.hw[:, 1])])

    def __len__(self):
        return len(self.hw)

    def __getitem__(self, i):
        height, width = (int(v) for v in self.hw[i])
        return self.flat[int(self.starts[i]):int(self.starts[i + 1])].view(3, height, width)

    def __iter__(self):
        pieces = self.flat[:int(self.starts[-1])].split(np.diff(self.starts).tolist())
        return (piece.view(3, height, width)
                for piece, (height, width) in zip(pieces, self.hw.tolist()))

    def by_row(self, taken):
        """A list over a whole batch of which this holds the rows ``taken`` (bool, in order):
        each of those rows' (3, H, W) view, None for the others."""
        rows = [None] * len(taken)
        for row, image in zip(np.flatnonzero(taken).tolist(), self):
            rows[row] = image
        return rows


__all__ = ["DecodedBatch"]
