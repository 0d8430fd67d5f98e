"""`Metric` base: clear / update / eval, with inputs converted to numpy arrays."""
import numpy as np


def to_numpy(value, name="input"):
    if hasattr(value, "asnumpy"):
        return value.asnumpy()
    if hasattr(value, "detach") and hasattr(value, "cpu"):  # torch.Tensor
        value = value.detach().cpu()
        # numpy has no bfloat16 (the CPU autocast type): widen it
        return (value.float() if str(value.dtype) == "torch.bfloat16" else value).numpy()
    if isinstance(value, (np.ndarray, list, tuple, int, float, np.generic)):
        return np.asarray(value)
    raise TypeError(f"For 'Metric' and its derived classes, the input data type must be tensor, "
                    f"list or numpy.ndarray (or a number), but got {type(value).__name__} "
                    f"(metric {name})")


class Metric:
    def __init__(self):
        self._indexes = None

    def _convert_data(self, data):
        return to_numpy(data)

    def set_indexes(self, indexes):
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError(f"For 'set_indexes', 'indexes' must be a list of ints, got {indexes!r}")
        self._indexes = indexes
        return self

    @property
    def indexes(self):
        return self._indexes

    def __call__(self, *inputs):
        self.clear()
        self.update(*inputs)
        return self.eval()

    def clear(self):
        raise NotImplementedError

    def update(self, *inputs):
        raise NotImplementedError

    def eval(self):
        raise NotImplementedError

    def _check_count(self, inputs, n):
        if len(inputs) != n:
            raise ValueError(f"For '{type(self).__name__}.update', it needs {n} inputs (y_pred, y), "
                             f"but got {len(inputs)}")


class EvaluationBase(Metric):
    """Classification metrics: y_pred (N, C) scores, y (N,) indices or (N, C) one-hot;
    'multilabel': y_pred and y both (N, C) of 0/1."""

    def __init__(self, eval_type):
        super().__init__()
        if eval_type not in ("classification", "multilabel"):
            # MindSpore's type and words for an eval_type it does not know
            raise TypeError(f"For '{type(self).__name__}', the argument 'eval_type' must be in "
                            f"{{'classification', 'multilabel'}}, but got {eval_type!r}")
        self._type = eval_type

    def _prepare(self, inputs):
        self._check_count(inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        name = type(self).__name__
        if self._type == "multilabel":
            if y_pred.shape != y.shape or y_pred.ndim < 2:
                raise ValueError(f"For '{name}' (multilabel), y_pred and y must have the same "
                                 f"shape (N, C), but got {y_pred.shape} and {y.shape}")
            return y_pred, y
        if y_pred.ndim != 2:
            raise ValueError(f"For '{name}', y_pred must be (N, C) scores, but got shape {y_pred.shape}")
        if y.ndim == 2 and y.shape == y_pred.shape:
            y = y.argmax(axis=1)
        y = y.reshape(-1)
        if y.shape[0] != y_pred.shape[0]:
            raise ValueError(f"For '{name}', y must have {y_pred.shape[0]} labels (N,) or one-hot "
                             f"rows (N, C), but got shape {self._convert_data(inputs[1]).shape}")
        return y_pred, y
