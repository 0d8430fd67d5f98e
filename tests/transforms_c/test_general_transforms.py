"""transforms_c.transforms: Compose, RandomApply, RandomChoice, TypeCast, OneHot, Fill,
Duplicate, Concatenate, Mask, PadEnd, Slice, Unique."""
import numpy as np
import pytest

from transforms_c.transforms import (Compose, Concatenate, Duplicate, Fill, Mask, OneHot,
                                     PadEnd, RandomApply, RandomChoice, Relational, Slice,
                                     TypeCast, Unique)
from transforms_c.vision import HWC2CHW, RandomHorizontalFlip, Resize

from tests.transforms_c.tc_samples import natural_rgb


def test_compose_runs_in_order_with_callables():
    op = Compose([Resize((10, 12)), lambda x: x + 1, HWC2CHW()])
    out = op(natural_rgb())
    assert out.shape == (3, 10, 12)
    assert np.array_equal(out, HWC2CHW()(Resize((10, 12))(natural_rgb()) + 1))


def test_compose_arguments():
    with pytest.raises(ValueError):
        Compose([])
    with pytest.raises(TypeError):
        Compose(Resize(3))
    with pytest.raises(TypeError):
        Compose([1])


def test_compose_multi_column():
    op = Compose([Duplicate(), Concatenate()])
    assert np.array_equal(op(np.arange(3)), np.array([0, 1, 2, 0, 1, 2]))


def test_random_apply_probability():
    img = np.arange(4, dtype=np.uint8).reshape(1, 4, 1)
    op = RandomApply([RandomHorizontalFlip(1.0)], prob=0.3)
    applied = sum(int(op.apply((img,), s)[0][0, 0, 0] == 3) for s in range(2000))
    assert abs(applied / 2000 - 0.3) < 0.05
    assert op.is_random


def test_random_choice_picks_each():
    op = RandomChoice([lambda x: x + 1, lambda x: x + 2])
    seen = {int(op.apply((np.zeros(1),), s)[0][0]) for s in range(50)}
    assert seen == {1, 2}


def test_typecast():
    out = TypeCast(np.float16)(np.arange(3))
    assert out.dtype == np.float16
    assert TypeCast("int8")(np.arange(3)).dtype == np.int8
    with pytest.raises(TypeError):
        TypeCast(object())


def test_one_hot_and_smoothing():
    out = OneHot(4)(np.array([1, 3]))
    assert np.array_equal(out, np.array([[0, 1, 0, 0], [0, 0, 0, 1]]))
    smooth = OneHot(4, smoothing_rate=0.2)(np.array(2))
    np.testing.assert_allclose(smooth, [0.05, 0.05, 0.85, 0.05], rtol=1e-6)
    with pytest.raises(RuntimeError, match="should not bigger than num classes: 2"):
        OneHot(2)(np.array([5]))
    # the label outside the range is the one named, a negative one too
    with pytest.raises(RuntimeError, match="num classes: 5, but got: -1 "):
        OneHot(5)(np.array([-1, 2]))
    with pytest.raises(RuntimeError, match="num classes: 5, but got: 7 "):
        OneHot(5)(np.array([1, 7, 3]))
    with pytest.raises(ValueError):
        OneHot(0)


def test_fill():
    out = Fill(7)(np.zeros((2, 3), np.int16))
    assert out.dtype == np.int16 and (out == 7).all()
    with pytest.raises(TypeError):
        Fill([1])


def test_concatenate_prepend_append():
    op = Concatenate(0, prepend=np.array([9]), append=np.array([8, 7]))
    assert np.array_equal(op(np.array([1, 2])), [9, 1, 2, 8, 7])
    with pytest.raises(ValueError):
        Concatenate(axis=1)
    with pytest.raises(RuntimeError):
        Concatenate()(np.zeros((2, 2)))


def test_mask():
    assert np.array_equal(Mask(Relational.GE, 2)(np.arange(4)), [False, False, True, True])
    out = Mask(Relational.EQ, 1, np.int32)(np.arange(3))
    assert out.dtype == np.int32 and list(out) == [0, 1, 0]
    with pytest.raises(TypeError):
        Mask("==", 1)


def test_pad_end():
    assert np.array_equal(PadEnd([4], 9)(np.array([1, 2])), [1, 2, 9, 9])
    assert np.array_equal(PadEnd([1])(np.array([1, 2])), [1])
    assert PadEnd([3])(np.array(["a"])).tolist() == ["a", "", ""]
    assert PadEnd([None, 3])(np.ones((2, 1))).shape == (2, 3)


def test_slice():
    value = np.arange(12).reshape(3, 4)
    assert np.array_equal(Slice(1)(value), value[[1]])
    assert np.array_equal(Slice(slice(0, 2), [0, 3])(value), value[0:2][:, [0, 3]])
    assert np.array_equal(Slice(None, slice(1, 2))(value), value[:, 1:2])
    with pytest.raises(TypeError):
        Slice("a")


def test_unique():
    values, index, counts = Unique()(np.array([5, 3, 5, 1, 3, 5]))
    assert values.tolist() == [5, 3, 1]
    assert index.tolist() == [0, 1, 0, 2, 1, 0]
    assert counts.tolist() == [3, 2, 1]
    with pytest.raises(RuntimeError):
        Unique()(np.array(5))


def test_duplicate_is_a_copy():
    a, b = Duplicate()(np.arange(3))
    b[0] = 9
    assert a[0] == 0


def test_eager_compose_on_its_python_path_gives_a_tuple():
    # measured in MindSpore 2.10: an eager Compose runs its Python path when one of its ops is
    # Python-only there (Decode(to_pil=True), ToPIL, FiveCrop, an ANTIALIAS Resize...) or when
    # given one PIL image, and then gives back the tuple of its outputs, a 1-tuple for one
    import io
    from PIL import Image
    from transforms_c import vision as V
    pixels = np.random.RandomState(0).randint(0, 256, (16, 20, 3)).astype(np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "PNG")
    data = np.frombuffer(buffer.getvalue(), np.uint8)
    out = Compose([V.Decode(to_pil=True), V.ToTensor()])(data)
    assert isinstance(out, tuple) and len(out) == 1 and out[0].shape == (3, 16, 20)
    out = Compose([Compose([V.Decode(to_pil=True)]), V.ToTensor()])(data)
    assert isinstance(out, tuple) and len(out) == 1
    out = Compose([V.Resize(10)])(Image.fromarray(pixels))
    assert isinstance(out, tuple) and isinstance(out[0], Image.Image)
    out = Compose([V.ToPIL(), V.Resize(10)])(pixels)
    assert isinstance(out, tuple) and isinstance(out[0], Image.Image)
    assert len(Compose([V.FiveCrop(8)])(Image.fromarray(pixels))) == 5
    # the C++ path gives the array itself
    assert isinstance(Compose([V.Decode(), V.ToTensor()])(data), np.ndarray)
    assert isinstance(Compose([V.Resize((8, 10))])(pixels), np.ndarray)
    assert isinstance(Compose([lambda x: x + 1])(pixels), np.ndarray)
    assert isinstance(RandomApply([V.Decode(to_pil=True), V.ToTensor()], 1.0)(data), np.ndarray)
