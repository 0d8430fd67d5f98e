"""`mindspore.train`'s namespace: `from mindspore.train import Model, LossMonitor, Accuracy`
ports as `from training.train import Model, LossMonitor, Accuracy`."""
from training.callbacks import (Callback, CheckpointConfig, EarlyStopping,  # noqa: F401
                                LambdaCallback, LossMonitor, ModelCheckpoint, ReduceLROnPlateau,
                                RunContext, SummaryCollector, TimeMonitor)
from training.metrics import (MAE, MSE, Accuracy, ConfusionMatrix, Dice, F1, Fbeta,  # noqa: F401
                              Loss, Metric, Precision, Recall, Top1CategoricalAccuracy,
                              Top5CategoricalAccuracy, TopKCategoricalAccuracy, get_metric_fn)
from training.model import Model  # noqa: F401
