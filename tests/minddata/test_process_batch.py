"""The planner's process_batches rewrite: the PIL path (a map in worker processes) reads, maps and
batches whole batches in the workers. Same batches, errors, states and cleanup as the general
nodes."""
import os
import signal

import pytest

import minddata as ds
from minddata.engine.errors import WorkerDiedError
from minddata.transforms import py_transforms as PT
from minddata.vision import py_transforms as P

from .engine_helpers import check_resume, live_children, wait_until
from .native_batch_helpers import (assert_same_batches, collect, jpeg_bytes, plan_of,
                                   write_image_folder)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_image_folder(str(tmp_path_factory.mktemp("pil") / "f"),
                              [jpeg_bytes(i) for i in range(23)])


def pil_ops():
    return [PT.Compose([P.Decode(), P.RandomResizedCrop(24), P.RandomHorizontalFlip(),
                        P.ToTensor(), P.Normalize([0.5] * 3, [0.2] * 3)])]


def pipeline(folder, ops=None, batch=4, workers=2, drop=False):
    d = ds.ImageFolderDataset(folder, shuffle=True)
    d = d.map(ops or pil_ops(), input_columns=["image"], num_parallel_workers=workers,
              python_multiprocessing=True)
    return d.batch(batch, drop_remainder=drop)


def test_plan(folder):
    report = plan_of(pipeline(folder))
    assert report.nodes == ["ProcessBatch(ImageFolderDataset+Map+Batch)"]
    assert report.fired("process_batches") and not report.fired("prefetch")
    assert not plan_of(pipeline(folder, workers=1)).fired("process_batches")
    assert not plan_of(pipeline(folder), native=False).fired("process_batches")


@pytest.mark.parametrize("drop", [False, True])
def test_batches_equal_the_general_nodes(folder, drop):
    ds.config.set_seed(3)
    got = collect(pipeline(folder, drop=drop), 2)
    assert len(got) == (10 if drop else 12)
    assert_same_batches(got, collect(pipeline(folder, drop=drop), 2, native=False))


def test_the_state_harness_passes(folder):
    check_resume(pipeline(folder, batch=5), num_epochs=2, stops=(0, 1, 4, 5, 7))


def test_a_failing_row_names_the_op_file_and_row(folder):
    def broken(img):
        if img.shape[0] == 0:
            raise ValueError
        raise KeyError("no such thing")
    it = pipeline(folder, ops=[broken]).create_tuple_iterator(output_numpy=True, num_epochs=1)
    with pytest.raises(RuntimeError) as info:     # MindSpore's type for a failing map
        next(it)
    text = str(info.value)
    assert "Map(broken)" in text and "row 0 of epoch 0" in text and ".jpg" in text
    assert "KeyError: 'no such thing'" in text
    it.close()


@pytest.mark.timeout(60)
def test_a_killed_worker_is_reported_and_nothing_is_left(folder):
    before = live_children()
    it = pipeline(folder, batch=1).create_tuple_iterator(output_numpy=True, num_epochs=-1)
    next(it)
    # One of this pipeline's workers: a child started since (earlier tests may leave others).
    workers = sorted(live_children() - before)
    assert workers
    os.kill(workers[-1], signal.SIGKILL)
    with pytest.raises(WorkerDiedError):
        for _ in range(200):
            next(it)
    it.close()
    assert wait_until(lambda: live_children() <= before)


def test_close_leaves_no_process(folder):
    before = live_children()
    it = pipeline(folder).create_tuple_iterator(output_numpy=True, num_epochs=1)
    next(it)
    it.close()
    assert wait_until(lambda: live_children() <= before)
