"""minddata.text: ``mindspore.dataset.text``: to_str/to_bytes, the tokenizers, Vocab and the
ops that use it (Lookup, Ngram, SlidingWindow, ToNumber, Truncate, TruncateSequencePair,
AddToken, PythonTokenizer), the word vectors (Vectors, FastText, GloVe, CharNGram, ToVectors),
FilterWikipediaXML.
The names it does not provide yet raise an ImportError that says so."""
from .utils import to_bytes, to_str
from .sequence_ops import AddToken, Ngram, SlidingWindow, Truncate, TruncateSequencePair
from .vocab import Vocab
from .vocab_ops import Lookup, PythonTokenizer, ToNumber
from .tokenizers import (BasicTokenizer, BertTokenizer, CaseFold, NormalizeForm, NormalizeUTF8,
                         RegexReplace, RegexTokenizer, UnicodeCharTokenizer,
                         UnicodeScriptTokenizer, WhitespaceTokenizer, WordpieceTokenizer)
from .sentencepiece import (SentencePieceModel, SentencePieceTokenizer, SentencePieceVocab,
                            SPieceTokenizerLoadType, SPieceTokenizerOutType)
from .vectors import CharNGram, FastText, GloVe, ToVectors, Vectors
from .wikipedia import FilterWikipediaXML

__all__ = ["to_bytes", "to_str"]
__all__ += ["AddToken", "Lookup", "Ngram", "PythonTokenizer", "SlidingWindow", "ToNumber",
            "Truncate", "TruncateSequencePair", "Vocab"]
__all__ += ["BasicTokenizer", "BertTokenizer", "CaseFold", "NormalizeForm", "NormalizeUTF8",
            "RegexReplace", "RegexTokenizer", "UnicodeCharTokenizer", "UnicodeScriptTokenizer",
            "WhitespaceTokenizer", "WordpieceTokenizer"]
__all__ += ["SentencePieceModel", "SentencePieceTokenizer", "SentencePieceVocab",
            "SPieceTokenizerLoadType", "SPieceTokenizerOutType"]
__all__ += ["CharNGram", "FastText", "GloVe", "ToVectors", "Vectors"]
__all__ += ["FilterWikipediaXML"]

# mindspore.dataset.text's transforms and vocabularies (MindSpore 2.10)
_NOT_PROVIDED = frozenset((
    "JiebaMode", "JiebaTokenizer"))


def __getattr__(name):
    # An ImportError keeps its words through `from ... import`; other names stay
    # AttributeErrors, so hasattr() works.
    if name in _NOT_PROVIDED:
        raise ImportError(f"text.{name} (mindspore.dataset.text) is not provided by this "
                          f"project: use a Python map function (e.g. jieba for JiebaTokenizer)")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
