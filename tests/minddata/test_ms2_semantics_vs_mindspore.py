"""The dataset side of issue 12 side by side with MindSpore 2.10 (skipped where it is not
installed): iterator Tensors, dict columns, user samplers, sampling-argument errors,
WaitedDSCallback, Decode of int8 bytes, OneHot smoothing, dataset sizes.

Run with an environment that has MindSpore (see README, Development):
``PYTHONPATH=. /path/to/ms-venv/bin/python -m pytest tests/minddata/test_ms2_semantics_vs_mindspore.py``
"""
import struct

import numpy as np
import pytest

import minddata as ds

ms = pytest.importorskip("mindspore")
ms_ds = pytest.importorskip("mindspore.dataset")
ms_vision = pytest.importorskip("mindspore.dataset.vision")
ms_transforms = pytest.importorskip("mindspore.dataset.transforms")


def _plain(value):
    """Iterator output -> nested Python values with type tags, comparable across libraries."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [type(value).__name__] + [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.tolist())
    if hasattr(value, "asnumpy"):
        arr = value.asnumpy()
        return ("Tensor", str(value.dtype), arr.shape, arr.tolist())
    return value


def _epoch(dataset, output_numpy=False):
    return [_plain(list(row)) for row in
            dataset.create_tuple_iterator(num_epochs=1, output_numpy=output_numpy)]


@pytest.mark.parametrize("output_numpy", [False, True])
def test_iterator_outputs_match(output_numpy):
    def build(mod):
        data = {"f": np.arange(6, dtype=np.float32).reshape(3, 2),
                "i": np.arange(3, dtype=np.int32), "s": np.array(["a", "bb", "c"]),
                "b": np.array([True, False, True])}
        return mod.NumpySlicesDataset(data, shuffle=False)
    assert _epoch(build(ds), output_numpy) == _epoch(build(ms_ds), output_numpy)


def test_tensor_printing_and_dtypes_match():
    for arr in (np.array([0.0, 1.0], np.float32), np.array(True), np.zeros((2, 3), np.uint8),
                np.arange(4, dtype=np.int16)):
        assert repr(ds.Tensor(arr)) == repr(ms.Tensor.from_numpy(arr))   # as iterators give it
        assert str(ds.Tensor(arr).dtype) == str(ms.Tensor(arr).dtype)
    for name in ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float16", "float32", "float64", "complex64", "complex128"):
        ours, theirs = getattr(ds.mstype, name), getattr(ms, name)
        assert (str(ours), repr(ours)) == (str(theirs), repr(theirs))
        assert ds.mstype.dtype_to_nptype(ours) is ms.dtype_to_nptype(theirs)


def _dict_rows():
    for i in range(5):
        yield {"a": i, "b": [i, i + 1], "s": f"s{i}", "n": np.full(2, i / 2)}, np.array([i])


@pytest.mark.parametrize("output_numpy", [False, True])
def test_dict_columns_match(output_numpy):
    def build(mod, batch=None):
        d = mod.GeneratorDataset(_dict_rows, ["meta", "x"], shuffle=False)
        d = d.map(lambda m: dict(m, twice=m["a"] * 2), input_columns=["meta"])
        if batch == "stack":
            d = d.batch(2)
        elif batch == "per_batch_map":
            d = d.batch(2, per_batch_map=lambda m, x, info: (m, x), input_columns=["meta", "x"])
        return d
    for batch in (None, "stack", "per_batch_map"):
        assert _epoch(build(ds, batch), output_numpy) == _epoch(build(ms_ds, batch), output_numpy)


class _StatefulSampler:
    """A model-zoo style sampler: not a ds.Sampler, a new permutation per __iter__."""

    def __init__(self, n):
        self.dataset_size, self.epoch = n, 0

    def __iter__(self):
        order = np.random.RandomState(self.epoch).permutation(self.dataset_size).tolist()
        self.epoch += 1
        return iter(order[:4])

    def __len__(self):
        return 4


def _two_epochs(dataset):
    it = dataset.create_tuple_iterator(num_epochs=2, output_numpy=True)
    return [[r[0].tolist() for r in it] for _ in range(2)]


def test_user_sampler_objects_match(tmp_path):
    rows = [(np.array(i),) for i in range(6)]
    for mod_a, mod_b in ((ds, ms_ds),):
        got = [_two_epochs(m.GeneratorDataset(rows, ["a"], sampler=_StatefulSampler(6)))
               for m in (mod_a, mod_b)]
        assert got[0] == got[1]
        got = [_two_epochs(m.NumpySlicesDataset(np.arange(6), sampler=_StatefulSampler(6)))
               for m in (mod_a, mod_b)]
        assert got[0] == got[1]
    (tmp_path / "c").mkdir()
    for k in range(6):
        (tmp_path / "c" / f"{k}.bin").write_bytes(bytes([k]))
    got = [_two_epochs(m.ImageFolderDataset(str(tmp_path), sampler=_StatefulSampler(6)))
           for m in (ds, ms_ds)]
    assert got[0] == got[1]


def test_replacement_sampler_sizes_match():
    for make in (lambda m: m.RandomSampler(replacement=True, num_samples=25),
                 lambda m: m.WeightedRandomSampler([1, 2, 3, 1, 2, 3, 1, 2, 3, 1], 30)):
        sizes = []
        for m in (ds, ms_ds):
            d = m.NumpySlicesDataset(np.arange(10), sampler=make(m))
            sizes.append((d.get_dataset_size(), len(_epoch(d, True))))
        assert sizes[0] == sizes[1]


@pytest.mark.parametrize("kw", [
    dict(num_shards=2), dict(shard_id=0), dict(num_shards=2, shard_id=2),
    dict(num_shards=0, shard_id=0), dict(num_shards="2", shard_id=0),
    dict(sampler="S", shuffle=True), dict(sampler="S", num_shards=2, shard_id=0),
    dict(sampler="S", num_samples=3),
])
def test_sampling_argument_errors_match(kw):
    def error(mod, make):
        args = dict(kw)
        if args.get("sampler") == "S":
            args["sampler"] = mod.SequentialSampler()
        try:
            make(mod, args)
        except Exception as exc:  # noqa: BLE001  (the type is what is compared)
            return type(exc)
        return None
    for make in (lambda m, a: m.NumpySlicesDataset(np.arange(4), **a),
                 lambda m, a: m.GeneratorDataset([(np.array(1),)] * 4, ["a"], **a)):
        assert error(ds, make) == error(ms_ds, make) is not None


def test_waited_ds_callback_sequence_matches():
    def run(mod):
        class Recorder(mod.WaitedDSCallback):
            def __init__(self):
                super().__init__(step_size=1)
                self.events = []

            def sync_epoch_begin(self, train_run_context, ds_run_context):
                self.events.append(("epoch", ds_run_context.cur_epoch_num,
                                    ds_run_context.cur_step_num, train_run_context))

            def sync_step_begin(self, train_run_context, ds_run_context):
                self.events.append(("step", ds_run_context.cur_epoch_num,
                                    ds_run_context.cur_step_num, train_run_context))
        mod.config.set_callback_timeout(20)
        cb = Recorder()
        data = mod.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False)
        it = data.map(lambda x: x, "x", callbacks=[cb]).create_tuple_iterator(num_epochs=2)
        step = 0
        for epoch in (1, 2):
            for _ in it:
                step += 1
                cb.step_end(f"train step {step}")
            cb.epoch_end(f"train epoch {epoch}")
        cb.end("train end")
        return cb.events
    assert run(ds) == run(ms_ds)


def test_decode_of_int8_bytes_matches(tmp_path):
    cv2 = pytest.importorskip("cv2")
    img = (np.random.default_rng(3).random((37, 45, 3)) * 255).astype(np.uint8)
    path = str(tmp_path / "x.jpg")
    assert cv2.imwrite(path, img)
    raw = np.fromfile(path, dtype="int8")
    assert np.array_equal(ds.vision.Decode()(raw), ms_vision.Decode()(raw))


def test_pil_decode_and_resized_crop_match():
    # The PIL path: Decode(to_pil=True) (natively decoded JPEG here, Pillow there) and a
    # RandomResizedCrop whose crop is decided without randomness (no window fits the ratio:
    # the centre-crop fallback), so the pixels of the whole chain must be equal.
    import io
    from PIL import Image
    import minddata.vision.py_transforms as P
    rng = np.random.default_rng(5)
    img = Image.fromarray((rng.random((123, 157, 3)) * 255).astype(np.uint8))
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=85)
    raw = np.frombuffer(buf.getvalue(), np.uint8)
    ours_img, theirs_img = P.Decode()(raw), ms_vision.Decode(to_pil=True)(raw)
    assert np.array_equal(np.asarray(ours_img), np.asarray(theirs_img))
    for interp in ("BILINEAR", "BICUBIC"):
        kw = dict(scale=(1.0, 1.0), ratio=(3.0, 3.0), max_attempts=1)
        ours = P.RandomResizedCrop(24, interpolation=getattr(ds.vision.Inter, interp), **kw)
        theirs = ms_vision.RandomResizedCrop(24, interpolation=getattr(ms_vision.Inter, interp),
                                             **kw)
        assert np.array_equal(np.asarray(ours(ours_img)), np.asarray(theirs(theirs_img)))


def test_one_hot_smoothing_matches():
    # Scalar labels: MindSpore 2.10 loses the hot value of all but the last row of a 1-D
    # label array when smoothing (a bug this project does not copy; see README).
    for label in (0, 2, 4):
        for rate in (0.0, 0.1, 0.3):
            labels = np.array(label, np.int32)
            ours = ds.transforms.OneHot(5, smoothing_rate=rate)(labels)
            theirs = ms_transforms.OneHot(5, smoothing_rate=rate)(labels)
            assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs)


def test_normalize_chw_matches_mindspore_unified_op():
    import minddata.vision.py_transforms as P
    chw = np.random.default_rng(4).random((3, 6, 5)).astype(np.float32)
    mean, std = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
    theirs = ms_vision.Normalize(mean, std, is_hwc=False)(chw)
    np.testing.assert_allclose(P.Normalize(mean, std, is_hwc=False)(chw), theirs, atol=1e-6)
    hwc = np.ascontiguousarray(chw.transpose(1, 2, 0))
    np.testing.assert_allclose(P.Normalize(mean, std, is_hwc=True)(hwc),
                               theirs.transpose(1, 2, 0), atol=1e-6)


def test_dataset_sizes_match(tmp_path):
    # MindSpore counts CIFAR batch files as 10,000 records each, so they hold that many here.
    rng = np.random.default_rng(0)
    rec = rng.integers(0, 256, size=(10000, 3073), dtype=np.uint8)
    rec[:, 0] %= 10
    rec.tofile(str(tmp_path / "data_batch_1.bin"))
    rec.tofile(str(tmp_path / "test_batch.bin"))
    mnist = tmp_path / "mnist"
    mnist.mkdir()
    (mnist / "train-images-idx3-ubyte").write_bytes(struct.pack(">4I", 2051, 6, 28, 28)
                                                    + bytes(6 * 784))
    (mnist / "train-labels-idx1-ubyte").write_bytes(struct.pack(">2I", 2049, 6) + bytes(6))
    for usage in ("train", "test", "all"):
        assert (ds.Cifar10Dataset(str(tmp_path), usage=usage).get_dataset_size() ==
                ms_ds.Cifar10Dataset(str(tmp_path), usage=usage).get_dataset_size())
    assert (ds.Cifar10Dataset(str(tmp_path), num_shards=5, shard_id=4).get_dataset_size() ==
            ms_ds.Cifar10Dataset(str(tmp_path), num_shards=5, shard_id=4).get_dataset_size())
    assert (ds.MnistDataset(str(mnist)).get_dataset_size() ==
            ms_ds.MnistDataset(str(mnist)).get_dataset_size())


def test_module_layout_names_exist_in_both():
    import minddata.transforms.transforms as ours_t
    import minddata.vision.transforms as ours_v
    import mindspore.dataset.transforms.transforms as theirs_t
    import mindspore.dataset.vision.transforms as theirs_v
    for name in ("TypeCast", "Compose", "OneHot", "RandomApply", "RandomChoice", "RandomOrder",
                 "Fill", "Duplicate", "Concatenate", "Mask", "PadEnd", "Slice", "Unique"):
        assert hasattr(ours_t, name) and hasattr(theirs_t, name), name
    for name in ("Decode", "Resize", "RandomResizedCrop", "Normalize", "HWC2CHW", "Rescale"):
        assert hasattr(ours_v, name) and hasattr(theirs_v, name), name
    out = ours_t.TypeCast(ds.mstype.int16)(np.arange(3.0))
    assert out.dtype == theirs_t.TypeCast(ms.int16)(np.arange(3.0)).dtype


def test_generator_batch_sampler_matches():
    class Source:
        def __getitem__(self, i):
            return np.array([i, i], np.int64), np.array(i * 10, np.int64)

        def __len__(self):
            return 7

    def collate(a, b):
        return np.stack(a).sum(axis=0), np.array(len(b))

    batches = [[0, 1, 2], [3, 4], [5, 6, 0]]
    for kw in (dict(), dict(collate_fn=collate)):
        got = [_epoch(m.GeneratorDataset(Source(), ["a", "b"], batch_sampler=batches, **kw),
                      True) for m in (ds, ms_ds)]
        assert got[0] == got[1]
