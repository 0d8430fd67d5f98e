"""The Ray backend: one task per shard on a local 2-worker Ray instance, same files as local."""
import os

import pytest

ray = pytest.importorskip("ray")

from mindrecord.tools import ConversionError, ImageFolderToMR  # noqa: E402
from .test_tools_helpers import make_image_folder, read_rows  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    try:
        _start(ray)
    except Exception as exc:   # noqa: BLE001 - e.g. a sandbox without room for Ray's store
        pytest.skip(f"cannot start a local Ray instance here: {exc}")
    yield
    ray.shutdown()


def _start(ray):
    ray.init(num_cpus=2, _node_ip_address="127.0.0.1", include_dashboard=False, log_to_driver=False,
             configure_logging=False, runtime_env={"env_vars": {
                 "PYTHONPATH": os.pathsep.join(filter(None, [
                     os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
                     os.environ.get("PYTHONPATH")]))}})


def test_ray_run_gives_the_same_files_as_a_local_run(tmp_path, local_ray):
    make_image_folder(tmp_path / "src", per_class=5)
    os.makedirs(tmp_path / "local")
    os.makedirs(tmp_path / "ray")
    local = ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "local" / "o.mr"),
                            3).transform()
    remote = ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "ray" / "o.mr"),
                             3).transform(backend="ray")
    assert remote.rows == local.rows == 15
    for a, b in zip(local.files, remote.files):
        for suffix in ("", ".db"):
            with open(a + suffix, "rb") as x, open(b + suffix, "rb") as y:
                assert x.read() == y.read(), os.path.basename(a + suffix)
    assert len(read_rows(remote.files[0])) == 15


def test_ray_run_bad_input_removes_everything(tmp_path, local_ray):
    make_image_folder(tmp_path / "src", per_class=3)
    (tmp_path / "src" / "dog" / "img_1.jpg").write_bytes(b"junk")
    os.makedirs(tmp_path / "out")
    with pytest.raises(ConversionError, match=r"dog/img_1\.jpg: not an image"):
        ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "out" / "o.mr"),
                        2).transform(backend="ray")
    assert os.listdir(tmp_path / "out") == []


def test_ray_skip_bad_reports_items_from_tasks(tmp_path, local_ray):
    make_image_folder(tmp_path / "src", per_class=3)
    (tmp_path / "src" / "dog" / "img_1.jpg").write_bytes(b"junk")
    result = ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "o.mr"), 2).transform(
        backend="ray", skip_bad=True)
    assert result.rows == 8 and [w for w, _ in result.skipped] == [
        str(tmp_path / "src" / "dog" / "img_1.jpg")]
