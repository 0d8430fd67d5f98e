"""CosineSimilarity: the (N, N) similarity matrix of the rows of the (N, D) input ('cosine' or
'dot'), the diagonal zeroed by default; reduction 'sum' / 'mean' reduces each row."""
import numpy as np

from training.metrics.metric import Metric


def _check_choice(name, value, choices):
    """MindSpore 2.10's checks: TypeError for a value that is not a str, ValueError for another
    str."""
    if not isinstance(value, str):
        raise TypeError(f"For 'CosineSimilarity', the type of '{name}' should be 'str', but got "
                        f"{type(value).__name__}")
    if value not in choices:
        raise ValueError(f"For 'CosineSimilarity', '{name}' must be one of {choices}, but got "
                         f"{value!r}")


class CosineSimilarity(Metric):
    def __init__(self, similarity="cosine", reduction="none", zero_diagonal=True):
        super().__init__()
        _check_choice("similarity", similarity, ("cosine", "dot"))
        _check_choice("reduction", reduction, ("none", "sum", "mean"))
        if not isinstance(zero_diagonal, bool):
            raise TypeError(f"For 'CosineSimilarity', 'zero_diagonal' must be a bool, got "
                            f"{zero_diagonal!r}")
        self.similarity, self.reduction, self.zero_diagonal = similarity, reduction, zero_diagonal
        self.clear()

    def clear(self):
        self._matrix = None

    def update(self, *inputs):
        self._check_count(inputs, 1)
        rows = self._convert_data(inputs[0]).astype(np.float64)
        if rows.ndim != 2:
            raise ValueError(f"For 'CosineSimilarity.update', the input must be (N, D), but got "
                             f"shape {rows.shape}")
        if self.similarity == "cosine":
            rows = rows / np.linalg.norm(rows, axis=1, keepdims=True)
        matrix = rows @ rows.T
        if self.zero_diagonal:
            np.fill_diagonal(matrix, 0)
        self._matrix = matrix

    def eval(self):
        if self._matrix is None:
            raise RuntimeError("Call the 'update' method before calling 'eval'.")
        if self.reduction == "mean":
            return self._matrix.mean(axis=-1)
        if self.reduction == "sum":
            return self._matrix.sum(axis=-1)
        return self._matrix
