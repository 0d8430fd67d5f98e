"""tools/libjpeg_turbo.py, the build helper that provides the static libjpeg-turbo: it uses
only a wheel whose sha256 matches the pin, unpacks only the headers and the archive, and says
clearly what is missing. Runs offline: it works on the wheel the build already cached."""
import os
import shutil
import zipfile

import pytest

from tests.conftest import PROJECT_ROOT, load_script

libjpeg_turbo = load_script("tools/libjpeg_turbo.py")


@pytest.fixture
def clean_env(monkeypatch):
    for var in ("MD_LIBJPEG_TURBO_PREFIX", "MD_LIBJPEG_TURBO_SOURCE", "MD_LIBJPEG_TURBO_WHEEL",
                "MD_THIRD_PARTY_DIR"):
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def _cached_wheel():
    plat = libjpeg_turbo.wheel_platform()
    path = PROJECT_ROOT / "build" / "third_party" / libjpeg_turbo.wheel_name(plat)
    if not path.is_file():
        pytest.skip(f"{path} not cached (built from MD_LIBJPEG_TURBO_PREFIX/SOURCE?)")
    return path


def test_pinned_wheel_unpacks_into_a_static_libjpeg_turbo_3(clean_env, tmp_path):
    clean_env.setenv("MD_LIBJPEG_TURBO_WHEEL", str(_cached_wheel()))
    lib = libjpeg_turbo.ensure(str(tmp_path), log=lambda msg: None)
    assert lib.version.startswith("3.")
    assert os.path.isfile(os.path.join(lib.include_dir, "jpeglib.h"))
    with open(lib.archive, "rb") as f:
        assert f.read(8) == b"!<arch>\n"            # a static archive, not a shared library
    # Everything unpacked lies under the cache: nothing else of the wheel is extracted.
    files = sorted(os.path.relpath(os.path.join(d, n), tmp_path)
                   for d, _, names in os.walk(tmp_path) for n in names)
    assert all(f.split(os.sep)[1] in ("include", "lib") for f in files), files
    assert len(files) == 5


def test_wheel_with_other_sha256_is_refused(clean_env, tmp_path):
    fake = tmp_path / libjpeg_turbo.wheel_name(libjpeg_turbo.wheel_platform())
    with zipfile.ZipFile(fake, "w") as zf:
        zf.writestr("x.data/purelib/libjpeg/install/lib/libjpeg.a", b"!<arch>\nnot the pin")
    clean_env.setenv("MD_LIBJPEG_TURBO_WHEEL", str(fake))
    with pytest.raises(libjpeg_turbo.LibjpegError, match="sha256 .* is pinned"):
        libjpeg_turbo.ensure(str(tmp_path / "cache"), log=lambda msg: None)
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").iterdir())


def test_tampered_cached_download_is_removed(clean_env, tmp_path):
    cached = tmp_path / libjpeg_turbo.wheel_name(libjpeg_turbo.wheel_platform())
    cached.write_bytes(b"tampered")
    with pytest.raises(libjpeg_turbo.LibjpegError, match="removed it"):
        libjpeg_turbo.ensure(str(tmp_path), log=lambda msg: None)
    assert not cached.exists()


def test_missing_wheel_path_is_named(clean_env, tmp_path):
    clean_env.setenv("MD_LIBJPEG_TURBO_WHEEL", str(tmp_path / "nope.whl"))
    with pytest.raises(libjpeg_turbo.LibjpegError, match="MD_LIBJPEG_TURBO_WHEEL=.*nope.whl"):
        libjpeg_turbo.ensure(str(tmp_path), log=lambda msg: None)


def test_prefix_without_static_archive_is_refused(clean_env, tmp_path):
    include = tmp_path / "include"
    include.mkdir()
    for header in ("jconfig.h", "jerror.h", "jmorecfg.h", "jpeglib.h"):
        (include / header).write_text("#define LIBJPEG_TURBO_VERSION 3.1.0\n")
    clean_env.setenv("MD_LIBJPEG_TURBO_PREFIX", str(tmp_path))
    with pytest.raises(libjpeg_turbo.LibjpegError, match="no static lib/libjpeg.a"):
        libjpeg_turbo.ensure(str(tmp_path / "cache"))
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "libjpeg.a").write_bytes(b"!<arch>\n")
    assert libjpeg_turbo.ensure(str(tmp_path / "cache")).version == "3.1.0"


def test_prefix_of_another_libjpeg_is_refused(clean_env, tmp_path):
    (tmp_path / "include").mkdir()
    for header in ("jconfig.h", "jerror.h", "jmorecfg.h", "jpeglib.h"):
        (tmp_path / "include" / header).write_text("#define JPEG_LIB_VERSION 90\n")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "libjpeg.a").write_bytes(b"!<arch>\n")
    clean_env.setenv("MD_LIBJPEG_TURBO_PREFIX", str(tmp_path))
    with pytest.raises(libjpeg_turbo.LibjpegError, match="not libjpeg-turbo"):
        libjpeg_turbo.ensure(str(tmp_path / "cache"))


def test_source_that_is_not_libjpeg_turbo_is_refused(clean_env, tmp_path):
    (tmp_path / "src").mkdir()
    clean_env.setenv("MD_LIBJPEG_TURBO_SOURCE", str(tmp_path / "src"))
    if not shutil.which("cmake"):
        pytest.skip("needs cmake")
    with pytest.raises(libjpeg_turbo.LibjpegError, match="no CMakeLists.txt"):
        libjpeg_turbo.ensure(str(tmp_path / "cache"), log=lambda msg: None)
    assert not [p for p in (tmp_path / "cache").iterdir()]    # the work directory is gone
