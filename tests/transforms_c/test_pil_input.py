"""PIL images given to the unified vision ops (eager calls and Compose), as MindSpore 2.x: the
ops MindSpore also implements with Pillow give back a PIL image of the input's mode, the others
an array; resampling ops, CenterCrop and the colour ops compute with Pillow (measured in
MindSpore 2.10), the others give the pixels of the numpy path."""
import io

import numpy as np
import pytest
from PIL import Image

import transforms_c.vision as V
from transforms_c._rng import Rng
from transforms_c.enums import Inter
from transforms_c.transforms import Compose

from tests.transforms_c.tc_samples import natural_rgb

RGB = np.ascontiguousarray(natural_rgb(61, 83))
GRAY = np.ascontiguousarray(RGB[:, :, 1])


def image_ops():
    """Ops whose result on a PIL image is a PIL image with the numpy path's pixels (MindSpore's
    ops with a Pillow path that neither resample nor centre a window)."""
    return [
        V.Pad(3), V.Pad((1, 2, 3, 4), 9), V.RandomCrop(32),
        V.RandomCrop(50, padding=4, pad_if_needed=True), V.RandomHorizontalFlip(1.0),
        V.RandomVerticalFlip(1.0), V.RandomHorizontalFlip(),
        V.Grayscale(), V.Grayscale(3),
    ]


@pytest.mark.parametrize("op", image_ops(), ids=repr)
@pytest.mark.parametrize("pixels", [RGB, GRAY], ids=["RGB", "L"])
def test_pil_in_pil_out_with_the_numpy_pixels(op, pixels):
    if isinstance(op, V.Grayscale) and pixels.ndim == 2:
        pytest.skip("an RGB-only op")
    img = Image.fromarray(pixels)
    for seed in (0, 7, 12345):
        out = op.apply((img,), seed)[0]
        expected = op.apply((pixels,), seed)[0]
        assert isinstance(out, Image.Image)
        if expected.ndim == 3 and expected.shape[2] == 1:
            expected = expected[:, :, 0]        # a 1-channel result is an L image
        np.testing.assert_array_equal(np.asarray(out), expected)
        if not isinstance(op, V.Grayscale):
            assert out.mode == img.mode
    assert isinstance(op(img), Image.Image)     # the eager call


def pillow_window(img, height, width):
    """MindSpore's centred window on a PIL image: offsets rounded half to even."""
    top, left = round((img.height - height) / 2), round((img.width - width) / 2)
    return img.crop((left, top, left + width, top + height))


@pytest.mark.parametrize("op, pillow", [
    (V.Resize((30, 41)), lambda img, seed: img.resize((41, 30), Image.BILINEAR)),
    (V.Resize(25, Inter.NEAREST), lambda img, seed: img.resize((34, 25), Image.NEAREST)),
    (V.Resize(33, Inter.BICUBIC), lambda img, seed: img.resize((44, 33), Image.BICUBIC)),
    (V.Resize(20, Inter.ANTIALIAS), lambda img, seed: img.resize((27, 20), Image.LANCZOS)),
    (V.CenterCrop(40), lambda img, seed: pillow_window(img, 40, 40)),
    (V.CenterCrop((70, 90)), lambda img, seed: pillow_window(img, 70, 90)),
    (V.RandomRotation(30), lambda img, seed: img.rotate(Rng(seed).uniform(-30, 30) % 360,
                                                        Image.NEAREST, fillcolor=0)),
    (V.RandomRotation((20, 20), expand=True, fill_value=(1, 2, 3)),
     lambda img, seed: img.rotate(20, Image.NEAREST, True,
                                  fillcolor=1 if img.mode == "L" else (1, 2, 3))),
], ids=repr)
@pytest.mark.parametrize("pixels", [RGB, GRAY], ids=["RGB", "L"])
def test_resampling_and_centering_ops_compute_with_pillow(op, pillow, pixels):
    # measured in MindSpore 2.10: its Python (Pillow) path runs on a PIL image
    img = Image.fromarray(pixels)
    for seed in (0, 7):
        out = op.apply((img,), seed)[0]
        assert isinstance(out, Image.Image) and out.mode == img.mode
        np.testing.assert_array_equal(np.asarray(out), np.asarray(pillow(img, seed)))


def test_random_resized_crop_on_pil_crops_then_resizes_with_pillow():
    img = Image.fromarray(RGB)
    op = V.RandomResizedCrop((20, 30), scale=(1.0, 1.0), ratio=(83 / 61, 83 / 61))
    out = op(img)
    assert isinstance(out, Image.Image) and out.size == (30, 20)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(img.resize((30, 20),
                                                                         Image.BILINEAR)))


def test_color_adjust_keeps_rgb_mode():
    img = Image.fromarray(RGB)
    out = V.RandomColorAdjust(0.4, 0.4, 0.4, 0.1).apply((img,), 3)[0]
    assert isinstance(out, Image.Image) and out.mode == "RGB"


def test_grayscale_gives_an_l_image():
    out = V.Grayscale()(Image.fromarray(RGB))
    assert out.mode == "L" and out.size == (83, 61)
    out3 = V.Grayscale(3)(Image.fromarray(RGB))
    assert out3.mode == "RGB"


@pytest.mark.parametrize("mode", ["RGBA", "LA", "I", "F"])
def test_other_modes_are_kept(mode):
    img = Image.fromarray(RGB).convert(mode)
    out = V.CenterCrop(20)(img)
    assert out.mode == mode
    np.testing.assert_array_equal(np.asarray(out), np.asarray(img)[20:40, 32:52])
    flipped = V.RandomHorizontalFlip(1.0)(img)
    assert flipped.mode == mode
    np.testing.assert_array_equal(np.asarray(flipped), np.asarray(img)[:, ::-1])


def test_palette_and_bilevel_images():
    """Pillow crops a palette image as it is; the pixel ops give a bilevel one as L."""
    palette = Image.fromarray(RGB).convert("P")
    out = V.CenterCrop(10)(palette)
    assert out.mode == "P"
    np.testing.assert_array_equal(np.asarray(out.convert("RGB")),
                                  np.asarray(palette.convert("RGB"))[26:36, 36:46])
    bilevel = Image.fromarray(GRAY).convert("1")
    out = V.RandomVerticalFlip(1.0)(bilevel)
    assert out.mode == "L"
    np.testing.assert_array_equal(np.asarray(out), np.asarray(bilevel.convert("L"))[::-1])
    bilevel = Image.fromarray(GRAY).convert("1")
    out = V.RandomVerticalFlip(1.0)(bilevel)
    assert out.mode == "L"
    np.testing.assert_array_equal(np.asarray(out), np.asarray(bilevel.convert("L"))[::-1])


@pytest.mark.parametrize("op", [
    V.HorizontalFlip(), V.VerticalFlip(), V.Crop((3, 4), 20), V.Rotate(30),
    V.Normalize([120.0, 110.0, 100.0], [60.0, 61.0, 62.0]), V.HWC2CHW(),
    V.ToType(np.float32), V.GaussianBlur(3), V.ConvertColor(V.ConvertMode.COLOR_RGB2BGR),
    V.Rescale(1 / 255, 0.0),
], ids=repr)
def test_ops_without_a_pillow_path_give_an_array(op):
    img = Image.fromarray(RGB)
    out = op(img)
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, op(RGB))
    np.testing.assert_array_equal(op.apply((img,), 0)[0], out)   # inside Compose


def test_to_tensor_on_pil_divides_and_on_arrays_multiplies():
    """MindSpore's ToTensor given a PIL image, directly or in an eager Compose, runs its Python
    implementation (img / 255 in float64); given the image's array (as a pipeline hands it), its
    C++ one (img * float32(1 / 255)): up to 1 ulp apart
    (tests/transforms_c/test_mindspore_arithmetic.py). Measured in MindSpore 2.10."""
    img = Image.fromarray(RGB)
    op = V.ToTensor()
    assert isinstance(op(img), np.ndarray)
    np.testing.assert_array_equal(op(img), (RGB / 255.0).astype(np.float32).transpose(2, 0, 1))
    np.testing.assert_array_equal(op.apply((img,), 0)[0], op(img))
    # measured in MindSpore 2.10: an eager Compose on its Python path gives a 1-tuple
    composed = Compose([op])(img)
    assert isinstance(composed, tuple) and len(composed) == 1
    np.testing.assert_array_equal(composed[0], op(img))


def test_random_array_op_on_pil_draws_as_on_numpy():
    img = Image.fromarray(RGB)
    op = V.CutOut(10, 3)
    np.testing.assert_array_equal(op.apply((img,), 21)[0], op.apply((RGB,), 21)[0])


def test_to_pil_returns_the_image_itself():
    img = Image.fromarray(RGB).convert("P")
    assert V.ToPIL()(img) is img


def test_decoding_ops_refuse_a_pil_image_with_type_error():
    img = Image.fromarray(RGB)
    with pytest.raises(TypeError, match="type of the encoded image should be"):
        V.Decode()(img)
    # measured in MindSpore 2.10: RandomCropDecodeResize says it in other words
    with pytest.raises(TypeError, match="Input should be an encoded image in 1-D NumPy format"):
        V.RandomCropDecodeResize(20)(img)


@pytest.mark.parametrize("op", [
    V.Resize(20, Inter.AREA), V.Resize(20, Inter.PILCUBIC), V.RandomResizedCrop(20, interpolation=Inter.AREA),
    V.RandomRotation(10, resample=Inter.AREA), V.RandomAffine(10, resample=Inter.PILCUBIC),
], ids=repr)
def test_interpolations_mindspore_refuses_on_pil(op):
    with pytest.raises(TypeError, match="Current Interpolation is not supported with PIL input"):
        op(Image.fromarray(RGB))
    assert isinstance(op(RGB), np.ndarray)      # arrays are fine


def _png(pixels):
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, "PNG")
    return np.frombuffer(buf.getvalue(), np.uint8)


def test_compose_after_a_pil_decode_runs_the_pillow_path():
    data = _png(RGB)
    tail = [V.RandomCrop(40), V.RandomHorizontalFlip(), V.Resize((24, 30)), V.CenterCrop(20)]
    pil_chain = Compose([V.Decode(to_pil=True)] + tail + [V.ToTensor()])
    for seed in range(5):
        out = pil_chain.apply((data,), seed)[0]
        assert isinstance(out, np.ndarray) and out.shape == (3, 20, 20)
    # measured in MindSpore 2.10: the eager Compose (Python path) gives a 1-tuple
    (out,) = Compose([V.Decode(to_pil=True), V.Resize((24, 30)), V.CenterCrop(20)])(data)
    expected = pillow_window(Image.fromarray(RGB).resize((30, 24), Image.BILINEAR), 20, 20)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(expected))
    (image,) = Compose([V.Decode(to_pil=True), V.RandomCrop(40)])(data)
    assert isinstance(image, Image.Image) and image.size == (40, 40)


def test_compose_given_a_pil_image():
    img = Image.fromarray(RGB)
    # measured in MindSpore 2.10: given a PIL image the eager Compose gives a 1-tuple
    (out,) = Compose([V.Resize((30, 40)), V.HorizontalFlip(), V.Normalize([0.0], [1.0])])(img)
    resized = np.asarray(img.resize((40, 30), Image.BILINEAR))
    np.testing.assert_array_equal(
        out, Compose([V.HorizontalFlip(), V.Normalize([0.0], [1.0])])(resized))


# measured in MindSpore 2.10 (Pillow 13): RandomAffine on a PIL image runs Pillow's affine
# transform; these fixed ranges draw fixed values. Its fill is dropped (MindSpore compares
# Pillow's version as a string, '13.0.0' < '5'), so its outside is black; ours is fill_value
# (a README deviation), checked apart.
_AFFINE_RGB_SEED, _AFFINE_GRAY_SEED = 7, 8
_AFFINE_CASES = [
    (dict(degrees=(17.5, 17.5), scale=(1.3, 1.3), shear=(5.0, 5.0, -12.0, -12.0),
          resample=Inter.BILINEAR), "RGB",
     [[[169, 220, 56], [192, 134, 133], [184, 73, 125], [151, 84, 67], [131, 184, 17],
       [78, 138, 67]],
      [[153, 201, 138], [148, 174, 154], [173, 45, 85], [135, 132, 40], [67, 228, 27],
       [20, 192, 57]],
      [[94, 200, 176], [115, 174, 137], [180, 69, 63], [196, 171, 59], [85, 220, 96],
       [34, 229, 150]],
      [[17, 190, 155], [81, 168, 113], [141, 130, 155], [157, 94, 198], [71, 66, 51],
       [144, 81, 138]],
      [[100, 210, 204], [142, 111, 154], [193, 83, 150], [193, 116, 94], [167, 121, 29],
       [188, 24, 93]]]),
    (dict(degrees=(-30.0, -30.0), scale=(0.8, 0.8), resample=Inter.NEAREST,
          fill_value=(10, 20, 30)), "RGB",
     [[[0, 0, 0], [0, 0, 0], [0, 0, 0], [42, 218, 136], [0, 0, 0], [0, 0, 0]],
      [[0, 0, 0], [151, 103, 92], [185, 142, 23], [19, 188, 44], [87, 227, 195], [0, 0, 0]],
      [[175, 196, 25], [176, 127, 135], [172, 0, 75], [201, 206, 38], [71, 23, 10],
       [233, 35, 192]],
      [[0, 0, 0], [112, 251, 189], [192, 34, 56], [172, 92, 252], [219, 225, 19],
       [155, 4, 19]],
      [[0, 0, 0], [72, 83, 176], [1, 192, 144], [149, 100, 163], [0, 0, 0], [0, 0, 0]]]),
    (dict(degrees=(90.0, 90.0), shear=(10.0, 10.0), resample=Inter.BICUBIC), "RGB",
     [[[0, 0, 0], [0, 0, 0], [28, 186, 181], [59, 190, 191], [159, 231, 144], [181, 197, 53]],
      [[0, 0, 0], [0, 0, 0], [83, 186, 138], [80, 178, 96], [166, 110, 133], [217, 58, 172]],
      [[0, 0, 0], [0, 0, 0], [185, 80, 214], [213, 116, 111], [181, 43, 16], [145, 70, 65]],
      [[0, 0, 0], [0, 0, 0], [165, 99, 58], [95, 128, 118], [52, 255, 15], [91, 203, 11]],
      [[0, 0, 0], [0, 0, 0], [189, 32, 54], [64, 128, 148], [26, 217, 116], [53, 122, 76]]]),
    (dict(degrees=(45.0, 45.0), scale=(1.1, 1.1), resample=Inter.BILINEAR, fill_value=200), "L",
     [[0, 85, 80, 97, 203, 148], [95, 42, 98, 143, 161, 121], [68, 52, 141, 126, 143, 61],
      [0, 17, 52, 97, 188, 132], [0, 0, 42, 120, 123, 143]]),
]


@pytest.mark.parametrize("kwargs, mode, expected", _AFFINE_CASES)
def test_random_affine_on_pil_is_pillows_affine(kwargs, mode, expected):
    if mode == "L":
        pixels = np.random.RandomState(_AFFINE_GRAY_SEED).randint(0, 256, (5, 6)).astype(np.uint8)
    else:
        pixels = np.random.RandomState(_AFFINE_RGB_SEED).randint(0, 256, (5, 6, 3)).astype(
            np.uint8)
    out = V.RandomAffine(**kwargs)(Image.fromarray(pixels))
    assert isinstance(out, Image.Image) and out.mode == mode
    if "fill_value" not in kwargs:
        assert np.asarray(out).tolist() == expected
        return
    # where the whole neighbourhood is inside the image, MindSpore's pixels; outside, the fill
    coverage = np.asarray(V.RandomAffine(**dict(kwargs, fill_value=0))(
        Image.new(mode, pixels.shape[1::-1], 255 if mode == "L" else (255, 255, 255))))
    inside, outside = coverage == 255, coverage == 0
    assert inside.any() and outside.any()
    got, want = np.asarray(out), np.asarray(expected)
    assert np.array_equal(got[inside], want[inside])
    fill = np.broadcast_to(np.asarray(kwargs["fill_value"]), got.shape)
    assert np.array_equal(got[outside], fill[outside])


def test_random_affine_pil_shifts_within_the_documented_ranges():
    # translate (0.1, 0.3, -0.2, -0.2): x shift in [0.1, 0.3] of the width, y shift -0.2 of the
    # height, as on arrays (MindSpore's Python path reads the first two values as the largest
    # x and y shifts: a README deviation)
    pixels = np.random.RandomState(0).randint(0, 256, (37, 53, 3)).astype(np.uint8)
    op = V.RandomAffine(0, translate=(0.2, 0.2, -0.2, -0.2), resample=Inter.NEAREST)
    shifted = np.asarray(op(Image.fromarray(pixels)))
    dx, dy = round(0.2 * 53), round(-0.2 * 37)
    assert np.array_equal(shifted[:dy, dx:], pixels[-dy:, :-dx])
    assert not shifted[dy:].any() and not shifted[:, :dx].any()


def test_random_affine_pil_antialias_is_pillows_error():
    # measured in MindSpore 2.10: Pillow refuses LANCZOS for an affine transform
    with pytest.raises(ValueError, match="cannot be used"):
        V.RandomAffine(10, resample=Inter.ANTIALIAS)(Image.new("RGB", (6, 5)))
