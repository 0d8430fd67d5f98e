"""The tokenizers and normalizers of ``mindspore.dataset.text`` as cases of
tools/text_ops_vs_mindspore.py (its ``CASES`` hook): random strings of many scripts, whitespace
of every kind, empty strings, accents, CJK, emoji and control characters, through
WhitespaceTokenizer, UnicodeCharTokenizer, UnicodeScriptTokenizer, RegexTokenizer, RegexReplace,
CaseFold, NormalizeUTF8, BasicTokenizer, WordpieceTokenizer and BertTokenizer with random
arguments, valid or not; FilterWikipediaXML on those strings mixed with wiki markup. Plain data
and numpy only: MindSpore's interpreter imports it too.
"""
import re


PIECES = [
    "a", "Z", "hello", "Wörld", "café", "e\u0301", "ß", "ǅ", "İ", "ﬁ", "Ⅻ", "½", "①", "Å",
    "你好", "世界", "日本語", "\u3400", "\U00020001", "한국어", "ｶﾀｶﾅ", "カタカナ", "Привет", "αβγ", "שלום",
    "مرحبا", "हिन्दी", "ไทย", "😀", "👩\u200d👧", "🇫🇷", "1", "42", "3.5", "٣", ",", ".", "!", "?", "-",
    "(", "'", "\"", "¿", "«", "»", "、", "。", "—", "…", "$", "+", "^", "`", "~", "[CLS]", "[SEP]",
    "[UNK]", "[MASK]", "[PAD]", "[unused3]", "[Cls]", "##", "##ing", "favorite", "cats", "during",
    " ", "  ", "\t", "\n", "\r\n", "\x0b", "\x0c", "\u00a0", "\u3000", "\u2003", "\u2028", "\u0085",
    "\u1680", "\u202f", "\x1c", "\x1f", "\u200b", "\u200d", "\u00ad", "\ufeff", "\x00", "\x07",
    "\x7f", "\u0300", "\u0308", "\U000e0041", "\uffff", "",
]
VOCAB = ["my", "favor", "##ite", "book", "is", "cat", "##s", "dur", "##ing", "the", "[UNK]", "ä",
         "##ö", "你", "好", "[CLS]", "hello", "wörld", "##o", "h", "##e", "##l", "a", "z", "caf",
         "##é", "e", "##\u0301", "<unk>", "1", "##2"]
PATTERNS = [r"\s+", r"\s", " ", ",", r"\p{P}", r"\p{P}|\s+", r"[\p{L}]+", r"\d+", r"\w+", "x*",
            "", "a|b", r"[\x{4E00}-\x{9FFF}]", r"(\s)", r"\S+", "[", "(", r"\p{Han}", r"[^a-z]",
            r"\.", "é", r"\p{Mn}", r"\p{Cc}|\p{Cf}"]
REPLACEMENTS = ["", "_", " ", "$0", "$1", "<$0>", r"\$", "x\\y", "${1}", "$", "日本"]
FORMS = ["NONE", "NFC", "NFKC", "NFD", "NFKD"]
WIKI_PIECES = ["<ref>", "</ref>", "<a\nb>", ">", "<", "[[", "]]", "|", "{{", "}}", "&amp;", "&lt;",
               "&", ";", "R", "#redirect", "#REDIRECT", "http://x.org/a?b=1", "\n", "\n ", "\n\n",
               "0", "19", "Hello", "WORLD", "|thumb", "Category:", "''"]


def random_text(r):
    return "".join(r.choice(PIECES) for _ in range(r.randint(0, 8)))


def text_input(r, tensors=False):
    """One string; where the op takes tensors, sometimes a 1-D or 2-D list of them; rarely a
    number (a wrong input)."""
    roll = r.random()
    if roll < .05:
        return [r.randint(0, 9)]
    if tensors and roll < .35:
        strings = [random_text(r) for _ in range(r.randint(1, 4))]
        return strings if r.random() < .7 else [[s] for s in strings]
    if not tensors and roll < .1:
        return [random_text(r)]         # a 1-D tensor where a scalar is needed
    return random_text(r)


def rows(r, tensors=False):
    return [[text_input(r, tensors)] for _ in range(r.randint(1, 3))]


def flag(r):
    return r.choice([True, False, True, False, 1, None])


def form(r):
    return r.choice(FORMS + [None, "NFC"]) if r.random() < .2 else r.choice(FORMS)


def normalize_form(library, name):
    # None and strings are wrong arguments (kept as such); names are NormalizeForm members
    return getattr(library.text.NormalizeForm, name) if name in FORMS else name


def tokenizer_case(r):
    return {"inputs": rows(r), "with_offsets": flag(r), "keep_whitespace": flag(r)}


def regex_tokenizer_case(r):
    return {"inputs": rows(r), "delim_pattern": r.choice(PATTERNS + [None, 1]),
            "keep_delim_pattern": r.choice(PATTERNS[:8] + ["", "", "", 1]), "with_offsets": flag(r)}


def regex_replace_case(r):
    return {"inputs": rows(r, tensors=True), "pattern": r.choice(PATTERNS + [1]),
            "replace": r.choice(REPLACEMENTS + [None]), "replace_all": flag(r)}


def normalizer_case(r):
    return {"inputs": rows(r, tensors=True), "form": form(r)}


def wiki_case(r):
    def wiki_text():
        return "".join(r.choice(WIKI_PIECES * 2 + PIECES) for _ in range(r.randint(0, 12)))
    return {"inputs": [[r.choice([wiki_text(), wiki_text(), [wiki_text(), wiki_text()], [1]])]
                       for _ in range(r.randint(1, 3))]}


def basic_case(r):
    return {"inputs": rows(r), "lower_case": flag(r), "keep_whitespace": flag(r),
            "form": form(r), "preserve_unused_token": flag(r), "with_offsets": flag(r)}


def wordpiece_case(r):
    words = [r.choice(VOCAB + ["cats", "favorite", "wörld", "xyz", "", "hello!"])
             for _ in range(r.randint(0, 4))]
    return {"inputs": [[r.choice([words, words[:1], " ".join(words), [words], [1]])]],
            "vocab": r.sample(VOCAB, r.randint(5, len(VOCAB))),
            "suffix_indicator": r.choice(["##", "##", "", "@@", 1]),
            "max_bytes_per_token": r.choice([100, 100, 4, 1, 0, -1, 2 ** 32, "100", True]),
            "unknown_token": r.choice(["[UNK]", "[UNK]", "", "<unk>", 1]),
            "with_offsets": flag(r)}


def bert_case(r):
    case = basic_case(r)
    case.update({k: v for k, v in wordpiece_case(r).items() if k != "inputs"})
    return case


def build_wordpiece(library, case):
    return library.text.WordpieceTokenizer(
        library.text.Vocab.from_list(case["vocab"]), case["suffix_indicator"],
        case["max_bytes_per_token"], case["unknown_token"], case["with_offsets"])


def build_bert(library, case):
    return library.text.BertTokenizer(
        library.text.Vocab.from_list(case["vocab"]), case["suffix_indicator"],
        case["max_bytes_per_token"], case["unknown_token"], case["lower_case"],
        case["keep_whitespace"], normalize_form(library, case["form"]),
        case["preserve_unused_token"], case["with_offsets"])


def build_basic(library, case):
    return library.text.BasicTokenizer(
        case["lower_case"], case["keep_whitespace"], normalize_form(library, case["form"]),
        case["preserve_unused_token"], case["with_offsets"])


#: (name, make_case(rng), build(library, case)) for tools/text_ops_vs_mindspore.py
CASES = [
    ("WhitespaceTokenizer", tokenizer_case,
     lambda library, case: library.text.WhitespaceTokenizer(case["with_offsets"])),
    ("UnicodeCharTokenizer", tokenizer_case,
     lambda library, case: library.text.UnicodeCharTokenizer(case["with_offsets"])),
    ("UnicodeScriptTokenizer", tokenizer_case,
     lambda library, case: library.text.UnicodeScriptTokenizer(case["keep_whitespace"],
                                                               case["with_offsets"])),
    ("RegexTokenizer", regex_tokenizer_case,
     lambda library, case: library.text.RegexTokenizer(
         case["delim_pattern"], case["keep_delim_pattern"], case["with_offsets"])),
    ("RegexReplace", regex_replace_case,
     lambda library, case: library.text.RegexReplace(case["pattern"], case["replace"],
                                                     case["replace_all"])),
    ("CaseFold", normalizer_case, lambda library, case: library.text.CaseFold()),
    ("NormalizeUTF8", normalizer_case,
     lambda library, case: library.text.NormalizeUTF8(normalize_form(library, case["form"]))),
    ("BasicTokenizer", basic_case, build_basic),
    ("FilterWikipediaXML", wiki_case, lambda library, case: library.text.FilterWikipediaXML()),
    ("WordpieceTokenizer", wordpiece_case, build_wordpiece),
    ("BertTokenizer", bert_case, build_bert),
]

PRESERVED = ("[CLS]", "[SEP]", "[UNK]", "[PAD]", "[MASK]")


def strings_of(value):
    if isinstance(value, str):
        return [value]
    return [s for v in value for s in strings_of(v)] if isinstance(value, list) else []


def documented(case, item, ours, theirs):
    """The README's word for a difference, or None."""
    kind, inputs = case["kind"], [v for row in case["inputs"] for v in row]
    if kind == "RegexReplace" and any(len(strings_of(v)) > 1 for v in inputs):
        return "RegexReplace of several strings: MindSpore 2.10 joins the results into the first"
    if (kind in ("BasicTokenizer", "BertTokenizer") and case["lower_case"] is True
            and case["preserve_unused_token"] is True
            and any(w in s for v in inputs for s in strings_of(v) for w in PRESERVED)):
        return "lower_case with [CLS]-like words: MindSpore 2.10 repeats the text before them"
    if kind == "FilterWikipediaXML" and any(
            isinstance(v, list) or "R" in v or re.search("\n[ \n]*\n", v)
            for v in inputs if not isinstance(v, int)):
        return ("FilterWikipediaXML lower-cases R, makes blank lines one line break and filters "
                "every string (MindSpore 2.10 deletes R, makes them the letter n, empties all "
                "strings but the first)")
    if case.get("with_offsets") is True and offsets_miscounted(theirs) and \
            not offsets_miscounted(ours):
        return ("offsets: one (start, limit) pair per token (MindSpore 2.10 gives more offsets "
                "than tokens where a word becomes one unknown token)")
    return None


def offsets_miscounted(outcome):
    """Whether a (tokens, starts, limits) triple in an outcome has offsets of another length
    than its tokens."""
    if isinstance(outcome, (list, tuple)):
        if len(outcome) == 3 and all(isinstance(x, tuple) and len(x) == 3 for x in outcome) and \
                outcome[0][0] == "str" and outcome[1][0] == "<u4":
            return outcome[1][1] != outcome[0][1] or outcome[2][1] != outcome[0][1]
        return any(offsets_miscounted(x) for x in outcome)
    return False

