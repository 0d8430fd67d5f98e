"""MindSpore's log module (``from mindspore import log as logger``) on Python's ``logging``.

Module functions ``debug``, ``info``, ``warning``, ``error``, ``critical`` and ``exception``
log to the ``training`` logger, whose level and handlers come from MindSpore's environment
variables, read on first use (or by ``configure``):

- ``GLOG_v``: 0 debug, 1 info, 2 warning (default), 3 error, 4 critical;
- ``GLOG_logtostderr``: 1 (default) log to stderr; 0 log to a file only, with messages at
  ``GLOG_stderrthreshold`` (same scale, default 2) or above also on stderr;
- ``GLOG_log_dir``: the directory of the file ``training.<pid>.log`` (required when
  ``GLOG_logtostderr`` is 0; with 1 the file is written besides stderr);
- ``logger_maxBytes`` (default 52428800) and ``logger_backupCount`` (default 30): the file
  rotates at that size, keeping that many old files.

``get_level()`` and ``get_log_config()`` report the settings in GLOG terms, as MindSpore's do.
"""
import logging
import logging.handlers
import os

LOGGER_NAME = "training"
# GLOG level -> logging level, and back.
_LEVELS = {"0": logging.DEBUG, "1": logging.INFO, "2": logging.WARNING, "3": logging.ERROR,
           "4": logging.CRITICAL}
_GLOG_OF = {v: k for k, v in _LEVELS.items()}
_DEFAULTS = {"GLOG_v": "2", "GLOG_logtostderr": "1", "GLOG_stderrthreshold": "2",
             "logger_maxBytes": "52428800", "logger_backupCount": "30"}
_FORMAT = "[%(levelname)s] %(name)s(%(process)d):%(asctime)s [%(filename)s:%(lineno)d] %(message)s"
_configured = {}

__all__ = ["debug", "info", "warning", "error", "critical", "exception", "get_level",
           "get_log_config", "configure", "get_logger"]


def _setting(env, name):
    """An environment variable's value, stripped; unset or empty gives MindSpore's default."""
    value = (env.get(name) or "").strip()
    return value or _DEFAULTS.get(name)


def _check_level(name, value):
    if value not in _LEVELS:
        raise ValueError(f"Incorrect log level: {name}={value!r}. Please check the configuration "
                         f"of {name}, desired log level: 4-CRITICAL, 3-ERROR, 2-WARNING, 1-INFO, "
                         f"0-DEBUG")
    return _LEVELS[value]


def _check_count(name, value):
    if not value.isdigit():
        raise ValueError(f"Incorrect value, the value of {name} must be a positive integer, but "
                         f"got {value!r}")
    return int(value)


def configure(environ=None):
    """(Re)configure the "training" logger from the environment (``os.environ`` or the mapping
    given); returns the logger. Raises ValueError for a value MindSpore would refuse."""
    env = os.environ if environ is None else environ
    level = _check_level("GLOG_v", _setting(env, "GLOG_v"))
    stderr_level = _check_level("GLOG_stderrthreshold", _setting(env, "GLOG_stderrthreshold"))
    to_stderr = _setting(env, "GLOG_logtostderr")
    if to_stderr not in ("0", "1"):
        raise ValueError(f"Incorrect value, the value of GLOG_logtostderr must be 0 or 1 (1: "
                         f"output the log to the console), but got {to_stderr!r}")
    log_dir = _setting(env, "GLOG_log_dir")
    if to_stderr == "0" and not log_dir:
        raise ValueError("When GLOG_logtostderr is set to 0, the directory of saving log must be "
                         "set: GLOG_log_dir cannot be empty")
    max_bytes = backup_count = None
    if log_dir:
        max_bytes = _check_count("logger_maxBytes", _setting(env, "logger_maxBytes"))
        backup_count = _check_count("logger_backupCount", _setting(env, "logger_backupCount"))

    logger = logging.getLogger(LOGGER_NAME)
    for handler in _configured.pop("handlers", []):
        logger.removeHandler(handler)
        handler.close()
    handlers = []
    if to_stderr == "1":
        handlers.append(logging.StreamHandler())
    else:  # the file, and the messages at GLOG_stderrthreshold or above on stderr too
        stderr = logging.StreamHandler()
        stderr.setLevel(stderr_level)
        handlers.append(stderr)
    if log_dir:
        os.makedirs(log_dir, exist_ok=True)
        handlers.append(logging.handlers.RotatingFileHandler(
            os.path.join(log_dir, f"training.{os.getpid()}.log"), maxBytes=max_bytes,
            backupCount=backup_count, encoding="utf8"))
    formatter = logging.Formatter(_FORMAT)
    for handler in handlers:
        handler.setFormatter(formatter)
        logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False
    _configured.update(handlers=handlers, to_stderr=to_stderr, log_dir=log_dir,
                       stderr_level=stderr_level, max_bytes=max_bytes,
                       backup_count=backup_count)
    return logger


def get_logger():
    """The "training" logger, configured from the environment on first use."""
    if "handlers" not in _configured:
        configure()
    return logging.getLogger(LOGGER_NAME)


def _log(level, msg, args, kwargs):
    # stacklevel 3: the record names the caller of info()/warning()/..., not this module.
    kwargs.setdefault("stacklevel", 3)
    get_logger().log(level, msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
    """Log ``msg % args`` with severity DEBUG (shown with GLOG_v=0)."""
    _log(logging.DEBUG, msg, args, kwargs)


def info(msg, *args, **kwargs):
    """Log ``msg % args`` with severity INFO (shown with GLOG_v<=1)."""
    _log(logging.INFO, msg, args, kwargs)


def warning(msg, *args, **kwargs):
    """Log ``msg % args`` with severity WARNING (shown by default)."""
    _log(logging.WARNING, msg, args, kwargs)


def error(msg, *args, **kwargs):
    """Log ``msg % args`` with severity ERROR."""
    _log(logging.ERROR, msg, args, kwargs)


def critical(msg, *args, **kwargs):
    """Log ``msg % args`` with severity CRITICAL."""
    _log(logging.CRITICAL, msg, args, kwargs)


def exception(msg, *args, **kwargs):
    """Log ``msg % args`` with severity ERROR and the traceback of the exception being
    handled (call it from an ``except`` block)."""
    kwargs.setdefault("exc_info", True)
    _log(logging.ERROR, msg, args, kwargs)


def get_level():
    """The log level as MindSpore's GLOG string: '0' debug ... '4' critical."""
    level = get_logger().getEffectiveLevel()
    return _GLOG_OF.get(level, str(level))


def get_log_config():
    """The logging settings in effect, keyed by MindSpore's environment variable names:
    ``GLOG_v`` and ``GLOG_logtostderr`` always; with a log file also ``GLOG_log_dir``,
    ``logger_maxBytes``, ``logger_backupCount`` (ints) and ``GLOG_stderrthreshold``."""
    get_logger()
    config = {"GLOG_v": get_level(), "GLOG_logtostderr": _configured["to_stderr"]}
    if _configured["log_dir"]:
        config.update(GLOG_log_dir=_configured["log_dir"],
                      logger_maxBytes=_configured["max_bytes"],
                      logger_backupCount=_configured["backup_count"],
                      GLOG_stderrthreshold=_GLOG_OF[_configured["stderr_level"]])
    return config
