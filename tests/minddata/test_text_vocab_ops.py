"""minddata.text's Vocab and its vocabulary/sequence ops, with values, dtypes and errors
measured in MindSpore 2.10."""
import numpy as np
import pytest

import minddata as ds
from minddata import mstype, text

ROWS = [["b", "a", "c"], ["c", "d"], ["e", "b", "b"], ["z"], ["a"]]


def words_dataset(rows=ROWS):
    return ds.GeneratorDataset(lambda: ((np.array(row),) for row in rows), ["t"], shuffle=False)


def by_id(vocab):
    return [word for word, _ in sorted(vocab.vocab().items(), key=lambda item: item[1])]


def test_from_list_puts_special_tokens_first_or_last_and_looks_up_both_ways():
    vocab = text.Vocab.from_list(["b", "a", "c"], ["<pad>", "<unk>"], True)
    assert vocab.vocab() == {"<pad>": 0, "<unk>": 1, "b": 2, "a": 3, "c": 4}
    assert vocab.tokens_to_ids(["a", "zz"]) == [3, -1] and vocab.tokens_to_ids("a") == 3
    assert vocab.ids_to_tokens([0, 1, 99]) == ["<pad>", "<unk>", ""]
    assert vocab.ids_to_tokens(2) == "b"
    assert by_id(text.Vocab.from_list(["a"], ["<s>"], False)) == ["a", "<s>"]
    with pytest.raises(ValueError, match="word_list contains duplicate word: a"):
        text.Vocab.from_list(["a", "a"])
    with pytest.raises(ValueError, match="special_tokens and word_list contain duplicate"):
        text.Vocab.from_list(["a"], ["a"])
    with pytest.raises(TypeError, match="word_list"):
        text.Vocab.from_list(("a",))
    with pytest.raises(TypeError, match="special_first"):
        text.Vocab.from_list(["a"], special_first=1)
    with pytest.raises(ValueError, match=r"interval of \[0, 2147483647\]"):
        text.Vocab.from_list(["a"]).ids_to_tokens(-1)


def test_from_dict_keeps_its_ids():
    vocab = text.Vocab.from_dict({"x": 3, "y": 0})
    assert vocab.tokens_to_ids(["x", "q"]) == [3, -1] and vocab.ids_to_tokens([3, 1]) == ["x", ""]
    with pytest.raises(ValueError, match="word_id"):
        text.Vocab.from_dict({"x": -1})
    with pytest.raises(TypeError, match="word_dict"):
        text.Vocab.from_dict([1])


def test_from_dataset_orders_by_frequency_then_by_word():
    assert by_id(text.Vocab.from_dataset(words_dataset(), "t")) == ["b", "a", "c", "d", "e", "z"]
    assert by_id(text.Vocab.from_dataset(words_dataset([["z", "a"], ["q", "b"]]))) == [
        "a", "b", "q", "z"]
    assert by_id(text.Vocab.from_dataset(words_dataset(), None, (2, None))) == ["b", "a", "c"]
    assert by_id(text.Vocab.from_dataset(words_dataset(), None, (None, 1), 2)) == ["d", "e"]
    assert by_id(text.Vocab.from_dataset(words_dataset(), ["t"], special_tokens=["<s>"],
                                         special_first=False))[-1] == "<s>"
    with pytest.raises(ValueError, match="top_k must be greater than 0"):
        text.Vocab.from_dataset(words_dataset(), top_k=0)
    with pytest.raises(ValueError, match="0 <= a <= b"):
        text.Vocab.from_dataset(words_dataset(), freq_range=(3, 1))
    with pytest.raises(RuntimeError, match="already in the vocab: b"):
        text.Vocab.from_dataset(words_dataset([["a", "b"], ["b"]]), special_tokens=["b"])


def test_from_file_reads_a_word_a_line(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("hello,1\nworld,2\n\nfoo bar\n hello\n")
    assert by_id(text.Vocab.from_file(str(path), ",")) == [
        "hello", "world", "", "foo bar", " hello"]
    assert by_id(text.Vocab.from_file(str(path), ",", 2, ["<u>"], False)) == [
        "hello", "world", "<u>"]
    with pytest.raises(RuntimeError, match="duplicate word"):
        text.Vocab.from_file(str(path), " ")
    with pytest.raises(ValueError, match="vocab_size must be greater than 0"):
        text.Vocab.from_file(str(path), ",", 0)


def test_lookup_eager_and_in_a_map():
    vocab = text.Vocab.from_list(["b", "a", "c"], ["<pad>", "<unk>"], True)
    lookup = text.Lookup(vocab, "<unk>")
    out = lookup(np.array(["a", "zz", "c"]))
    assert out.dtype == np.int32 and out.tolist() == [3, 1, 4]
    assert lookup("a").shape == () and text.Lookup(vocab, "<unk>", mstype.float32)(
        ["a", "b"]).dtype == np.float32
    with pytest.raises(RuntimeError, match='token: "zz" doesn\'t exist in vocab'):
        text.Lookup(vocab)("zz")
    with pytest.raises(RuntimeError, match='"nope" doesn\'t exist in vocab'):
        text.Lookup(vocab, "nope")("a")
    data = ds.NumpySlicesDataset({"t": np.array(["a b", "c a"])}, shuffle=False).map(
        operations=[text.PythonTokenizer(str.split), text.AddToken("<s>"), lookup],
        input_columns="t")
    assert [row[0].tolist() for row in data.create_tuple_iterator(output_numpy=True)] == [
        [1, 3, 2], [1, 4, 3]]


def test_sequence_ops():
    words = np.array(["a", "b", "c", "d"])
    assert text.Ngram(2)(words).tolist() == ["a b", "b c", "c d"]
    assert text.Ngram([1, 3])(words).tolist() == ["a", "b", "c", "d", "a b c", "b c d"]
    assert text.Ngram(3, ("_", 2), ("-", 1), "+")(words).tolist() == [
        "_+_+a", "_+a+b", "a+b+c", "b+c+d", "c+d+-"]
    assert text.Ngram(5)(words).tolist() == [""]
    assert text.SlidingWindow(2)(words).tolist() == [["a", "b"], ["b", "c"], ["c", "d"]]
    assert text.Truncate(2)(np.array([1, 2, 3])).tolist() == [1, 2]
    first, second = text.TruncateSequencePair(3)(np.array(["a", "b", "c", "d"]), np.array([4]))
    assert first.tolist() == ["a", "b"] and second.tolist() == [4]
    assert text.AddToken("x", False)(words).tolist() == ["a", "b", "c", "d", "x"]
    with pytest.raises(RuntimeError, match="Input Tensor has no data"):
        text.Truncate(2)(np.array([], dtype=str))     # MindSpore's eager calls refuse it
    with pytest.raises(ValueError, match="gram_0 must be greater than 0"):
        text.Ngram(0)


def test_to_number_reads_as_c_does():
    assert text.ToNumber(mstype.int32)(np.array(["1.5", "-2"])).tolist() == [1, -2]
    assert text.ToNumber(mstype.float32)(np.array(["0x10"])).tolist() == [16.0]
    with pytest.raises(RuntimeError, match="out of bounds if cast to int8"):
        text.ToNumber(mstype.int8)(np.array(["300"]))
    with pytest.raises(RuntimeError, match="out of bounds if cast to float32"):
        text.ToNumber(mstype.float32)(np.array(["inf"]))
    with pytest.raises(RuntimeError, match="out of bounds if cast to uint64"):
        text.ToNumber(mstype.uint64)(np.array(["-0"]))
    with pytest.raises(TypeError, match="not numeric data type"):
        text.ToNumber(mstype.bool_)


def test_python_tokenizer():
    tokenizer = text.PythonTokenizer(str.split)
    assert tokenizer(np.array("a b")).tolist() == ["a", "b"]
    assert tokenizer(np.array(["a b"])).tolist() == [["a", "b"]]
    assert text.PythonTokenizer(lambda s: [])(np.array("a")).dtype == np.dtype("<U1")
    with pytest.raises(TypeError, match="input should be a NumPy array"):
        tokenizer("a b")
