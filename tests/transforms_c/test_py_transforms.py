"""minddata.vision.py_transforms: the PIL path matches Pillow and keeps the op protocol."""
import io

import numpy as np
import pytest
from PIL import Image, ImageOps

from minddata.transforms import py_transforms as PT
from minddata.vision import py_transforms as P
from transforms_c._rng import Rng
from transforms_c.vision import Inter

from tests.transforms_c.tc_samples import natural_rgb, sample_jpeg


def _pil():
    return Image.fromarray(natural_rgb())


def test_decode_matches_pillow():
    data = sample_jpeg()
    out = P.Decode()(data)
    ref = Image.open(io.BytesIO(data.tobytes())).convert("RGB")
    assert isinstance(out, Image.Image)
    assert np.array_equal(np.asarray(out), np.asarray(ref))


@pytest.mark.parametrize("options", [
    {"mode": "RGB", "subsampling": 2}, {"mode": "RGB", "subsampling": 1},
    {"mode": "RGB", "subsampling": 0}, {"mode": "RGB", "progressive": True},
    {"mode": "L"}, {"mode": "CMYK"}, {"mode": "RGB", "quality": 30, "optimize": True}])
def test_decode_matches_pillow_for_every_jpeg_kind(options):
    # JPEGs are decoded by the native libjpeg-turbo (CMYK ones by Pillow): the pixels must be
    # Pillow's, odd sizes included (the chroma edges of subsampled images).
    options = dict(options)
    img = Image.fromarray(natural_rgb()[:61, :77]).convert(options.pop("mode"))
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=options.pop("quality", 90), **options)
    data = np.frombuffer(buf.getvalue(), np.uint8)
    ref = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
    out = P.Decode()(data)
    assert out.mode == "RGB" and out.size == ref.size
    assert np.array_equal(np.asarray(out), np.asarray(ref))


def test_decode_keeps_pillows_pixel_limit(monkeypatch):
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)
    with pytest.raises(RuntimeError, match="exceeds limit"):
        P.Decode()(sample_jpeg())


def test_decode_errors():
    with pytest.raises(RuntimeError, match="cannot decode"):
        P.Decode()(np.frombuffer(b"not an image", np.uint8))
    with pytest.raises(RuntimeError, match="empty"):
        P.Decode()(b"")
    data = sample_jpeg()
    with pytest.raises(RuntimeError):
        P.Decode()(data[:len(data) // 2].copy())


def test_resize_matches_pillow():
    img = _pil()
    out = P.Resize(50, Inter.BICUBIC)(img)
    assert out.size == (63, 50)
    assert np.array_equal(np.asarray(out), np.asarray(img.resize((63, 50), Image.BICUBIC)))
    assert P.Resize((20, 30))(img).size == (30, 20)


def test_center_crop_matches_pillow_semantics():
    img = _pil()
    out = P.CenterCrop((40, 60))(img)
    left, top = int(round((157 - 60) / 2)), int(round((123 - 40) / 2))
    assert np.array_equal(np.asarray(out), np.asarray(img.crop((left, top, left + 60, top + 40))))


def test_random_resized_crop_window_and_resize():
    img = _pil()
    op = P.RandomResizedCrop(32)
    out = op.apply((img,), 7)[0]
    top, left, h, w = P.pil_resized_crop_box(123, 157, op.scale, op.ratio, 10, Rng(7))
    # MindSpore's py_transforms crop first, then resize the crop alone.
    ref = img.crop((left, top, left + w, top + h)).resize((32, 32), Image.BILINEAR)
    assert np.array_equal(np.asarray(out), np.asarray(ref))


def test_random_resized_crop_edges_see_only_the_crop():
    # An interior crop (ratio out of reach: the centre-crop fallback): a resize with box=
    # would blend the pixels around the crop into its edge rows and columns.
    img = _pil()
    op = P.RandomResizedCrop(16, scale=(0.2, 0.2), ratio=(3.0, 3.0), max_attempts=1)
    top, left, h, w = P.pil_resized_crop_box(123, 157, op.scale, op.ratio, 1, Rng(0))
    out = np.asarray(op.apply((img,), 0)[0])
    crop = img.crop((left, top, left + w, top + h))
    assert np.array_equal(out, np.asarray(crop.resize((16, 16), Image.BILINEAR)))
    boxed = np.asarray(img.resize((16, 16), Image.BILINEAR, box=(left, top, left + w, top + h)))
    assert not np.array_equal(out, boxed)


def test_random_resized_crop_window_follows_mindsporess_python_rules():
    # Height from the rounded width; the centre-crop fallback rounds half to even (35.5 -> 36).
    assert P.pil_resized_crop_box(123, 157, (1.0, 1.0), (3.0, 3.0), 1, Rng(0)) == (36, 0, 52, 157)
    assert P.pil_resized_crop_box(100, 40, (1.0, 1.0), (2.0, 2.0), 1, Rng(0)) == (40, 0, 20, 40)
    for seed in range(200):
        top, left, h, w = P.pil_resized_crop_box(50, 70, (0.08, 1.0), (0.75, 4 / 3), 10, Rng(seed))
        assert 0 <= top <= 50 - h and 0 <= left <= 70 - w and h > 0 and w > 0


def test_flips_and_probability():
    img = _pil()
    assert np.array_equal(np.asarray(P.RandomHorizontalFlip(1.0)(img)),
                          np.asarray(img)[:, ::-1])
    assert np.array_equal(np.asarray(P.RandomVerticalFlip(1.0)(img)), np.asarray(img)[::-1])


def test_to_tensor_normalize_hwc2chw():
    img = _pil()
    tensor = P.ToTensor()(img)
    assert tensor.shape == (3, 123, 157) and tensor.dtype == np.float32
    np.testing.assert_allclose(tensor, np.asarray(img).transpose(2, 0, 1) / 255.0, rtol=1e-6)
    norm = P.Normalize([0.5, 0.5, 0.5], [0.25, 0.25, 0.25])(tensor)
    np.testing.assert_allclose(norm, (tensor - 0.5) / 0.25, rtol=1e-5)
    assert P.HWC2CHW()(np.asarray(img)).shape == (3, 123, 157)
    with pytest.raises(ValueError):
        P.Normalize([2.0], [1.0])


def test_color_ops_match_pillow():
    img = _pil()
    assert np.array_equal(np.asarray(P.Invert()(img)), np.asarray(ImageOps.invert(img)))
    assert np.array_equal(np.asarray(P.Equalize()(img)), np.asarray(ImageOps.equalize(img)))
    assert np.array_equal(np.asarray(P.AutoContrast()(img)),
                          np.asarray(ImageOps.autocontrast(img)))
    assert P.Grayscale(3)(img).mode == "RGB"


def test_random_color_adjust_seeded():
    op = P.RandomColorAdjust(0.4, 0.4, 0.4, 0.1)
    img = _pil()
    assert np.array_equal(np.asarray(op.apply((img,), 3)[0]), np.asarray(op.apply((img,), 3)[0]))
    assert np.array_equal(np.asarray(P.RandomColorAdjust()(img)), np.asarray(img))


def test_ops_accept_arrays_from_the_engine():
    out = P.RandomCrop(20).apply((natural_rgb(),), 1)[0]
    assert out.size == (20, 20)


def test_pad_and_rotation():
    img = _pil()
    assert P.Pad(3)(img).size == (163, 129)
    assert P.RandomRotation(20, expand=True).apply((img,), 1)[0].size[0] >= 157


def test_train_compose_end_to_end():
    op = PT.Compose([P.Decode(), P.RandomResizedCrop(32), P.RandomHorizontalFlip(),
                     P.ToTensor(), P.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])
    data = sample_jpeg()
    out = op.apply((data,), 11)[0]
    assert out.shape == (3, 32, 32) and out.dtype == np.float32
    assert np.array_equal(out, op.apply((data,), 11)[0])
    assert op.is_random


def test_random_order_and_choice():
    order = PT.RandomOrder([lambda x: x * 2, lambda x: x + 1])
    assert {int(order.apply((np.ones(1),), s)[0][0]) for s in range(40)} == {3, 4}
    choice = PT.RandomChoice([lambda x: x * 2, lambda x: x + 5])
    assert {int(choice.apply((np.ones(1),), s)[0][0]) for s in range(40)} == {2, 6}


def test_argument_errors():
    with pytest.raises(TypeError):
        P.Resize(10, interpolation="bilinear")
    with pytest.raises(ValueError):
        P.RandomResizedCrop(10, scale=(1.0, 0.5))
    with pytest.raises(ValueError):
        P.RandomHorizontalFlip(2)


def test_random_grayscale_gives_rgb_for_every_mode_but_l():
    """As MindSpore's: an RGBA image comes back RGB, an L image stays L (prob 1: always)."""
    rgba = Image.fromarray(np.dstack([natural_rgb(8, 9), np.full((8, 9), 200, np.uint8)]))
    out = P.RandomGrayscale(1.0)(rgba)
    assert out.mode == "RGB"
    assert np.array_equal(np.asarray(out)[:, :, 0], np.asarray(rgba.convert("L")))
    gray = rgba.convert("L")
    assert P.RandomGrayscale(1.0)(gray).mode == "L"
