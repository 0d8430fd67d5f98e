"""Callbacks with MindSpore's names and events (one module per callback)."""
from training.callbacks.callback import Callback, CallbackList, RunContext  # noqa: F401
from training.callbacks.checkpoint import CheckpointConfig, ModelCheckpoint  # noqa: F401
from training.callbacks.early_stopping import EarlyStopping  # noqa: F401
from training.callbacks.history import History  # noqa: F401
from training.callbacks.lambda_callback import LambdaCallback  # noqa: F401
from training.callbacks.lr_scheduler import LearningRateScheduler  # noqa: F401
from training.callbacks.on_request_exit import OnRequestExit  # noqa: F401
from training.callbacks.loss_monitor import LossMonitor  # noqa: F401
from training.callbacks.reduce_lr import ReduceLROnPlateau  # noqa: F401
from training.callbacks.summary import SummaryCollector  # noqa: F401
from training.callbacks.time_monitor import TimeMonitor  # noqa: F401

__all__ = ["Callback", "CallbackList", "CheckpointConfig", "EarlyStopping", "History",
           "LambdaCallback", "LearningRateScheduler", "LossMonitor", "ModelCheckpoint",
           "OnRequestExit", "ReduceLROnPlateau", "RunContext", "SummaryCollector", "TimeMonitor"]
