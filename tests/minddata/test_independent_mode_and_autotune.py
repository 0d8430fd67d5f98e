"""MindSpore 2.10's refusals (issue 20, row 6): with MS_INDEPENDENT_DATASET=True a cache,
AutoTune, sync_wait/sync_update and map callbacks are a RuntimeError; set_enable_autotune checks
the path its tuned configuration would be written to."""
import numpy as np
import pytest

import minddata as ds
from minddata import config


@pytest.fixture
def independent(monkeypatch):
    monkeypatch.setenv("MS_INDEPENDENT_DATASET", "True")


def _data():
    return ds.NumpySlicesDataset(np.arange(4), ["x"], shuffle=False)


def test_features_refused_in_independent_mode(independent, tmp_path):
    words = "is not supported in Dataset Independent mode"
    with pytest.raises(RuntimeError, match=f"Dataset AutoTune {words}"):
        config.set_enable_autotune(True)
    config.set_enable_autotune(False)                   # turning it off is fine
    cache = ds.DatasetCache(session_id=1, size=0, spilling=False)
    csv = tmp_path / "t.csv"
    csv.write_text("a\n1\n2\n")
    with pytest.raises(RuntimeError, match=f"Dataset Cache {words}"):
        ds.CSVDataset(str(csv), cache=cache)
    with pytest.raises(RuntimeError, match=f"Dataset Cache {words}"):
        _data().map(lambda x: x, "x", cache=cache)
    with pytest.raises(RuntimeError, match=f"Dataset Callbacks {words}"):
        _data().map(lambda x: x, "x", callbacks=[ds.DSCallback()])
    with pytest.raises(RuntimeError, match=f"Dataset sync wait {words}"):
        _data().sync_wait("c")
    with pytest.raises(RuntimeError, match=f"Dataset sync update {words}"):
        _data().sync_update("c")
    # the rest of the pipeline works as usual
    assert [int(r[0]) for r in _data().map(lambda x: x + 1, "x")] == [1, 2, 3, 4]


def test_the_same_features_outside_independent_mode(monkeypatch):
    monkeypatch.setenv("MS_INDEPENDENT_DATASET", "false")
    config.set_enable_autotune(True)
    assert config.get_enable_autotune()
    _data().map(lambda x: x, "x", callbacks=[ds.DSCallback()])
    _data().sync_wait("c")


def test_autotune_json_path_is_checked(tmp_path):
    with pytest.raises(TypeError, match="json_filepath must be a str"):
        config.set_enable_autotune(True, 123)
    with pytest.raises(RuntimeError, match="json_filepath cannot be the empty string"):
        config.set_enable_autotune(True, "")
    with pytest.raises(RuntimeError, match="is a directory, not filename"):
        config.set_enable_autotune(True, str(tmp_path))
    with pytest.raises(RuntimeError, match="Directory <.*missing> does not exist"):
        config.set_enable_autotune(True, str(tmp_path / "missing" / "at"))
    config.set_enable_autotune(True, str(tmp_path / "at"))        # a file in a directory
    assert config.get_enable_autotune()
    config.set_enable_autotune(False, str(tmp_path / "missing" / "at"))   # ignored when off
    assert not config.get_enable_autotune()
