"""map -> batch fast path: a map ending in a fused native plan writes its rows straight into
the batch arrays; the batches must be exactly those of the per-row path."""
import numpy as np
import pytest

import minddata as ds
import transforms_c
from minddata.engine import map_batch

from .map_batch_helpers import batches, jpegs, pipeline, same_batches, train_ops

DATAS = jpegs(21)


@pytest.fixture
def served(monkeypatch):
    """Counts the batches the fast path served."""
    count = [0]
    original = map_batch.BatchFuser.next_batch

    def counting(self):
        got = original(self)
        count[0] += bool(got[0])
        return got

    monkeypatch.setattr(map_batch.BatchFuser, "next_batch", counting)
    return count


def test_the_fast_path_serves_the_batches(served):
    got = batches(pipeline(DATAS, 4))
    assert len(got) == 6 and served[0] == 6


def test_a_map_ending_in_a_python_op_does_not_use_it(served):
    batches(pipeline(DATAS, 4, per_row=True))
    assert served[0] == 0


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_batches_equal_the_per_row_path(workers):
    ds.config.set_seed(7)
    expected = batches(pipeline(DATAS, 4, per_row=True, workers=1), num_epochs=2)
    got = batches(pipeline(DATAS, 4, workers=workers), num_epochs=2)
    assert got[0][0].shape == (4, 3, 16, 16) and got[0][0].dtype == np.float32
    assert same_batches(got, expected)


def test_batches_equal_the_process_worker_path():
    ds.config.set_seed(3)
    expected = batches(pipeline(DATAS, 5, workers=2, python_multiprocessing=True))
    assert same_batches(batches(pipeline(DATAS, 5, workers=2)), expected)


@pytest.mark.parametrize("size,drop", [(4, False), (4, True), (21, False), (50, False),
                                       (50, True), (1, False)])
def test_partial_and_dropped_last_batches(size, drop):
    ds.config.set_seed(5)
    expected = batches(pipeline(DATAS, size, per_row=True, drop=drop))
    got = batches(pipeline(DATAS, size, drop=drop))
    assert same_batches(got, expected)
    assert sum(len(b[1]) for b in got) == (21 // size * size if drop else 21)


def test_shuffled_source_with_any_worker_count():
    ds.config.set_seed(11)
    expected = batches(pipeline(DATAS, 6, per_row=True, shuffle=True, workers=1), 2)
    for workers in (2, 4):
        assert same_batches(batches(pipeline(DATAS, 6, shuffle=True, workers=workers), 2),
                            expected)


def test_ops_before_the_plan_run_per_row_first():
    ops = [lambda x: x[::-1][::-1]] + train_ops()        # a Python op, then the fused run
    assert hasattr(transforms_c.compile_operations(ops)[-1], "apply_batch")
    ds.config.set_seed(2)
    expected = batches(pipeline(DATAS, 4, ops=ops, per_row=True))
    assert same_batches(batches(pipeline(DATAS, 4, ops=ops)), expected)


def test_output_columns_keep_their_places():
    import transforms_c.vision as V
    data = ds.GeneratorDataset(lambda: ((np.int32(i), d) for i, d in enumerate(DATAS[:6])),
                               ["label", "image"])
    data = data.map(train_ops(), input_columns=["image"], output_columns=["pixels"],
                    num_parallel_workers=2).batch(4)
    assert data.get_col_names() == ["label", "pixels"]
    got = batches(data)
    assert got[0][0].tolist() == [0, 1, 2, 3] and got[1][1].shape == (2, 3, 16, 16)
    del V


def test_apply_batch_output_equals_per_row_apply():
    plan = transforms_c.compile_operations(train_ops())[0]
    seeds = [12345 + 977 * i for i in range(len(DATAS))]
    out = np.empty((len(DATAS), 3, 16, 16), np.float32)
    rows = plan.apply_batch([(d,) for d in DATAS], [plan.seeds(s) for s in seeds], out=out)
    for i, (d, s) in enumerate(zip(DATAS, seeds)):
        expected = plan.apply((d,), s)[0]
        assert np.array_equal(rows[i][0], expected) and np.array_equal(out[i], expected)


def test_uint8_plans_and_deterministic_plans_equal_the_per_row_path():
    import transforms_c.vision as V
    ops = [V.Decode(), V.Resize((20, 18)), V.CenterCrop(16), V.HWC2CHW()]
    expected = batches(pipeline(DATAS, 8, ops=ops, per_row=True))
    got = batches(pipeline(DATAS, 8, ops=ops))
    assert got[0][0].dtype == np.uint8 and same_batches(got, expected)


def test_a_repeat_above_the_batch_gives_each_pass_its_own_draws():
    ds.config.set_seed(9)
    expected = batches(pipeline(DATAS, 4, per_row=True).repeat(2))
    got = batches(pipeline(DATAS, 4).repeat(2))
    assert same_batches(got, expected) and not np.array_equal(got[0][0], got[6][0])


def test_debug_mode_gives_the_same_batches(served):
    ds.config.set_seed(6)
    fast = batches(pipeline(DATAS, 4))
    assert served[0] == 6
    ds.config.set_debug_mode(True)
    assert same_batches(batches(pipeline(DATAS, 4)), fast) and served[0] == 6
