"""The planner's native_batch rewrite and the native batch node: same rows as the general nodes
for every source kind, worker count, epoch and resume point; Python fallback rows; errors; cleanup."""
import gc
import os
import threading

import numpy as np
import pytest

import minddata as ds
import minddata.vision as vision
from minddata import seeds
from transforms_c import settings
from transforms_c.fusion import run_unfused

from .native_batch_helpers import (assert_same_batches, collect, eval_ops, jpeg_bytes, plan_of,
                                   png_bytes, train_ops, write_image_folder, write_mindrecord)


@pytest.fixture(scope="module")
def jpegs():
    return [jpeg_bytes(i, gray=(i % 11 == 5)) for i in range(29)]


@pytest.fixture(scope="module")
def mr_path(tmp_path_factory, jpegs):
    return write_mindrecord(str(tmp_path_factory.mktemp("mr") / "native.mindrecord"), jpegs,
                            shards=2)


def mind_pipeline(path, ops=None, workers=2, batch=4, drop=False, shuffle=True, **kw):
    d = ds.MindDataset(path, columns_list=["image", "label"], shuffle=shuffle, **kw)
    d = d.map(ops or train_ops(), input_columns=["image"], num_parallel_workers=workers)
    return d.batch(batch, drop_remainder=drop)


def native_threads():
    return len(os.listdir("/proc/self/task"))


# -- the plan -----------------------------------------------------------------------------------
def test_plan_fires_for_a_native_chain(mr_path):
    report = plan_of(mind_pipeline(mr_path))
    assert report.nodes == ["NativeBatch(MindDataset+Map+Batch)"]
    assert report.fired("native_batch")
    assert not report.fired("prefetch")        # the ring is the prefetch
    assert "native_batch" in str(report)


def test_plan_keeps_the_ring_under_pass_through_nodes(mr_path):
    report = plan_of(mind_pipeline(mr_path).repeat(2).take(3))
    assert report.nodes[-1].startswith("NativeBatch")
    assert not report.fired("prefetch")


@pytest.mark.parametrize("why, make", [
    ("Python callable", lambda p: ds.MindDataset(p, columns_list=["image", "label"]).map(
        [vision.Decode(), lambda x: x], input_columns=["image"]).batch(2)),
    ("per_batch_map", lambda p: ds.MindDataset(p, columns_list=["image", "label"]).map(
        train_ops(), input_columns=["image"]).batch(2, per_batch_map=lambda a, b, i: (a, b))),
    ("padding", lambda p: ds.MindDataset(p, columns_list=["image", "label"]).map(
        train_ops(), input_columns=["image"]).padded_batch(2, pad_info={})),
    ("shape depends on the image", lambda p: ds.MindDataset(p, columns_list=["image", "label"])
        .map([vision.Decode(), vision.Resize(20)], input_columns=["image"]).batch(2)),
    ("OpenCV-only interpolation", lambda p: ds.MindDataset(p, columns_list=["image", "label"])
        .map([vision.Decode(), vision.Resize((20, 20), vision.Inter.PILCUBIC)],
             input_columns=["image"]).batch(2)),
    ("padded samples", lambda p: ds.MindDataset(
        p, columns_list=["image", "label"], padded_sample={"image": jpeg_bytes(0), "label": -1},
        num_padded=1, num_shards=2, shard_id=0)
        .map(train_ops(), input_columns=["image"]).batch(2)),
])
def test_plan_falls_back_and_says_why(mr_path, why, make):
    report = plan_of(make(mr_path))
    assert not report.fired("native_batch"), why
    assert report.fired("prefetch")
    assert not any(n.startswith("NativeBatch") for n in report.nodes)
    assert any(r.rule == "native_batch" and not r.fired and r.why for r in report.rewrites)


def test_debug_mode_and_switch_off_use_the_general_nodes(mr_path):
    assert not plan_of(mind_pipeline(mr_path), native=False).fired("native_batch")
    ds.config.set_debug_mode(True)
    try:
        assert not mind_pipeline(mr_path).plan().fired("native_batch")
    finally:
        ds.config.set_debug_mode(False)


# -- same rows as the general nodes ---------------------------------------------------------------
@pytest.mark.parametrize("workers", [1, 3])
@pytest.mark.parametrize("drop", [False, True])
def test_mindrecord_train_pipeline_equals_the_general_path(mr_path, workers, drop):
    ds.config.set_seed(1234)
    native = collect(mind_pipeline(mr_path, workers=workers, drop=drop), num_epochs=2)
    general = collect(mind_pipeline(mr_path, workers=workers, drop=drop), num_epochs=2,
                      native=False)
    assert len(native) == (2 * (29 // 4) if drop else 2 * 8)
    assert_same_batches(native, general)


def test_worker_count_does_not_change_rows(mr_path):
    ds.config.set_seed(7)
    assert_same_batches(collect(mind_pipeline(mr_path, workers=1)),
                        collect(mind_pipeline(mr_path, workers=4)))


def test_image_folder_eval_pipeline_with_png_rows(tmp_path, jpegs):
    images = list(jpegs[:12]) + [png_bytes(1), png_bytes(2, 70, 45)]   # PNGs: Python fallback
    root = write_image_folder(str(tmp_path / "folder"), images)

    def make():
        d = ds.ImageFolderDataset(root, shuffle=True, num_parallel_workers=2)
        return d.map(eval_ops(), input_columns=["image"], num_parallel_workers=2).batch(5)
    assert make().plan().fired("native_batch")
    ds.config.set_seed(3)
    assert_same_batches(collect(make(), 2), collect(make(), 2, native=False))


def test_in_memory_images_cifar_chain():
    images = np.random.RandomState(0).randint(0, 256, (23, 32, 32, 3), np.uint8)

    def make(size):
        d = ds.NumpySlicesDataset({"image": images, "label": np.arange(23, dtype=np.int32)},
                                  shuffle=False)
        d = d.map([vision.Resize(size), vision.Rescale(1 / 255.0, 0.0), vision.HWC2CHW()],
                  input_columns=["image"], num_parallel_workers=2)
        return d.batch(8)
    for size in (64, 224):
        assert make(size).plan().fired("native_batch")
        native = collect(make(size))
        assert native[0][0].shape == (8, 3, size, size) and native[0][1].dtype == np.int32
        assert_same_batches(native, collect(make(size), native=False))


def test_uint8_output_without_pointwise_op(mr_path):
    ops = [vision.Decode(), vision.RandomResizedCrop((24, 20)), vision.RandomVerticalFlip()]
    native = collect(mind_pipeline(mr_path, ops))
    assert native[0][0].dtype == np.uint8 and native[0][0].shape == (4, 24, 20, 3)
    assert_same_batches(native, collect(mind_pipeline(mr_path, ops), native=False))


def test_each_op_draws_from_its_own_position(mr_path):
    """The documented seed rule: op k of a map draws for row i from
    row_seed(stage_base(seed, epoch, position_k), i), whether it was fused or not."""
    ds.config.set_seed(99)
    ops = train_ops()
    settings.set_approximate_decode(False)      # run_unfused decodes exactly
    try:
        got = collect(mind_pipeline(mr_path, ops, shuffle=False, batch=29))[0][0]
    finally:
        settings.set_approximate_decode(True)
    source = ds.MindDataset(mr_path, columns_list=["image"], shuffle=False)
    raw = [np.array(r[0]) for r in source.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    positions = range(1, 1 + len(ops))      # the source takes position 0
    for i, data in enumerate(raw):
        row_seeds = [seeds.row_seed(seeds.stage_base(99, 0, p), i) for p in positions]
        np.testing.assert_array_equal(got[i], run_unfused(ops, row_seeds, data))


# -- state ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("resume_native", [True, False])
def test_resume_mid_epoch_from_a_native_state(mr_path, resume_native):
    ds.config.set_seed(5)
    full = collect(mind_pipeline(mr_path), num_epochs=2)
    it = mind_pipeline(mr_path).create_tuple_iterator(output_numpy=True, num_epochs=2)
    assert len(list(it)) == 8
    for _ in range(3):      # into the second epoch
        next(it)
    state = it.get_state()
    it.close()
    rest = collect(mind_pipeline(mr_path), num_epochs=2, native=resume_native, state=state)
    assert_same_batches(rest, full[11:])


def test_general_state_resumes_natively(mr_path):
    ds.config.set_seed(5)
    full = collect(mind_pipeline(mr_path), num_epochs=1)
    ds.config.set_native_batches(False)
    try:
        it = mind_pipeline(mr_path).create_tuple_iterator(output_numpy=True, num_epochs=1)
        for _ in range(3):
            next(it)
        state = it.get_state()
        it.close()
    finally:
        ds.config.set_native_batches(True)
    assert_same_batches(collect(mind_pipeline(mr_path), state=state), full[3:])


# -- bad input, errors and cleanup -------------------------------------------------------------
def test_a_corrupt_row_raises_naming_op_file_row_and_epoch(tmp_path, jpegs):
    images = list(jpegs[:9])
    images[6] = images[6][:40]              # truncated JPEG
    path = write_mindrecord(str(tmp_path / "bad.mindrecord"), images)
    it = mind_pipeline(path, shuffle=False).create_tuple_iterator(output_numpy=True,
                                                                  num_epochs=1)
    first = next(it)
    assert len(first[0]) == 4
    with pytest.raises(RuntimeError) as info:
        next(it)                            # rows 4..7: row 6 is broken, no batch comes out
    text = str(info.value)
    assert "FusedPlan(Decode+RandomResizedCrop" in text and "bad.mindrecord" in text
    assert "row 6 of epoch 0" in text
    it.close()


def test_missing_file_raises_naming_the_file(tmp_path, jpegs):
    root = write_image_folder(str(tmp_path / "folder"), jpegs[:6])
    d = ds.ImageFolderDataset(root, shuffle=False).map(eval_ops(), input_columns=["image"])
    it = d.batch(3).create_tuple_iterator(output_numpy=True, num_epochs=1)
    os.remove(os.path.join(root, "class0", "img0003.jpg"))
    with pytest.raises(RuntimeError, match="img0003.jpg"):
        for _ in it:
            pass


def test_no_thread_left_after_break_close_or_gc(mr_path):
    gc.collect()
    before = native_threads()
    for stop in ("break", "close", "gc"):
        start = native_threads()
        it = mind_pipeline(mr_path, workers=4).create_tuple_iterator(output_numpy=True,
                                                                     num_epochs=-1)
        next(it)
        assert native_threads() >= start + 4      # the engine's C++ threads
        if stop == "close":
            it.close()
        del it
        gc.collect()
    assert native_threads() <= before
    assert not [t for t in threading.enumerate() if t.name.startswith("minddata")]


def test_memory_is_bounded_by_the_ring(mr_path):
    """Buffers are recycled: a long run allocates only ring depth (+ held) batch buffers."""
    ds.config.set_batch_ring_depth(2)
    try:
        it = mind_pipeline(mr_path, batch=2, drop=True).create_tuple_iterator(output_numpy=True,
                                                                   num_epochs=4)
        addresses = {batch[0].__array_interface__["data"][0] for batch in it}
    finally:
        ds.config.set_batch_ring_depth(3)
    assert len(addresses) <= 2 + 2


def test_ring_depth_is_validated():
    with pytest.raises(TypeError):
        ds.config.set_batch_ring_depth(1.5)
    with pytest.raises(ValueError):
        ds.config.set_batch_ring_depth(0)
    with pytest.raises(TypeError):
        ds.config.set_native_batches("yes")


# -- folded from the former map -> batch fast-path suites ------------------------------------
@pytest.mark.parametrize("workers", [1, 2])
def test_the_state_harness_passes(mr_path, workers):
    from .engine_helpers import check_resume
    dataset = mind_pipeline(mr_path, workers=workers, batch=3)
    assert dataset.plan().fired("native_batch")
    check_resume(dataset, num_epochs=2, stops=(0, 1, 2, 9, 10, 13))


def test_the_state_harness_passes_under_repeat_and_take(mr_path):
    from .engine_helpers import check_resume
    dataset = mind_pipeline(mr_path, batch=5).repeat(2).take(9)
    assert dataset.plan().fired("native_batch")
    check_resume(dataset, num_epochs=2, stops=(0, 3, 6, 9, 12))


def test_batches_the_consumer_holds_are_never_overwritten(mr_path):
    ds.config.set_seed(4)
    expected = collect(mind_pipeline(mr_path), num_epochs=3)
    it = mind_pipeline(mr_path).create_tuple_iterator(num_epochs=3, output_numpy=True)
    held = [b for _ in range(3) for b in it]               # every batch array kept
    views = [b[0][1:] for b in held]                       # and views of them
    assert_same_batches([[np.array(c) for c in b] for b in held], expected)
    assert all(np.array_equal(v, e[0][1:]) for v, e in zip(views, expected))


def test_rows_of_another_shape_fail_naming_the_row(tmp_path, jpegs):
    """A row the native plan leaves to Python whose output does not fit the batch (a crop
    larger than a small PNG pads it in Python... here: a gray PNG keeps 3 channels, but an
    image smaller than the crop takes CenterCrop's padding path) still fits: the same shape."""
    images = list(jpegs[:5]) + [png_bytes(3, 10, 12)]        # smaller than the crop
    root = write_image_folder(str(tmp_path / "folder"), images)

    def make():
        d = ds.ImageFolderDataset(root, shuffle=False)
        return d.map([vision.Decode(), vision.CenterCrop(30)], input_columns=["image"]).batch(6)
    native = collect(make())
    assert native[0][0].shape == (6, 30, 30, 3)
    assert_same_batches(native, collect(make(), native=False))


def test_stage_stats_count_batches(mr_path):
    it = mind_pipeline(mr_path).create_tuple_iterator(num_epochs=1, output_numpy=True)
    n = sum(1 for _ in it)
    stats = it.stage_stats()
    assert [s.name for s in stats] == ["NativeBatch(MindDataset+Map+Batch)"]
    assert stats[0].rows_out == n == 8


def test_rescale_then_normalize_fuses_and_equals_the_unfused_ops():
    """The ResNet CIFAR chain: Rescale and Normalize in one pass, bit-identical to the two ops
    run one by one (float32 each)."""
    from transforms_c.fusion import compile_operations
    ops = [vision.Resize(64), vision.Rescale(1 / 255.0, 0.0),
           vision.Normalize([0.4914, 0.4822, 0.4465], [0.247, 0.243, 0.261]), vision.HWC2CHW()]
    compiled = compile_operations(ops)
    assert len(compiled) == 1 and len(compiled[0].ops) == 4
    images = np.random.RandomState(1).randint(0, 256, (9, 32, 32, 3), np.uint8)
    for i, img in enumerate(images):
        row_seeds = compiled[0].seeds(i)
        np.testing.assert_array_equal(compiled[0].apply_seeds((img,), row_seeds)[0],
                                      run_unfused(ops, row_seeds, img))

    def make():
        d = ds.NumpySlicesDataset({"image": images, "label": np.arange(9)}, shuffle=False)
        return d.map(ops, input_columns=["image"], num_parallel_workers=2).batch(4)
    assert make().plan().fired("native_batch")
    assert_same_batches(collect(make()), collect(make(), native=False))


def test_ctrl_c_during_a_slow_batch_stops_promptly_and_leaves_nothing(tmp_path, ctrl_c_raises):
    """KeyboardInterrupt reaches the loop while C++ threads work on a batch (the wait returns
    to the interpreter every 100 ms), and closing leaves no thread."""
    import _thread
    import time
    big = [jpeg_bytes(i, height=2000, width=2400) for i in range(3)]
    path = write_mindrecord(str(tmp_path / "big.mindrecord"), big * 6)
    gc.collect()
    before = native_threads()
    it = mind_pipeline(path, workers=1, batch=18).create_tuple_iterator(output_numpy=True,
                                                                        num_epochs=1)
    timer = threading.Timer(0.2, _thread.interrupt_main)
    timer.start()
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        next(it)
    assert time.perf_counter() - t0 < 5
    it.close()
    del it
    gc.collect()
    assert native_threads() <= before
