"""Logging through Python's `logging`, set up from MindSpore's environment variables:
GLOG_v (0 debug, 1 info, 2 warning (default), 3 error), GLOG_logtostderr (1 default: to stderr;
0: only to files) and GLOG_log_dir (a directory for training.<pid>.log)."""
import logging
import os

LOGGER_NAME = "training"
_LEVELS = {"0": logging.DEBUG, "1": logging.INFO, "2": logging.WARNING, "3": logging.ERROR}
_FORMAT = "[%(levelname)s] %(name)s(%(process)d):%(asctime)s [%(filename)s:%(lineno)d] %(message)s"
_configured = {}


def configure(environ=None):
    """(Re)configure the "training" logger from the environment; returns it."""
    env = os.environ if environ is None else environ
    level_text = env.get("GLOG_v", "2")
    if level_text not in _LEVELS:
        raise ValueError(f"GLOG_v must be 0 (debug), 1 (info), 2 (warning) or 3 (error), but got "
                         f"{level_text!r}")
    to_stderr = env.get("GLOG_logtostderr", "1")
    if to_stderr not in ("0", "1"):
        raise ValueError(f"GLOG_logtostderr must be 0 or 1, but got {to_stderr!r}")
    logger = logging.getLogger(LOGGER_NAME)
    for handler in _configured.pop("handlers", []):
        logger.removeHandler(handler)
        handler.close()
    handlers = []
    formatter = logging.Formatter(_FORMAT)
    if to_stderr == "1":
        handlers.append(logging.StreamHandler())
    log_dir = env.get("GLOG_log_dir")
    if log_dir:
        os.makedirs(log_dir, exist_ok=True)
        handlers.append(logging.FileHandler(os.path.join(log_dir, f"training.{os.getpid()}.log")))
    elif to_stderr == "0":
        raise ValueError("GLOG_logtostderr=0 needs GLOG_log_dir to name a directory for the logs")
    for handler in handlers:
        handler.setFormatter(formatter)
        logger.addHandler(handler)
    logger.setLevel(_LEVELS[level_text])
    logger.propagate = False
    _configured["handlers"] = handlers
    return logger


def get_logger():
    if "handlers" not in _configured:
        configure()
    return logging.getLogger(LOGGER_NAME)
