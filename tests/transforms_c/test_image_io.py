"""read_file, read_image, encode_jpeg, encode_png, write_file, write_jpeg, write_png and
ImageReadMode (transforms_c/vision/image_io.py). The hashes, shapes and messages marked
"MindSpore 2.10" were measured with mindspore.dataset.vision on the same inputs (built here
the same way); the hashes are the first 16 hex digits of the sha256 of the array's bytes."""
import hashlib
import os
import struct

import cv2
import numpy as np
import pytest
from PIL import Image

import minddata.vision as vision
import minddata.vision.utils as vision_utils
import transforms_c.vision as native
from minddata import Tensor
from transforms_c.enums import ImageReadMode
from transforms_c.vision import image_io
from transforms_c.vision.image_io import (encode_jpeg, encode_png, read_file, read_image,
                                          write_file, write_jpeg, write_png)

MODES = ImageReadMode


def digest(array):
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()[:16]


def pattern(h=24, w=32, c=3):
    """A deterministic image with detail in every channel."""
    y, x, ch = np.meshgrid(np.arange(h), np.arange(w), np.arange(c), indexing="ij")
    return ((x * 7 + y * 13 + ch * 71 + (x * y) % 17 * 5) % 256).astype(np.uint8)


def exif_app1(orientation, endian="<"):
    """An APP1 Exif segment whose IFD0 holds one Orientation (SHORT) entry."""
    order = b"II" if endian == "<" else b"MM"
    tiff = order + struct.pack(endian + "HI", 42, 8) + struct.pack(endian + "H", 1)
    tiff += struct.pack(endian + "HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff += struct.pack(endian + "I", 0)
    body = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def with_exif(jpeg, orientation, endian="<"):
    raw = bytes(jpeg)
    return raw[:2] + exif_app1(orientation, endian) + raw[2:]


def expect_runtime_error(fn, *words):
    with pytest.raises(RuntimeError) as info:
        fn()
    for word in words:
        assert word in str(info.value)
    return info.value


IMG = pattern()
GRAY = IMG[..., 0].copy()


# -- encode_jpeg / encode_png ------------------------------------------------------------------

# MindSpore 2.10: encode_jpeg(pattern(), q) and of its first channel, (length, sha256[:16]).
MS_JPEG = {
    ("rgb", 1): (663, "337bcc754d74ce94"),
    ("rgb", 75): (1082, "1263751c9d7532a8"),
    ("rgb", 100): (2179, "b657e068e1295cb9"),
    ("gray", 75): (722, "c72a202938d62573"),
}


@pytest.mark.parametrize("kind, quality", sorted(MS_JPEG))
def test_encode_jpeg_gives_mindspores_bytes(kind, quality):
    image = IMG if kind == "rgb" else GRAY
    out = encode_jpeg(image, quality)
    assert out.dtype == np.uint8 and out.ndim == 1
    assert (out.size, digest(out)) == MS_JPEG[kind, quality]


def test_encode_jpeg_default_quality_and_one_channel_image():
    assert (encode_jpeg(IMG) == encode_jpeg(IMG, 75)).all()
    assert digest(encode_jpeg(GRAY[..., None])) == MS_JPEG["gray", 75][1]   # H x W x 1 as H x W
    assert digest(encode_jpeg(IMG, True)) == MS_JPEG["rgb", 1][1]          # a bool is an int


def test_encode_png_level_0_is_mindspores_and_levels_are_honoured():
    # MindSpore 2.10: encode_png(pattern(), 0) and of its first channel
    assert (encode_png(IMG, 0).size, digest(encode_png(IMG, 0))) == (2396, "7be4c89cf3c13954")
    assert (encode_png(GRAY, 0).size, digest(encode_png(GRAY, 0))) == (860, "182ff12b2e91023d")
    sizes = {level: encode_png(IMG, level).size for level in range(10)}
    # MindSpore 2.10 gives 1365 bytes for every level 1..9 (zlib RLE); here zlib's levels work
    assert sizes[0] > sizes[1] > sizes[9] and sizes[9] < 1365
    assert sizes[6] == encode_png(IMG).size
    for level in (0, 1, 6, 9):
        decoded = cv2.imdecode(encode_png(IMG, level), cv2.IMREAD_UNCHANGED)
        assert (decoded[..., ::-1] == IMG).all()
    assert (cv2.imdecode(encode_png(GRAY[..., None]), cv2.IMREAD_UNCHANGED) == GRAY).all()


@pytest.mark.parametrize("encode", [encode_jpeg, encode_png])
def test_encoders_take_views_and_tensors(encode):
    view = IMG[:, ::2]
    assert (encode(view) == encode(view.copy())).all()
    assert (encode(IMG[..., ::-1]) == encode(IMG[..., ::-1].copy())).all()
    assert (encode(Tensor(IMG)) == encode(IMG)).all()


def test_encoders_take_torch_tensors():
    torch = pytest.importorskip("torch")
    assert (encode_jpeg(torch.from_numpy(IMG)) == encode_jpeg(IMG)).all()
    assert (encode_png(torch.from_numpy(GRAY)) == encode_png(GRAY)).all()


ENCODERS = [(encode_jpeg, "EncodeJpeg", "quality", 75), (encode_png, "EncodePng",
                                                         "compression_level", 6)]


@pytest.mark.parametrize("encode, op, arg, default", ENCODERS)
def test_encoder_errors_follow_mindspore(encode, op, arg, default):
    # MindSpore 2.10's types and messages, and its order: dtype, dimensions, channels, the
    # quality / level range, then an empty image
    for value in ([1, 2], Image.fromarray(IMG), b"abc", None):
        with pytest.raises(TypeError, match=r"Input image is not of type <class "
                                            r"'numpy.ndarray'> or .*but got"):
            encode(value)
    for bad in (75.0, np.int64(5), "5", None):
        with pytest.raises(TypeError, match=f"Input {arg} is not of type <class 'int'>"):
            encode(IMG, bad)
    for dtype, name in [(np.int8, "int8"), (np.uint16, "uint16"), (np.float32, "float32"),
                        (np.bool_, "bool")]:
        expect_runtime_error(lambda: encode(IMG.astype(dtype)),
                             f"{op}: The type of the image data should be UINT8, but got {name}.")
    for shape, ndim in [((5,), 1), ((1, 4, 4, 3), 4)]:
        expect_runtime_error(lambda: encode(np.zeros(shape, np.uint8)),
                             f"{op}: The image has invalid dimensions. It should have two or "
                             f"three dimensions, but got {ndim} dimensions.")
    for channels in (2, 4, 32):
        expect_runtime_error(lambda: encode(np.zeros((4, 4, channels), np.uint8)),
                             f"{op}: The image has invalid channels. It should have 1 or 3 "
                             f"channels, but got {channels} channels.")
    low, high = (1, 100) if arg == "quality" else (0, 9)
    for bad in (low - 1, high + 1):
        expect_runtime_error(lambda: encode(IMG, bad), f"{op}: Invalid {arg} {bad}, should be "
                                                       f"in range of [{low}, {high}].")
    expect_runtime_error(lambda: encode(np.zeros((0, 5, 3), np.uint8)),
                         f"{op}: Load the image tensor failed.")
    # the order of the checks
    expect_runtime_error(lambda: encode(np.zeros(5, np.float32)), "should be UINT8")
    expect_runtime_error(lambda: encode(np.zeros((3, 3, 4), np.uint8), 101), "invalid channels")
    expect_runtime_error(lambda: encode(np.zeros((0, 5), np.uint8), 101), f"Invalid {arg} 101")


def test_encode_jpeg_too_wide_fails_as_runtime_error():
    # MindSpore 2.10: "EncodeJpeg: Failed to encode image." (JPEG's 65500-pixel limit)
    expect_runtime_error(lambda: encode_jpeg(np.zeros((1, 70000), np.uint8)),
                         "EncodeJpeg: Failed to encode image")


# -- read_image --------------------------------------------------------------------------------

# MindSpore 2.10: read_image(file, mode) -> (shape, sha256[:16]) (every result uint8). The JPEGs
# are encode_jpeg(pattern(), 90) and of its first channel (MindSpore's bytes, as tested above),
# some with an EXIF orientation segment inserted; the rest are PIL's files of pattern().
MS_READ = {
    ("exif2.jpg", "UNCHANGED"): ((24, 32, 3), "fd9b45061a35f8f6"),
    ("exif2.jpg", "GRAYSCALE"): ((24, 32, 1), "f008503ea9b6a2f8"),
    ("exif2.jpg", "COLOR"): ((24, 32, 3), "c729068c8d0423fe"),
    ("exif3.jpg", "UNCHANGED"): ((24, 32, 3), "fd9b45061a35f8f6"),
    ("exif3.jpg", "GRAYSCALE"): ((24, 32, 1), "1d173f36c667ff80"),
    ("exif3.jpg", "COLOR"): ((24, 32, 3), "b9713505b4089fdb"),
    ("exif4.jpg", "UNCHANGED"): ((24, 32, 3), "fd9b45061a35f8f6"),
    ("exif4.jpg", "GRAYSCALE"): ((24, 32, 1), "af867ee7adf2f13e"),
    ("exif4.jpg", "COLOR"): ((24, 32, 3), "3d910ac5b559b4df"),
    ("exif5.jpg", "UNCHANGED"): ((24, 32, 3), "fd9b45061a35f8f6"),
    ("exif5.jpg", "GRAYSCALE"): ((32, 24, 1), "c768c512819f8d7f"),
    ("exif5.jpg", "COLOR"): ((32, 24, 3), "c44827218a60f843"),
    ("exif6.jpg", "UNCHANGED"): ((24, 32, 3), "fd9b45061a35f8f6"),
    ("exif6.jpg", "GRAYSCALE"): ((32, 24, 1), "2baf38097e73a964"),
    ("exif6.jpg", "COLOR"): ((32, 24, 3), "59309e5b27a76163"),
    ("exif6gray.jpg", "UNCHANGED"): ((24, 32, 1), "b1842e2a7fda8711"),
    ("exif6gray.jpg", "GRAYSCALE"): ((32, 24, 1), "a323339881e7da28"),
    ("exif6gray.jpg", "COLOR"): ((32, 24, 3), "9592ac99b7877547"),
    ("exif7mm.jpg", "UNCHANGED"): ((24, 32, 3), "fd9b45061a35f8f6"),
    ("exif7mm.jpg", "GRAYSCALE"): ((32, 24, 1), "31b52a92300ba0e0"),
    ("exif7mm.jpg", "COLOR"): ((32, 24, 3), "8a21b7600489b02e"),
    ("exif8mm.jpg", "UNCHANGED"): ((24, 32, 3), "fd9b45061a35f8f6"),
    ("exif8mm.jpg", "GRAYSCALE"): ((32, 24, 1), "51bd129679d45546"),
    ("exif8mm.jpg", "COLOR"): ((32, 24, 3), "84a1eeaac8db1098"),
    ("exif9.jpg", "UNCHANGED"): ((24, 32, 3), "fd9b45061a35f8f6"),
    ("exif9.jpg", "GRAYSCALE"): ((24, 32, 1), "fd9595bc1972aa9a"),
    ("exif9.jpg", "COLOR"): ((24, 32, 3), "fd9b45061a35f8f6"),
    ("gray.jpg", "UNCHANGED"): ((24, 32, 1), "b1842e2a7fda8711"),
    ("gray.jpg", "GRAYSCALE"): ((24, 32, 1), "b1842e2a7fda8711"),
    ("gray.jpg", "COLOR"): ((24, 32, 3), "e7d1dd75d71629a5"),
    ("gray.png", "UNCHANGED"): ((24, 32, 1), "80f9860614b37d35"),
    ("gray.png", "GRAYSCALE"): ((24, 32, 1), "80f9860614b37d35"),
    ("gray.png", "COLOR"): ((24, 32, 3), "c79e9b079ba98ffe"),
    ("rgb.bmp", "UNCHANGED"): ((24, 32, 3), "8f7880c47de58117"),
    ("rgb.bmp", "GRAYSCALE"): ((24, 32, 1), "c81ac1ff77697e3a"),
    ("rgb.bmp", "COLOR"): ((24, 32, 3), "8f7880c47de58117"),
    ("rgb.jpg", "UNCHANGED"): ((24, 32, 3), "fd9b45061a35f8f6"),
    ("rgb.jpg", "GRAYSCALE"): ((24, 32, 1), "fd9595bc1972aa9a"),
    ("rgb.jpg", "COLOR"): ((24, 32, 3), "fd9b45061a35f8f6"),
    ("rgb.png", "UNCHANGED"): ((24, 32, 3), "8f7880c47de58117"),
    ("rgb.png", "GRAYSCALE"): ((24, 32, 1), "415f7c8ee44f6b2f"),
    ("rgb.png", "COLOR"): ((24, 32, 3), "8f7880c47de58117"),
    ("rgb.tif", "UNCHANGED"): ((24, 32, 3), "8f7880c47de58117"),
    ("rgb.tif", "GRAYSCALE"): ((24, 32, 1), "c81ac1ff77697e3a"),
    ("rgb.tif", "COLOR"): ((24, 32, 3), "8f7880c47de58117"),
    ("rgba.png", "UNCHANGED"): ((24, 32, 3), "8f7880c47de58117"),
    ("rgba.png", "GRAYSCALE"): ((24, 32, 1), "415f7c8ee44f6b2f"),
    ("rgba.png", "COLOR"): ((24, 32, 3), "8f7880c47de58117"),
}


def _make_files(folder):
    jpeg, gray_jpeg = encode_jpeg(IMG, 90), encode_jpeg(GRAY, 90)
    files = {"rgb.jpg": jpeg, "gray.jpg": gray_jpeg, "exif6gray.jpg": with_exif(gray_jpeg, 6)}
    for orientation, endian in [(2, "<"), (3, "<"), (4, "<"), (5, "<"), (6, "<"), (7, ">"),
                                (8, ">"), (9, "<")]:
        suffix = "mm" if endian == ">" else ""
        files[f"exif{orientation}{suffix}.jpg"] = with_exif(jpeg, orientation, endian)
    for name, data in files.items():
        (folder / name).write_bytes(bytes(data))
    Image.fromarray(IMG).save(folder / "rgb.png")
    Image.fromarray(pattern(c=4)).save(folder / "rgba.png")
    Image.fromarray(GRAY).save(folder / "gray.png")
    Image.fromarray(IMG).save(folder / "rgb.bmp")
    Image.fromarray(IMG).save(folder / "rgb.tif")


@pytest.fixture(scope="module")
def image_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("images")
    _make_files(folder)
    return folder


def test_read_image_matches_mindspore(image_files):
    for (name, mode), (shape, sha) in MS_READ.items():
        out = read_image(str(image_files / name), MODES[mode])
        assert out.dtype == np.uint8 and out.flags.c_contiguous, (name, mode)
        assert (out.shape, digest(out)) == (shape, sha), (name, mode)


def test_read_image_default_mode_is_unchanged_and_color_is_decode(image_files):
    path = str(image_files / "rgba.png")
    assert (read_image(path) == read_image(path, MODES.UNCHANGED)).all()
    assert (read_image(path) == pattern(c=4)[..., :3]).all()          # alpha dropped
    jpeg = str(image_files / "rgb.jpg")
    assert (read_image(jpeg, MODES.COLOR) == vision.Decode()(read_file(jpeg))).all()


def test_read_image_keeps_16_bit_samples_when_unchanged(tmp_path):
    deep = pattern(c=3).astype(np.uint16) * 257 + 3
    cv2.imwrite(str(tmp_path / "deep.png"), deep[..., ::-1])
    cv2.imwrite(str(tmp_path / "deep_gray.tif"), deep[..., 0])
    out = read_image(str(tmp_path / "deep.png"))
    assert out.dtype == np.uint16 and (out == deep).all()
    gray = read_image(str(tmp_path / "deep_gray.tif"))
    assert gray.dtype == np.uint16 and gray.shape == (24, 32, 1)
    assert (gray[..., 0] == deep[..., 0]).all()
    # MindSpore 2.10: GRAYSCALE and COLOR of a 16-bit file are 8-bit
    assert read_image(str(tmp_path / "deep.png"), MODES.COLOR).dtype == np.uint8
    assert read_image(str(tmp_path / "deep.png"), MODES.GRAYSCALE).shape == (24, 32, 1)


def test_read_image_errors(tmp_path, image_files):
    missing = str(tmp_path / "nothere.png")
    # MindSpore 2.10's messages
    expect_runtime_error(lambda: read_image(missing),
                         f"ReadImage: Invalid file path, {missing} does not exist.")
    expect_runtime_error(lambda: read_image(str(tmp_path)),
                         f"ReadImage: Invalid file path, {tmp_path} is not a regular file.")
    (tmp_path / "empty.png").write_bytes(b"")
    (tmp_path / "junk.png").write_bytes(b"hello, not an image")
    jpeg = (image_files / "rgb.jpg").read_bytes()
    (tmp_path / "cut.jpg").write_bytes(jpeg[:200])
    png = (image_files / "rgb.png").read_bytes()
    (tmp_path / "cut.png").write_bytes(png[:100])
    for name in ("empty.png", "junk.png", "cut.jpg", "cut.png"):
        path = str(tmp_path / name)
        for mode in MODES:
            expect_runtime_error(lambda: read_image(path, mode),
                                 f"ReadImage: Failed to read file {path}")
    with pytest.raises(TypeError, match="Input filename is not of type <class 'str'>, but got: "
                                        "<class 'bytes'>"):
        read_image(b"x.png")
    with pytest.raises(TypeError, match="Input filename is not of type"):
        read_image(image_files / "rgb.png")                    # a Path: MindSpore refuses it
    for mode in (0, "COLOR", vision.Inter.LINEAR):
        with pytest.raises(TypeError, match="Input mode is not of type <enum 'ImageReadMode'>"):
            read_image(str(image_files / "rgb.png"), mode)


def test_jpeg_orientation_reads_only_well_formed_exif():
    jpeg = bytes(encode_jpeg(IMG))
    assert image_io.jpeg_orientation(np.frombuffer(with_exif(jpeg, 6, ">"), np.uint8)) == 6
    assert image_io.jpeg_orientation(np.frombuffer(jpeg, np.uint8)) == 1
    cut = with_exif(jpeg, 6)[:24]                              # the segment cut short
    assert image_io.jpeg_orientation(np.frombuffer(cut, np.uint8)) == 1
    not_exif = jpeg[:2] + exif_app1(6).replace(b"Exif", b"Xmp ") + jpeg[2:]
    assert image_io.jpeg_orientation(np.frombuffer(not_exif, np.uint8)) == 1


# -- read_file / write_file / write_jpeg / write_png -------------------------------------------

def test_read_file(tmp_path):
    (tmp_path / "a.bin").write_bytes(b"\x00\x01\xff")
    out = read_file(str(tmp_path / "a.bin"))
    assert out.dtype == np.uint8 and out.shape == (3,) and out.tolist() == [0, 1, 255]
    (tmp_path / "empty").write_bytes(b"")
    assert read_file(str(tmp_path / "empty")).shape == (0,)  # MindSpore 2.10: an empty array
    os.symlink("a.bin", tmp_path / "link")
    assert read_file(str(tmp_path / "link")).tolist() == [0, 1, 255]


def test_read_file_errors(tmp_path):
    os.symlink(str(tmp_path / "gone"), tmp_path / "dangling")
    for path in (str(tmp_path / "nothere"), str(tmp_path / "dangling"), ""):
        expect_runtime_error(lambda: read_file(path),
                             f"ReadFile: Invalid file path, {path} does not exist.")
    for path in (str(tmp_path), "/dev/null"):
        expect_runtime_error(lambda: read_file(path),
                             f"ReadFile: Invalid file path, {path} is not a regular file.")
    for bad in (b"a.bin", tmp_path / "a.bin", None):
        with pytest.raises(TypeError, match="Input filename is not of type <class 'str'>"):
            read_file(bad)


def _leftovers(folder):
    return sorted(name for name in os.listdir(folder) if name.startswith("."))


def test_write_file_writes_replaces_and_follows_links(tmp_path):
    path = str(tmp_path / "out.bin")
    write_file(path, np.arange(10, dtype=np.uint8))
    assert (tmp_path / "out.bin").read_bytes() == bytes(range(10))
    assert oct(os.stat(path).st_mode & 0o777) == "0o600"             # as MindSpore 2.10
    write_file(path, np.arange(20, dtype=np.uint8)[::4])               # a view, replacing
    assert (tmp_path / "out.bin").read_bytes() == bytes([0, 4, 8, 12, 16])
    write_file(path, Tensor(np.array([7, 8], np.uint8)))
    assert (tmp_path / "out.bin").read_bytes() == b"\x07\x08"
    write_file(path, np.zeros(0, np.uint8))
    assert (tmp_path / "out.bin").read_bytes() == b""
    os.symlink("out.bin", tmp_path / "link.bin")
    write_file(str(tmp_path / "link.bin"), np.array([1, 2, 3], np.uint8))
    assert os.path.islink(tmp_path / "link.bin")                        # written through it
    assert (tmp_path / "out.bin").read_bytes() == b"\x01\x02\x03"
    assert _leftovers(tmp_path) == []


def test_write_file_errors(tmp_path):
    data = np.arange(4, dtype=np.uint8)
    expect_runtime_error(lambda: write_file(str(tmp_path / "a"), data.astype(np.float32)),
                         "WriteFile: The type of the elements of data should be UINT8, but got "
                         "float32.")
    expect_runtime_error(lambda: write_file(str(tmp_path / "a"), np.array([b"abc"])),
                         "should be UINT8, but got bytes.")
    expect_runtime_error(lambda: write_file(str(tmp_path / "a"), data.reshape(2, 2)),
                         "WriteFile: The data has invalid dimensions. It should have only one "
                         "dimension, but got 2 dimensions.")
    expect_runtime_error(lambda: write_file(str(tmp_path), data),
                         f"WriteFile: Invalid file path, {tmp_path} is not a regular file.")
    for path in (str(tmp_path / "no" / "a.bin"), ""):
        expect_runtime_error(lambda: write_file(path, data), "No such file or directory")
    (tmp_path / "file").write_bytes(b"")
    expect_runtime_error(lambda: write_file(str(tmp_path / "file" / "a"), data),
                         "Not a directory")
    for bad in (b"abc", [1, 2], np.uint8(3)):
        with pytest.raises(TypeError, match="Input data is not of type <class 'numpy.ndarray'>"):
            write_file(str(tmp_path / "a"), bad)
    with pytest.raises(TypeError, match="Input filename is not of type <class 'str'>"):
        write_file(tmp_path / "a", data)
    assert not (tmp_path / "a").exists() and _leftovers(tmp_path) == []


def test_a_failed_write_leaves_the_old_file_and_no_partial_one(tmp_path, monkeypatch):
    path = tmp_path / "keep.bin"
    path.write_bytes(b"old")

    def refuse(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(image_io.os, "replace", refuse)
    expect_runtime_error(lambda: write_file(str(path), np.arange(9, dtype=np.uint8)),
                         "WriteFile: No space left on device")
    assert path.read_bytes() == b"old" and _leftovers(tmp_path) == []
    monkeypatch.undo()

    def interrupt(fd, mode):                               # interrupted mid-write
        os.close(fd)
        raise KeyboardInterrupt

    monkeypatch.setattr(image_io.os, "fdopen", interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_png(str(path), IMG)
    assert path.read_bytes() == b"old" and _leftovers(tmp_path) == []


@pytest.mark.parametrize("write, encode, op, arg", [(write_jpeg, encode_jpeg, "WriteJpeg",
                                                     "quality"),
                                                    (write_png, encode_png, "WritePng",
                                                     "compression_level")])
def test_write_image_files(tmp_path, write, encode, op, arg):
    path = str(tmp_path / "image.bin")                     # the format is the function's
    write(path, IMG)
    assert (np.fromfile(path, np.uint8) == encode(IMG)).all()
    write(path, GRAY, 3)
    assert (np.fromfile(path, np.uint8) == encode(GRAY, 3)).all()
    write(path, Tensor(IMG))
    assert (np.fromfile(path, np.uint8) == encode(IMG)).all()
    # MindSpore 2.10: the image and the argument are checked before the path
    expect_runtime_error(lambda: write(str(tmp_path / "no" / "x"), IMG, 101),
                         f"{op}: Invalid {arg} 101")
    expect_runtime_error(lambda: write(str(tmp_path / "x"), IMG.astype(np.float32)),
                         f"{op}: The type of the elements of image should be UINT8, but got "
                         f"float32.")
    expect_runtime_error(lambda: write(str(tmp_path / "x"), IMG[None]), "invalid dimensions")
    expect_runtime_error(lambda: write(str(tmp_path / "x"), np.zeros((0, 3), np.uint8)),
                         "Load the image tensor failed")
    expect_runtime_error(lambda: write(str(tmp_path), IMG),
                         f"{op}: Invalid file path, {tmp_path} is not a regular file.")
    expect_runtime_error(lambda: write(str(tmp_path / "no" / "x"), IMG),
                         "No such file or directory")
    with pytest.raises(TypeError, match=f"Input {arg} is not of type <class 'int'>"):
        write(str(tmp_path / "x"), IMG, 5.0)
    with pytest.raises(TypeError, match="nput image is not of type"):
        write(str(tmp_path / "x"), [1])
    with pytest.raises(TypeError, match="Input filename is not of type"):
        write(5, IMG)
    assert not (tmp_path / "x").exists() and _leftovers(tmp_path) == []


# -- names -------------------------------------------------------------------------------------

def test_names_and_enum():
    assert [(m.name, int(m)) for m in ImageReadMode] == [("UNCHANGED", 0), ("GRAYSCALE", 1),
                                                         ("COLOR", 2)]
    for name in ("ImageReadMode", "read_file", "read_image", "encode_jpeg", "encode_png",
                 "write_file", "write_jpeg", "write_png"):
        assert getattr(vision, name) is getattr(native, name) is getattr(vision_utils, name)
        assert name in native.__all__ and name in vision_utils.__all__


def test_read_image_of_a_jpeg_cut_short_raises_in_every_mode(tmp_path):
    # measured in MindSpore 2.10 (tools/decoders_vs_mindspore.py): its read_image (OpenCV's
    # imread) decodes a JPEG cut in its scan with the missing part grey; here every mode
    # raises, as Decode does (GRAYSCALE, whose pixels OpenCV gives, checks the file first)
    import io
    buffer = io.BytesIO()
    Image.fromarray(pattern(40, 24)).save(buffer, "JPEG", quality=90)
    path = tmp_path / "cut.jpg"
    path.write_bytes(buffer.getvalue()[:-12])
    for mode in (MODES.UNCHANGED, MODES.GRAYSCALE, MODES.COLOR):
        with pytest.raises(RuntimeError, match="Premature end of JPEG file"):
            read_image(str(path), mode)
    path.write_bytes(buffer.getvalue()[:-2])    # only its EOI marker gone: every pixel there
    whole = tmp_path / "whole.jpg"
    whole.write_bytes(buffer.getvalue())
    for mode in (MODES.UNCHANGED, MODES.GRAYSCALE, MODES.COLOR):
        assert np.array_equal(read_image(str(path), mode), read_image(str(whole), mode))


def test_read_image_converts_cmyk_as_opencvs_imread(tmp_path):
    # measured in MindSpore 2.10: read_image gives a CMYK JPEG's R = K - ((255 - C) * K >> 8)
    # of its stored inks, with or without an Adobe marker (Decode differs: test_jpeg_decode)
    import io
    inks = np.random.default_rng(1).integers(0, 256, (16, 16, 4)).astype(np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(inks, "CMYK").save(buffer, "JPEG", quality=100)
    stored = 255 - np.asarray(Image.open(io.BytesIO(buffer.getvalue()))).astype(np.int64)
    path = tmp_path / "cmyk.jpg"
    path.write_bytes(buffer.getvalue())
    ink, k = stored[..., :3], stored[..., 3:]
    for mode in (MODES.UNCHANGED, MODES.COLOR):
        assert np.array_equal(read_image(str(path), mode), k - (((255 - ink) * k) >> 8))


# read_image(GRAYSCALE) of JPEGs coded every way, measured in MindSpore 2.10 on these files
# (Pillow 13 writes the same bytes there): (shape, digest)
MS_GRAY_JPEG = {
    "420.jpg": ((27, 35, 1), "812fd60fa84c73da"),
    "422.jpg": ((27, 35, 1), "7eb7f7bdcbc78383"),
    "444.jpg": ((27, 35, 1), "d4cd34ef417ae051"),
    "progressive.jpg": ((27, 35, 1), "3a4b0f9b46f65b5b"),
    "rgb_coded.jpg": ((27, 35, 1), "62fe3bc25c70e41a"),
    "cmyk.jpg": ((19, 23, 1), "d13d6e834bf71225"),
    "cmyk_420.jpg": ((19, 23, 1), "fc753490762d508d"),
}


def _jpeg_variants():
    import io
    image = Image.fromarray(pattern(27, 35))
    inks = Image.fromarray(np.random.default_rng(1).integers(0, 256, (19, 23, 4))
                           .astype(np.uint8), "CMYK")
    options = {"420.jpg": (image, dict(quality=90)),
               "422.jpg": (image, dict(quality=80, subsampling=1)),
               "444.jpg": (image, dict(quality=75, subsampling=0)),
               "progressive.jpg": (image, dict(quality=85, progressive=True)),
               "rgb_coded.jpg": (image, dict(quality=90, keep_rgb=True)),
               "cmyk.jpg": (inks, dict(quality=95)),
               "cmyk_420.jpg": (inks, dict(quality=70, subsampling=2))}
    out = {}
    for name, (img, kwargs) in options.items():
        buffer = io.BytesIO()
        img.save(buffer, "JPEG", **kwargs)
        out[name] = buffer.getvalue()
    return out


def test_read_image_grayscale_jpeg_decodes_once_to_opencvs_grey(tmp_path, monkeypatch):
    calls = []
    real = image_io.decode_jpeg
    monkeypatch.setattr(image_io, "decode_jpeg",
                        lambda *args, **kwargs: calls.append(kwargs) or real(*args, **kwargs))
    monkeypatch.setattr(image_io, "_opencv_decode", lambda *args: pytest.fail("decoded twice"))
    for name, data in _jpeg_variants().items():
        (tmp_path / name).write_bytes(data)
        gray = read_image(str(tmp_path / name), MODES.GRAYSCALE)
        assert (gray.shape, digest(gray)) == MS_GRAY_JPEG[name], name
    assert len(calls) == len(MS_GRAY_JPEG) and all(c["channels"] == 1 for c in calls)
