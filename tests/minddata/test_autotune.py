"""Dataset AutoTune as MindSpore 2.10 exposes it (minddata/autotune.py): the config setters'
checks, the configuration file <prefix>_<RANK_ID>.json written when a run ends (its tree loads
back with ds.deserialize into the same pipeline), samples at the configured interval, and the
refusal next to Dataset Profiling."""
import json
import os

import numpy as np
import pytest

import minddata as ds
import minddata.transforms as T
from minddata import config
from minddata.profiling import MANAGER
from minddata.serialization import deserialize, serialize

from .test_profiling_compat import reset_manager
from .test_sources_helpers import make_mnist_dir


@pytest.fixture(autouse=True)
def _no_rank(monkeypatch):
    monkeypatch.delenv("RANK_ID", raising=False)
    monkeypatch.delenv("MS_INDEPENDENT_DATASET", raising=False)


def _mnist_pipeline(root):
    make_mnist_dir(root)
    data = ds.MnistDataset(root, num_samples=6)
    return data.map(T.OneHot(10), "label").batch(2, drop_remainder=True)


def test_config_defaults_and_argument_checks(tmp_path):
    assert config.get_enable_autotune() is False
    assert config.get_autotune_interval() == 0
    with pytest.raises(TypeError, match="enable must be of type bool"):
        config.set_enable_autotune(1)
    config.set_autotune_interval(200)
    assert config.get_autotune_interval() == 200
    for bad in (20.012, True, "3"):
        with pytest.raises(TypeError, match="interval must be of type int"):
            config.set_autotune_interval(bad)
    with pytest.raises(ValueError, match=r"interval is not within the required interval"):
        config.set_autotune_interval(-999)
    assert config.get_autotune_interval() == 200


def test_a_directory_without_write_permission_is_refused(tmp_path, monkeypatch):
    # Tests run as root here, for whom a read-only directory is writable: the check asks
    # os.access, so ask it to say no.
    monkeypatch.setattr(config.os, "access", lambda path, mode: False)
    with pytest.raises(RuntimeError, match=r"No write permission on the directory <.*>"):
        config.set_enable_autotune(True, str(tmp_path / "at"))
    assert config.get_enable_autotune() is False


def test_the_tuned_configuration_file_loads_back_into_the_same_pipeline(tmp_path, capfd):
    data = _mnist_pipeline(str(tmp_path / "mnist"))
    config.set_enable_autotune(True, str(tmp_path / "at"))
    ds.config.set_seed(1)
    expected = [r for r in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    path = tmp_path / "at_0.json"           # RANK_ID unset: rank 0
    content = json.loads(path.read_text())
    assert set(content) == {"remark", "summary", "tree"}
    assert "changed nothing" in content["remark"]
    assert content["tree"] == serialize(data)
    # One line per stage of the run, root first, with the workers and queue it ran with.
    assert content["summary"][0].startswith("Batch(ID:0) (num_parallel_workers: ")
    assert content["summary"][-1].startswith("MnistDataset(ID:")
    assert all("prefetch_size: " in line for line in content["summary"])
    rebuilt = deserialize(json_filepath=str(path))
    config.set_enable_autotune(False)
    ds.config.set_seed(1)
    got = [r for r in rebuilt.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    assert len(got) == len(expected) == 3
    for a, b in zip(expected, got):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
    assert "already exists" not in capfd.readouterr().err


def test_rank_id_names_the_file_and_an_existing_file_is_overwritten_with_a_warning(
        tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("RANK_ID", "3")
    (tmp_path / "at_3.json").write_text("old")
    config.set_enable_autotune(True, str(tmp_path / "at"))
    gen = ds.GeneratorDataset([(np.array([x]),) for x in range(16)], ["data"]).batch(4)
    iterator = gen.create_dict_iterator(num_epochs=2)
    for _ in range(2):
        assert sum(1 for _ in iterator) == 4
    err = capfd.readouterr().err
    assert f"{tmp_path / 'at_3.json'}> already exists. File will be overwritten with the " \
           f"AutoTuned data" in err
    content = json.loads((tmp_path / "at_3.json").read_text())
    # A generator's source cannot be written down: described, refused by deserialize.
    assert "__unserializable__" in content["tree"]["children"][0]["source"]
    with pytest.raises(ValueError, match="GeneratorDataset"):
        deserialize(json_filepath=str(tmp_path / "at_3.json"))


def test_nothing_is_written_when_off_or_without_a_prefix(tmp_path):
    data = ds.NumpySlicesDataset(np.arange(6), ["x"], shuffle=False)
    config.set_enable_autotune(False, str(tmp_path / "at"))
    assert sum(1 for _ in data) == 6
    config.set_enable_autotune(True)
    assert sum(1 for _ in data) == 6
    assert os.listdir(tmp_path) == []


def test_a_stopped_or_dropped_iterator_writes_the_file_too(tmp_path):
    import weakref
    config.set_enable_autotune(True, str(tmp_path / "at"))
    iterator = ds.NumpySlicesDataset(np.arange(6), ["x"]).create_tuple_iterator(num_epochs=3)
    next(iterator)
    assert not (tmp_path / "at_0.json").exists()
    iterator.stop()
    assert (tmp_path / "at_0.json").exists()
    (tmp_path / "at_0.json").unlink()
    data = ds.NumpySlicesDataset(np.arange(6), ["x"])
    iterator = data.create_tuple_iterator(num_epochs=3)
    next(iterator)
    dataset_ref = weakref.ref(data)
    del data, iterator
    # Freed at once (reference counting, no garbage collection), the file written on the way.
    assert dataset_ref() is None
    assert (tmp_path / "at_0.json").exists()


@pytest.mark.parametrize("interval, epochs, samples", [(0, 2, 2), (4, 1, 3), (5, 1, 2 + 1)])
def test_samples_follow_the_interval(interval, epochs, samples, caplog):
    config.set_enable_autotune(True)
    config.set_autotune_interval(interval)
    data = ds.NumpySlicesDataset(np.arange(12), ["x"], shuffle=False)
    with caplog.at_level("INFO", logger="minddata"):
        iterator = data.create_tuple_iterator(num_epochs=epochs)
        for _ in range(epochs):
            assert sum(1 for _ in iterator) == 12
    # interval 0: one sample at each epoch's end; else one every `interval` steps; and one
    # when the run ends after the last of those.
    assert caplog.text.count("AutoTune sample") == samples


def test_a_pipeline_that_profiling_watches_is_not_tuned(tmp_path, capfd):
    MANAGER.init()
    MANAGER.start()
    try:
        config.set_enable_autotune(True, str(tmp_path / "at"))
        data = ds.NumpySlicesDataset(np.arange(4), ["x"])
        first = data.create_tuple_iterator(num_epochs=1)
        err = capfd.readouterr().err
        assert "Cannot enable AutoTune for the current data pipeline as Dataset Profiling is " \
               "already enabled for the current data pipeline." in err
        second = data.create_tuple_iterator(num_epochs=1)
        err = capfd.readouterr().err
        assert "Dataset Profiling is already enabled for a different data pipeline." in err
        assert "Cannot enable AutoTune for the current data pipeline as Dataset Profiling is " \
               "enabled for another data pipeline." in err
        assert sum(1 for _ in first) == sum(1 for _ in second) == 4
        assert not (tmp_path / "at_0.json").exists()
    finally:
        reset_manager()


def test_autotune_and_a_profiling_started_later_both_see_the_run(tmp_path, caplog):
    MANAGER.init()                      # watches the next pipeline, not recording yet
    try:
        config.set_enable_autotune(True, str(tmp_path / "at"))
        config.set_autotune_interval(3)
        iterator = ds.NumpySlicesDataset(np.arange(9), ["x"]).create_tuple_iterator(
            num_epochs=1)
        MANAGER.start()
        with caplog.at_level("INFO", logger="minddata"):
            assert sum(1 for _ in iterator) == 9
        MANAGER.stop()
        MANAGER.save(str(tmp_path))
        assert caplog.text.count("AutoTune sample") == 3
        assert (tmp_path / "at_0.json").exists()
        with open(tmp_path / "dataset_iterator_profiling_0.txt") as f:
            assert sum(1 for _ in f) == 4 * 9
    finally:
        reset_manager()
