"""``mindspore.dataset.text``'s SentencePiece vocabulary and tokenizer, on the ``sentencepiece``
package (MindSpore 2.10 bundles the same library: the trainer gets the same settings, so the
vocabularies and tokenizations agree on the corpora compared; the README says how far)."""
import io
import os
from enum import Enum, IntEnum

import numpy as np

from ..sources._validation import type_check


class SentencePieceModel(IntEnum):
    UNIGRAM = 0
    BPE = 1
    CHAR = 2
    WORD = 3


class SPieceTokenizerOutType(IntEnum):
    STRING = 0
    INT = 1


class SPieceTokenizerLoadType(IntEnum):
    FILE = 0
    MODEL = 1


def _sentencepiece():
    try:
        import sentencepiece
    except ImportError:
        raise ImportError("SentencePieceVocab and SentencePieceTokenizer need the sentencepiece "
                          "package: pip install sentencepiece") from None
    return sentencepiece


def _model_type(model_type):
    type_check(model_type, (str, SentencePieceModel), "model_type")
    return model_type.name.lower() if isinstance(model_type, Enum) else model_type


class SentencePieceVocab:
    """A trained SentencePiece model (its serialized bytes)."""

    def __init__(self, model=None):
        self.model = model

    @classmethod
    def _train(cls, sentences, vocab_size, character_coverage, model_type, params):
        type_check(vocab_size, (int,), "vocab_size")
        type_check(character_coverage, (float,), "character_coverage")
        kind = _model_type(model_type)
        type_check(params, (dict,), "params")
        model = io.BytesIO()
        try:
            _sentencepiece().SentencePieceTrainer.train(
                sentence_iterator=iter(sentences), model_writer=model, vocab_size=vocab_size,
                character_coverage=character_coverage, model_type=kind,
                minloglevel=2, **params)
        except (RuntimeError, ValueError, OSError) as error:
            raise RuntimeError(f"SentencePieceVocab: {error}") from None
        return cls(model.getvalue())

    @classmethod
    def from_file(cls, file_path, vocab_size, character_coverage, model_type, params):
        """Train on the lines of the files in file_path (a list)."""
        type_check(file_path, (list,), "file_path")

        def lines():
            for path in file_path:
                with open(path, encoding="utf-8") as f:
                    yield from (line.rstrip("\n") for line in f)
        return cls._train(list(lines()), vocab_size, character_coverage, model_type, params)

    @classmethod
    def from_dataset(cls, dataset, col_names, vocab_size, character_coverage, model_type, params):
        """Train on the strings of the columns col_names of a dataset."""
        type_check(col_names, (list,), "col_names")
        sentences = [str(s) for row in dataset.create_dict_iterator(num_epochs=1, output_numpy=True)
                     for name in col_names for s in np.asarray(row[name]).reshape(-1)]
        return cls._train(sentences, vocab_size, character_coverage, model_type, params)

    @classmethod
    def save_model(cls, vocab, path, filename):
        """Write the model file path/filename (SentencePieceTokenizer and sentencepiece read it)."""
        type_check(vocab, (SentencePieceVocab,), "vocab")
        type_check(path, (str,), "path")
        type_check(filename, (str,), "filename")
        with open(os.path.join(path, filename), "wb") as f:
            f.write(vocab.model)


class SentencePieceTokenizer:
    """Tokenize one string with a SentencePieceVocab or a model file into pieces or ids."""

    def __init__(self, mode, out_type):
        type_check(mode, (str, SentencePieceVocab),
                   "mode is not an instance of str or text.SentencePieceVocab.")
        type_check(out_type, (SPieceTokenizerOutType,),
                   "out_type is not an instance of SPieceTokenizerOutType")
        self.mode = mode
        self.out_type = out_type
        self.processor = _sentencepiece().SentencePieceProcessor()
        try:
            if isinstance(mode, str):
                self.processor.load(mode)
            else:
                self.processor.load_from_serialized_proto(mode.model)
        except (OSError, RuntimeError) as error:
            raise RuntimeError(f"SentencePieceTokenizer: {error}") from None

    def __call__(self, *inputs):
        value = inputs[0] if len(inputs) == 1 else None
        if isinstance(value, np.ndarray) and value.dtype.kind == "U" and value.ndim == 0:
            value = str(value[()])
        if not isinstance(value, str):
            raise RuntimeError("SentencePieceTokenizer: the input shape should be scalar and the "
                               "input datatype should be string.")
        if self.out_type == SPieceTokenizerOutType.INT:
            return np.array(self.processor.encode_as_ids(value), dtype=np.int32)
        return np.array(self.processor.encode_as_pieces(value), dtype=str)
