"""MAE and MSE. As in MindSpore, the summed error over all elements is divided by the number of
samples (first dimension), not by the number of elements."""
import numpy as np

from training.metrics.metric import Metric


class _ErrorSum(Metric):
    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._error_sum = 0.0
        self._samples_num = 0

    def update(self, *inputs):
        self._check_count(inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if y.size != y_pred.size:
            raise ValueError(f"For '{type(self).__name__}', y must have as many elements as y_pred "
                             f"{y_pred.shape}, but got shape {y.shape}")
        error = y.reshape(y_pred.shape).astype(np.float64) - y_pred.astype(np.float64)
        self._error_sum += float(self._elementwise(error).sum())
        self._samples_num += y.shape[0] if y.ndim else 1

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError(f"The '{type(self).__name__}' can not be calculated, because the "
                               "number of samples is 0; call update() first.")
        return self._error_sum / self._samples_num


class MAE(_ErrorSum):
    @staticmethod
    def _elementwise(error):
        return np.abs(error)


class MSE(_ErrorSum):
    @staticmethod
    def _elementwise(error):
        return error * error
