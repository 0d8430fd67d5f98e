"""One pixel limit for every format the decoder accepts (issue 11, items 4 and 8): the size a
header declares is read before OpenCV sees the data; valid images still decode exactly as
cv2.imdecode decodes them."""
import cv2
import numpy as np
import pytest

import transforms_c
from transforms_c import image_limits
from transforms_c.vision import Decode, RandomResizedCrop, Resize
from transforms_c.vision import decode as decode_module

from tests.transforms_c.image_samples import (gif_bomb, huge_headers, os2_bmp, pixel_limit,
                                              valid_images)

VALID = valid_images()
HUGE = huge_headers()


@pytest.fixture
def no_opencv_decode(monkeypatch):
    """Fail the test if anything reaches cv2.imdecode."""
    def refuse(*args, **kwargs):
        raise AssertionError("cv2.imdecode was called")
    monkeypatch.setattr(decode_module.cv2, "imdecode", refuse)


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_images_decode_as_opencv_decodes_them(name):
    data = np.frombuffer(VALID[name], np.uint8)
    expected = cv2.imdecode(data, cv2.IMREAD_COLOR)
    assert expected is not None, name
    declared = image_limits.check_declared_size(data)
    assert declared == (expected.shape[1], expected.shape[0])
    out = Decode()(data)
    if name != "jpeg":         # JPEG goes through libjpeg-turbo's own (exact) path
        np.testing.assert_array_equal(out, cv2.cvtColor(expected, cv2.COLOR_BGR2RGB))
    assert out.shape == expected.shape


def test_os2_bitmap_core_header_decodes_correctly():
    image = np.arange(7 * 5 * 3, dtype=np.uint8).reshape(7, 5, 3)
    out = Decode()(np.frombuffer(os2_bmp(image), np.uint8))
    np.testing.assert_array_equal(out, image[:, :, ::-1])      # BGR file, RGB result


@pytest.mark.parametrize("name", sorted(HUGE))
def test_huge_declared_sizes_are_refused_before_opencv(name, no_opencv_decode):
    with pytest.raises(RuntimeError, match=r"Decode: .* declares \d+x\d+ pixels, outside"):
        Decode()(np.frombuffer(HUGE[name], np.uint8))


def test_the_35_byte_gif_bomb_is_refused_without_decoding(no_opencv_decode):
    # (it cost 6.9 GB and 14-23 s per decode before: now OpenCV never sees it)
    data = np.frombuffer(gif_bomb(), np.uint8)
    assert data.size == 35
    with pytest.raises(RuntimeError, match="GIF image declares 30000x30000 pixels"):
        Decode()(data)


def test_valid_17000_square_tiff_is_refused():
    from PIL import Image
    import io
    buffer = io.BytesIO()
    Image.new("1", (17000, 17000)).save(buffer, "TIFF", compression="group4")
    data = np.frombuffer(buffer.getvalue(), np.uint8)
    assert data.size < 1 << 20
    with pytest.raises(RuntimeError, match="TIFF image declares 17000x17000 pixels"):
        Decode()(data)


def test_the_limit_is_the_setting():
    data = np.frombuffer(VALID["gif"], np.uint8)
    with pixel_limit(40 * 56 - 1):
        with pytest.raises(RuntimeError, match="56x40 pixels, outside the accepted range "
                                               r"\(1 to 2239 pixels"):
            Decode()(data)
    with pixel_limit(40 * 56):
        assert Decode()(data).shape == (40, 56, 3)


@pytest.mark.parametrize("data, message", [
    (b"NOTANIMAGE" * 4, "not a decodable image: unrecognised format"),
    (b"\x89PNG\r\n\x1a\n\0\0", "not a decodable image: the PNG header is unreadable"),
    (b"BM" + b"\0" * 12 + b"\x10\0\0\0" + b"\0" * 20, "DIB header size 16"),
    (b"GIF89a\x01", "not a decodable image: the GIF header is unreadable"),
    (b"II*\0\xff\xff\0\0", "not a decodable image: the TIFF header is unreadable"),
    (b"MM\0*\0\0\0\x08\0\x01" + b"\0" * 12, "no ImageWidth/ImageLength"),
    (b"RIFF\0\0\0\0WEBPVP8Z" + b"\0" * 20, "none of VP8, VP8L, VP8X"),
    (b"P6\n12", "not a decodable image: the PNM header is unreadable"),
    (b"P6\n-3 4\n255\n" + b"\0" * 8, "is not a size"),
    (b"P7\nWIDTH 3\n", "no ENDHDR"),
    (b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n", "no end of the header lines"),
    (b"#?RGBE\n\n+Q 3 -Z 4\n", "no resolution line"),
    (b"\0\0\0\x0cjP  \r\n\x87\n" + b"\0\0\0\x08ftyp", "no image header box"),
    (b"\0\0\0\x10ftypavif\0\0\0\0", "no 'ispe' size property"),
    (b"\xff\xd8\xff\xda\0\x08", "no frame header"),
])
def test_unreadable_headers_are_refused_before_opencv(data, message, no_opencv_decode):
    with pytest.raises(RuntimeError, match=message):
        decode_module.decode_other(np.frombuffer(data, np.uint8))


def test_check_declared_size_is_the_shared_entry_point():
    assert image_limits.check_declared_size(VALID["webp_vp8x"], "Fused") == (56, 40)
    with pytest.raises(RuntimeError, match="^Fused: GIF image declares"):
        image_limits.check_declared_size(gif_bomb(), "Fused")


def test_fused_plans_refuse_the_bombs(no_opencv_decode):
    ops = [Decode(), RandomResizedCrop(16, scale=(1.0, 1.0))]
    (plan,) = transforms_c.compile_operations(ops)
    for name in ("gif", "tiff_le", "sun", "hdr"):
        with pytest.raises(RuntimeError, match="declares"):
            plan.apply((np.frombuffer(HUGE[name], np.uint8),), 3)


def test_fused_plan_still_decodes_valid_images():
    (plan,) = transforms_c.compile_operations([Decode(), Resize((8, 8))])
    out = plan.apply((np.frombuffer(VALID["tiff_be"], np.uint8),), 3)[0]
    assert out.shape == (8, 8, 3)


def test_image_folder_dataset_refuses_the_bomb(tmp_path):
    from minddata import ImageFolderDataset
    (tmp_path / "cls").mkdir()
    (tmp_path / "cls" / "bomb.gif").write_bytes(gif_bomb())
    dataset = ImageFolderDataset(str(tmp_path), decode=True)
    with pytest.raises(RuntimeError, match=r"bomb\.gif.*GIF image declares 30000x30000"):
        list(dataset.create_tuple_iterator(output_numpy=True))
