"""minddata.text: the string helpers of ``mindspore.dataset.text`` (to_str, to_bytes), so that
scripts and test suites importing that module run. Its text transforms (tokenizers, Vocab,
Lookup, ...) are not provided: tokenize with a Python map function (e.g. the tokenizers
package); naming one raises an ImportError that says so."""
from .utils import to_bytes, to_str

__all__ = ["to_bytes", "to_str"]

# mindspore.dataset.text's transforms and vocabularies (MindSpore 2.10)
_NOT_PROVIDED = frozenset((
    "AddToken", "BasicTokenizer", "BertTokenizer", "CaseFold", "CharNGram", "FastText",
    "FilterWikipediaXML", "GloVe", "JiebaMode", "JiebaTokenizer", "Lookup", "Ngram",
    "NormalizeForm", "NormalizeUTF8", "PythonTokenizer", "RegexReplace", "RegexTokenizer",
    "SPieceTokenizerLoadType", "SPieceTokenizerOutType", "SentencePieceModel",
    "SentencePieceTokenizer", "SentencePieceVocab", "SlidingWindow", "ToNumber", "ToVectors",
    "Truncate", "TruncateSequencePair", "UnicodeCharTokenizer", "UnicodeScriptTokenizer",
    "Vectors", "Vocab", "WhitespaceTokenizer", "WordpieceTokenizer"))


def __getattr__(name):
    # An ImportError keeps its words through `from ... import`; other names stay
    # AttributeErrors, so hasattr() works.
    if name in _NOT_PROVIDED:
        raise ImportError(f"text.{name} (mindspore.dataset.text) is not provided by this "
                          f"project: tokenize with a Python map function (e.g. the tokenizers "
                          f"package); minddata.text has to_str and to_bytes only")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
