"""Maps placed on the GPU: the spelling (op.device(), map(device=)), the gpu_batch rule's
placement and reasons in plan(), the errors without torch/CUDA, and the GPU batch node run by
torch on the CPU (minddata.gpu.set_device("cpu"), the same code as on CUDA): the same windows
and flips as the CPU path for the same seed, pixels within 1 level, PNG rows decoded on the
CPU in the same batch, row errors, threads closed."""
import re
import sys
import threading

import numpy as np
import pytest

import minddata as ds
import minddata.transforms as transforms
import minddata.vision as vision
from minddata import gpu
from transforms_c import settings

from .native_batch_helpers import jpeg_bytes, png_bytes, write_image_folder, write_mindrecord

torch = pytest.importorskip("torch")

MEAN, STD = [121.0, 115.0, 104.0], [58.0, 57.0, 57.0]


@pytest.fixture(autouse=True)
def _restore():
    approximate = settings.get_approximate_decode()
    settings.set_approximate_decode(False)   # the CPU path decodes the whole image, as the GPU
    yield
    gpu.set_device(None)
    settings.set_approximate_decode(approximate)


@pytest.fixture(scope="module")
def images():
    # JPEGs of different sizes (one gray), a PNG among them
    jpegs = [jpeg_bytes(i, 60 + 7 * i, 50 + 5 * i, gray=(i == 3)) for i in range(9)]
    return jpegs[:5] + [png_bytes(2, 64, 72)] + jpegs[5:]


@pytest.fixture(scope="module")
def mr_path(tmp_path_factory, images):
    return write_mindrecord(str(tmp_path_factory.mktemp("gpu") / "g.mindrecord"), images)


def train_ops():
    return [vision.Decode(), vision.RandomResizedCrop(40, scale=(0.2, 1.0)),
            vision.RandomHorizontalFlip(), vision.Normalize(MEAN, STD), vision.HWC2CHW()]


def pipeline(path, ops=None, device="GPU", batch=4, workers=2):
    d = ds.MindDataset(path, columns_list=["image", "label"], shuffle=True)
    d = d.map(ops or train_ops(), input_columns=["image"], num_parallel_workers=workers,
              device=device)
    return d.batch(batch)


def batches(dataset, epochs=1, seed=11):
    ds.config.set_seed(seed)
    it = dataset.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
    try:
        rows = [row for _ in range(epochs) for row in it]     # one epoch per pass
        assert all(type(c) is np.ndarray for row in rows for c in row), "numpy was asked for"
        return rows
    finally:
        it.close()


def gpu_decision(plan):
    return plan.decisions_of("gpu_batch")


# -- the spelling ---------------------------------------------------------------------------------
def test_device_returns_the_op_and_validates_the_target():
    op = vision.Decode()
    assert op.device_target is None
    assert op.device("GPU") is op and op.device_target == "GPU"
    assert op.device() is op and op.device_target == "CPU"
    with pytest.raises(ValueError, match="Ascend.*not supported.*GPU"):
        vision.Resize(8).device("Ascend")
    with pytest.raises(ValueError, match="device_target.*valid set"):
        vision.Resize(8).device("TPU")
    with pytest.raises(TypeError, match="device_target should be a str"):
        vision.Resize(8).device(0)
    assert "device" not in repr(vision.Decode().device("GPU"))    # the op's arguments only


def test_map_device_is_validated(mr_path):
    d = ds.MindDataset(mr_path, columns_list=["image", "label"])
    assert d.map(train_ops(), input_columns=["image"], device="GPU").device == "GPU"
    with pytest.raises(ValueError, match="Ascend"):
        d.map(train_ops(), input_columns=["image"], device="Ascend")
    with pytest.raises(TypeError, match="device should be a str"):
        d.map(train_ops(), input_columns=["image"], device=True)
    with pytest.raises(ValueError, match=r"operations\[1\] cannot run on the GPU: RandomRotation"):
        d.map([vision.Decode(), vision.RandomRotation(10)], input_columns=["image"], device="GPU")
    with pytest.raises(ValueError, match="interpolation=BICUBIC"):
        d.map([vision.Decode(), vision.Resize(8, vision.Inter.BICUBIC).device("GPU")])
    with pytest.raises(ValueError, match=r"operations\[2\] .*TypeCast to uint16 has no GPU"):
        d.map([vision.Decode(), vision.CenterCrop(8), transforms.TypeCast(np.uint16)],
              device="GPU")
    with pytest.raises(ValueError, match="ToTensor to complex64 has no GPU kernel"):
        d.map([vision.Decode(), vision.CenterCrop(8), vision.ToTensor(np.complex64)],
              device="GPU")
    # an op kept on the CPU, or a map on the CPU, asks nothing of the GPU
    d.map([vision.Decode(), vision.RandomRotation(10).device("CPU")], device="GPU")
    d.map([vision.Decode().device("GPU"), vision.RandomRotation(10)], device="CPU")


# -- placement in plan() --------------------------------------------------------------------------
def test_plan_places_the_run_on_the_device(mr_path):
    gpu.set_device("cpu")
    plan = pipeline(mr_path).plan()
    assert plan.nodes == ["GpuBatch(MindDataset+Map+Batch)"]
    (decision,) = gpu_decision(plan)
    assert decision.fired and "on cpu" in decision.why and "Batch(4)" in decision.why
    # op-level placement places the map's run too
    ops = [vision.Decode().device("GPU"), vision.RandomResizedCrop(40), vision.HWC2CHW()]
    assert pipeline(mr_path, ops, device=None).plan().fired("gpu_batch")


def test_every_worker_has_a_batch_in_flight(mr_path):
    """A worker holds its batch until the device has finished it: the ring is at least as
    deep as the map's workers (the configured depth where that is deeper)."""
    gpu.set_device("cpu")
    (few,) = gpu_decision(pipeline(mr_path, workers=2).plan())
    (many,) = gpu_decision(pipeline(mr_path, workers=6).plan())
    assert "ring of 3 batches" in few.why and "ring of 6 batches" in many.why
    deep, shallow = batches(pipeline(mr_path, workers=6)), batches(pipeline(mr_path))
    assert len(deep) == len(shallow) and all(
        np.array_equal(a, b) for x, y in zip(deep, shallow) for a, b in zip(x, y))


def test_nothing_placed_nothing_decided(mr_path):
    gpu.set_device("cpu")
    for device in (None, "CPU"):
        plan = pipeline(mr_path, device=device).plan()
        assert not gpu_decision(plan) and plan.fired("native_batch")


@pytest.mark.parametrize("ops, why", [
    ([vision.Decode(), vision.Resize(32)], "output size depends on each image"),
    ([vision.Decode(), vision.RandomResizedCrop(8), vision.HWC2CHW().device("CPU")],
     r"operations\[2\] HWC2CHW is placed on the CPU"),
    ([vision.Decode(), vision.Normalize(MEAN, STD), vision.CenterCrop(8)],
     "follows a pointwise or layout op"),
    ([vision.Decode(), vision.HWC2CHW(), vision.Normalize(MEAN, STD, False),
      vision.CenterCrop(8)], "follows a pointwise or layout op"),
    ([vision.Decode(), vision.CenterCrop(8), vision.HWC2CHW(), vision.Normalize(MEAN, STD)],
     r"Normalize\(is_hwc=True\) does not match the CHW layout"),
    ([vision.CenterCrop(8)], "not Decode"),
    ([vision.Decode(), vision.CenterCrop(8), vision.HWC2CHW(), vision.ToTensor()],
     "ToTensor follows a float or layout op"),
    ([vision.Decode(), vision.CenterCrop(8), transforms.TypeCast(np.float32),
      vision.HorizontalFlip()], r"operations\[3\] HorizontalFlip follows TypeCast\(float32\)"),
    ([vision.Decode(), vision.CenterCrop(8), vision.ToTensor(np.float16),
      vision.Normalize(MEAN, STD, False)], r"Normalize follows ToTensor\(float16\)"),
    ([vision.Decode(), vision.CenterCrop(8), vision.Normalize(MEAN, STD),
      vision.ToType(np.int32)], "ToType casts float pixels to int32"),
])
def test_runs_the_gpu_path_cannot_take_are_skipped(mr_path, ops, why):
    gpu.set_device("cpu")
    plan = pipeline(mr_path, ops).plan()
    decision = gpu_decision(plan)[0]        # the batch's (then its map's, if it is lowered)
    assert not decision.fired and decision.why.endswith("the map runs on the CPU")
    assert re.search(why, decision.why)
    assert "Gpu" not in " ".join(plan.nodes)


def test_a_map_without_its_batch_is_skipped_at_the_map(mr_path):
    gpu.set_device("cpu")
    d = ds.MindDataset(mr_path, columns_list=["image", "label"])
    plan = d.map(train_ops(), input_columns=["image"], device="GPU").plan()
    (decision,) = gpu_decision(plan)
    assert not decision.fired and "runs on the CPU" in decision.why


def test_a_gpu_map_the_gpu_path_cannot_take_warns(mr_path):
    gpu.set_device("cpu")
    d = ds.MindDataset(mr_path, columns_list=["image", "label"]).repeat(2)
    d = d.map(train_ops(), input_columns=["image"], device="GPU").batch(2)
    with pytest.warns(UserWarning, match="placed on the GPU but runs on the CPU.*after batch"):
        plan = d.plan()
    assert "Gpu" not in " ".join(plan.nodes)


def test_maps_on_different_devices_are_not_fused(mr_path):
    gpu.set_device("cpu")
    d = ds.MindDataset(mr_path, columns_list=["image", "label"])
    d = d.map([vision.Decode(), vision.RandomResizedCrop(40)], input_columns=["image"],
              device="GPU").map([vision.HWC2CHW()], input_columns=["image"])
    plan = d.batch(2).plan()
    assert any("different devices" in x.why for x in plan.decisions_of("map_fusion"))
    assert not plan.fired("gpu_batch")


# -- no backend: a clear error naming what to install ---------------------------------------------
def test_without_cuda_the_plan_says_why_and_the_build_raises(mr_path, monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    dataset = pipeline(mr_path)
    plan = dataset.plan()
    assert plan.nodes == ["GpuUnavailable(Map placed on the GPU)"]
    (decision,) = gpu_decision(plan)
    assert not decision.fired and "install a CUDA build of torch" in decision.why
    with pytest.raises(RuntimeError, match="placed on the GPU.*install a CUDA build of torch"):
        dataset.create_tuple_iterator(num_epochs=1)


def test_without_torch_the_error_names_torch(mr_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)     # import torch raises ImportError
    assert "torch is not installed" in gpu.unavailable()
    with pytest.raises(RuntimeError, match="pip install torch"):
        pipeline(mr_path).create_tuple_iterator(num_epochs=1)


def test_set_device_validates():
    with pytest.raises(ValueError, match="'cuda', 'cuda:<index>' or 'cpu'"):
        gpu.set_device("gpu")
    with pytest.raises(ValueError):
        gpu.set_device("cpu:1")
    with pytest.raises(TypeError):
        gpu.set_device(0)


# -- the GPU batch node, run by torch on the CPU -------------------------------------------------
def _levels(a, b, std=None):
    diff = np.abs(a.astype(np.float64) - b.astype(np.float64))
    if std is not None:
        diff = diff * np.asarray(std).reshape(1, -1, 1, 1)
    return diff.max()


def test_same_windows_and_pixels_within_one_level_of_the_cpu_path(mr_path):
    gpu.set_device("cpu")
    got = batches(pipeline(mr_path), epochs=2)
    want = batches(pipeline(mr_path, device=None), epochs=2)
    assert len(got) == len(want) == 6
    for (image, label), (cpu_image, cpu_label) in zip(got, want):
        assert image.shape == cpu_image.shape and image.dtype == np.float32
        np.testing.assert_array_equal(label, cpu_label)
        # a different window or flip would differ by tens of levels
        assert _levels(image, cpu_image, STD) <= 1.0 + 1e-3


def test_flips_and_crops_equal_the_cpu_path_bit_for_bit(mr_path):
    """No resampling, the same libjpeg-turbo decode: every pixel equal, so every flip too."""
    gpu.set_device("cpu")
    ops = [vision.Decode(), vision.CenterCrop(48), vision.RandomHorizontalFlip(),
           vision.RandomVerticalFlip(0.3), vision.Crop((2, 3), (40, 36))]
    got = batches(pipeline(mr_path, [op for op in ops], batch=5))
    want = batches(pipeline(mr_path, ops, device=None, batch=5))
    for (image, _), (cpu_image, _) in zip(got, want):
        assert image.dtype == np.uint8 and image.shape[1:] == (40, 36, 3)
        np.testing.assert_array_equal(image, cpu_image)


@pytest.mark.parametrize("ops, scale", [
    ([vision.RandomCropDecodeResize(36), vision.ToTensor()], 255.0),
    ([vision.Decode(), vision.Resize((50, 44)), vision.CenterCrop(40), vision.Rescale(1 / 255, 0),
      vision.HWC2CHW()], 255.0),
])
def test_other_runs_within_one_level(mr_path, ops, scale):
    gpu.set_device("cpu")
    got = batches(pipeline(mr_path, ops, batch=3))
    want = batches(pipeline(mr_path, ops, device=None, batch=3))
    for (image, _), (cpu_image, _) in zip(got, want):
        assert image.shape == cpu_image.shape
        assert _levels(image, cpu_image) * scale <= 1.0 + 1e-3


@pytest.mark.parametrize("tail, dtype", [
    ([vision.Normalize(MEAN, STD), vision.HWC2CHW(), transforms.TypeCast(np.float16)],
     np.float16),
    ([vision.Normalize(MEAN, STD), vision.ToType(np.float64), vision.HWC2CHW(),
      transforms.TypeCast(np.float16)], np.float16),
    ([vision.ToTensor(np.float16)], np.float16),
    ([vision.ToTensor(np.uint8)], np.uint8),
    ([vision.Normalize(MEAN, STD), transforms.TypeCast(np.bool_)], np.bool_),
    ([transforms.TypeCast(np.int8), vision.HWC2CHW()], np.int8),
    ([vision.HWC2CHW(), transforms.TypeCast(np.float32)], np.float32),
], ids=["normalize-fp16", "fp64-then-fp16", "totensor-fp16", "totensor-uint8", "bool", "int8",
        "uint8-to-fp32"])
def test_casts_give_the_cpu_paths_type_and_values(mr_path, tail, dtype):
    """TypeCast, ToType and ToTensor's output_type cast the finished batch as the CPU ops cast
    (the uint8 rows here are exact: the same decode, a crop without resampling)."""
    gpu.set_device("cpu")
    ops = [vision.Decode(), vision.CenterCrop(40), vision.RandomHorizontalFlip()] + tail
    plan = pipeline(mr_path, ops, batch=4).plan()
    assert plan.fired("gpu_batch")
    got = batches(pipeline(mr_path, ops, batch=4))
    want = batches(pipeline(mr_path, ops, device=None, batch=4))
    assert len(got) == len(want) == 3
    for (image, _), (cpu_image, _) in zip(got, want):
        assert image.dtype == cpu_image.dtype == dtype and image.shape == cpu_image.shape
        np.testing.assert_array_equal(image, cpu_image)


@pytest.mark.parametrize("ops", [
    [vision.Decode(), vision.CenterCrop((120, 100))],        # larger than every image: pads
    [vision.Decode(), vision.CenterCrop(64), vision.HorizontalFlip(), vision.VerticalFlip()],
], ids=["pad", "fixed-flips"])
def test_crops_equal_the_cpu_path_bit_for_bit(mr_path, ops):
    gpu.set_device("cpu")
    got = batches(pipeline(mr_path, ops, batch=4))
    want = batches(pipeline(mr_path, ops, device=None, batch=4))
    for (image, _), (cpu_image, _) in zip(got, want):
        np.testing.assert_array_equal(image, cpu_image)


def test_resize_of_images_of_different_shapes_then_a_crop(mr_path):
    """Resize(int) gives each row its own size (resampled row by row), CenterCrop one size."""
    gpu.set_device("cpu")
    ops = [vision.Decode(), vision.Resize(48), vision.CenterCrop(40), vision.HWC2CHW()]
    got = batches(pipeline(mr_path, ops, batch=5))
    want = batches(pipeline(mr_path, ops, device=None, batch=5))
    for (image, _), (cpu_image, _) in zip(got, want):
        assert image.shape == cpu_image.shape and image.dtype == np.uint8
        assert _levels(image, cpu_image) <= 1


@pytest.mark.parametrize("save_on, resume_on", [("GPU", None), (None, "GPU")])
def test_a_state_resumes_on_the_other_path(mr_path, save_on, resume_on):
    """The GPU node keeps the general nodes' state: rows and draws go on where they stopped."""
    gpu.set_device("cpu")
    ops = [vision.Decode(), vision.CenterCrop(48), vision.RandomHorizontalFlip()]
    full = batches(pipeline(mr_path, ops, device=resume_on, batch=3), epochs=2, seed=7)
    ds.config.set_seed(7)
    it = pipeline(mr_path, ops, device=save_on, batch=3).create_tuple_iterator(
        num_epochs=2, output_numpy=True)
    assert len(list(it)) == 4
    next(it)                    # into the second epoch
    state = it.get_state()
    it.close()
    resumed = pipeline(mr_path, ops, device=resume_on, batch=3).create_tuple_iterator(
        num_epochs=2, state=state, output_numpy=True)
    rest = [[np.asarray(c) if isinstance(c, np.ndarray) else c.cpu().numpy() for c in row]
            for row in resumed]
    resumed.close()
    assert len(rest) == 3
    for (image, label), (want, want_label) in zip(rest, full[5:]):
        np.testing.assert_array_equal(label, want_label)
        np.testing.assert_array_equal(image, want)


@pytest.mark.parametrize("out_hw", [(7, 9), (31, 64), (97, 45), (160, 150)])
def test_bilinear_resize_within_one_level_of_opencv(out_hw):
    """Down- and upscaling of noisy images (PNG: lossless, so the input pixels are known)."""
    import cv2
    from minddata.gpu.batch import GpuRun
    rng = np.random.RandomState(out_hw[0])
    pixels = [rng.randint(0, 256, (h, w, 3), np.uint8) for h, w in ((40, 50), (73, 61), (64, 64))]
    datas = [np.frombuffer(cv2.imencode(".png", p[:, :, ::-1])[1].tobytes(), np.uint8)
             for p in pixels]
    run = GpuRun([vision.Decode(), vision.Resize(out_hw)], torch.device("cpu"))
    got = run(datas, [[0] * 3, [0] * 3]).numpy()
    for image, p in zip(got, pixels):
        want = cv2.resize(p, out_hw[::-1], interpolation=cv2.INTER_LINEAR)
        assert _levels(image, want) <= 1


def _crop_flip_ops():
    return [vision.Decode(), vision.CenterCrop(48), vision.RandomHorizontalFlip()]


def test_mindrecord_rows_are_read_as_columns(mr_path, monkeypatch):
    """A MindRecord file offers its images where they lie in its map and its labels as one
    array: the node reads no row one by one, and gives the CPU path's batches (a PNG among
    the rows, decoded from its place in the map)."""
    from minddata.sources.mindrecord_dataset import MindRecordSource
    gpu.set_device("cpu")
    want = batches(pipeline(mr_path, _crop_flip_ops(), device=None, batch=5))

    def read_rows(self, ids):
        raise AssertionError("read row by row")
    monkeypatch.setattr(MindRecordSource, "read_rows", read_rows)
    got = batches(pipeline(mr_path, _crop_flip_ops(), batch=5))
    assert len(got) == len(want) == 2
    for (image, label), (cpu_image, cpu_label) in zip(got, want):
        np.testing.assert_array_equal(image, cpu_image)
        assert label.dtype == cpu_label.dtype == np.int32
        np.testing.assert_array_equal(label, cpu_label)


def _folder_batches(root, device, batch=4):
    d = ds.ImageFolderDataset(root, shuffle=True)
    return batches(d.map(_crop_flip_ops(), input_columns=["image"], device=device).batch(batch))


def test_image_files_are_read_by_one_native_call_a_batch(tmp_path, images, monkeypatch):
    """An image folder offers its files and labels: the node reads a batch's files natively
    (no row read by the source) and gives the CPU path's batches, a PNG among the files."""
    from minddata.sources.image_folder import ImageFolderSource
    root = write_image_folder(str(tmp_path / "folder"), images)
    gpu.set_device("cpu")
    want = _folder_batches(root, None)

    def read_rows(self, ids):
        raise AssertionError("read row by row")
    monkeypatch.setattr(ImageFolderSource, "read_rows", read_rows)
    got = _folder_batches(root, "GPU")
    assert len(got) == len(want) == 3
    for (image, label), (cpu_image, cpu_label) in zip(got, want):
        np.testing.assert_array_equal(image, cpu_image)
        np.testing.assert_array_equal(label, cpu_label)


def test_an_image_file_gone_raises_the_sources_own_error(tmp_path, images):
    """A file removed between two epochs (the folder listed once): the native read cannot
    open it, the source reads it and raises its own error, naming the file."""
    import os
    root = write_image_folder(str(tmp_path / "folder"), images)
    gone = os.path.join(root, "class1", "img0001.jpg")
    gpu.set_device("cpu")
    d = ds.ImageFolderDataset(root, shuffle=False)
    d = d.map(_crop_flip_ops(), input_columns=["image"], device="GPU").batch(5)
    it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
    try:
        assert len([next(it), next(it)]) == 2        # the first epoch, whole
        with pytest.raises(StopIteration):
            next(it)
        os.remove(gone)
        with pytest.raises(RuntimeError, match=f"failed to read image file {gone}"):
            next(it)
    finally:
        it.close()


def test_rows_a_source_cannot_give_as_columns_are_read_one_by_one(tmp_path, images):
    """A field that is no scalar (an array per row) cannot be gathered as one array: the node
    reads the rows one by one, and the batches are the CPU path's all the same."""
    from mindrecord import FileWriter
    path = str(tmp_path / "arrays.mindrecord")
    writer = FileWriter(path, shard_num=1, overwrite=True)
    writer.add_schema({"image": {"type": "bytes"}, "box": {"type": "int64", "shape": [2]}}, "b")
    writer.write_raw_data([{"image": img, "box": np.array([i, -i], np.int64)}
                           for i, img in enumerate(images)])
    writer.commit()
    gpu.set_device("cpu")

    def run(device):
        d = ds.MindDataset(path, columns_list=["image", "box"], shuffle=True)
        d = d.map(_crop_flip_ops(), input_columns=["image"], device=device)
        return batches(d.batch(4))
    got, want = run("GPU"), run(None)
    assert len(got) == len(want) == 3
    for (image, box), (cpu_image, cpu_box) in zip(got, want):
        np.testing.assert_array_equal(image, cpu_image)
        assert box.shape[1:] == (2,)
        np.testing.assert_array_equal(box, cpu_box)


def test_png_rows_join_the_batch(images, mr_path):
    """Row 5 is a PNG: decoded on the CPU, in the same batch as the JPEGs around it."""
    gpu.set_device("cpu")
    d = ds.MindDataset(mr_path, columns_list=["image", "label"], shuffle=False)
    ops = [vision.Decode(), vision.CenterCrop(40)]
    (image, label), = batches(d.map(ops, input_columns=["image"], device="GPU").batch(10)
                              .take(1))
    np.testing.assert_array_equal(label, np.arange(10))
    expected = vision.CenterCrop(40)(vision.Decode()(np.frombuffer(images[5], np.uint8)))
    np.testing.assert_array_equal(image[5], expected)


def test_a_broken_row_raises_its_error_naming_the_row(tmp_path, images):
    gpu.set_device("cpu")
    broken = list(images[:3]) + [images[3][:40]] + list(images[4:6])
    path = write_mindrecord(str(tmp_path / "broken.mindrecord"), broken)
    d = ds.MindDataset(path, columns_list=["image", "label"], shuffle=False)
    d = d.map(train_ops(), input_columns=["image"], device="GPU").batch(6)
    with pytest.raises(RuntimeError, match=r"Decode.*row 3") as info:
        batches(d)
    assert info.value.__cause__ is not None


def test_a_crop_outside_the_image_raises_the_ops_error(mr_path):
    gpu.set_device("cpu")
    ops = [vision.Decode(), vision.Crop((0, 0), (100, 200))]
    with pytest.raises(RuntimeError, match=r"Crop on cpu\) failed on .*row \d+ of epoch 0\): "
                       r"RuntimeError: Crop: .* exceeds the image"):
        batches(pipeline(mr_path, ops, batch=3))


def test_a_centre_crop_padding_too_much_raises_the_ops_error(mr_path):
    """The CPU op refuses to pad an image by 3 times its size or more: so does the GPU path,
    for the same rows (the smallest images here), where it could pad them."""
    gpu.set_device("cpu")
    ops = [vision.Decode(), vision.CenterCrop(230)]
    for device in ("GPU", None):
        with pytest.raises(RuntimeError, match=r"CenterCrop.*failed on .*row \d+ of epoch 0\)"
                           r".*Padding size cannot be more than 3 times"):
            batches(pipeline(mr_path, ops, batch=3, device=device))


def test_flips_before_the_crop_of_rows_of_different_shapes(mr_path):
    """Flips ahead of the geometry that gives the rows one size flip each row as it is (the
    rows would not stack yet): the CPU path's pixels, bit for bit without a resample."""
    gpu.set_device("cpu")
    for ops in ([vision.Decode(), vision.RandomHorizontalFlip(), vision.VerticalFlip(),
                 vision.CenterCrop(40), vision.RandomVerticalFlip()],
                [vision.Decode(), vision.RandomVerticalFlip(0.6), vision.Crop((3, 2), 30),
                 vision.HWC2CHW()]):
        got = batches(pipeline(mr_path, ops, batch=5))
        want = batches(pipeline(mr_path, ops, device=None, batch=5))
        assert len(got) == len(want) == 2
        for (image, _), (cpu_image, _) in zip(got, want):
            np.testing.assert_array_equal(image, cpu_image)
    ops = [vision.Decode(), vision.RandomHorizontalFlip(), vision.RandomResizedCrop(32),
           vision.Normalize(MEAN, STD), vision.HWC2CHW()]
    for (image, _), (cpu_image, _) in zip(batches(pipeline(mr_path, ops, batch=5)),
                                          batches(pipeline(mr_path, ops, device=None, batch=5))):
        assert _levels(image, cpu_image, STD) <= 1.0 + 1e-3


def test_threads_are_closed_with_the_iterator(mr_path):
    gpu.set_device("cpu")

    def workers():
        return {t for t in threading.enumerate() if t.name.startswith("gpu-batch")}
    before = workers()
    ds.config.set_seed(1)
    it = pipeline(mr_path).create_tuple_iterator(num_epochs=1)
    next(it)
    assert workers() - before
    it.close()
    assert not workers() - before


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_on_cuda_the_batch_stays_on_the_device(mr_path):
    ds.config.set_seed(3)
    it = pipeline(mr_path).create_tuple_iterator(num_epochs=1, output_numpy=False)
    image, label = next(it)
    it.close()
    assert isinstance(image, torch.Tensor) and image.is_cuda and image.shape == (4, 3, 40, 40)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_on_cuda_the_augment_is_within_one_level_of_the_cpu_path(mr_path):
    """With the CPU path's decoder ("cpu"), only the GPU's crop, resize, flip and normalize
    differ from the CPU path: at most 1 level."""
    gpu.set_jpeg_decoder("cpu")
    try:
        got = batches(pipeline(mr_path))
    finally:
        gpu.set_jpeg_decoder("auto")
    want = batches(pipeline(mr_path, device=None))
    assert len(got) == len(want) == 3
    for (image, label), (cpu_image, cpu_label) in zip(got, want):
        np.testing.assert_array_equal(label, cpu_label)
        assert _levels(image, cpu_image, STD) <= 1.0 + 1e-3


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_on_cuda_the_gpu_decoder_adds_at_most_one_level_to_its_own_difference(images, mr_path):
    """nvJPEG's IDCT and chroma upsampling differ from libjpeg-turbo's (by tens of levels on
    these noisy 4:2:0 files); the pipeline may add at most the resize's 1 level to that."""
    decode = gpu.backend.jpeg_decoder()
    if decode is None:
        pytest.skip("no GPU JPEG decoder imports")
    jpegs = [data for data in images if data[:2] == b"\xff\xd8"]
    device = torch.device("cuda")
    decoded = decode([torch.frombuffer(bytearray(data), dtype=torch.uint8) for data in jpegs],
                     device=device)
    own = max(_levels(image.permute(1, 2, 0).cpu().numpy()[None],
                      vision.Decode()(np.frombuffer(data, np.uint8))[None])
              for image, data in zip(decoded, jpegs))
    got = batches(pipeline(mr_path))
    want = batches(pipeline(mr_path, device=None))
    for (image, _), (cpu_image, _) in zip(got, want):
        assert _levels(image, cpu_image, STD) <= own + 1.0 + 1e-3


def test_without_output_numpy_the_batch_is_a_torch_tensor(mr_path):
    gpu.set_device("cpu")
    ds.config.set_seed(3)
    it = pipeline(mr_path).create_tuple_iterator(num_epochs=1, output_numpy=False)
    image, _ = next(it)
    it.close()
    assert isinstance(image, torch.Tensor) and image.shape == (4, 3, 40, 40)


def test_the_sink_takes_the_gpu_pipelines_batches_as_they_are(mr_path, monkeypatch):
    """Sink mode over a map placed on the GPU: the batches reach the step as the torch tensors
    the GPU node made (on the device, not copied back to the host as numpy)."""
    from training import Model
    from training.sink import iterate_epochs
    gpu.set_device("cpu")
    seen = [row for _, row in iterate_epochs(pipeline(mr_path, batch=3), 1)]
    assert seen and all(isinstance(row[0], torch.Tensor) for row in seen)
    assert all(isinstance(row[1], np.ndarray) for row in seen)       # the labels stay numpy
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 40 * 40, 2))
    model = Model(net, torch.nn.CrossEntropyLoss(), torch.optim.SGD(net.parameters(), lr=0.1))
    before = net[1].weight.detach().clone()
    labels_mod2 = pipeline(mr_path, batch=3).map(lambda y: (y % 2).astype(np.int64),
                                                  input_columns=["label"])
    model.train(1, labels_mod2, dataset_sink_mode=True)
    assert not torch.equal(before, net[1].weight.detach())


def test_device_time_reaches_the_bench_report_and_the_sink_figures(mr_path):
    """The GPU node times each batch's decode and augment on the device (perf_counter on the
    CPU stand-in, CUDA events on a GPU): minddata-bench shows it as a utilisation, and the sink
    adds it up for Model.last_train_stats."""
    from minddata.bench import profile_dataset
    from training.sink import iterate_epochs
    gpu.set_device("cpu")
    report = profile_dataset(pipeline(mr_path), op_breakdown=False)
    gpu_stage = [s for s in report["stages"] if s["device_busy_s"] is not None]
    assert len(gpu_stage) == 1 and gpu_stage[0]["device_busy_s"] > 0
    assert report["device_decode"]["busy_s"] == pytest.approx(gpu_stage[0]["device_busy_s"], abs=1e-6)
    assert "GPU decode busy" in report.format()
    figures = {}
    assert list(iterate_epochs(pipeline(mr_path, batch=3), 1, figures))
    assert figures["device_decode_s"] > 0
