"""Perplexity: exp of the mean negative log-probability the predictions give the labels
(preds are probabilities (N, C); labels (N,); rows labelled `ignore_label` are skipped)."""
import math

import numpy as np

from training.metrics.metric import Metric


class Perplexity(Metric):
    def __init__(self, ignore_label=None):
        super().__init__()
        if ignore_label is not None and (not isinstance(ignore_label, int)
                                         or isinstance(ignore_label, bool)):
            raise TypeError(f"For 'Perplexity', 'ignore_label' must be an int or None, but got "
                            f"{ignore_label!r}")
        self.ignore_label = ignore_label
        self.clear()

    def clear(self):
        self._sum_metric, self._num_inst = 0.0, 0

    def update(self, *inputs):
        self._check_count(inputs, 2)
        preds, labels = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        preds = preds.reshape(-1, preds.shape[-1])
        labels = labels.reshape(-1).astype(np.int64)
        if labels.size != preds.shape[0]:
            raise ValueError(f"For 'Perplexity.update', preds have {preds.shape[0]} rows but "
                             f"labels have {labels.size} values")
        keep = labels != self.ignore_label if self.ignore_label is not None else \
            np.ones(labels.size, bool)
        if keep.any() and (labels[keep].min() < 0 or labels[keep].max() >= preds.shape[1]):
            raise ValueError(f"For 'Perplexity.update', labels must be in [0, {preds.shape[1]})")
        probs = preds[np.nonzero(keep)[0], labels[keep]]
        self._sum_metric -= float(np.log(np.maximum(probs, 1e-10)).sum())
        self._num_inst += int(keep.sum())

    def eval(self):
        if self._num_inst == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, because the number of "
                               "samples is 0; call update() first.")
        return math.exp(self._sum_metric / self._num_inst)
