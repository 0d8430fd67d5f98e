"""training.log is MindSpore's log module (`from mindspore import log as logger`): the level
functions, get_level / get_log_config and the GLOG_* environment variables."""
import logging
import logging.handlers

import pytest

from training import compat, log


@pytest.fixture
def restore_log_config():
    yield
    log.configure({})


@pytest.mark.parametrize("glog_v, level", [("0", logging.DEBUG), ("1", logging.INFO),
                                           ("2", logging.WARNING), ("3", logging.ERROR),
                                           ("4", logging.CRITICAL), ("", logging.WARNING),
                                           (" 3 ", logging.ERROR)])
def test_glog_v_sets_the_level_and_get_level_reports_it(restore_log_config, glog_v, level):
    assert log.configure({"GLOG_v": glog_v}).level == level
    assert log.get_level() == {logging.DEBUG: "0", logging.INFO: "1", logging.WARNING: "2",
                               logging.ERROR: "3", logging.CRITICAL: "4"}[level]


def test_level_functions_log_with_the_callers_location(restore_log_config, caplog):
    log.configure({"GLOG_v": "1"})
    logger = logging.getLogger(log.LOGGER_NAME)
    logger.addHandler(caplog.handler)
    try:
        log.debug("hidden at info level")
        log.info("the %s is %r", "arg", 3)
        log.warning("warn")
        log.error("err")
        log.critical("crit")
        try:
            raise KeyError("k")
        except KeyError:
            log.exception("caught")
    finally:
        logger.removeHandler(caplog.handler)
    got = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert got == [("INFO", "the arg is 3"), ("WARNING", "warn"), ("ERROR", "err"),
                   ("CRITICAL", "crit"), ("ERROR", "caught")]
    assert {r.filename for r in caplog.records} == {"test_log_module.py"}
    assert caplog.records[-1].exc_info[0] is KeyError


def test_get_log_config_on_stderr_and_with_a_file(restore_log_config, tmp_path):
    log.configure({"GLOG_v": "1"})
    assert log.get_log_config() == {"GLOG_v": "1", "GLOG_logtostderr": "1"}
    log.configure({"GLOG_v": "0", "GLOG_logtostderr": "0", "GLOG_log_dir": str(tmp_path),
                   "logger_maxBytes": "4096", "logger_backupCount": "2",
                   "GLOG_stderrthreshold": "3"})
    assert log.get_log_config() == {"GLOG_v": "0", "GLOG_logtostderr": "0",
                                    "GLOG_log_dir": str(tmp_path), "logger_maxBytes": 4096,
                                    "logger_backupCount": 2, "GLOG_stderrthreshold": "3"}
    handlers = logging.getLogger(log.LOGGER_NAME).handlers
    rotating = [h for h in handlers if isinstance(h, logging.handlers.RotatingFileHandler)]
    assert len(rotating) == 1 and rotating[0].maxBytes == 4096 and rotating[0].backupCount == 2
    stderr = [h for h in handlers if type(h) is logging.StreamHandler]
    assert len(stderr) == 1 and stderr[0].level == logging.ERROR  # GLOG_stderrthreshold


def test_file_only_logging_still_shows_warnings_on_stderr(restore_log_config, tmp_path, capsys):
    log.configure({"GLOG_logtostderr": "0", "GLOG_log_dir": str(tmp_path), "GLOG_v": "1"})
    log.info("only in the file")
    log.warning("in the file and on stderr")
    for h in logging.getLogger(log.LOGGER_NAME).handlers:
        h.flush()
    err = capsys.readouterr().err
    assert "in the file and on stderr" in err and "only in the file" not in err
    text = next(tmp_path.iterdir()).read_text()
    assert "only in the file" in text and "in the file and on stderr" in text


@pytest.mark.parametrize("env, words", [
    ({"GLOG_v": "5"}, "Incorrect log level.*GLOG_v.*4-CRITICAL, 3-ERROR, 2-WARNING, 1-INFO, "
                      "0-DEBUG"),
    ({"GLOG_stderrthreshold": "x"}, "Incorrect log level.*GLOG_stderrthreshold"),
    ({"GLOG_logtostderr": "2"}, "GLOG_logtostderr must be 0 or 1"),
    ({"GLOG_logtostderr": "0"}, "GLOG_log_dir cannot be empty"),
    ({"GLOG_log_dir": "/tmp", "logger_maxBytes": "-1"}, "logger_maxBytes must be a positive"),
    ({"GLOG_log_dir": "/tmp", "logger_backupCount": "a"}, "logger_backupCount must be a"),
])
def test_invalid_settings_raise_value_error_naming_the_variable(restore_log_config, env, words):
    with pytest.raises(ValueError, match=words):
        log.configure(env)


def test_mindspore_log_under_the_hook_is_this_module():
    compat.install()
    try:
        import mindspore.log
        from mindspore import log as logger
        assert logger is log and mindspore.log is log
        assert callable(logger.info) and logger.get_level() in "01234"
    finally:
        compat.uninstall()
