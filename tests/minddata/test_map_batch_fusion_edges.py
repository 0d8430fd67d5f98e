"""map -> batch fast path: resumable state, errors naming the op and row, rows that do not
fit one batch array, batches the consumer keeps, and clean shutdown."""
import gc

import numpy as np
import pytest

import minddata as ds
import transforms_c.vision as V

from .engine_helpers import check_resume, minddata_threads, wait_until
from .map_batch_helpers import batches, jpegs, pipeline, same_batches

DATAS = jpegs(17, seed=1)


@pytest.mark.parametrize("workers", [1, 2])
def test_the_state_harness_passes(workers):
    check_resume(pipeline(DATAS, 3, workers=workers), num_epochs=2, stops=(0, 1, 2, 5, 6, 9))


def test_the_state_harness_passes_with_batch_worker_threads():
    check_resume(pipeline(DATAS, 3, batch_workers=2), num_epochs=2, stops=(0, 1, 4, 6))


def test_resume_equals_the_per_row_stream():
    fast = check_resume(pipeline(DATAS, 4), num_epochs=2, stops=(1,))
    assert fast == check_resume(pipeline(DATAS, 4, per_row=True), num_epochs=2, stops=(1,))


@pytest.mark.parametrize("workers", [1, 2])
def test_a_corrupt_image_names_the_op_and_the_row(workers):
    datas = list(DATAS)
    datas[9] = datas[9][:60]                               # truncated JPEG
    with pytest.raises(RuntimeError) as info:
        batches(pipeline(datas, 4, workers=workers))
    text = str(info.value)
    assert "Map(FusedPlan(Decode+RandomResizedCrop" in text
    assert "row 9 of epoch 0" in text and "JpegRows[9]" in text


def test_an_error_stops_every_worker_thread():
    datas = list(DATAS)
    datas[2] = np.zeros(10, np.uint8)                      # not an image
    with pytest.raises(RuntimeError, match="row 2 of epoch 0"):
        batches(pipeline(datas, 4, workers=3))
    gc.collect()
    assert wait_until(lambda: not minddata_threads())


def test_rows_of_different_shapes_fail_as_on_the_per_row_path():
    ops = [V.Decode(), V.Resize(20), V.HWC2CHW()]          # keeps each image's aspect ratio
    errors = []
    for per_row in (True, False):
        with pytest.raises(RuntimeError) as info:
            batches(pipeline(DATAS, 4, ops=ops, per_row=per_row))
        errors.append(str(info.value))
    assert "different shapes" in errors[1] and errors[0] == errors[1]


def test_rows_of_different_shapes_are_padded_as_on_the_per_row_path():
    ops = [V.Decode(), V.Resize(20), V.HWC2CHW()]
    got = []
    for per_row in (True, False):
        data = ds.GeneratorDataset(lambda: ((d,) for d in DATAS), ["image"])
        data = data.map(ops + ([lambda x: x] if per_row else []), num_parallel_workers=2)
        got.append(batches(data.padded_batch(4, pad_info={"image": ([3, 40, 40], 7)})))
    assert got[0][0][0].shape == (4, 3, 40, 40) and same_batches(got[0], got[1])


def test_batches_the_consumer_holds_are_never_overwritten():
    ds.config.set_seed(4)
    expected = batches(pipeline(DATAS, 4), num_epochs=3)
    it = pipeline(DATAS, 4).create_tuple_iterator(num_epochs=3, output_numpy=True)
    held = [b for _ in range(3) for b in it]               # every batch array kept
    views = [b[0][1:] for b in held]                       # and views of them
    assert same_batches(held, expected)
    assert all(np.array_equal(v, e[0][1:]) for v, e in zip(views, expected))


def test_dropped_batch_arrays_are_reused():
    ds.config.set_prefetch_size(1)
    datas = DATAS * 3
    it = pipeline(datas, 2, workers=1).create_tuple_iterator(num_epochs=1, output_numpy=True)
    addresses = {b[0].__array_interface__["data"][0] for b in it}   # each dropped at once
    assert len(addresses) < len(datas) // 2


def test_breaking_out_leaves_no_threads():
    it = pipeline(DATAS * 4, 2, workers=3).create_tuple_iterator(num_epochs=2)
    for _ in zip(range(3), it):
        pass
    it.close()
    del it
    gc.collect()
    assert wait_until(lambda: not minddata_threads())


def test_stage_stats_count_the_rows_the_map_served():
    it = pipeline(DATAS, 4).create_tuple_iterator(num_epochs=1, output_numpy=True)
    list(it)
    stats = {s.name: s for s in it.stage_stats()}
    assert stats["Map"].rows_out == len(DATAS) and stats["Batch"].rows_out == 5
    assert stats["Map"].busy_s > 0


def test_a_batch_size_far_above_the_rows_allocates_only_the_rows():
    got = batches(pipeline(DATAS, 2 ** 31 - 1))
    assert len(got) == 1 and got[0][0].shape == (len(DATAS), 3, 16, 16)
