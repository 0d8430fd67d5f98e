"""Behaviours of the pixel/colour vision ops, ToTensor/ToPIL/ToType and the data transforms
(mindspore.dataset.transforms) that MindSpore's own dataset tests check, each as measured in
MindSpore 2.10 (values, dtypes, error types and the words of its messages)."""
import numpy as np
from PIL import Image, ImageEnhance, ImageOps
import pytest

import minddata.mstype as mstype
import transforms_c.transforms as T
import transforms_c.vision as V


def test_type_error_text_is_mindspores():
    # measured in MindSpore 2.10: the value as str() (no quotes), the types and the type got as
    # classes.
    with pytest.raises(TypeError) as info:
        T.OneHot(3, "a")
    assert str(info.value) == ("Argument smoothing_rate with value a is not of type "
                               "[<class 'int'>, <class 'float'>], but got <class 'str'>.")
    with pytest.raises(TypeError, match=r"Argument num_classes with value 2.5 is not of type "
                                        r"\[<class 'int'>\], but got <class 'float'>\."):
        T.OneHot(2.5)


def test_bool_for_int_lists_the_types_as_a_tuple():
    # measured in MindSpore 2.10: OneHot(True) -> "... is not of type (<class 'int'>,), but got
    # <class 'bool'>."
    with pytest.raises(TypeError, match=r"value True is not of type \(<class 'int'>,\), but got "
                                        r"<class 'bool'>\."):
        T.OneHot(True)


@pytest.mark.parametrize("relation, constant, dtype, expected", [
    # measured in MindSpore 2.10: the constant is cast to the input's type first
    (T.Relational.EQ, 3.5, np.int64, [False, False, True, False]),
    (T.Relational.LT, 3.5, np.int64, [True, True, False, False]),
    (T.Relational.EQ, 2.7, np.int32, [False, True, False, False]),
    (T.Relational.GT, -1, np.uint8, [False, False, False, False]),     # -1 is 255
    (T.Relational.EQ, 300, np.uint8, [False, False, False, False]),    # 300 is 44
])
def test_mask_casts_the_constant_to_the_input_type(relation, constant, dtype, expected):
    out = T.Mask(relation, constant)(np.array([1, 2, 3, 4], dtype))
    assert out.dtype == np.bool_ and out.tolist() == expected


def test_mask_strings_and_errors():
    # measured in MindSpore 2.10: str and bytes constants compare with either kind of strings
    assert T.Mask(T.Relational.EQ, "b")(np.array([b"a", b"b"])).tolist() == [False, True]
    assert T.Mask(T.Relational.EQ, b"b")(np.array(["a", "b"])).tolist() == [False, True]
    assert T.Mask(T.Relational.EQ, 44, np.int32)(np.array([44, 1], np.uint8)).tolist() == [1, 0]
    with pytest.raises(RuntimeError, match="input datatype does not match the value datatype"):
        T.Mask(T.Relational.EQ, "3.5")(np.array([1, 2]))
    with pytest.raises(RuntimeError, match="input datatype does not match the value datatype"):
        T.Mask(T.Relational.EQ, 3.5)(np.array(["1", "2"]))
    # MindSpore 2.10 builds Mask(..., mstype.string) and refuses it when it runs (measured)
    string_mask = T.Mask(T.Relational.EQ, "3.5", mstype.string)
    with pytest.raises(RuntimeError, match="Only supports bool or numeric datatype for "
                                           "generated mask type"):
        string_mask(np.array(["3.5"]))
    with pytest.raises(TypeError, match=r"Argument operator with value 0 is not of type "
                                        r"\[<enum 'Relational'>\], but got <class 'int'>\."):
        T.Mask(0, 1)


def test_fill_casts_the_value_as_mindspore():
    # measured in MindSpore 2.10: a C cast to the input's type
    u8 = np.array([4, 5], np.uint8)
    assert T.Fill(-3)(u8).tolist() == [253, 253]
    assert T.Fill(300)(u8).tolist() == [44, 44]
    out = T.Fill(2.7)(np.array([1, 2, 3]))
    assert out.dtype == np.int64 and out.tolist() == [2, 2, 2]
    with pytest.raises(TypeError, match=r"Argument fill_value with value \[1\] is not of type "
                                        r"\[<class 'str'>, <class 'float'>, <class 'bool'>, "
                                        r"<class 'int'>, <class 'bytes'>\], but got "
                                        r"<class 'list'>\."):
        T.Fill([1])


def test_slice_arguments_as_mindspore():
    # measured in MindSpore 2.10
    data = np.array([1, 2, 3, 4, 5])
    assert T.Slice()(data).tolist() == [1, 2, 3, 4, 5]
    assert T.Slice(True)(data).tolist() == [1, 2, 3, 4, 5]
    for empty in ([], False):
        with pytest.raises(RuntimeError, match="Both indices and slices can not be empty."):
            T.Slice(empty)(data)
    with pytest.raises(RuntimeError, match="Index 5 is out of bounds."):
        T.Slice([5])(data)
    with pytest.raises(RuntimeError, match="Index -1 is out of bounds."):
        T.Slice([-6])(data)
    with pytest.raises(RuntimeError, match="Invalid shape, should be greater than slices index."):
        T.Slice(0, 0)(data)
    with pytest.raises(TypeError, match=r"Argument slice_option\[0\] with value \[0, 1\] is not "
                                        r"of type \[<class 'int'>\], but got <class 'list'>\."):
        T.Slice([[0, 1]])
    with pytest.raises(TypeError, match=r"Argument slice with value a is not of type "
                                        r"\[<class 'int'>, <class 'list'>, <class 'slice'>, "
                                        r"<class 'bool'>, <class 'ellipsis'>"):
        T.Slice("a")


def test_concatenate_and_pad_end_type_errors():
    # measured in MindSpore 2.10: Concatenate compares types before ranks, names them as
    # MindSpore does; PadEnd refuses to mix numbers, str and bytes
    with pytest.raises(RuntimeError, match="input datatype does not match the prepend datatype, "
                                           "got input datatype: bytes, prepend datatype:float64"):
        T.Concatenate(0, np.array([3.0, 5.0]))(np.array([[b"s"], [b"a"]]))
    with pytest.raises(RuntimeError, match="got input datatype: string, prepend datatype:bytes"):
        T.Concatenate(0, np.array([b"dw"]))(np.array(["1"]))
    with pytest.raises(TypeError, match=r"Argument prepend with value \[1, 2\] is not of type "
                                        r"\[<class 'numpy.ndarray'>\], but got <class 'list'>\."):
        T.Concatenate(0, [1, 2])
    with pytest.raises(RuntimeError, match="PadEnd: can not pad numeric and string tensors "
                                           "together, but got: int64 and string."):
        T.PadEnd([3], 1)(np.array(["a", "b"]))
    with pytest.raises(RuntimeError, match="PadEnd: can not pad string and byte tensors "
                                           "together, but got: string and bytes."):
        T.PadEnd([3], "x")(np.array([b"a", b"b"]))
    with pytest.raises(RuntimeError, match="PadEnd: invalid pad shape, as rank of input is: 1, "
                                           "and rank of pad value: 2"):
        T.PadEnd([3, 3])(np.array([1, 2]))


def test_duplicate_and_type_cast_words():
    # measured in MindSpore 2.10
    with pytest.raises(RuntimeError, match="Duplicate: only supports transform one column each "
                                           "time, got column num: 2"):
        T.Duplicate()(np.array([1]), np.array([2]))
    with pytest.raises(TypeError, match=r"Argument data_type with value junk is not of type "
                                        r"\[<class 'mindspore._c_expression.typing.Type'>, "
                                        r"<class 'numpy.dtype'>\], but got <class 'str'>\."):
        T.TypeCast("junk")


IMG = np.arange(4 * 5 * 3, dtype=np.uint8).reshape(4, 5, 3) * 4


@pytest.mark.parametrize("dtype", [np.int64, np.uint32, np.uint64, np.str_])
def test_to_tensor_refuses_the_input_types_mindspore_refuses(dtype):
    # measured in MindSpore 2.10
    with pytest.raises(RuntimeError, match=r"ToTensor: Input includes unsupported data type in "
                                           r"\[uint32, int64, uint64, string, bytes\]\."):
        V.ToTensor()(IMG.astype(dtype))


def test_to_tensor_ranks_and_output_types():
    # measured in MindSpore 2.10
    with pytest.raises(RuntimeError, match="ToTensor: image shape should be <H,W,C>, but got "
                                           "rank: 4"):
        V.ToTensor()(IMG[None])
    with pytest.raises(RuntimeError, match="ToTensor: rank of input data should be greater than: "
                                           "2, but got:1"):
        V.ToTensor()(IMG[0, :, 0])
    assert V.ToTensor("int32")(IMG).dtype == np.int32
    assert V.ToTensor(np.uint8)(IMG.astype(bool)).dtype == np.uint8
    words = r"is not of type \[<class 'mindspore._c_expression.typing.Type'>, <class " \
            r"'numpy.dtype'>\], but got "
    for bad, shown in (("JUNK", "JUNK"), (None, "None"),
                       ([np.float64], r"\[<class 'numpy.float64'>\]"),
                       ((np.float16, np.int8),
                        r"\(<class 'numpy.float16'>, <class 'numpy.int8'>\)")):
        with pytest.raises(TypeError, match=f"Argument output_type with value {shown} " + words):
            V.ToTensor(bad)
    with pytest.raises(TypeError, match="Argument data_type with value invalid " + words):
        V.ToType("invalid")
    with pytest.raises(TypeError, match="Argument data_type with value None " + words):
        V.ToType(None)


def test_to_tensor_on_a_pil_image_in_compose_divides_in_float64():
    # measured in MindSpore 2.10: an eager Compose given a PIL image runs ToTensor's Python
    # implementation (img / 255 in float64), as ToTensor called on the image does
    img = Image.fromarray(IMG)
    expected = (IMG / 255.0).astype(np.float32).transpose(2, 0, 1)
    # (its Python path gives back the 1-tuple of the output, measured too)
    (out,) = T.Compose([V.ToTensor()])(img)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("value, error, words", [
    ([[1, 2]], TypeError, "The input image should be of type numpy.ndarray or PIL.Image.Image. "
                          "Got <class 'list'>."),
    (IMG[0, :, 0], ValueError, "The dimension of input image should be 2 or 3. Got 1."),
    (np.zeros((4, 4, 5), np.uint8), ValueError, "The channel of input image should not exceed 4. "
                                                "Got 5."),
    (IMG.astype(np.float32), TypeError, "The input image type float32 is not supported when "
                                        "image shape is [H, W, 2], [H, W, 3] or [H, W, 4]."),
    (IMG[:, :, 0].astype(np.int64), TypeError, "The input image type int64 is not supported when "
                                               "image shape is [H, W] or [H, W, 1]."),
])
def test_to_pil_errors_as_mindspore(value, error, words):
    # measured in MindSpore 2.10
    with pytest.raises(error) as info:
        V.ToPIL()(value)
    assert words in str(info.value)


@pytest.mark.parametrize("dtype, mode", [(np.uint8, "L"), (np.float64, "F"), (np.uint16, "I;16"),
                                         (np.bool_, "1")])
def test_to_pil_one_channel_modes(dtype, mode):
    # measured in MindSpore 2.10
    assert V.ToPIL()(IMG[:, :, :1].astype(dtype)).mode == mode


def test_to_numpy_gives_the_pixels_of_a_pil_image():
    from transforms_c.vision.tensor import ToNumpy
    out = ToNumpy()(Image.fromarray(IMG))
    assert isinstance(out, np.ndarray) and np.array_equal(out, IMG)


def test_normalize_words():
    # measured in MindSpore 2.10
    with pytest.raises(RuntimeError, match="Normalize: number of channels does not match the size "
                                           "of mean and std vectors, got channels: 1, size of "
                                           "mean: 3"):
        V.Normalize([1, 2, 3], [1, 2, 3])(IMG[:, :, 0])
    with pytest.raises(RuntimeError, match="Normalize: input tensor should have at least 2 "
                                           "dimensions, but got: 1"):
        V.Normalize([1], [1])(IMG[0, :, 0])
    with pytest.raises(ValueError, match=r"Input mean\[0\] is not within the required interval of "
                                         r"\[0, 255\]\."):
        V.Normalize([256, 0, 0], [1, 1, 1])
    with pytest.raises(ValueError, match=r"Input std\[1\] is not within the required interval of "
                                         r"\(0, 255\]\."):
        V.Normalize([1, 0, 0], [1, 0, 1])
    with pytest.raises(RuntimeError, match=r"HWC2CHW: image shape should be <H,W> or <H,W,C>, but "
                                           r"got rank: 4"):
        V.HWC2CHW()(IMG[None])


def test_compose_family_words():
    # measured in MindSpore 2.10
    for make in (T.Compose, T.RandomApply, T.RandomChoice):
        with pytest.raises(ValueError, match="transforms list can not be empty."):
            make([])
        with pytest.raises(TypeError, match=r"transforms\[0\] is neither a transforms op "
                                            r"\(TensorOperation\) nor a callable pyfunc."):
            make([1])
        with pytest.raises(TypeError, match="Argument transforms list with value 1 is not of type "
                                            r"\[<class 'list'>\], but got <class 'int'>\."):
            make(1)
    with pytest.raises(ValueError, match=r"Input prob is not within the required interval of "
                                         r"\[0, 1\]\."):
        T.RandomApply([V.HWC2CHW()], prob=1.5)
    with pytest.raises(RuntimeError, match="Input Tensor is not valid."):
        T.Compose([lambda x: x + x])()


def _natural():
    y, x = np.mgrid[0:24, 0:30]
    img = np.stack([(x * 7 + y * 3) % 256, (y * 9 + 40) % 256, (x * y) % 180 + 30], axis=2)
    return (img // 2 + 40).astype(np.uint8)      # a low-contrast image


@pytest.mark.parametrize("op, pillow", [
    (V.AutoContrast(), lambda img, f: ImageOps.autocontrast(img)),
    (V.AutoContrast(10.0, [10, 20]), lambda img, f: ImageOps.autocontrast(img, 10.0, [10, 20])),
    (V.Equalize(), lambda img, f: ImageOps.equalize(img)),
    (V.RandomSharpness((0.5, 0.5)), lambda img, f: ImageEnhance.Sharpness(img).enhance(0.5)),
    (V.Grayscale(), lambda img, f: img.convert("L")),
    (V.Grayscale(3), lambda img, f: img.convert("L").convert("RGB")),
], ids=repr)
@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_colour_ops_on_a_pil_image_compute_with_pillow(op, pillow, mode):
    # measured in MindSpore 2.10: given a PIL image, these run their Python (Pillow) path
    img = Image.fromarray(_natural()).convert(mode)
    out = op(img)
    assert isinstance(out, Image.Image)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(pillow(img, None)))


def test_color_adjust_on_a_pil_image_adjusts_with_pillow():
    # measured in MindSpore 2.10: the hue step shifts Pillow's HSV hue by int(factor * 255)
    img = Image.fromarray(_natural())
    hue, sat, val = img.convert("HSV").split()
    shifted = Image.fromarray((np.asarray(hue) + np.uint8(25)).astype(np.uint8), "L")
    expected = Image.merge("HSV", (shifted, sat, val)).convert("RGB")
    out = V.RandomColorAdjust(hue=(0.1, 0.1))(img)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(expected))


def test_grayscale_of_an_array_gives_pillows_luma():
    # measured in MindSpore 2.10: Grayscale is Pillow's convert("L"); an array gets its pixels
    img = _natural()
    expected = np.asarray(Image.fromarray(img).convert("L"))
    np.testing.assert_array_equal(V.Grayscale()(img)[:, :, 0], expected)
    np.testing.assert_array_equal(V.Grayscale(3)(img), np.dstack([expected] * 3))
    np.testing.assert_array_equal(V.Grayscale()(expected)[:, :, 0], expected)
    with pytest.raises(ValueError, match="should be either 1 or 3. Got 2."):
        V.Grayscale(2)


def test_sharpness_keeps_a_one_channel_image_three_dimensional():
    img = _natural()[:, :, :1]
    out = V.RandomSharpness((0.5, 0.5))(img)
    assert out.shape == img.shape


@pytest.mark.parametrize("kernel, sigma, expected_sigma", [
    # measured in MindSpore 2.10
    (3, 0, (0.8, 0.8)),               # not OpenCV's fixed 3-tap kernel
    ((5, 3), 0, (1.1, 1.1)),          # one sigma of 0: from the first kernel size
    ((5, 3), (0, 0), (1.1, 0.8)),     # a pair: each 0 from its own kernel size
    ((3, 5), (1.5, 0), (1.5, 1.1)),
])
def test_gaussian_blur_sigma_zero_is_derived(kernel, sigma, expected_sigma):
    import cv2
    img = _natural()
    sizes = (kernel, kernel) if isinstance(kernel, int) else kernel
    expected = cv2.GaussianBlur(img, sizes, expected_sigma[0], sigmaY=expected_sigma[1],
                                borderType=cv2.BORDER_REFLECT_101)
    np.testing.assert_array_equal(V.GaussianBlur(kernel, sigma)(img), expected)


def test_autocontrast_argument_words():
    # measured in MindSpore 2.10
    with pytest.raises(ValueError, match=r"Input cutoff is not within the required interval of "
                                         r"\[0, 50\)\."):
        V.AutoContrast(cutoff=50.0)
    with pytest.raises(TypeError, match=r"Argument ignore with value 255.5 is not of type "
                                        r"\[<class 'list'>, <class 'tuple'>, <class 'int'>\]"):
        V.AutoContrast(ignore=255.5)
    with pytest.raises(RuntimeError, match=r"RandomColorAdjust: the channel of image tensor does "
                                           r"not match the requirement of operator. Expecting "
                                           r"tensor in channel of \(3\). But got channel 4."):
        V.RandomColorAdjust(brightness=(0.5, 0.5))(np.zeros((4, 4, 4), np.uint8))


def _encoded(img):
    import io
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, format="PNG")
    return np.frombuffer(buf.getvalue(), np.uint8)


def _mapped(ops, data):
    import minddata as ds
    rows = ds.GeneratorDataset(lambda: ((data,),), column_names=["image"], shuffle=False)
    rows = rows.map(operations=ops, input_columns=["image"])
    return [row[0] for row in rows.create_tuple_iterator(num_epochs=1, output_numpy=True)]


def test_a_map_hands_pil_images_on_as_mindspore():
    # measured in MindSpore 2.10: after Decode(to_pil=True) an op with a Pillow path gets the
    # PIL image (AutoContrast computes with Pillow), an op it has in C++ only gets an array
    # (ToTensor multiplies by float32(1 / 255)); the map gives arrays
    img = _natural()
    out, = _mapped([V.Decode(to_pil=True), V.AutoContrast(cutoff=1.0)], _encoded(img))
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, np.asarray(ImageOps.autocontrast(Image.fromarray(img),
                                                                        1.0)))
    out, = _mapped([V.Decode(to_pil=True), V.ToTensor()], _encoded(img))
    np.testing.assert_array_equal(out, V.ToTensor()(img))
    out, = _mapped([V.Decode(to_pil=True), lambda image: np.asarray(image.convert("L"))],
                   _encoded(img))
    np.testing.assert_array_equal(out, np.asarray(Image.fromarray(img).convert("L")))


def test_batch_mixing_words():
    # measured in MindSpore 2.10
    images = np.zeros((4, 6, 5, 3), np.uint8)
    labels = np.eye(4, dtype=np.int32)
    with pytest.raises(RuntimeError, match="MixUpBatch: wrong labels shape. The second column "
                                           "\\(labels\\) must have a shape of NC or NLC"):
        V.MixUpBatch()(images, np.arange(4))
    with pytest.raises(RuntimeError, match="MixUpBatch: rank of image shape should be: 4, but "
                                           "got: 3"):
        V.MixUpBatch()(images[0], labels)
    with pytest.raises(RuntimeError, match="size of input data should be 2 \\(including images "
                                           "or labels\\), but got: 1"):
        V.MixUpBatch()(images)
    with pytest.raises(ValueError, match="Input alpha must be greater than 0."):
        V.MixUpBatch(0)
    with pytest.raises(RuntimeError, match="CutMixBatch: input label is not in shape of "
                                           "<Batch,Class> or <Batch,Row,Class>, but got "
                                           "dimension: 1."):
        V.CutMixBatch(V.ImageBatchFormat.NHWC)(images, np.arange(4))
    with pytest.raises(RuntimeError, match="CutMixBatch: input image is not in channel of 1 or "
                                           "3, but got channel: 6"):
        V.CutMixBatch(V.ImageBatchFormat.NCHW)(images, labels)
    with pytest.raises(RuntimeError, match="batch sizes of image and label must be the same, but "
                                           "got image size: 4 and label size: 3"):
        V.CutMixBatch(V.ImageBatchFormat.NHWC)(images, labels[:3])
    with pytest.raises(ValueError, match=r"Input prob is not within the required interval of "
                                         r"\[0, 1\]"):
        V.CutMixBatch(V.ImageBatchFormat.NHWC, 1.0, 1.5)


@pytest.mark.parametrize("value", ["abc", [[1, 2], [3, 4]], 3, None, b"ab", (1, 2)])
@pytest.mark.parametrize("op", [V.Invert(), V.Normalize([1], [1]), V.HWC2CHW(), V.ToTensor(),
                                V.RandomColorAdjust(), V.GaussianBlur(3)], ids=repr)
def test_image_ops_take_numpy_or_pil_only(op, value):
    # measured in MindSpore 2.10
    with pytest.raises(TypeError, match=f"Input should be NumPy or PIL image, got "
                                        f"{type(value)}."):
        op(value)


def test_eager_call_words_and_data_transforms_on_python_values():
    # measured in MindSpore 2.10: the data transforms take lists, scalars and bytes values
    assert T.Fill(3)([4, 5, 6]).tolist() == [3, 3, 3]
    assert T.Mask(T.Relational.EQ, 3)([1, 3]).tolist() == [False, True]
    assert [a.tolist() for a in T.Duplicate()(b"ab")] == [b"ab", b"ab"]
    with pytest.raises(TypeError, match="Invalid user input. Got <class 'dict'>"):
        T.Fill(3)({"a": 1})
    with pytest.raises(RuntimeError, match="Input Tensor is not valid."):
        V.Invert()()
    with pytest.raises(RuntimeError, match="The op is OneToOne, can only accept one tensor as "
                                           "input."):
        V.Invert()(IMG, IMG)
    with pytest.raises(RuntimeError, match="OneHot: Only support input of int type, but got: "
                                           "string"):
        T.OneHot(3)(np.array(["a"]))


@pytest.mark.parametrize("make, error, words", [
    # measured in MindSpore 2.10
    (lambda: V.RandomColorAdjust(brightness=-1), ValueError,
     "The input value of brightness cannot be negative."),
    (lambda: V.RandomColorAdjust(contrast=(-10, 10)), ValueError,
     "Input is not within the required interval of [0, 16777216]."),
    (lambda: V.RandomColorAdjust(saturation=16777217), ValueError,
     "Input is not within the required interval of [0, 16777216]."),
    (lambda: V.RandomColorAdjust(brightness=(10, 5)), ValueError,
     "brightness value should be in (min,max) format. Got (10, 5)."),
    (lambda: V.RandomColorAdjust(contrast=(1, 2, 3)), TypeError,
     "If contrast is a sequence, the length must be 2."),
    (lambda: V.RandomColorAdjust(hue=0.6), ValueError,
     "Input is not within the required interval of [-0.5, 0.5]."),
    (lambda: V.RandomColorAdjust(hue=-0.1), ValueError,
     "The input value of hue cannot be negative."),
    (lambda: V.RandomColorAdjust(hue="a"), TypeError,
     "Argument hue with value a is not of type [<class 'numbers.Number'>, <class 'list'>, "
     "<class 'tuple'>], but got <class 'str'>."),
    (lambda: V.RandomSharpness(1.5), TypeError, "degrees must be either a tuple or a list."),
    (lambda: V.RandomSharpness((1,)), ValueError, "degrees must be a sequence with length 2."),
    (lambda: V.RandomSharpness((2, 1)), ValueError,
     "degrees should be in (min,max) format. Got (max,min)."),
    (lambda: V.RandomSharpness((-1, 2)), ValueError,
     "Input is not within the required interval of [0, 16777216]."),
    (lambda: V.GaussianBlur(4), ValueError, "Input kernel_size is not an odd value."),
    (lambda: V.GaussianBlur((3, 4)), ValueError, "Input kernel_size[1] is not an odd value."),
    (lambda: V.GaussianBlur(0), ValueError,
     "Input kernel_size is not within the required interval of [1, 16777216]."),
    (lambda: V.GaussianBlur((3, 3, 3)), TypeError,
     "Kernel size should be a single integer or a list/tuple (kernel_width, kernel_height) of "
     "length 2."),
    (lambda: V.GaussianBlur(3.0), TypeError,
     "Argument kernel_size with value 3.0 is not of type [<class 'int'>, <class 'list'>, "
     "<class 'tuple'>], but got <class 'float'>."),
    (lambda: V.GaussianBlur(3, (1,)), TypeError,
     "Sigma should be a single number or a list/tuple of length 2 for width and height."),
    (lambda: V.GaussianBlur(3, -1), ValueError,
     "Input sigma is not within the required interval of [0, 16777216]."),
    (lambda: V.NormalizePad([1], [1], "float64"), ValueError,
     "dtype only supports float32 or float16."),
    (lambda: T.OneHot(0), ValueError, "Input must be greater than 0."),
])
def test_colour_and_normalize_argument_words(make, error, words):
    with pytest.raises(error) as info:
        make()
    assert words in str(info.value)


def test_color_adjust_single_values_are_ranges():
    # measured in MindSpore 2.10: f -> (max(0, 1 - f), 1 + f); hue h -> (-h, h)
    op = V.RandomColorAdjust(brightness=1.5, contrast=0.4, hue=0.2)
    assert op.brightness == (0.0, 2.5) and op.contrast == (0.6, 1.4) and op.hue == (-0.2, 0.2)


def test_invert_on_a_pil_image_is_pillows():
    # measured in MindSpore 2.10: a palette image stays a palette image (its palette inverted)
    img = Image.fromarray(_natural()).convert("P")
    out = V.Invert()(img)
    assert out.mode == "P"
    np.testing.assert_array_equal(np.asarray(out.convert("RGB")),
                                  np.asarray(ImageOps.invert(img).convert("RGB")))
    rgba = Image.fromarray(np.dstack([_natural(), _natural()[:, :, :1]]))
    with pytest.raises(OSError, match="not supported for mode RGBA"):     # Pillow's
        V.Invert()(rgba)


def test_invert_takes_three_channel_arrays_and_op_without_arguments_words():
    # measured in MindSpore 2.10
    with pytest.raises(RuntimeError, match="the number of channels of input tensor is not 3, but "
                                           "got: 1"):
        V.Invert()(np.zeros((4, 4, 1), np.uint8))
    with pytest.raises(RuntimeError, match="input tensor is not in shape of <H,W,C>, but got "
                                           "rank: 2"):
        V.Invert()(np.zeros((4, 4), np.uint8))
    with pytest.raises(TypeError, match=r"__init__\(\) takes 1 positional argument but 2 were "
                                        r"given"):
        V.Invert(None)


def test_type_cast_float64_to_float16_rounds_through_float32():
    # measured in MindSpore 2.10: 2049.0000001 is 2048 through float32, 2050 directly
    value = np.array([2049.0000001, 1.0])
    assert T.TypeCast(np.float16)(value).tolist() == [2048.0, 1.0]
    assert V.ToType(np.float16)(value).tolist() == [2048.0, 1.0]


def test_invert_saturates_other_integer_types_and_blur_errors_are_runtime_errors():
    # measured in MindSpore 2.10
    out = V.Invert()(np.array([[[56, -34, 124]]], np.int8))
    assert out.dtype == np.int8 and out.tolist() == [[[127, 127, 127]]]
    with pytest.raises(RuntimeError, match="GaussianBlur"):
        V.GaussianBlur(3)(np.zeros((4, 4, 3), np.int32))


def test_color_adjust_takes_float32_and_uint16_images():
    # measured in MindSpore 2.10: float32 values are adjusted unclipped (brightness f * x,
    # contrast f * x + (1 - f) * mean luma, saturation f * x + (1 - f) * luma); float64 refused
    img = np.random.RandomState(9).random_sample((6, 7, 3)).astype(np.float32)
    luma = img @ np.array([0.299, 0.587, 0.114], np.float32)
    np.testing.assert_allclose(V.RandomColorAdjust(brightness=(1.7, 1.7))(img), img * 1.7,
                               rtol=1e-6)
    np.testing.assert_allclose(V.RandomColorAdjust(contrast=(0.5, 0.5))(img),
                               img * 0.5 + luma.mean() * 0.5, rtol=1e-6)
    np.testing.assert_allclose(V.RandomColorAdjust(saturation=(1.7, 1.7))(img),
                               img * 1.7 - luma[..., None] * 0.7, rtol=1e-5, atol=1e-6)
    out = V.RandomColorAdjust(brightness=(0.5, 0.5))((img * 1000).astype(np.uint16))
    assert out.dtype == np.uint16
    with pytest.raises(RuntimeError, match=r"Expecting tensor in type of \(uint8, uint16, "
                                           r"float32\)"):
        V.RandomColorAdjust(contrast=0.5)(img.astype(np.float64))
    with pytest.raises(TypeError, match="not supported"):
        V.RandomColorAdjust(brightness=("", ""))


@pytest.mark.parametrize("make, words", [
    # measured in MindSpore 2.10: its validators bind the arguments first
    (lambda: V.Normalize(), "missing a required argument: 'mean'"),
    (lambda: V.RandomColorAdjust(1.0, 1.0, 1.0, (0.1, 0.5), None), "too many positional arguments"),
    (lambda: T.OneHot(3, 0.1, 5), "too many positional arguments"),
    (lambda: V.ToTensor(data_type=np.int16), "got an unexpected keyword argument 'data_type'"),
    (lambda: V.ToType(), "missing a required argument: 'data_type'"),
])
def test_wrong_calls_use_mindspores_words(make, words):
    with pytest.raises(TypeError) as info:
        make()
    assert words in str(info.value)


def test_autocontrast_ignore_value_words():
    # measured in MindSpore 2.10: a value of the ignore list is "item" in the type error
    with pytest.raises(TypeError, match="Argument item with value 16.1 is not of type"):
        V.AutoContrast(8.2, [16.1, 8])
    with pytest.raises(ValueError, match=r"Input ignore is not within the required interval of "
                                         r"\[0, 255\]"):
        V.AutoContrast(8.2, [16, 300])
    with pytest.raises(TypeError, match=r"Argument ignore with value True is not of type "
                                        r"\(<class 'list'>, <class 'tuple'>, <class 'int'>\)"):
        V.AutoContrast(10, True)
    with pytest.raises(OSError, match="not supported for mode RGBA"):     # Pillow's
        V.AutoContrast()(Image.fromarray(np.dstack([_natural(), _natural()[:, :, :1]])))


def test_sharpness_of_float_images_and_words():
    # measured in MindSpore 2.10: float images are blended unclipped
    img = (np.random.RandomState(4).random_sample((9, 11, 3)) * 255).astype(np.float32)
    out = V.RandomSharpness((2.0, 2.0))(img)
    assert out.dtype == np.float32 and (out.min() < 0 or out.max() > 255)    # unclipped
    smooth = V.RandomSharpness((0.0, 0.0))(img)     # factor 0: the smoothed image
    np.testing.assert_allclose(out, 2 * img - smooth, rtol=1e-5, atol=1e-3)
    with pytest.raises(RuntimeError, match="Sharpness: shape of input is not <H,W,C> or <H,W>, "
                                           "but got rank: 1"):
        V.RandomSharpness()(np.zeros(5, np.uint8))
    with pytest.raises(TypeError, match=r"Argument degrees\[0\] with value 0.1 is not of type "
                                        r"\[<class 'int'>, <class 'float'>\]"):
        V.RandomSharpness(("0.1", "1.9"))


def test_normalize_pad_dtype_sentences_are_exact():
    # measured in MindSpore 2.10 (its tests compare the whole message)
    with pytest.raises(TypeError) as info:
        V.NormalizePad([1, 2, 3], [1, 2, 3], 1)
    assert str(info.value) == "dtype should be string."
    with pytest.raises(ValueError) as info:
        V.NormalizePad([1, 2, 3], [1, 2, 3], "")
    assert str(info.value) == "dtype only supports float32 or float16."


def test_batch_mixing_column_and_label_type_words():
    # measured in MindSpore 2.10
    images = np.zeros((3, 6, 5, 3), np.uint8)
    with pytest.raises(RuntimeError, match=r"CutMixBatch: invalid input size, input should have 2 "
                                           r"columns \(image and label\), but got: 1"):
        V.CutMixBatch(V.ImageBatchFormat.NHWC)(images)
    for op in (V.CutMixBatch(V.ImageBatchFormat.NHWC), V.MixUpBatch()):
        with pytest.raises(RuntimeError, match="invalid label type, label must be in a numeric "
                                               "type"):
            op(images, np.array([["one"], ["two"], ["three"]]))


@pytest.mark.parametrize("op, words", [
    # measured in MindSpore 2.10: each op's own words for an input of the wrong rank
    (V.ConvertColor(V.ConvertMode.COLOR_RGB2BGR),
     "input tensor is not in shape of <H,W> or <H,W,C>, but got rank: 1. You may need to "
     "perform Decode first."),
    (V.GaussianBlur(3), "input tensor is not in shape of <H,W> or <H,W,C>, but got rank: 1. You "
                        "may need to perform Decode first."),
    (V.Invert(), "Invert: input tensor is not in shape of <H,W,C>, but got rank: 1"),
    (V.Equalize(), "Equalize: image rank should be 2 or 3,  but got: 1"),
    (V.AutoContrast(), "AutoContrast: image rank should be 2 or 3,  but got: 1"),
])
def test_rank_words_of_each_op(op, words):
    with pytest.raises(RuntimeError) as info:
        op(np.zeros(5, np.uint8))
    assert words in str(info.value)


def test_type_cast_keeps_strings_and_numbers_apart():
    # measured in MindSpore 2.10: str to str and numbers to numbers only (numpy would read
    # "aaaa" as True)
    assert T.TypeCast(np.str_)("test_strings").tolist() == "test_strings"
    assert T.TypeCast(np.int32)([1.131613, 0.12415, 68.88]).tolist() == [1, 0, 68]
    with pytest.raises(RuntimeError, match="TypeCast does not support cast from string to bool"):
        T.TypeCast(np.bool_)(np.array(["aaaa", "bbbb"]))
    with pytest.raises(RuntimeError):
        T.TypeCast(np.str_)([1, 2, 3, 4])


def test_random_apply_prob_type_words():
    # measured in MindSpore 2.10: float listed first
    with pytest.raises(TypeError, match=r"is not of type \[<class 'float'>, <class 'int'>\]"):
        T.RandomApply([T.TypeCast(np.int32)], None)


def test_not_random_marks_a_function():
    # MindSpore's mindspore.dataset.transforms.not_random: sets function.random = False
    import minddata.transforms as transforms

    @transforms.not_random
    def double(x):
        return x * 2

    assert double.random is False and double(2) == 4
