"""The settings of MindSpore's own runtime: accepted, checked and read back as MindSpore 2.10
does them (its defaults and error types measured there), and config.load of its JSON files."""
import json

import pytest

import minddata as ds
from minddata import config


@pytest.fixture(autouse=True)
def restore():
    saved = dict(config._state)
    yield
    config._state.clear()
    config._state.update(saved)


def test_defaults_are_mindspore_s():
    assert config.get_enable_watchdog() is True and config.get_fast_recovery() is True
    assert config.get_numa_enable() is False and config.get_auto_offload() is False
    assert config.get_dynamic_shape() is False
    assert config.get_multiprocessing_start_method() == "fork"
    assert config.get_video_backend() == "CPU"
    assert config.get_iterator_mode() == {"do_copy": False, "parallel_convert": False}
    assert config.get_error_samples_mode() is config.ErrorSamplesMode.RETURN
    assert ds.get_seed is config.get_seed and ds.ErrorSamplesMode is config.ErrorSamplesMode


def test_settings_are_checked_and_kept():
    config.set_iterator_mode(do_copy=True)
    assert config.get_iterator_mode() == {"do_copy": True, "parallel_convert": False}
    config.set_multiprocessing_start_method("spawn")
    assert config.get_multiprocessing_start_method() == "spawn"
    config.set_error_samples_mode(config.ErrorSamplesMode.SKIP)
    assert config.get_error_samples_mode() == config.ErrorSamplesMode.SKIP
    for call, error, words in (
            (lambda: config.set_enable_watchdog(1), TypeError, "enable must be a boolean"),
            (lambda: config.set_fast_recovery("a"), TypeError, "fast_recovery must be"),
            (lambda: config.set_numa_enable(1), TypeError, "numa_enable must be"),
            (lambda: config.set_auto_offload(1), TypeError, "offload must be a bool"),
            (lambda: config.set_dynamic_shape(1), TypeError, "is_dynamic must be"),
            (lambda: config.set_iterator_mode(1), TypeError, "do_copy"),
            (lambda: config.set_multiprocessing_start_method("x"), ValueError, "start_method"),
            (lambda: config.set_video_backend("x"), ValueError, "backend"),
            (lambda: config.set_error_samples_mode(3), TypeError, "ErrorSamplesMode")):
        with pytest.raises(error, match=words):
            call()


def test_load_reads_mindspore_config_files(tmp_path):
    path = tmp_path / "declient.cfg"
    path.write_text(json.dumps({"logFilePath": "/tmp", "numParallelWorkers": 4,
                                "workerConnectorSize": 16, "opConnectorSize": 16,
                                "seed": 5489, "monitorSamplingInterval": 15}))
    config.load(str(path))
    assert config.get_num_parallel_workers() == 4 and config.get_seed() == 5489
    assert config.get_prefetch_size() == 16 and config.get_monitor_sampling_interval() == 15
    with pytest.raises(RuntimeError, match="nothing.cfg"):
        config.load(str(tmp_path / "nothing.cfg"))

