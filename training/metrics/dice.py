"""Dice coefficient: mean over update() calls of 2|X∩Y| / (|X|² + |Y|² + smooth)."""
import numpy as np

from training.metrics.metric import Metric


class Dice(Metric):
    def __init__(self, smooth=1e-5):
        super().__init__()
        if not isinstance(smooth, float):
            # MindSpore takes a float only (Dice(smooth=1) is a TypeError there too)
            raise TypeError(f"For 'Dice', the 'smooth' must be float, but got "
                            f"'{type(smooth).__name__}'")
        if smooth <= 0:
            raise ValueError(f"For 'Dice', the 'smooth' must be float and must > 0, but got "
                             f"{smooth!r}")
        self.smooth = smooth
        self.clear()

    def clear(self):
        self._dice_coeff_sum = 0.0
        self._samples_num = 0

    def update(self, *inputs):
        self._check_count(inputs, 2)
        y_pred = self._convert_data(inputs[0]).astype(np.float64)
        y = self._convert_data(inputs[1]).astype(np.float64)
        if y_pred.shape != y.shape:
            raise ValueError(f"For 'Dice', y_pred and y must have the same shape, but got "
                             f"{y_pred.shape} and {y.shape}")
        self._samples_num += 1
        intersection = np.dot(y_pred.flatten(), y.flatten())
        union = np.dot(y_pred.flatten(), y_pred.flatten()) + np.dot(y.flatten(), y.flatten())
        self._dice_coeff_sum += 2 * float(intersection) / (float(union) + self.smooth)

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("The 'Dice' can not be calculated, because the number of samples "
                               "is 0; call update() first.")
        return self._dice_coeff_sum / self._samples_num
