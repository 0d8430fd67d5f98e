"""ROC: false and true positive rates at every distinct score, as MindSpore's ROC returns them
(thresholds descending, led by the highest score + 1). Binary: y_pred (N,) scores, y (N,) labels,
`pos_label` (default 1). Multiclass: y_pred (N, C), y (N,) class indices, one curve per class.
Updates accumulate (MindSpore keeps only the last batch, so Model.eval would score one batch)."""
import numpy as np

from training.metrics.metric import Metric


def _binary_curve(scores, labels, pos_label):
    order = np.argsort(-scores, kind="mergesort")
    scores, hits = scores[order], (labels[order] == pos_label).astype(np.float64)
    last_of_each = np.r_[np.nonzero(np.diff(scores))[0], scores.size - 1]
    tps = np.cumsum(hits)[last_of_each]
    fps = 1 + last_of_each - tps
    tps, fps = np.r_[0, tps], np.r_[0, fps]
    thresholds = np.r_[scores[last_of_each][0] + 1, scores[last_of_each]]
    if fps[-1] <= 0:
        raise ValueError("For 'ROC.eval', there is no negative sample in the labels, so the false "
                         "positive rate is undefined")
    if tps[-1] <= 0:
        raise ValueError("For 'ROC.eval', there is no positive sample in the labels, so the true "
                         "positive rate is undefined")
    return fps / fps[-1], tps / tps[-1], thresholds


class ROC(Metric):
    def __init__(self, class_num=None, pos_label=None):
        super().__init__()
        for name, value in (("class_num", class_num), ("pos_label", pos_label)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise TypeError(f"For 'ROC', '{name}' must be an int or None, but got {value!r}")
        self.class_num, self.pos_label = class_num, pos_label
        self.clear()

    def clear(self):
        self._scores, self._labels = [], []

    def update(self, *inputs):
        self._check_count(inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim:
            if self.class_num not in (None, 1):
                raise ValueError(f"For 'ROC', when y_pred and y have the same shape, 'class_num' "
                                 f"must be 1, but got {self.class_num}")
            y_pred = y_pred.reshape(-1)
        elif y_pred.ndim == y.ndim + 1:
            if self.pos_label is not None:
                raise ValueError(f"For 'ROC' with (N, C) scores, 'pos_label' must be None, but got "
                                 f"{self.pos_label}")
            if self.class_num != y_pred.shape[1]:
                raise ValueError(f"For 'ROC', 'class_num' ({self.class_num}) must equal the number "
                                 f"of classes of y_pred ({y_pred.shape[1]})")
        else:
            raise ValueError(f"For 'ROC', y_pred must have the dimensions of y or one more, but "
                             f"got shapes {y_pred.shape} and {y.shape}")
        self._scores.append(y_pred)
        self._labels.append(y.reshape(-1))

    def eval(self):
        if not self._scores:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        scores, labels = np.concatenate(self._scores), np.concatenate(self._labels)
        if scores.ndim == 1:
            return _binary_curve(scores, labels, 1 if self.pos_label is None else self.pos_label)
        curves = [_binary_curve(scores[:, c], labels, c) for c in range(scores.shape[1])]
        return tuple(list(part) for part in zip(*curves))
