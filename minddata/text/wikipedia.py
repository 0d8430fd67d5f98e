"""text.FilterWikipediaXML: Wikipedia XML dump text to lower-case words (MindSpore 2.10's,
measured).

MindSpore keeps its rewriting rules in a map keyed by the regex, so it applies them in the
sorted order of the patterns, not in the order of the wikifil.pl script they come from: entities,
digits and tags go first, then the upper-case letters (``R`` is deleted, not lower-cased), then
every run of characters other than ``a-z`` and newline becomes a space, after which the link,
template and ``|thumb`` rules find nothing left to match. The steps below are that effective
sequence, with three deviations where MindSpore serves wrong data: ``R`` is lower-cased like
every other capital (MindSpore deletes it: 'UPPER' gives 'uppe'), blank lines become one line
break (MindSpore's ICU reads the replacement "\n" as the letter n: 'a\n\nb' gives 'anb'), and
every string of an array is filtered (MindSpore filters the first and empties the others)."""
import re

import numpy as np

from .tokenizers import WHITE_SPACE

# ICU's UnicodeString::trim, applied after every rule: u_isWhitespace (no-break spaces left out,
# U+001C..U+001F taken in) and the space.
_TRIMMED = "".join(sorted((WHITE_SPACE - set("\xa0\u2007\u202f")) | set("\x1c\x1d\x1e\x1f")))
# '.' of an ICU regex stops at these line terminators
_NOT_LINE_END = "[^\n\x0b\x0c\r\x85\u2028\u2029]"
_DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_UPPER_TO_LOWER = {ord(c): c.lower() for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}

_RULES = (
    (re.compile("&[^;]*;"), " "),                                   # entities (to the next ';')
    (re.compile("[0-9]"), lambda m: f" {_DIGITS[int(m.group())]} "),
    (re.compile(f"<{_NOT_LINE_END}*>"), ""),                        # tags, greedy on a line
    (re.compile("<[^>]*>"), ""),                                    # tags across lines
    (lambda text: text.translate(_UPPER_TO_LOWER), None),
    (re.compile("[^a-z\n]+"), " "),
    (re.compile("\n "), ""),
    (re.compile("\n[ \n]*\n"), "\n"),   # MindSpore's ICU reads this "\n" as the letter n
    (re.compile("[ \n]+"), " "),
)


def filter_wikipedia_text(text):
    """One string of a Wikipedia dump, filtered the way MindSpore 2.10 does."""
    if "#redirect" in text or "#REDIRECT" in text:
        return ""
    for rule, replacement in _RULES:
        text = rule(text) if replacement is None else rule.sub(replacement, text)
        text = text.strip(_TRIMMED)
    return text


class FilterWikipediaXML:
    """Filter Wikipedia XML dump text to lower-case letters and spaces: markup removed, digits
    spelled out (MindSpore 2.10's rules, in the order MindSpore applies them, less its two
    wrong-data faults: see the module)."""

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise RuntimeError("FilterWikipediaXML: the op is OneToOne, can only accept one "
                               "tensor as input.")
        value = inputs[0]
        strings = np.array(value) if isinstance(value, str) else value
        if not (isinstance(strings, np.ndarray) and strings.dtype.kind == "U"):
            raise RuntimeError("FilterWikipediaXML: input is not of type string.")
        if strings.size == 0:
            raise RuntimeError("FilterWikipediaXML: Input Tensor has no data.")
        out = [filter_wikipedia_text(str(text)) for text in strings.reshape(-1)]
        return np.array(out, dtype=str).reshape(strings.shape)
