"""``mindspore.dataset.text.utils``: to_str / to_bytes (numpy arrays of bytes <-> arrays of str),
for string columns read from MindRecord, TFRecord or a generator."""
import numpy as np


def to_str(array, encoding="utf8"):
    """Each bytes element of `array` decoded with `encoding`: an array of str."""
    if not isinstance(array, np.ndarray):
        raise TypeError("input should be a NumPy array.")
    return np.char.decode(array, encoding)


def to_bytes(array, encoding="utf8"):
    """Each str element of `array` encoded with `encoding`: an array of bytes."""
    if not isinstance(array, np.ndarray):
        # MindSpore's type: ValueError here, TypeError in to_str
        raise ValueError("input should be a NumPy array.")
    return np.char.encode(array, encoding)


# The rest of ``mindspore.dataset.text.utils`` (``from mindspore.dataset.text.utils import
# Vocab``): imported last, those modules do not import this one.
from .vocab import Vocab  # noqa: E402
from .tokenizers import NormalizeForm  # noqa: E402
from .sentencepiece import (SentencePieceModel, SentencePieceVocab,  # noqa: E402
                            SPieceTokenizerLoadType, SPieceTokenizerOutType)
from .vectors import CharNGram, FastText, GloVe, Vectors  # noqa: E402
