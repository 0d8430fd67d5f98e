"""Precision, Recall, Fbeta and F1, per class (eval(average=True) gives their mean).
Divisions add sys.float_info.min to the denominator, as MindSpore does, so an empty class scores 0."""
import sys

import numpy as np

from training.metrics.metric import EvaluationBase, Metric

EPS = sys.float_info.min


def _check_average(average, api):
    if not isinstance(average, bool):
        raise TypeError(f"For '{api}', the type of 'average' should be 'bool', but got "
                        f"{type(average).__name__}")


class _ClassCounts(EvaluationBase):
    """Counts per class ('classification'), or per sample ('multilabel': MindSpore scores each
    sample's 0/1 prediction row against its label row, and keeps every sample's score)."""

    def __init__(self, eval_type):
        super().__init__(eval_type)
        self.clear()

    def clear(self):
        self._class_num = 0
        empty = np.zeros(0) if self._type == "multilabel" else 0
        self._true_positives = empty
        self._positives = empty          # predicted positive
        self._actual_positives = empty   # labelled positive

    def update(self, *inputs):
        y_pred, y = self._prepare(inputs)
        if self._type == "multilabel":
            pred = y_pred.round().reshape(y_pred.shape[0], -1)
            truth = y.reshape(y.shape[0], -1)
        else:
            num_classes = y_pred.shape[1]
            if y.size and (y.min() < 0 or y.max() >= num_classes):
                raise ValueError(f"For '{type(self).__name__}', labels must be in [0, {num_classes}), "
                                 f"but got values in [{y.min()}, {y.max()}]")
            eye = np.eye(num_classes)
            pred, truth = eye[y_pred.argmax(axis=1)], eye[y.astype(np.int64)]
        if self._class_num and pred.shape[1] != self._class_num:
            raise ValueError(f"For '{type(self).__name__}', the number of classes changed from "
                             f"{self._class_num} to {pred.shape[1]} between updates")
        self._class_num = pred.shape[1]
        if self._type == "multilabel":  # one score per sample, appended
            self._true_positives = np.append(self._true_positives, (pred * truth).sum(axis=1))
            self._positives = np.append(self._positives, pred.sum(axis=1))
            self._actual_positives = np.append(self._actual_positives, truth.sum(axis=1))
            return
        self._true_positives = self._true_positives + (pred * truth).sum(axis=0)
        self._positives = self._positives + pred.sum(axis=0)
        self._actual_positives = self._actual_positives + truth.sum(axis=0)

    def _ratio(self, denominator, average):
        if self._class_num == 0:
            raise RuntimeError(f"The '{type(self).__name__}' can not be calculated, because the "
                               "number of samples is 0; call update() first.")
        _check_average(average, type(self).__name__)
        result = self._true_positives / (denominator + EPS)
        return float(result.mean()) if average else result


class Precision(_ClassCounts):
    """true positives / predicted positives, per class (per sample for 'multilabel')."""

    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)

    def eval(self, average=False):
        return self._ratio(self._positives, average)


class Recall(_ClassCounts):
    """true positives / labelled positives, per class (per sample for 'multilabel')."""

    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)

    def eval(self, average=False):
        return self._ratio(self._actual_positives, average)


class Fbeta(Metric):
    def __init__(self, beta):
        super().__init__()
        if not isinstance(beta, (int, float)) or isinstance(beta, bool):
            raise TypeError(f"For 'Fbeta', the argument 'beta' must be a number, but got "
                            f"{type(beta).__name__} {beta!r}")
        if beta <= 0:
            raise ValueError(f"For 'Fbeta', the argument 'beta' must be greater than 0, but got "
                             f"{beta!r}.")
        self.beta = beta
        self._counts = _ClassCounts("classification")

    def clear(self):
        self._counts.clear()

    def update(self, *inputs):
        self._counts.update(*inputs)

    def eval(self, average=False):
        _check_average(average, type(self).__name__)    # before the samples, as MindSpore
        c = self._counts
        if c._class_num == 0:
            raise RuntimeError(f"The '{type(self).__name__}' can not be calculated, because the "
                               "number of samples is 0; call update() first.")
        b2 = self.beta ** 2
        precision = c._true_positives / (c._positives + EPS)
        recall = c._true_positives / (c._actual_positives + EPS)
        result = (1 + b2) * precision * recall / (b2 * precision + recall + EPS)
        return float(result.mean()) if average else result


class F1(Fbeta):
    def __init__(self):
        super().__init__(1.0)
