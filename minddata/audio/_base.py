"""The base of the audio transforms: an op of the package's op protocol
(transforms_c._base.TensorOperation: eager calls, ``dataset.map``, Compose) that takes a numpy
waveform or spectrogram <..., time> and computes in float64 or float32 as MindSpore does."""
import numpy as np

from transforms_c._base import TensorOperation


class AudioTensorOperation(TensorOperation):
    """An audio op: ``_compute(array, rng)`` on the whole <..., time> array (leading dimensions
    are batch dimensions, as MindSpore's audio kernels take them). ``min_rank`` is the rank the
    op needs and ``rank_words`` MindSpore's words for that shape."""

    min_rank = 1
    rank_words = "<..., time>"
    #: The filters take float waveforms only (MindSpore: RuntimeError on integers).
    float_only = False

    def __call__(self, *arrays):
        for value in arrays:
            if type(value) is not np.ndarray:
                raise TypeError(f"Input should be NumPy audio, got {type(value)}.")
        return super().__call__(*arrays)

    def apply(self, arrays, seed):
        if len(arrays) == 1:
            array = np.asarray(arrays[0])
            if array.size == 0:
                raise RuntimeError("Input Tensor has no data.")
            if array.dtype.kind not in ("f" if self.float_only else "biuf"):
                raise RuntimeError(f"{type(self).__name__}: the data type of input tensor does "
                                   f"not match the requirement of operator. Expecting tensor in "
                                   f"type of {'[float, double]' if self.float_only else '[int, float, double]'}. "
                                   f"But got type {array.dtype}.")
            if array.ndim < self.min_rank:
                raise RuntimeError(
                    f"{type(self).__name__}: the shape of input tensor does not match the "
                    f"requirement of operator. Expecting tensor in shape of {self.rank_words}. "
                    f"But got tensor with dimension {array.ndim}.")
        return super().apply(arrays, seed)


def as_float(array):
    """``array`` as float64 if it is, else float32 (MindSpore's audio kernels' two types)."""
    return array.astype(np.float64 if array.dtype == np.float64 else np.float32, copy=False)
