import numpy as np
import pytest

import minddata as ds
from .engine_helpers import rows


def seqs(lengths):
    return ds.GeneratorDataset(lambda: ((np.arange(n),) for n in lengths), ["s"])


def test_rows_grouped_by_length():
    d = seqs([1, 5, 2, 6, 1, 7]).bucket_batch_by_length(["s"], [3], [2, 3],
                                                       pad_info={"s": (None, 0)})
    out = rows(d)
    assert [len(b[0]) for b in out] == [2, 3, 1]
    assert out[1][0][0] == [0, 1, 2, 3, 4, 0, 0]


def test_pad_to_bucket_boundary_and_drop():
    d = seqs([1, 2, 1]).bucket_batch_by_length(["s"], [4], [2, 2], pad_info={"s": ([None], -1)},
                                              pad_to_bucket_boundary=True, drop_remainder=True)
    out = rows(d)
    assert len(out) == 1 and out[0][0] == [[0, -1, -1], [0, 1, -1]]


def bucketed(rows_, pad_info, boundaries=(4,)):
    data = ds.GeneratorDataset(lambda: ((np.array(r, np.int32),) for r in rows_), ["a"],
                               shuffle=False)
    return [r[0].tolist() for r in data.bucket_batch_by_length(
        ["a"], list(boundaries), [2] * (len(boundaries) + 1), pad_info=pad_info,
        pad_to_bucket_boundary=True).create_tuple_iterator(output_numpy=True)]


def test_pad_to_bucket_boundary_pads_only_the_shapes_none_dimensions():
    # measured in MindSpore 2.10: a pad shape of None pads to the batch's largest row, in the
    # last bucket too; each None inside a shape becomes the boundary minus 1, the last bucket
    # then raising
    assert bucketed([[1]], {"a": (None, -1)}) == [[[1]]]
    assert bucketed([[1, 2, 3, 4]], {"a": (None, -1)}, (3,)) == [[[1, 2, 3, 4]]]
    assert bucketed([[1]], {"a": ([None], -1)}) == [[[1, -1, -1]]]
    assert bucketed([[[1]], [[1, 2]]], {"a": ([None, None], -1)}) == [
        [[[1, -1, -1], [-1, -1, -1], [-1, -1, -1]], [[1, 2, -1], [-1, -1, -1], [-1, -1, -1]]]]
    assert bucketed([[[1]], [[1, 2]]], {"a": ([2, None], -1)}) == [
        [[[1, -1, -1], [-1, -1, -1]], [[1, 2, -1], [-1, -1, -1]]]]
    with pytest.raises(RuntimeError, match="bucket index should be less than 2, but got 1"):
        bucketed([[1, 2, 3, 4]], {"a": ([None], -1)}, (3,))


def test_length_function():
    d = seqs([3, 1]).bucket_batch_by_length(["s"], [2], [1, 1],
                                            element_length_function=lambda s: 10 - len(s),
                                            pad_info={"s": (None, 0)})
    assert [len(b[0][0]) for b in rows(d)] == [3, 1]


def test_validation():
    with pytest.raises(ValueError):
        seqs([1]).bucket_batch_by_length(["s"], [2, 1], [1, 1, 1])
    with pytest.raises(ValueError):
        seqs([1]).bucket_batch_by_length(["s"], [2], [1])
    with pytest.raises(ValueError):
        seqs([1]).bucket_batch_by_length(["nope"], [2], [1, 1])
