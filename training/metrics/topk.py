"""Top-k categorical accuracy: the label is among the k highest scores."""
import numpy as np

from training.metrics.metric import EvaluationBase


class TopKCategoricalAccuracy(EvaluationBase):
    def __init__(self, k):
        super().__init__("classification")
        if not isinstance(k, int) or isinstance(k, bool):
            raise TypeError(f"For 'TopKCategoricalAccuracy', the type of the argument 'k' should "
                            f"be int, but got {type(k).__name__} {k!r}")
        if k < 1:
            raise ValueError(f"For 'TopKCategoricalAccuracy', the argument 'k' must be at least "
                             f"1, but got {k}.")
        self.k = k
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._samples_num = 0

    def update(self, *inputs):
        y_pred, y = self._prepare(inputs)
        top = np.argsort(-y_pred, axis=1, kind="stable")[:, :self.k]
        correct = (top == y.reshape(-1, 1)).any(axis=1)
        self._correct_num += int(correct.sum())
        self._samples_num += y.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError(f"The '{type(self).__name__}' can not be calculated, because the "
                               "number of samples is 0; call update() first.")
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(5)
