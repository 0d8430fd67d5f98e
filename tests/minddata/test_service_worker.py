"""A service actor's pieces without Ray: the native batch node it runs computes no batch past
the piece (the next piece starts elsewhere, so such a batch would be computed for nothing), and
still serves every batch asked for."""
import numpy as np
import pytest

import minddata as ds
from minddata import elastic
from minddata.engine.node import BuildContext
from .native_batch_helpers import jpeg_bytes, train_ops, write_mindrecord


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory):
    path = write_mindrecord(str(tmp_path_factory.mktemp("mr") / "piece.mindrecord"),
                            [jpeg_bytes(i) for i in range(20)])
    data = ds.MindDataset(path, columns_list=["image", "label"], shuffle=True)
    return data.map(train_ops(), input_columns=["image"], num_parallel_workers=1).batch(2)


def batches_at(pipeline, first, count, limit):
    """``count`` batches from batch ``first`` of epoch 1, as an actor's piece runs them
    (reset to the position, then ``limit_ready_ahead(limit)``); and the batches still in
    flight afterwards."""
    ctx = BuildContext(seed=5)
    root = ctx.build(pipeline.plan().root)
    try:
        assert root.name.startswith("NativeBatch") and root.ring_depth >= 2
        chain = elastic.pipeline_chain(pipeline, kinds=("map", "batch", "pass"))
        root.reset(elastic.positioned_state(chain, 1, first, None,
                                            chain[-1].shard()))
        if limit is not None:
            root.limit_ready_ahead(limit)
        out = [root.next() for _ in range(count)]
        return out, len(root.inflight)
    finally:
        root.close()


def test_no_batch_is_computed_past_the_piece(pipeline):
    ahead, inflight = batches_at(pipeline, 3, 2, None)
    assert inflight > 0                          # unbounded: the ring runs ahead
    piece, inflight = batches_at(pipeline, 3, 2, 2)
    assert inflight == 0
    for a, b in zip(ahead, piece):
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])


def test_batches_past_the_limit_are_still_served(pipeline):
    full, _ = batches_at(pipeline, 0, 10, None)
    limited, inflight = batches_at(pipeline, 0, 10, 1)
    assert inflight == 0
    assert [b[1].tolist() for b in limited] == [b[1].tolist() for b in full]
    np.testing.assert_array_equal(limited[-1][0], full[-1][0])
