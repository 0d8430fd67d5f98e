"""Dataset Profiling through MindSpore's profiling manager (mindspore._c_dataengine's
GlobalContext.profiling_manager(), minddata/profiling.py): the files MindSpore 2.x writes, with
the fields it documents, nothing when no pipeline ran, and MindSpore's errors."""
import json
import os

import numpy as np
import pytest

import minddata as ds
from minddata import config
from minddata.compat_layout import _c_dataengine as cde
from minddata.compat_layout.iterator_registry import remove_watcher
from minddata.profiling import MANAGER


@pytest.fixture
def profiler(monkeypatch):
    monkeypatch.delenv("RANK_ID", raising=False)
    monkeypatch.delenv("DEVICE_ID", raising=False)
    md = cde.GlobalContext.profiling_manager()
    md.init()
    md.start()
    yield md
    reset_manager()


def reset_manager():
    """The manager as it is before anyone calls init(): it watches no pipeline."""
    remove_watcher(MANAGER._watch_iterator)
    MANAGER.__init__()


def _files(directory, dev="0"):
    return (os.path.join(directory, f"pipeline_profiling_{dev}.json"),
            os.path.join(directory, f"minddata_cpu_utilization_{dev}.json"),
            os.path.join(directory, f"dataset_iterator_profiling_{dev}.txt"))


def _generator(n):
    return ds.GeneratorDataset([(np.array([x]),) for x in range(n)], ["data"])


def test_one_manager_and_its_errors(tmp_path):
    md = cde.GlobalContext.profiling_manager()
    assert md is MANAGER is cde.GlobalContext.profiling_manager()
    fresh = type(MANAGER)()
    with pytest.raises(RuntimeError, match="has not been initialized"):
        fresh.start()
    fresh.init()
    try:
        with pytest.raises(RuntimeError, match="has not started yet"):
            fresh.stop()
        fresh.start()
        with pytest.raises(RuntimeError, match="already running"):
            fresh.start()
        with pytest.raises(RuntimeError, match="still running"):
            fresh.save(str(tmp_path))
        fresh.stop()
        with pytest.raises(RuntimeError, match="does not exist"):
            fresh.save(str(tmp_path / "missing"))
        with pytest.raises(TypeError, match="profile_data_path must be of type str"):
            fresh.save(1)
    finally:
        remove_watcher(fresh._watch_iterator)


def test_no_files_when_no_pipeline_ran(profiler, tmp_path):
    data = _generator(64).shuffle(8).batch(8)
    # Metadata queries run the pipeline internally: they are not profiled.
    assert data.output_shapes() == [[8, 1]]
    assert data.get_dataset_size() == 8
    profiler.stop()
    profiler.save(str(tmp_path))
    assert os.listdir(tmp_path) == []


def test_files_and_fields_of_a_simple_pipeline(profiler, tmp_path):
    data = _generator(256).shuffle(16).batch(8)
    assert sum(1 for _ in data) == 32
    profiler.stop()
    profiler.save(str(tmp_path))
    pipeline_file, cpu_file, iterator_file = _files(str(tmp_path))
    with open(pipeline_file) as f:
        pipeline = json.load(f)
    assert pipeline["sampling_interval"] == config.get_monitor_sampling_interval() == 1000
    ops = pipeline["op_info"]
    assert [op["op_type"] for op in ops] == ["BatchOp", "ShuffleOp", "GeneratorOp"]
    assert [op["op_id"] for op in ops] == [0, 1, 2]
    assert [op["children"] for op in ops] == [[1], [2], []]
    for op in ops:
        queue = op["metrics"]["output_queue"]
        assert set(queue) == {"size", "length", "throughput"}
        assert len(queue["size"]) == len(queue["throughput"]) >= 1      # the sample at stop()
    assert ops[1]["metrics"]["output_queue"]["length"] == 16            # the shuffle buffer
    # Every row reached the batch: the samples' throughput adds up to rows, not zero.
    assert sum(ops[2]["metrics"]["output_queue"]["throughput"]) > 0
    with open(cpu_file) as f:
        cpu = json.load(f)
    assert len(cpu["op_info"]) == 3
    assert [op["op_type"] for op in cpu["op_info"]] == ["BatchOp", "ShuffleOp", "GeneratorOp"]
    for group, keys in (("process_memory_info", ("pss_mbytes", "rss_mbytes", "vss_mbytes")),
                        ("system_memory_info", ("total_sys_memory_mbytes",
                                                "available_sys_memory_mbytes",
                                                "used_sys_memory_mbytes"))):
        for key in keys:
            assert cpu[group][key][0] > 0
    assert len(cpu["process_info"]["user_utilization"]) == len(cpu["time_stamp"]) >= 1
    with open(iterator_file) as f:
        lines = f.read().splitlines()
    assert len(lines) == 4 * 32                 # four lines per batch handed to the user
    assert [line.split()[:3] for line in lines[:4]] == [
        ["0", "get_next_us", "1"], ["1", "consumer_gap_us", "1"], ["2", "queue_depth", "1"],
        ["3", "queue_capacity", "1"]]


def test_inline_ops_have_no_metrics_and_epoch_control_tops_multi_epoch_runs(profiler,
                                                                           tmp_path):
    data = _generator(3).concat(_generator(7)).rename(["data"], ["x"])
    rows = sum(1 for _ in data.create_tuple_iterator(num_epochs=2))
    assert rows == 10
    profiler.stop()
    profiler.save(str(tmp_path))
    pipeline_file, cpu_file, iterator_file = _files(str(tmp_path))
    with open(pipeline_file) as f:
        ops = json.load(f)["op_info"]
    assert [op["op_type"] for op in ops] == ["EpochCtrlOp", "RenameOp", "ConcatOp",
                                             "GeneratorOp", "GeneratorOp"]
    for op in ops:
        if op["op_type"] == "GeneratorOp":
            assert "size" in op["metrics"]["output_queue"]
        else:
            assert op["metrics"] is None and op["num_workers"] == 0
    with open(cpu_file) as f:
        assert len(json.load(f)["op_info"]) == 5
    with open(iterator_file) as f:
        assert sum(1 for _ in f) == 4 * 10


def test_only_the_first_pipeline_is_watched_and_device_id_names_the_files(
        profiler, tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("DEVICE_ID", "5")
    first = _generator(8).batch(2).create_tuple_iterator(num_epochs=1)
    second = _generator(8).create_tuple_iterator(num_epochs=1)
    assert "Dataset Profiling is already enabled for a different data pipeline." in \
        capfd.readouterr().err
    assert sum(1 for _ in second) == 8
    assert sum(1 for _ in first) == 4
    profiler.stop()
    profiler.save(str(tmp_path))
    pipeline_file, _, iterator_file = _files(str(tmp_path), "5")
    with open(pipeline_file) as f:
        assert [op["op_type"] for op in json.load(f)["op_info"]] == ["BatchOp", "GeneratorOp"]
    with open(iterator_file) as f:
        assert sum(1 for _ in f) == 4 * 4


def test_stop_ends_the_recording_of_a_running_pipeline(profiler, tmp_path):
    iterator = _generator(40).create_tuple_iterator(num_epochs=1)
    for step, _ in enumerate(iterator, 1):
        if step == 10:
            profiler.stop()
            profiler.save(str(tmp_path))
    _, _, iterator_file = _files(str(tmp_path))
    with open(iterator_file) as f:
        assert sum(1 for _ in f) == 4 * 10


def test_runs_nobody_watches_are_not_touched(profiler):
    profiler.stop()
    watched = _generator(4).create_tuple_iterator(num_epochs=1)
    other = _generator(4).create_tuple_iterator(num_epochs=1)
    # Only a watched run gets a wrapped next_item (one more call per item); the manager
    # watches the first pipeline after init(), and AutoTune is off.
    assert "next_item" in vars(watched._run)
    assert "next_item" not in vars(other._run)
    assert sum(1 for _ in other) == sum(1 for _ in watched) == 4


def test_monitor_sampling_interval_setting():
    assert config.get_monitor_sampling_interval() == 1000
    config.set_monitor_sampling_interval(30)
    assert config.get_monitor_sampling_interval() == 30
    with pytest.raises(TypeError, match="interval isn't of type int"):     # MindSpore's words
        config.set_monitor_sampling_interval(1.5)
    with pytest.raises(ValueError, match="not within the required interval"):
        config.set_monitor_sampling_interval(0)


def test_mindspore_name_under_the_import_hook():
    from training import compat
    compat.install()
    try:
        import mindspore._c_dataengine as ms_cde
        assert ms_cde.GlobalContext.profiling_manager() is MANAGER
    finally:
        compat.uninstall()


def test_start_after_the_pipeline_began_and_each_start_is_a_new_recording(tmp_path, capfd):
    md = MANAGER
    md.init()
    try:
        with pytest.raises(RuntimeError, match="has not started yet"):
            md.stop()
        for step, _ in enumerate(_generator(300).batch(2).create_tuple_iterator(num_epochs=1),
                                 1):
            if step in (5, 100):
                md.start()
            elif step in (40, 120):
                md.stop()
        md.stop()       # already stopped: a warning, as in MindSpore
        assert "MD ProfilingManager had already stopped." in capfd.readouterr().err
        md.save(str(tmp_path))
        _, _, iterator_file = _files(str(tmp_path))
        with open(iterator_file) as f:
            steps = [int(line.split()[2]) for line in f]
        # Only the last recording: items 101..120 (the items taken after start() at 100).
        assert len(steps) == 4 * 20
    finally:
        if md.is_running():
            md.stop()
        md.init()


def test_the_manager_does_not_keep_the_pipeline_alive(profiler, tmp_path):
    import weakref
    data = _generator(8).batch(2)
    iterator = data.create_tuple_iterator(num_epochs=1)
    assert sum(1 for _ in iterator) == 4
    profiler.stop()
    dataset_ref, run_ref = weakref.ref(data), weakref.ref(iterator._run)
    del data, iterator
    # Freed at once (reference counting), not by the garbage collector.
    assert dataset_ref() is None and run_ref() is None
    profiler.save(str(tmp_path))
    assert os.path.exists(_files(str(tmp_path))[0])


def test_the_sampling_interval_in_force_when_the_recording_began_is_used(profiler, tmp_path):
    profiler.stop()
    config.set_monitor_sampling_interval(30)
    profiler.start()
    config.set_monitor_sampling_interval(1000)
    assert sum(1 for _ in _generator(8)) == 8
    profiler.stop()
    profiler.save(str(tmp_path))
    pipeline_file, cpu_file, _ = _files(str(tmp_path))
    for path in (pipeline_file, cpu_file):
        with open(path) as f:
            assert json.load(f)["sampling_interval"] == 30
