"""Provides a static, position-independent libjpeg-turbo for the native build (setup.py links it
into transforms_c._native with its symbols hidden, so the extension never binds to another
libjpeg loaded in the same process by Pillow, OpenCV or torchvision).

Where the library comes from, first match wins:

1. ``MD_LIBJPEG_TURBO_PREFIX``: an installed libjpeg-turbo (``include/jpeglib.h`` and
   ``lib/libjpeg.a`` or ``lib64/libjpeg.a``), for example one you built yourself.
2. ``MD_LIBJPEG_TURBO_SOURCE``: a libjpeg-turbo source tree or release tarball, built here with
   cmake (static, PIC, SIMD when nasm or yasm is on PATH).
3. The default: the pinned ``comma-deps-libjpeg`` wheel from PyPI (a static libjpeg-turbo 3.1.0
   with SIMD). It is taken from ``MD_LIBJPEG_TURBO_WHEEL`` (a local file, for machines without
   network), else from the cache directory, else fetched with ``pip download``; its sha256 is
   checked against the pin below before anything in it is used.

Everything is unpacked or built under the cache directory, ``build/third_party`` by default
(``MD_THIRD_PARTY_DIR`` overrides it), and reused by later builds. Only the standard library
is used, so this runs inside pip's isolated build environment.
"""
import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

WHEEL_PROJECT = "comma-deps-libjpeg"
WHEEL_VERSION = "3.1.0.post92"
# Platform tag of each published wheel -> its sha256 (verified when this pin was set).
WHEEL_SHA256 = {
    "manylinux_2_28_x86_64":
        "b47ff662cabd8a0c564fd12f64de451a8806990d80712193b6cd7c23fba2ce6f",
    "manylinux_2_28_aarch64":
        "88219351e4b3d550c403a8143613977d55612abcd3d3a047caad1d391c7eae38",
    "macosx_11_0_arm64":
        "57884fbab82c68240529b0955b08490b1c12f8ae2466605f965a2d0a0a8771c1",
}
# The wheel declares Requires-Python >=3.12 although it holds no Python code; pip download is
# told this version so the pin resolves from any interpreter.
_WHEEL_PYTHON = "3.12"
_WHEEL_PREFIX = "libjpeg/install/"     # inside <name>.data/purelib/
_HEADERS = ("jconfig.h", "jerror.h", "jmorecfg.h", "jpeglib.h")


class LibjpegError(RuntimeError):
    """libjpeg-turbo could not be provided; the message says what to set or install."""


class StaticLibjpeg:
    """An include directory and the static archive to link, with the version they declare."""

    def __init__(self, include_dir, archive):
        self.include_dir, self.archive = include_dir, archive
        self.version = _declared_version(include_dir)

    def link_args(self):
        """Linker flags that keep every libjpeg symbol inside the extension."""
        if sys.platform == "darwin":
            return []
        return ["-Wl,--exclude-libs,ALL"]


def ensure(cache_dir=None, log=print):
    """The StaticLibjpeg to link, fetching or building it into the cache when needed."""
    cache_dir = os.path.abspath(cache_dir or os.environ.get("MD_THIRD_PARTY_DIR")
                                or os.path.join("build", "third_party"))
    prefix = os.environ.get("MD_LIBJPEG_TURBO_PREFIX")
    if prefix:
        return _from_prefix(prefix, "MD_LIBJPEG_TURBO_PREFIX")
    source = os.environ.get("MD_LIBJPEG_TURBO_SOURCE")
    if source:
        return _build_from_source(source, cache_dir, log)
    return _from_wheel(cache_dir, log)


def _declared_version(include_dir):
    path = os.path.join(include_dir, "jconfig.h")
    with open(path, encoding="utf-8", errors="replace") as f:
        match = re.search(r"#define\s+LIBJPEG_TURBO_VERSION\s+(\S+)", f.read())
    if not match:
        raise LibjpegError(f"{path} does not declare LIBJPEG_TURBO_VERSION: not libjpeg-turbo")
    return match.group(1)


def _from_prefix(prefix, origin):
    include_dir = os.path.join(prefix, "include")
    missing = [h for h in _HEADERS if not os.path.isfile(os.path.join(include_dir, h))]
    if missing:
        raise LibjpegError(f"{origin}={prefix}: {include_dir} lacks {', '.join(missing)}")
    for libdir in ("lib", "lib64"):
        archive = os.path.join(prefix, libdir, "libjpeg.a")
        if os.path.isfile(archive):
            return StaticLibjpeg(include_dir, archive)
    raise LibjpegError(f"{origin}={prefix}: no static lib/libjpeg.a or lib64/libjpeg.a (build "
                       f"libjpeg-turbo with -DENABLE_STATIC=ON)")


def wheel_platform():
    """The comma-deps-libjpeg platform tag for this machine; LibjpegError when none is pinned."""
    machine = platform.machine().lower()
    if sys.platform.startswith("linux") and machine in ("x86_64", "amd64"):
        return "manylinux_2_28_x86_64"
    if sys.platform.startswith("linux") and machine in ("aarch64", "arm64"):
        return "manylinux_2_28_aarch64"
    if sys.platform == "darwin" and machine == "arm64":
        return "macosx_11_0_arm64"
    raise LibjpegError(f"no pinned static libjpeg-turbo for {sys.platform}/{machine}: set "
                       f"MD_LIBJPEG_TURBO_SOURCE to a libjpeg-turbo 3.x source tarball, or "
                       f"MD_LIBJPEG_TURBO_PREFIX to an installed one with a static libjpeg.a")


def wheel_name(plat):
    return f"{WHEEL_PROJECT.replace('-', '_')}-{WHEEL_VERSION}-py3-none-{plat}.whl"


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _from_wheel(cache_dir, log):
    plat = wheel_platform()
    unpacked = os.path.join(cache_dir, f"libjpeg-turbo-{WHEEL_VERSION}-{plat}")
    if not os.path.isdir(unpacked):
        wheel = _verified_wheel(cache_dir, plat, log)
        _unpack_wheel(wheel, unpacked)
    return _from_prefix(unpacked, f"the unpacked {WHEEL_PROJECT} wheel")


def _verified_wheel(cache_dir, plat, log):
    """Path of the pinned wheel after its sha256 matched: MD_LIBJPEG_TURBO_WHEEL, the cached
    copy, or a fresh pip download into the cache."""
    expected = WHEEL_SHA256[plat]
    given = os.environ.get("MD_LIBJPEG_TURBO_WHEEL")
    if given:
        if not os.path.isfile(given):
            raise LibjpegError(f"MD_LIBJPEG_TURBO_WHEEL={given}: no such file")
        _check_sha256(given, expected, "MD_LIBJPEG_TURBO_WHEEL")
        return given
    cached = os.path.join(cache_dir, wheel_name(plat))
    if not os.path.isfile(cached):
        _pip_download(cache_dir, plat, log)
    _check_sha256(cached, expected, "the downloaded wheel", remove=True)
    return cached


def _check_sha256(path, expected, origin, remove=False):
    actual = _sha256(path)
    if actual != expected:
        if remove:
            os.remove(path)
        raise LibjpegError(f"{origin} {path} has sha256 {actual}, but {expected} is pinned"
                           + (" (removed it)" if remove else ""))


def _pip_download(cache_dir, plat, log):
    os.makedirs(cache_dir, exist_ok=True)
    log(f"fetching {WHEEL_PROJECT}=={WHEEL_VERSION} ({plat}) into {cache_dir}")
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
           "--python-version", _WHEEL_PYTHON, "--platform", plat, "--dest", cache_dir,
           f"{WHEEL_PROJECT}=={WHEEL_VERSION}"]
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0 or not os.path.isfile(os.path.join(cache_dir, wheel_name(plat))):
        raise LibjpegError(
            f"could not fetch {WHEEL_PROJECT}=={WHEEL_VERSION} with pip ({' '.join(cmd)}):\n"
            f"{result.stdout[-2000:]}\nWithout network, put {wheel_name(plat)} in {cache_dir} "
            f"or set MD_LIBJPEG_TURBO_WHEEL to its path (or see MD_LIBJPEG_TURBO_SOURCE/PREFIX)")


def _unpack_wheel(wheel, dest):
    """Extracts the headers and libjpeg.a (nothing else, and no path taken from the archive
    beyond its base name) into dest, atomically: a build never sees a half-written prefix."""
    tmp = tempfile.mkdtemp(prefix=".unpack-", dir=os.path.dirname(dest))
    try:
        wanted = {"include/" + h: os.path.join("include", h) for h in _HEADERS}
        wanted["lib/libjpeg.a"] = os.path.join("lib", "libjpeg.a")
        with zipfile.ZipFile(wheel) as zf:
            for info in zf.infolist():
                _, sep, rest = info.filename.partition(".data/purelib/" + _WHEEL_PREFIX)
                if sep and rest in wanted:
                    target = os.path.join(tmp, wanted.pop(rest))
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    with zf.open(info) as src, open(target, "wb") as out:
                        shutil.copyfileobj(src, out)
        if wanted:
            raise LibjpegError(f"{wheel} lacks {', '.join(sorted(wanted))}")
        _publish(tmp, dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _publish(tmp, dest):
    try:
        os.rename(tmp, dest)
    except OSError:
        if not os.path.isdir(dest):   # not a concurrent build that finished first
            raise


def _simd_assembler():
    return shutil.which("nasm") or shutil.which("yasm")


def _build_from_source(source, cache_dir, log):
    """cmake build of a libjpeg-turbo source tree or tarball into the cache (static, PIC)."""
    if not os.path.exists(source):
        raise LibjpegError(f"MD_LIBJPEG_TURBO_SOURCE={source}: no such file or directory")
    if not shutil.which("cmake"):
        raise LibjpegError("MD_LIBJPEG_TURBO_SOURCE is set but cmake is not on PATH "
                           "(pip install cmake)")
    os.makedirs(cache_dir, exist_ok=True)
    key = (_sha256(source) if os.path.isfile(source) else os.path.abspath(source))
    asm = _simd_assembler()
    tag = hashlib.sha256(f"{key} simd={bool(asm)}".encode()).hexdigest()[:16]
    prefix = os.path.join(cache_dir, f"libjpeg-turbo-src-{tag}")
    if os.path.isdir(prefix):
        return _from_prefix(prefix, f"the libjpeg-turbo built from {source}")
    work = tempfile.mkdtemp(prefix=".build-", dir=cache_dir)
    try:
        src_dir = _source_tree(source, work)
        install = os.path.join(work, "install")
        if not asm:
            log("nasm/yasm not found: building libjpeg-turbo without SIMD (slower decoding; "
                "install nasm for the SIMD build)")
        configure = ["cmake", "-S", src_dir, "-B", os.path.join(work, "build"),
                     "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_INSTALL_PREFIX={install}",
                     f"-DCMAKE_INSTALL_LIBDIR={install}/lib",     # absolute: 2.x resolves a
                     f"-DCMAKE_INSTALL_INCLUDEDIR={install}/include",   # relative one from cwd
                     "-DENABLE_SHARED=OFF", "-DENABLE_STATIC=ON",
                     "-DCMAKE_POSITION_INDEPENDENT_CODE=ON", "-DWITH_TURBOJPEG=OFF",
                     f"-DWITH_SIMD={'ON' if asm else 'OFF'}",
                     # cmake 4 refuses projects declaring a minimum below 3.5 (libjpeg-turbo
                     # 2.x/3.0 say 2.8.12) unless told this; older cmake ignores it.
                     "-DCMAKE_POLICY_VERSION_MINIMUM=3.5"]
        if asm:
            configure.append(f"-DCMAKE_ASM_NASM_COMPILER={asm}")
        jobs = str(os.cpu_count() or 1)
        for cmd in (configure, ["cmake", "--build", os.path.join(work, "build"), "-j", jobs],
                    ["cmake", "--install", os.path.join(work, "build")]):
            result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True)
            if result.returncode != 0:
                raise LibjpegError(f"libjpeg-turbo build step failed: {' '.join(cmd)}\n"
                                   f"{result.stdout[-3000:]}")
        _from_prefix(install, f"the libjpeg-turbo built from {source}")   # validates
        _publish(install, prefix)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return _from_prefix(prefix, f"the libjpeg-turbo built from {source}")


def _source_tree(source, work):
    """The directory holding libjpeg-turbo's top-level CMakeLists.txt."""
    if os.path.isdir(source):
        root = source
    else:
        root = os.path.join(work, "src")
        if not hasattr(tarfile, "data_filter"):
            raise LibjpegError("MD_LIBJPEG_TURBO_SOURCE: unpacking a tarball safely needs a "
                               "Python with tarfile filters (3.9.17+, 3.10.12+, 3.11.4+); "
                               "unpack it yourself and pass the directory")
        with tarfile.open(source) as tf:
            tf.extractall(root, filter="data")
        entries = os.listdir(root)
        if len(entries) == 1 and os.path.isdir(os.path.join(root, entries[0])):
            root = os.path.join(root, entries[0])
    if not os.path.isfile(os.path.join(root, "CMakeLists.txt")):
        raise LibjpegError(f"MD_LIBJPEG_TURBO_SOURCE={source}: no CMakeLists.txt at its top "
                           f"level: not a libjpeg-turbo source tree")
    return root


if __name__ == "__main__":     # fetch/build now and say what will be linked
    lib = ensure()
    print(f"libjpeg-turbo {lib.version}: {lib.archive}")
