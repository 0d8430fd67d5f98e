"""minddata.text.transforms: MindSpore 2.x's module ``mindspore.dataset.text.transforms``
(``from mindspore.dataset.text.transforms import Lookup``): the text ops of ``minddata.text``."""
from .sequence_ops import AddToken, Ngram, SlidingWindow, Truncate, TruncateSequencePair
from .vocab_ops import Lookup, PythonTokenizer, ToNumber
from .tokenizers import (BasicTokenizer, BertTokenizer, CaseFold, NormalizeUTF8, RegexReplace,
                         RegexTokenizer, UnicodeCharTokenizer, UnicodeScriptTokenizer,
                         WhitespaceTokenizer, WordpieceTokenizer)
from .sentencepiece import SentencePieceTokenizer
from .vectors import ToVectors

__all__ = ["AddToken", "BasicTokenizer", "BertTokenizer", "CaseFold", "Lookup", "Ngram",
           "NormalizeUTF8", "PythonTokenizer", "RegexReplace", "RegexTokenizer",
           "SentencePieceTokenizer", "SlidingWindow", "ToNumber", "ToVectors", "Truncate",
           "TruncateSequencePair", "UnicodeCharTokenizer", "UnicodeScriptTokenizer",
           "WhitespaceTokenizer", "WordpieceTokenizer"]
