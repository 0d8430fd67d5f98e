"""Vocab (``mindspore.dataset.text.Vocab``): a word -> id table built from a list, a dict, a
file (one word a line) or the words of a dataset's string columns, with MindSpore 2.10's
ids, argument checks and errors (measured)."""
import numpy as np

from transforms_c._validate import INT32_MAX, check_bool, check_range, is_int, wrong_type


def _check_words(words, name):
    if not isinstance(words, list):
        raise wrong_type(name, words, list)
    for word in words:
        if not isinstance(word, str):
            raise wrong_type(name, word, str)
    return words


def _check_specials(special_tokens, special_first):
    if special_tokens is not None:
        _check_words(special_tokens, "special_tokens")
        repeated = _first_repeated(special_tokens)
        if repeated is not None:
            raise ValueError(f"special_tokens contains duplicate word: {repeated}.")
    check_bool(special_first, "special_first")
    return list(special_tokens or ())


def _first_repeated(words):
    seen = set()
    for word in words:
        if word in seen:
            return word
        seen.add(word)
    return None


def _with_specials(words, specials, special_first):
    """Ids in order: the special tokens first (or last), then the words."""
    ordered = specials + words if special_first else words + specials
    return {word: i for i, word in enumerate(ordered)}


class Vocab:
    """A vocabulary: build one with ``from_list``, ``from_dict``, ``from_file`` or
    ``from_dataset``."""

    def __init__(self):
        self._ids = None

    @classmethod
    def _of(cls, ids):
        vocab = cls()
        vocab._ids = dict(ids)
        vocab._words = {i: word for word, i in vocab._ids.items()}
        return vocab

    def _built(self):
        if self._ids is None:
            raise RuntimeError("The Vocab has not built yet, got type <class 'NoneType'>. Use "
                               "Vocab.from_dataset(), Vocab.from_list(), Vocab.from_file() or "
                               "Vocab.from_dict() to build a Vocab.")
        return self._ids

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True):
        """Ids by position in ``word_list`` (after or before the special tokens)."""
        _check_words(word_list, "word_list")
        repeated = _first_repeated(word_list)
        if repeated is not None:
            raise ValueError(f"word_list contains duplicate word: {repeated}.")
        specials = _check_specials(special_tokens, special_first)
        both = set(specials) & set(word_list)
        if both:
            raise ValueError(f"special_tokens and word_list contain duplicate word :{both}.")
        return cls._of(_with_specials(word_list, specials, special_first))

    @classmethod
    def from_dict(cls, word_dict):
        """The ids of ``word_dict`` (word -> id, each in [0, 2147483647]) as given."""
        if not isinstance(word_dict, dict):
            raise wrong_type("word_dict", word_dict, dict)
        for word, word_id in word_dict.items():
            if not isinstance(word, str):
                raise wrong_type("word", word, str)
            if not is_int(word_id):
                raise wrong_type("word_id", word_id, int)
            check_range(word_id, "word_id", 0, INT32_MAX)
        return cls._of(word_dict)

    @classmethod
    def from_file(cls, file_path, delimiter="", vocab_size=None, special_tokens=None,
                  special_first=True):
        """One word a line: the line up to ``delimiter`` (the whole line where it is "";
        an empty line is the word ""), the first ``vocab_size`` lines."""
        if not isinstance(file_path, str):
            raise wrong_type("file_path", file_path, str)
        if not isinstance(delimiter, str):
            raise wrong_type("delimiter", delimiter, str)
        if vocab_size is not None:
            if not is_int(vocab_size):
                raise wrong_type("vocab_size", vocab_size, int)
            if vocab_size <= 0:
                raise ValueError("Input vocab_size must be greater than 0.")
        specials = _check_specials(special_tokens, special_first)
        try:
            with open(file_path, encoding="utf-8", newline="\n") as f:
                lines = f.read().split("\n")
        except OSError:
            raise RuntimeError(f"Get real path failed, path={file_path}") from None
        if lines and lines[-1] == "":
            lines.pop()                 # the end of the last line, not a line of its own
        words = []
        for line in lines[:vocab_size]:
            word = line.split(delimiter, 1)[0] if delimiter else line
            if word in words:
                raise RuntimeError(f"from_file: word_list contains duplicate word:{word}")
            if word in specials:
                raise RuntimeError(f"from_file: special_tokens and word_list contain "
                                   f"duplicate word:{word}")
            words.append(word)
        return cls._of(_with_specials(words, specials, special_first))

    @classmethod
    def from_dataset(cls, dataset, columns=None, freq_range=None, top_k=None,
                     special_tokens=None, special_first=True):
        """The words of the string ``columns`` (all by default) of one epoch of ``dataset``,
        those counted within ``freq_range`` (inclusive), the ``top_k`` most frequent, ordered
        by frequency, then by the words' (UTF-8 byte) order, as MindSpore 2.10 orders them."""
        columns = _check_columns(columns)
        low, high = _check_freq_range(freq_range)
        if top_k is not None:
            if not is_int(top_k):
                raise wrong_type("top_k", top_k, int, type(None))
            if top_k <= 0:
                raise ValueError("Input top_k must be greater than 0.")
        specials = _check_specials(special_tokens, special_first)
        counts = _count_words(dataset, columns)
        kept = sorted((word for word, count in counts.items() if low <= count <= high),
                      key=lambda word: (-counts[word], word))[:top_k]
        already = [word for word in specials if word in counts and word in kept]
        if already:
            raise RuntimeError("Invalid special words, these special words are already in the "
                               "vocab: " + "".join(word + "\t" for word in already) + ".")
        return cls._of(_with_specials(kept, specials, special_first))

    def vocab(self):
        """The table: a dict word -> id."""
        return dict(self._built())

    def tokens_to_ids(self, tokens):
        """The id of a word (a str) or of each (a list or array); -1 for a word not in it."""
        ids = self._built()
        if isinstance(tokens, str):
            return ids.get(tokens, -1)
        if not isinstance(tokens, (list, np.ndarray)):
            raise wrong_type("tokens", tokens, str, list, np.ndarray)
        return [ids.get(str(token), -1) for token in tokens]

    def ids_to_tokens(self, ids):
        """The word of an id (an int) or of each (a list or array); "" for an id not in it."""
        self._built()
        if is_int(ids) and not isinstance(ids, np.integer):
            check_range(ids, "ids", 0, INT32_MAX)
            return self._words.get(ids, "")
        if not isinstance(ids, (list, np.ndarray)):
            raise wrong_type("ids", ids, int, list, np.ndarray)
        for i, word_id in enumerate(ids):
            if isinstance(word_id, bool) or not isinstance(word_id, (int, np.integer)):
                raise TypeError(f"Argument ids[{i}] with value {word_id} is not of type "
                                f"(<class 'int'>, <class 'numpy.int64'>), but got "
                                f"{type(word_id)}.")
            check_range(word_id, "ids", 0, INT32_MAX)
        return [self._words.get(int(word_id), "") for word_id in ids]


def _check_columns(columns):
    if columns is None:
        return None
    columns = [columns] if isinstance(columns, str) else columns
    if not isinstance(columns, list):
        raise wrong_type("columns", columns, list, str)
    for i, column in enumerate(columns):
        if not isinstance(column, str):
            raise wrong_type(f"col[{i}]", column, str)
    return columns


def _check_freq_range(freq_range):
    """(low, high) counts, inclusive; None bounds open."""
    if freq_range is None:
        return 0, float("inf")
    if not isinstance(freq_range, tuple):
        raise wrong_type("freq_range", freq_range, tuple)
    if len(freq_range) != 2:
        raise ValueError("freq_range needs to be a tuple of 2 element.")
    low, high = freq_range
    if not all(bound is None or is_int(bound) for bound in freq_range):
        raise ValueError("freq_range needs to be either None or a tuple of 2 integers or an "
                         "int and a None.")
    low = 0 if low is None else low
    high = float("inf") if high is None else high
    if not 0 <= low <= high:
        raise ValueError("frequency range [a,b] should be 0 <= a <= b (a,b are inclusive).")
    return low, high


def _count_words(dataset, columns):
    """word -> count over the string elements of ``columns`` in one epoch."""
    names = dataset.get_col_names()
    for column in columns or ():
        if column not in names:
            raise RuntimeError(f"Invalid column name, column name: {column} does not exist, "
                               f"check existed column with dataset API 'get_col_names'")
    counts = {}
    for row in dataset.create_dict_iterator(num_epochs=1, output_numpy=True):
        for column in columns or names:
            value = np.asarray(row[column])
            if value.dtype.kind not in "US":
                raise RuntimeError(f"Invalid datatype, 'build_vocab' only supports string type "
                                   f"of input, but got numeric type: {value.dtype.name}")
            for word in value.reshape(-1).tolist():
                word = word.decode("utf-8") if isinstance(word, bytes) else word
                counts[word] = counts.get(word, 0) + 1
    return counts
