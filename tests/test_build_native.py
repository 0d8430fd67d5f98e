"""The native build carries its own libjpeg-turbo: statically linked, its symbols hidden, so JPEG
decoding works whichever other libjpeg (Pillow's, OpenCV's, torch's, torchvision's) the process
loaded first, in any order."""
import importlib.util
import itertools
import shutil
import subprocess
import sys

import pytest

from transforms_c import _native

from tests.conftest import PROJECT_ROOT

# Every extension built for the packages (two of them, _native and _batch, decode JPEG).
EXTENSIONS = sorted(str(p) for pkg in ("mindrecord", "minddata", "transforms_c", "training")
                    for p in (PROJECT_ROOT / pkg).rglob("*.so"))
OTHER_JPEG_USERS = [m for m in ("torch", "torchvision", "cv2", "PIL.Image")
                    if importlib.util.find_spec(m.split(".")[0]) is not None]

# Imports `order`, then decodes one JPEG with transforms_c and with every other library loaded.
DECODE_SCRIPT = """
import importlib, io, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
import cv2, numpy as np
from PIL import Image
from transforms_c.vision import Decode

y, x = np.mgrid[0:96, 0:128]
img = np.stack([x * 2, y * 2, (x + y) % 256], -1).astype(np.uint8)
buf = io.BytesIO()
Image.fromarray(img).save(buf, "JPEG", quality=90)
data = np.frombuffer(buf.getvalue(), np.uint8)
ours = Decode()(data)
ref = cv2.cvtColor(cv2.imdecode(data, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
assert np.array_equal(ours, ref), "transforms_c and OpenCV decode differently"
pil = np.asarray(Image.open(io.BytesIO(data.tobytes())).convert("RGB"))
assert np.abs(pil.astype(int) - ours).max() <= 2, "transforms_c and Pillow decode differently"
if "torchvision" in sys.modules:
    import torch, torchvision.io
    tv = torchvision.io.decode_jpeg(torch.from_numpy(data.copy())).permute(1, 2, 0).numpy()
    assert np.abs(tv.astype(int) - ours).max() <= 2, "transforms_c and torchvision differ"
print("decoded", ours.shape)
"""


def _decode_after(order):
    result = subprocess.run([sys.executable, "-c", DECODE_SCRIPT, *order], capture_output=True,
                            text=True, timeout=240)
    assert result.returncode == 0 and "decoded (96, 128, 3)" in result.stdout, \
        f"import order {order}: {result.stdout}{result.stderr}"


def _orders(all_permutations):
    names = OTHER_JPEG_USERS + ["transforms_c._native"]
    if all_permutations:
        return list(itertools.permutations(names))
    # Each library first once (so each gets to load its libjpeg before ours, and ours before
    # all of them), keeping the suite fast; the slow test below tries every order.
    return [tuple(names[i:] + names[:i]) for i in range(len(names))]


@pytest.mark.parametrize("order", _orders(False), ids="-".join)
def test_decode_after_other_jpeg_libraries(order):
    _decode_after(order)


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_decode_after_other_jpeg_libraries_in_every_order():
    for order in _orders(True):
        _decode_after(order)


def test_the_extensions_are_found():
    assert _native.__file__ in EXTENSIONS


@pytest.mark.skipif(not shutil.which("ldd"), reason="needs ldd")
@pytest.mark.parametrize("extension", EXTENSIONS, ids=lambda p: p.rsplit("/", 1)[-1])
def test_extension_links_no_shared_libjpeg(extension):
    deps = subprocess.run(["ldd", extension], capture_output=True, text=True, check=True).stdout
    assert "libjpeg" not in deps and "libturbojpeg" not in deps, deps


@pytest.mark.skipif(not shutil.which("nm") or sys.platform != "linux", reason="needs nm (ELF)")
@pytest.mark.parametrize("extension", EXTENSIONS, ids=lambda p: p.rsplit("/", 1)[-1])
def test_extension_exports_only_its_init_function(extension):
    defined = subprocess.run(["nm", "-D", "--defined-only", extension], capture_output=True,
                             text=True, check=True).stdout.split("\n")
    names = [line.split()[-1] for line in defined if line.strip()]
    init = "PyInit_" + extension.rsplit("/", 1)[-1].split(".", 1)[0]
    # PyInit_<module>, plus C++ template instances (mangled _Z names) the compiler may export.
    foreign = [n for n in names if n != init and not n.startswith("_Z")]
    assert not foreign, f"{extension} exports {foreign[:10]}"
    undefined = subprocess.run(["nm", "-D", "--undefined-only", extension], capture_output=True,
                               text=True, check=True).stdout
    assert "jpeg_" not in undefined, "libjpeg functions are left to be bound at load time"


def test_linked_libjpeg_turbo_is_3x():
    # The headers compiled in say which libjpeg-turbo the extension carries.
    assert _native.libjpeg_turbo_version() // 1000000 >= 3


@pytest.mark.skipif(shutil.which("nm") is None, reason="needs binutils' nm")
@pytest.mark.parametrize("path", EXTENSIONS)
def test_every_extension_defines_all_of_the_projects_native_code(path):
    # Two extensions share C++ sources compiled with different flags: a build that mixed up or
    # lost their object files (a parallel build writing the same .o at once) would leave the
    # project's own symbols undefined, failing only at import time.
    out = subprocess.run(["nm", "-D", "--undefined-only", "-C", path], capture_output=True,
                         text=True, check=True).stdout
    assert not [line for line in out.splitlines() if "mdt::" in line], out
