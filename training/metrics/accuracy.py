"""Accuracy (classification: argmax equals label; multilabel: every label of a sample right)."""
import numpy as np

from training.metrics.metric import EvaluationBase


class Accuracy(EvaluationBase):
    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._total_num = 0

    def update(self, *inputs):
        y_pred, y = self._prepare(inputs)
        if self._type == "multilabel":
            correct = np.all(y_pred.round() == y, axis=tuple(range(1, y.ndim)))
        else:
            correct = y_pred.argmax(axis=1) == y
        self._correct_num += int(correct.sum())
        self._total_num += correct.shape[0]

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The 'Accuracy' can not be calculated, because the number of samples "
                               "is 0; call update() first.")
        return self._correct_num / self._total_num
