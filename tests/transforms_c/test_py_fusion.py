"""The PIL path's fused runs: Decode -> crops/flips -> ToTensor -> Normalize of
minddata.vision.py_transforms compile into one plan per row (region decode, Pillow's own resize,
one pass for flip, ToTensor and Normalize) whose values are exactly the unfused ops'."""
import io

import numpy as np
import pytest
from PIL import Image

from minddata.transforms import py_transforms as PT
from minddata.vision import py_transforms as P
from transforms_c.enums import Inter
from transforms_c.fusion import FusedPlan, compile_operations, run_unfused

from tests.transforms_c.tc_samples import jpeg_bytes, natural_rgb

MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]


def _train_ops(interp=Inter.BILINEAR, size=24):
    return [P.Decode(), P.RandomResizedCrop(size, interpolation=interp),
            P.RandomHorizontalFlip(), P.ToTensor(), P.Normalize(MEAN, STD)]


def _encoded(kind, seed):
    img = natural_rgb(61 + seed % 7, 77 + seed % 5, seed)
    if kind == "gray":
        return jpeg_bytes(np.ascontiguousarray(img[..., 0]))
    buf = io.BytesIO()
    pil = Image.fromarray(img)
    if kind == "cmyk":
        pil.convert("CMYK").save(buf, "JPEG", quality=90)
    elif kind == "png":
        pil.save(buf, "PNG")
    elif kind == "progressive":
        pil.save(buf, "JPEG", quality=80, progressive=True)
    else:
        pil.save(buf, "JPEG", quality=90, subsampling=int(kind[-1]))
    return np.frombuffer(buf.getvalue(), np.uint8)


def test_the_train_chain_compiles_to_one_plan():
    units = compile_operations(_train_ops())
    assert len(units) == 1 and isinstance(units[0], FusedPlan)


@pytest.mark.parametrize("ops, expected", [
    # A run never ends on an op whose unfused output is a PIL image.
    ([P.Decode(), P.RandomResizedCrop(8), P.RandomHorizontalFlip()], 3),
    ([P.Decode(), P.RandomResizedCrop(8), P.ToTensor()], 1),
    ([P.Decode(), P.ToTensor(), P.Normalize(MEAN, STD)], 1),
    # Only after a PIL-path Decode: the input of a run's first op may be a PIL image.
    ([P.ToTensor(), P.Normalize(MEAN, STD)], 2),
    ([P.RandomResizedCrop(8), P.ToTensor()], 2),
    # ToTensor makes the layout; a second layout op or an HWC Normalize ends the run.
    ([P.Decode(), P.ToTensor(), P.HWC2CHW()], 2),
    ([P.Decode(), P.ToTensor(), P.Normalize(MEAN, STD, is_hwc=True)], 2),
    ([P.Decode(), P.ToTensor(np.float64), P.Normalize(MEAN, STD)], 3),
])
def test_what_fuses(ops, expected):
    assert len(compile_operations(ops)) == expected


@pytest.mark.parametrize("interp", [Inter.BILINEAR, Inter.BICUBIC, Inter.NEAREST,
                                    Inter.ANTIALIAS])
@pytest.mark.parametrize("kind", ["jpeg420", "jpeg444", "jpeg422", "progressive", "gray",
                                  "cmyk", "png"])
def test_fused_values_equal_the_unfused_ops(interp, kind):
    ops = _train_ops(interp)
    plan = compile_operations(ops)[0]
    for seed in range(12):
        data = _encoded(kind, seed)
        seeds = [seed * 11 + k for k in range(len(ops))]
        fused = plan.apply_seeds((data,), seeds)[0]
        unfused = run_unfused(ops, seeds, data)
        assert fused.dtype == unfused.dtype == np.float32
        assert fused.shape == unfused.shape == (3, 24, 24)
        assert np.array_equal(fused, unfused), (kind, seed)


def test_compose_and_eager_calls_agree():
    data = _encoded("jpeg420", 3)
    composed = PT.Compose([P.Decode(), P.RandomResizedCrop(16), P.ToTensor()])
    seed = 1234
    out = composed.apply((data,), seed)[0]
    from transforms_c._rng import derive_seed
    step = P.Decode().apply((data,), derive_seed(seed, 0))[0]
    step = P.RandomResizedCrop(16).apply((step,), derive_seed(seed, 1))[0]
    step = P.ToTensor().apply((step,), derive_seed(seed, 2))[0]
    assert np.array_equal(out, step)


def test_bad_bytes_fail_as_the_unfused_decode_does():
    plan = compile_operations(_train_ops())[0]
    with pytest.raises(RuntimeError, match="Decode: cannot decode image"):
        plan.apply((np.frombuffer(b"\xff\xd8\xff not a jpeg", np.uint8),), 0)
    data = _encoded("jpeg420", 0)
    with pytest.raises(RuntimeError, match="Decode"):
        plan.apply((data[:len(data) // 3].copy(),), 0)


def test_map_over_the_pil_path_gives_the_unfused_rows(monkeypatch, tmp_path):
    # The same pipeline with the compiler switched off: every op runs by itself, with the same
    # seeds, in the same worker processes.
    import minddata as ds
    import transforms_c
    (tmp_path / "a").mkdir()
    for s in range(10):
        (tmp_path / "a" / f"{s}.jpg").write_bytes(_encoded("jpeg420", s).tobytes())

    def rows():
        data = ds.ImageFolderDataset(str(tmp_path), shuffle=False)
        data = data.map(_train_ops(), input_columns=["image"], num_parallel_workers=2,
                        python_multiprocessing=True).batch(5)
        return [b[0] for b in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]

    ds.config.set_seed(5)
    fused = rows()
    monkeypatch.setattr(transforms_c, "compile_operations", list)
    unfused = rows()
    assert len(fused) == len(unfused) == 2
    for a, b in zip(fused, unfused):
        assert a.shape == (5, 3, 24, 24) and np.array_equal(a, b)


@pytest.mark.parametrize("make_ops", [
    lambda: [P.Decode(), P.ToTensor(), P.Normalize(MEAN, STD)],
    lambda: [P.Decode(), P.ToTensor()],
    lambda: [P.Decode(), P.RandomResizedCrop((20, 12)), P.RandomVerticalFlip(), P.ToTensor()],
    lambda: [P.Decode(), P.RandomHorizontalFlip(1.0), P.RandomVerticalFlip(0.0), P.ToTensor(),
             P.Normalize([0.5], [0.25])],
    lambda: [P.Decode(), P.ToTensor(), P.Normalize(MEAN, STD), P.Normalize([0.1], [0.5])],
])
def test_other_runs_equal_the_unfused_ops(make_ops):
    ops = make_ops()
    plan = compile_operations(ops)
    assert len(plan) == 1 and isinstance(plan[0], FusedPlan)
    for seed in range(8):
        data = _encoded("jpeg420" if seed % 2 else "gray", seed)
        seeds = [seed * 13 + k for k in range(len(ops))]
        fused = plan[0].apply_seeds((data,), seeds)[0]
        unfused = run_unfused(ops, seeds, data)
        assert fused.dtype == unfused.dtype and np.array_equal(fused, unfused)
