"""ConfusionMatrix: rows are true classes, columns predicted classes."""
import numpy as np

from training.metrics.metric import Metric

NORMALIZE = ("no_norm", "target", "prediction", "all")


class ConfusionMatrix(Metric):
    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        super().__init__()
        if not isinstance(num_classes, int) or isinstance(num_classes, bool):
            raise TypeError(f"For 'ConfusionMatrix', the type of 'num_classes' should be 'int', "
                            f"but got {type(num_classes).__name__}")
        if num_classes < 1:
            raise ValueError(f"For 'ConfusionMatrix', 'num_classes' must be an int >= 1, got "
                             f"{num_classes!r}")
        if not isinstance(threshold, float):    # MindSpore 2.10 refuses an int too
            raise TypeError(f"For 'ConfusionMatrix', the type of 'threshold' should be 'float', "
                            f"but got {type(threshold).__name__}")
        if normalize not in NORMALIZE:
            raise ValueError(f"For 'ConfusionMatrix', 'normalize' must be one of {NORMALIZE}, but "
                             f"got {normalize!r}")
        self.num_classes, self.normalize, self.threshold = num_classes, normalize, threshold
        self.clear()

    def clear(self):
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    def update(self, *inputs):
        self._check_count(inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim + 1:
            y_pred = y_pred.argmax(axis=1)
        elif y_pred.ndim == y.ndim:
            if y_pred.dtype.kind == "f":    # scores; integers are class indices already
                y_pred = (y_pred >= self.threshold).astype(np.int64)
        else:
            raise ValueError(f"For 'ConfusionMatrix', y_pred must have y's dims or one more, but "
                             f"got shapes {y_pred.shape} and {y.shape}")
        y, y_pred = y.reshape(-1).astype(np.int64), y_pred.reshape(-1).astype(np.int64)
        if y.shape != y_pred.shape:
            raise ValueError(f"For 'ConfusionMatrix', y_pred and y hold different numbers of "
                             f"samples: {y_pred.shape[0]} and {y.shape[0]}")
        for arr, name in ((y, "y"), (y_pred, "y_pred")):
            if arr.size and (arr.min() < 0 or arr.max() >= self.num_classes):
                raise ValueError(f"For 'ConfusionMatrix', {name} classes must be in "
                                 f"[0, {self.num_classes})")
        counts = np.bincount(self.num_classes * y + y_pred, minlength=self.num_classes ** 2)
        self.confusion_matrix += counts.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("The 'ConfusionMatrix' can not be calculated, because update() "
                               "was not called.")
        m = self.confusion_matrix
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.normalize == "target":
                m = m / m.sum(axis=1, keepdims=True)
            elif self.normalize == "prediction":
                m = m / m.sum(axis=0, keepdims=True)
            elif self.normalize == "all":
                m = m / m.sum()
        return np.nan_to_num(m) if self.normalize != "no_norm" else m
