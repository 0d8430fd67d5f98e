"""Metrics with MindSpore's definitions, and `get_metric_fn` for Model's metric names."""
from training.metrics.accuracy import Accuracy
from training.metrics.confusion_matrix import ConfusionMatrix
from training.metrics.cosine_similarity import CosineSimilarity
from training.metrics.dice import Dice
from training.metrics.loss import Loss
from training.metrics.metric import EvaluationBase, Metric
from training.metrics.perplexity import Perplexity
from training.metrics.precision_recall import F1, Fbeta, Precision, Recall
from training.metrics.regression import MAE, MSE
from training.metrics.roc import ROC
from training.metrics.topk import (Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                                   TopKCategoricalAccuracy)

__all__ = ["Accuracy", "ConfusionMatrix", "CosineSimilarity", "Dice", "EvaluationBase", "F1",
           "Fbeta", "Loss", "MAE", "MSE", "Metric", "Perplexity", "Precision", "ROC", "Recall",
           "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "TopKCategoricalAccuracy",
           "get_metric_fn", "get_metrics"]

_NAMES = {
    "accuracy": Accuracy, "acc": Accuracy, "loss": Loss, "precision": Precision,
    "recall": Recall, "f1_score": F1, "f1": F1, "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy, "mae": MAE, "mse": MSE, "dice": Dice,
    "perplexity": Perplexity,
}


def get_metric_fn(name, *args, **kwargs):
    if name not in _NAMES:
        raise KeyError(f"Unknown metric name {name!r}; expected one of {sorted(_NAMES)}")
    return _NAMES[name](*args, **kwargs)


def get_metrics(metrics):
    """dict name -> Metric from a set/list of names or a dict name -> Metric (Model's `metrics`)."""
    if metrics is None:
        return {}
    if isinstance(metrics, dict):
        for name, m in metrics.items():
            if not isinstance(m, Metric):
                raise TypeError(f"metric '{name}' must be a Metric, but got {type(m).__name__}")
        return dict(metrics)
    if isinstance(metrics, (set, list, tuple)):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError(f"'metrics' must be a dict, set or list, but got {type(metrics).__name__}")
