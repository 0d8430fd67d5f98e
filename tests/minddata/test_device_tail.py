"""uint8 batches with the Normalize / HWC2CHW tail left to the device; DeviceTail.apply_native
(the tail's native steps as one C++ row plan per image) gives the CPU path's bits."""
import pickle

import numpy as np
import pytest

import minddata as ds
import minddata.vision as vision
from minddata.device_tail import split_device_tail

from .native_batch_helpers import collect, jpeg_bytes, train_ops, write_mindrecord


@pytest.fixture(scope="module")
def mr_path(tmp_path_factory):
    return write_mindrecord(str(tmp_path_factory.mktemp("tail") / "t.mindrecord"),
                            [jpeg_bytes(i) for i in range(13)])


def pipeline(path, ops):
    d = ds.MindDataset(path, columns_list=["image", "label"], shuffle=True)
    return d.map(ops, input_columns=["image"], num_parallel_workers=2).batch(4)


@pytest.mark.parametrize("ops", [train_ops(), train_ops()[:-1], train_ops()[:-2] + [vision.Rescale(1 / 255.0, 0.0), vision.Normalize([0.5] * 3, [0.25] * 3), vision.HWC2CHW()], train_ops()[:-2] + [
    vision.Rescale(1 / 255.0, -0.5), vision.HWC2CHW()]])
def test_uint8_batches_plus_tail_equal_the_cpu_path(mr_path, ops):
    ds.config.set_seed(11)
    full = collect(pipeline(mr_path, ops))
    head, tail = split_device_tail(pipeline(mr_path, ops))
    assert tail is not None and tail.column == 0
    assert head.plan().fired("native_batch")
    raw = collect(head)
    assert raw[0][0].dtype == np.uint8 and raw[0][0].shape[-1] == 3
    for cpu, dev in zip(full, raw):
        np.testing.assert_allclose(tail.apply_numpy(dev[0]), cpu[0], rtol=0, atol=1e-5)
        np.testing.assert_array_equal(dev[1], cpu[1])


def test_torch_tail_matches(mr_path):
    torch = pytest.importorskip("torch")
    ds.config.set_seed(2)
    full = collect(pipeline(mr_path, train_ops()))
    head, tail = split_device_tail(pipeline(mr_path, train_ops()))
    for cpu, dev in zip(full, collect(head)):
        out = tail.apply_torch(torch.from_numpy(dev[0]))
        assert out.dtype == torch.float32 and tuple(out.shape) == cpu[0].shape
        np.testing.assert_allclose(out.numpy(), cpu[0], rtol=0, atol=1e-5)


def test_no_tail_leaves_the_pipeline_alone(mr_path):
    ops = [vision.Decode(), vision.RandomResizedCrop(16)]
    d = pipeline(mr_path, ops)
    assert split_device_tail(d) == (d, None)
    assert split_device_tail(d.repeat(2))[1] is None


def test_a_map_placed_on_the_gpu_keeps_its_tail(mr_path):
    """Its batch is on the device already and the GPU path normalizes it in its crop-resize
    pass: splitting the tail off would only add passes (and the sink thread's launches)."""
    d = ds.MindDataset(mr_path, columns_list=["image", "label"], shuffle=True)
    on_gpu = d.map(train_ops(), input_columns=["image"], device="GPU").batch(4)
    assert split_device_tail(on_gpu) == (on_gpu, None)
    ops = train_ops()
    ops[0] = vision.Decode().device("GPU")          # one op placed on the GPU by itself
    one_op = d.map(ops, input_columns=["image"]).batch(4)
    assert split_device_tail(one_op) == (one_op, None)
    on_cpu = d.map(train_ops(), input_columns=["image"], device="CPU").batch(4)
    assert split_device_tail(on_cpu)[1] is not None


@pytest.mark.parametrize("ops", [
    train_ops(), train_ops()[:-1],
    train_ops()[:-2] + [vision.Rescale(1 / 255.0, 0.0), vision.Normalize([0.5] * 3, [0.25] * 3),
                        vision.HWC2CHW()],
    train_ops()[:-2] + [vision.HWC2CHW()],
])
def test_apply_native_equals_the_cpu_path_bit_for_bit(mr_path, ops):
    ds.config.set_seed(7)
    full = collect(pipeline(mr_path, ops))
    head, tail = split_device_tail(pipeline(mr_path, ops))
    raw = collect(head)
    for cpu, dev in zip(full, raw):
        out = tail.apply_native(dev[0])
        assert out.dtype == cpu[0].dtype and out.shape == cpu[0].shape
        np.testing.assert_array_equal(out, cpu[0])
    # The tail ships to other processes (a RayService's actors) after it ran.
    again = pickle.loads(pickle.dumps(tail))
    np.testing.assert_array_equal(again.apply_native(raw[0][0]), full[0][0])


def test_apply_native_allocates_with_the_callers_empty_and_names_a_bad_image(mr_path):
    head, tail = split_device_tail(pipeline(mr_path, train_ops()))
    batch = np.random.default_rng(0).integers(0, 256, (3, 5, 6, 3), dtype=np.uint8)
    shapes = []

    def empty(shape, dtype):
        shapes.append((shape, np.dtype(dtype)))
        return np.empty(shape, dtype)

    out = tail.apply_native(batch, empty)
    assert shapes == [((3, 3, 5, 6), np.dtype(np.float32))]
    np.testing.assert_allclose(out, tail.apply_numpy(batch), rtol=0, atol=1e-5)
    with pytest.raises(RuntimeError, match="Normalize: number of channels does not match the "
                                           "size of mean"):
        tail.apply_native(batch[:, :, :, :1])    # one channel, three means: the op's own error
