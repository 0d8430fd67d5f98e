"""The string tokenizers and normalizers of ``mindspore.dataset.text`` (MindSpore 2.10), in Python.

MindSpore runs them in C++ on ICU; here the same rules run on Python's ``unicodedata`` (Unicode
14 on Python 3.11), fontTools' script table (UnicodeScriptTokenizer) and ``re`` with ICU's regex
syntax translated where it differs (``\\p{..}``, ``\\x{..}``, ``\\s``; see ``_icu_regex``).
Tokenizers take one scalar string and give a 1-D ``<U`` array (``['']`` when there is no token),
with ``with_offsets=True`` also the tokens' uint32 start and limit byte offsets in the UTF-8 text.
Errors on the data are RuntimeErrors with MindSpore's texts; wrong arguments fail in the
constructor with MindSpore's TypeErrors/ValueErrors.
"""
import re
import unicodedata
from enum import IntEnum
from functools import lru_cache

import numpy as np

from ..sources._validation import type_check

UINT32_MAX = 2 ** 32 - 1

# ICU's u_isUWhiteSpace: the Unicode White_Space property (Python's str.isspace also takes
# U+001C..U+001F, which ICU does not).
WHITE_SPACE = frozenset("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000"
                        + "".join(chr(c) for c in range(0x2000, 0x200B)))


class NormalizeForm(IntEnum):
    """Unicode normalization forms of NormalizeUTF8 and the BERT tokenizers."""
    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


def _check_bool(value, name):
    if not isinstance(value, bool):
        raise TypeError(f"Wrong input type for {name}, should be boolean.")


def _check_str(value, name):
    if not isinstance(value, str):
        raise TypeError(f"Wrong input type for {name}, should be string.")


def _check_form(form):
    if not isinstance(form, NormalizeForm):
        raise TypeError("Wrong input type for normalization_form, should be enum of 'NormalizeForm'.")


def _check_uint32(value):
    # MindSpore's check_uint32 is called without the argument's name: the texts have none
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"Argument  with value {value} is not of type [<class 'int'>], "
                        f"but got {type(value)}.")
    if not 0 <= value <= UINT32_MAX:
        raise ValueError(f"Input is not within the required interval of [0, {UINT32_MAX}].")


def _is_string_array(value):
    return isinstance(value, np.ndarray) and value.dtype.kind == "U"


def _scalar_string(inputs, name, message=None):
    """The one scalar string a tokenizer takes, or MindSpore's RuntimeError."""
    if len(inputs) != 1:
        raise RuntimeError(f"{name}: input should be one column data.")
    value = inputs[0]
    if isinstance(value, str):
        return value
    if _is_string_array(value) and value.ndim == 0:
        return str(value[()])
    raise RuntimeError(message or f"{name}: the input shape should be scalar and the input "
                                  f"datatype should be string.")


def _string_array(inputs, name):
    """A string tensor of any shape (the normalizers), or MindSpore's RuntimeError."""
    if len(inputs) != 1:
        raise RuntimeError(f"{name}: input should be one column data.")
    value = inputs[0]
    if isinstance(value, str):
        return np.array(value)
    if _is_string_array(value):
        return value
    raise RuntimeError(f"{name}: input is not string datatype.")


def _byte_prefix(text):
    """prefix[i]: the UTF-8 byte offset of text[i] (prefix[len(text)] the byte length)."""
    prefix = [0]
    for ch in text:
        prefix.append(prefix[-1] + len(ch.encode("utf-8", "surrogatepass")))
    return prefix


def _tokens_output(text, spans, with_offsets):
    """The tokens of `text` at code-point `spans` (start, end) as MindSpore gives them."""
    if not spans:
        tokens, starts, limits = [""], [0], [0]
    else:
        prefix = _byte_prefix(text)
        tokens = [text[a:b] for a, b in spans]
        starts = [prefix[a] for a, _ in spans]
        limits = [prefix[b] for _, b in spans]
    tokens = np.array(tokens, dtype=str)
    if not with_offsets:
        return tokens
    return tokens, np.array(starts, dtype=np.uint32), np.array(limits, dtype=np.uint32)


class _Tokenizer:
    """A tokenizer of one scalar string: subclasses give the code-point spans of the tokens."""
    name = None

    def __init__(self, with_offsets=False):
        _check_bool(with_offsets, "with_offsets")
        self.with_offsets = with_offsets

    def __call__(self, *inputs):
        text = _scalar_string(inputs, self.name)
        return _tokens_output(text, self.spans(text), self.with_offsets)

    def spans(self, text):
        raise NotImplementedError


def _runs(text, key):
    """Spans of the maximal runs of characters with equal key(ch)."""
    spans, start = [], 0
    for i in range(1, len(text) + 1):
        if i == len(text) or key(text[i]) != key(text[start]):
            spans.append((start, i))
            start = i
    return spans


class WhitespaceTokenizer(_Tokenizer):
    """Split on Unicode White_Space characters (ICU's u_isUWhiteSpace)."""
    name = "WhitespaceTokenizerOp"

    def spans(self, text):
        return [(a, b) for a, b in _runs(text, WHITE_SPACE.__contains__)
                if text[a] not in WHITE_SPACE]


class UnicodeCharTokenizer(_Tokenizer):
    """One token per code point."""
    name = "UnicodeCharTokenizerOp"

    def spans(self, text):
        return [(i, i + 1) for i in range(len(text))]


class UnicodeScriptTokenizer(_Tokenizer):
    """Split where the Unicode script (ICU's uscript_getScript: Common for digits, punctuation and
    emoji, Inherited for combining marks) or the whitespace-ness changes."""
    name = "UnicodeScriptTokenizerOp"

    def __init__(self, keep_whitespace=False, with_offsets=False):
        _check_bool(keep_whitespace, "keep_whitespace")
        super().__init__(with_offsets)
        self.keep_whitespace = keep_whitespace

    def spans(self, text):
        from fontTools.unicodedata import script    # a matplotlib dependency; imported on use
        runs = _runs(text, lambda ch: (script(ch), ch in WHITE_SPACE))
        return [(a, b) for a, b in runs if self.keep_whitespace or text[a] not in WHITE_SPACE]


# --- ICU regular expressions on Python's re ------------------------------------------------------


def _class_ranges(code_points):
    """re character-class text of sorted code points, consecutive ones as a-b ranges."""
    ranges, i = [], 0
    while i < len(code_points):
        j = i
        while j + 1 < len(code_points) and code_points[j + 1] == code_points[j] + 1:
            j += 1
        first, last = re.escape(chr(code_points[i])), re.escape(chr(code_points[j]))
        ranges.append(first if i == j else f"{first}-{last}")
        i = j + 1
    return "".join(ranges)


@lru_cache(maxsize=None)
def _property_ranges(name, negate=False):
    """re character-class text of \\p{name}: a general category ('P', 'Mn') or a script
    ('Han', 'Latin', 'Hani'; fontTools' table); ValueError for other properties."""
    if len(name) <= 2:
        chars = [c for c in range(0x110000)
                 if unicodedata.category(chr(c)).startswith(name) != negate]
        if len(chars) in (0, 0x110000):
            raise ValueError(f"unknown property \\p{{{name}}}")
        return _class_ranges(chars)
    from fontTools.unicodedata import Scripts, script_code, script_name
    code = script_code(name, default=None) or (name if script_name(name, default=None) else None)
    if code is None:
        raise ValueError(f"unsupported property \\p{{{name}}}")
    bounds = list(Scripts.RANGES) + [0x110000]
    chars = [c for start, end, value in zip(bounds, bounds[1:], Scripts.VALUES)
             if (value == code) != negate for c in range(start, end)]
    return _class_ranges(chars)


_WHITE_SPACE_CLASS = "".join(re.escape(ch) for ch in sorted(WHITE_SPACE))
_ICU_ESCAPE = re.compile(r"\\(?:([pP])\{(?:General_Category=|gc=|Script=|sc=)?(\w+)\}|x\{([0-9A-Fa-f]{1,6})\}"
                         r"|([sS])|(.))", re.S)


def _icu_regex(pattern):
    """Translate ICU regex syntax that Python's re lacks or reads otherwise: \\p{..}/\\P{..}
    (general categories and scripts), \\x{hhhh}, and \\s/\\S (ICU: White_Space, which leaves out U+001C..1F)."""
    out, in_class, i = [], False, 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            m = _ICU_ESCAPE.match(pattern, i)
            if m is None:
                out.append(ch)
                i += 1
                continue
            pe, cat, hexa, space, other = m.groups()
            if cat is not None:
                body = _property_ranges(cat, pe == "P")
                out.append(body if in_class else f"[{body}]")
            elif hexa is not None:
                out.append(re.escape(chr(int(hexa, 16))))
            elif space is not None:
                if in_class:
                    out.append(_WHITE_SPACE_CLASS if space == "s" else r"\S")
                else:
                    out.append(f"[{'^' if space == 'S' else ''}{_WHITE_SPACE_CLASS}]")
            else:
                out.append(m.group(0))
            i = m.end()
            continue
        if ch == "[" and not in_class:
            in_class = True
            out.append(ch)
            if pattern[i + 1:i + 2] == "^":
                out.append("^")
                i += 1
            if pattern[i + 1:i + 2] == "]":     # a leading ] is a literal
                out.append(r"\]")
                i += 1
        elif ch == "]" and in_class:
            in_class = False
            out.append(ch)
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _compile(pattern, message):
    try:
        return re.compile(_icu_regex(pattern))
    except (re.error, ValueError, OverflowError) as error:
        raise RuntimeError(f"{message} ({error})") from None


class RegexTokenizer(_Tokenizer):
    """Split on the matches of delim_pattern; a delimiter that keep_delim_pattern matches whole
    is kept as a token (ICU regex syntax)."""
    name = "RegexTokenizerOp"
    bad_pattern = "RegexTokenizer: create ICU RegexMatcher failed, you may input one error pattern"

    def __init__(self, delim_pattern, keep_delim_pattern='', with_offsets=False):
        if delim_pattern is None:
            raise ValueError("delim_pattern is not provided.")
        _check_str(delim_pattern, "delim_pattern")
        _check_str(keep_delim_pattern, "keep_delim_pattern")
        super().__init__(with_offsets)
        self.delim_pattern = delim_pattern
        self.keep_delim_pattern = keep_delim_pattern

    def spans(self, text):
        delim = _compile(self.delim_pattern, self.bad_pattern)
        keep = _compile(self.keep_delim_pattern, self.bad_pattern)
        return regex_spans(text, delim, keep, keep_delim=bool(self.keep_delim_pattern))


def regex_spans(text, delim, keep, keep_delim):
    """The spans between the delimiters, and the delimiters `keep` matches whole."""
    spans, token_start = [], 0
    for match in delim.finditer(text):
        a, b = match.span()
        if a > token_start:
            spans.append((token_start, a))
        if b > a and keep_delim and keep.fullmatch(text, a, b):
            spans.append((a, b))
        token_start = max(token_start, b)
    if token_start < len(text):
        spans.append((token_start, len(text)))
    return spans


def _icu_replacement(replace):
    """An re.sub function for an ICU replacement text: $n and ${name} are groups, \\x is x."""
    parts, i = [], 0
    while i < len(replace):
        ch = replace[i]
        if ch == "\\" and i + 1 < len(replace):
            parts.append(replace[i + 1])
            i += 2
        elif ch == "$":
            m = re.compile(r"\$(?:(\d+)|\{(\w+)\})").match(replace, i)
            if m is None:       # ICU fails on it only when there is a match to replace
                parts.append(None)
                break
            parts.append(int(m.group(1)) if m.group(1) is not None else ("name", m.group(2)))
            i = m.end()
        else:
            parts.append(ch)
            i += 1

    def substitute(match):
        out = []
        for part in parts:
            if isinstance(part, str):
                out.append(part)
            elif part is None:
                raise RuntimeError("RegexReplace: RegexReplace failed (a $ without a group in "
                                   "replace).")
            else:
                group = part if isinstance(part, int) else part[1]
                try:
                    out.append(match.group(group) or "")
                except (IndexError, re.error):
                    raise RuntimeError(f"RegexReplace: no group {group!r} in the pattern.") from None
        return "".join(out)
    return substitute


class RegexReplace:
    """Replace the matches of pattern (ICU regex syntax; $n in replace is group n) in every
    string of a tensor, all matches or the first."""

    def __init__(self, pattern, replace, replace_all=True):
        type_check(pattern, (str,), "pattern")
        type_check(replace, (str,), "replace")
        type_check(replace_all, (bool,), "replace_all")
        self.pattern = pattern
        self.replace = replace
        self.replace_all = replace_all

    def __call__(self, *inputs):
        strings = _string_array(inputs, "RegexReplace")
        regex = _compile(self.pattern, "RegexReplace: create icu RegexMatcher failed, you may "
                                       "input one error pattern.")
        substitute = _icu_replacement(self.replace)
        count = 0 if self.replace_all else 1
        return _map_strings(strings, lambda s: regex.sub(substitute, s, count=count))


def _map_strings(strings, function):
    out = [function(str(s)) for s in strings.reshape(-1)]
    return np.array(out, dtype=str).reshape(strings.shape)


# --- case folding and normalization --------------------------------------------------------------

# Default_Ignorable_Code_Point: NFKC_Casefold maps these to nothing.
_IGNORABLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
                        "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
                        "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]")


def nfkc_casefold(text):
    """ICU's NFKC_Casefold: NFKC of the case folding, default ignorables removed."""
    text = _IGNORABLE.sub("", text)
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def normalize(text, form):
    return text if form == NormalizeForm.NONE else unicodedata.normalize(form.name, text)


class CaseFold:
    """Unicode case folding (ICU's NFKC_Casefold, so also NFKC) of every string of a tensor."""

    def __call__(self, *inputs):
        return _map_strings(_string_array(inputs, "CaseFold"), nfkc_casefold)


class NormalizeUTF8:
    """Unicode normalization of every string of a tensor."""

    def __init__(self, normalize_form=NormalizeForm.NFKC):
        _check_form(normalize_form)
        self.normalize_form = normalize_form

    def __call__(self, *inputs):
        strings = _string_array(inputs, "NormalizeUTF8")
        return _map_strings(strings, lambda s: normalize(s, self.normalize_form))


# --- BERT ------------------------------------------------------------------------------------------

_PUNCTUATION_OR_CJK = (r"[!-/]|[:-@]|[\[-`]|[{-~]|[\p{P}]|[\x{4E00}-\x{9FFF}]|[\x{3400}-\x{4DBF}]"
                       r"|[\x{20000}-\x{2A6DF}]|[\x{2A700}-\x{2B73F}]|[\x{2B740}-\x{2B81F}]"
                       r"|[\x{2B820}-\x{2CEAF}]|[\x{F900}-\x{FAFF}]|[\x{2F800}-\x{2FA1F}]")
_UNUSED_TOKENS = r"\[CLS\]|\[SEP\]|\[UNK\]|\[PAD\]|\[MASK\]|\[unused\d+\]|"
_PRESERVED_WORDS = re.compile(r"\[(?:CLS|SEP|UNK|PAD|MASK)\]")


@lru_cache(maxsize=None)
def _basic_patterns(keep_whitespace, preserve_unused_token):
    delim = r"\s+|" + _PUNCTUATION_OR_CJK
    keep = delim if keep_whitespace else _PUNCTUATION_OR_CJK
    if preserve_unused_token:
        delim, keep = _UNUSED_TOKENS + delim, _UNUSED_TOKENS + keep
    return re.compile(_icu_regex(delim)), re.compile(_icu_regex(keep))


def _fold_keeping_preserved(text):
    """Case folding that leaves [CLS], [SEP], [UNK], [PAD] and [MASK] as they are."""
    out, start = [], 0
    for match in _PRESERVED_WORDS.finditer(text):
        out += [nfkc_casefold(text[start:match.start()]), match.group(0)]
        start = match.end()
    out.append(nfkc_casefold(text[start:]))
    return "".join(out)


class BasicTokenizer:
    """BERT's basic tokenization: optional lower casing with accents stripped (or a normalization),
    control characters to spaces, split on whitespace, punctuation and CJK ideographs. Offsets are
    in the processed text, as MindSpore's."""

    def __init__(self, lower_case=False, keep_whitespace=False, normalization_form=NormalizeForm.NONE,
                 preserve_unused_token=True, with_offsets=False):
        _check_bool(lower_case, "lower_case")
        _check_bool(keep_whitespace, "keep_whitespace")
        _check_bool(preserve_unused_token, "preserve_unused_token")
        _check_bool(with_offsets, "with_offsets")
        _check_form(normalization_form)
        self.lower_case = lower_case
        self.keep_whitespace = keep_whitespace
        self.normalization_form = normalization_form
        self.preserve_unused_token = preserve_unused_token
        self.with_offsets = with_offsets

    def processed(self, text):
        if self.lower_case:
            text = (_fold_keeping_preserved(text) if self.preserve_unused_token
                    else nfkc_casefold(text))
            text = "".join(ch for ch in unicodedata.normalize("NFD", text)
                           if unicodedata.category(ch) != "Mn")
        else:
            text = normalize(text, self.normalization_form)
        return "".join(" " if unicodedata.category(ch) in ("Cc", "Cf") else ch for ch in text)

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise RuntimeError("BasicTokenizer: input only support one column data.")
        value = inputs[0]
        if isinstance(value, np.ndarray) and value.ndim != 0:
            raise RuntimeError(f"BasicTokenizer: the input should be a scalar, but got a tensor "
                               f"with rank: {value.ndim}")
        text = _scalar_string(inputs, "BasicTokenizer",
                              "BasicTokenizer: the input should be of type string.")
        text = self.processed(text)
        delim, keep = _basic_patterns(self.keep_whitespace, self.preserve_unused_token)
        return _tokens_output(text, regex_spans(text, delim, keep, keep_delim=True),
                              self.with_offsets)


def _vocab_words(vocab, message):
    from minddata import text     # its Vocab, imported on use (minddata.text imports this module)
    if vocab is None:
        raise ValueError(message)
    if not isinstance(vocab, text.Vocab):
        raise TypeError("Wrong input type for vocab, should be text.Vocab object.")
    return frozenset(vocab.vocab())


class WordpieceTokenizer:
    """Split each token into the longest vocabulary pieces from the left, later pieces with the
    suffix indicator; a token with no split (or longer than max_bytes_per_token bytes) becomes
    unknown_token (or stays whole when unknown_token is '')."""

    def __init__(self, vocab, suffix_indicator='##', max_bytes_per_token=100, unknown_token='[UNK]',
                 with_offsets=False):
        self.words = _vocab_words(vocab, "vocab is not provided.")
        _check_str(suffix_indicator, "suffix_indicator")
        _check_str(unknown_token, "unknown_token")
        _check_bool(with_offsets, "with_offsets")
        _check_uint32(max_bytes_per_token)
        self.vocab = vocab
        self.suffix_indicator = suffix_indicator
        self.max_bytes_per_token = max_bytes_per_token
        self.unknown_token = unknown_token
        self.with_offsets = with_offsets

    def pieces(self, token, base):
        """(pieces, starts, limits) of one token whose bytes start at `base`."""
        size = len(token.encode("utf-8"))
        if size > self.max_bytes_per_token:
            if self.unknown_token:
                return [self.unknown_token], [base], [base + len(self.unknown_token.encode())]
            return [token], [base], [base + size]
        prefix = _byte_prefix(token)
        pieces, starts, limits, start = [], [], [], 0
        while start < len(token):
            for end in range(len(token), start, -1):
                piece = token[start:end] if start == 0 else self.suffix_indicator + token[start:end]
                if piece in self.words:
                    break
            else:
                return [self.unknown_token or token], [base], [base + size]
            pieces.append(piece)
            starts.append(base + prefix[start])
            limits.append(base + prefix[end])
            start = end
        return pieces, starts, limits

    def tokenize(self, tokens, bases):
        out, starts, limits = [], [], []
        for token, base in zip(tokens, bases):
            pieces, piece_starts, piece_limits = self.pieces(token, int(base))
            out += pieces
            starts += piece_starts
            limits += piece_limits
        if not out:
            out, starts, limits = [""], [0], [0]
        tokens = np.array(out, dtype=str)
        if not self.with_offsets:
            return tokens
        return tokens, np.array(starts, dtype=np.uint32), np.array(limits, dtype=np.uint32)

    def __call__(self, *inputs):
        value = inputs[0] if len(inputs) == 1 else None
        if isinstance(value, str):
            value = np.array(value)
        if not _is_string_array(value) or value.ndim > 1:
            raise RuntimeError("WordpieceTokenizer: The input shape should be 1D scalar the input "
                               "datatype should be string.")
        tokens = [str(t) for t in value.reshape(-1)]
        return self.tokenize(tokens, [0] * len(tokens))


class BertTokenizer:
    """BasicTokenizer, then WordpieceTokenizer on its tokens (offsets in the processed text)."""

    def __init__(self, vocab, suffix_indicator='##', max_bytes_per_token=100, unknown_token='[UNK]',
                 lower_case=False, keep_whitespace=False, normalization_form=NormalizeForm.NONE,
                 preserve_unused_token=True, with_offsets=False):
        # MindSpore's order of checks ("vacab" is its spelling)
        _vocab_words(vocab, "vacab is not provided.")
        _check_str(suffix_indicator, "suffix_indicator")
        if not isinstance(max_bytes_per_token, int):
            raise TypeError("Wrong input type for max_bytes_per_token, should be int.")
        _check_uint32(max_bytes_per_token)
        _check_str(unknown_token, "unknown_token")
        for value, name in ((lower_case, "lower_case"), (keep_whitespace, "keep_whitespace"),
                            (preserve_unused_token, "preserve_unused_token"),
                            (with_offsets, "with_offsets")):
            _check_bool(value, name)
        self.wordpiece = WordpieceTokenizer(vocab, suffix_indicator, max_bytes_per_token,
                                            unknown_token, with_offsets=True)
        self.basic = BasicTokenizer(lower_case, keep_whitespace, normalization_form,
                                    preserve_unused_token, with_offsets=True)
        self.with_offsets = with_offsets

    def __call__(self, *inputs):
        tokens, starts, _ = self.basic(*inputs)
        out = self.wordpiece.tokenize([str(t) for t in tokens], starts)
        return out if self.with_offsets else out[0]
