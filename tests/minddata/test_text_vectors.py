"""text.Vectors / FastText / GloVe / CharNGram and ToVectors: values, shapes and errors measured
in MindSpore 2.10."""
import numpy as np
import pytest

import minddata as ds
from minddata import text


def _file(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return str(path)


@pytest.fixture
def vectors(tmp_path):
    return text.Vectors.from_file(_file(tmp_path, "v.txt", "a 1 2 3\nb 4 5 6\nA 7 8 9\n"))


def test_lookup_shapes_and_unknown_words(vectors):
    op = text.ToVectors(vectors)
    np.testing.assert_array_equal(op("a"), np.array([1, 2, 3], np.float32))
    assert op(["a"]).shape == (3,) and op(np.array([["a"]])).shape == (3,)
    got = op(np.array([["a", "b"], ["A", "c"]]))
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, [[1, 2, 3], [4, 5, 6], [7, 8, 9], [0, 0, 0]])
    np.testing.assert_array_equal(text.ToVectors(vectors, unk_init=[9, 9, 9])(["zz", "a"]),
                                  [[9, 9, 9], [1, 2, 3]])
    np.testing.assert_array_equal(op(""), [0, 0, 0])


def test_lower_case_backup_looks_up_the_lowered_word_only(tmp_path, vectors):
    got = text.ToVectors(vectors, lower_case_backup=True)(["B", "A", "Zz"])
    np.testing.assert_array_equal(got, [[4, 5, 6], [1, 2, 3], [0, 0, 0]])
    accented = text.Vectors.from_file(_file(tmp_path, "u.txt", "é 1 2\nÉ 3 4\nab 5 6\n"))
    np.testing.assert_array_equal(
        text.ToVectors(accented, lower_case_backup=True)(["É", "AB", "é"]),
        [[3, 4], [5, 6], [1, 2]])                        # ASCII letters only


def test_map_gives_float32_rows(vectors):
    data = ds.NumpySlicesDataset({"t": [["a", "b"], ["zz", "A"]]}, shuffle=False)
    rows = [row["t"] for row in data.map(text.ToVectors(vectors))
            .create_dict_iterator(output_numpy=True)]
    np.testing.assert_array_equal(rows[0], [[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal(rows[1], [[0, 0, 0], [7, 8, 9]])
    assert rows[1].dtype == np.float32


@pytest.mark.parametrize("content, words, expected", [
    ("3 3\na 1 2 3\n", ["a", "3"], [[1, 2, 3], [0, 0, 0]]),             # header line
    ("a 1 2\na 3 4\n", ["a"], [1, 2]),                                  # first one kept
    ("a 1 2 \nb 3 4\n", ["a", "b"], [[1, 2], [3, 4]]),
    ("a\t1 2 3\nb 4 5\n", ["a\t1", "b"], [[2, 3], [4, 5]]),
    ("a x 1.5e1z 0x10 nan -inf\n", ["a"], [0, 15, 16, np.nan, -np.inf]),
    ("a 1 2\r\nb 3 4\r\n", ["a", "b"], [[1, 2], [3, 4]]),
    ("a 1 2\nb  1 2\n", ["b"], [1, 2]),
])
def test_file_reading(tmp_path, content, words, expected):
    vectors = text.Vectors.from_file(_file(tmp_path, "v.txt", content))
    np.testing.assert_array_equal(text.ToVectors(vectors)(words), expected)


@pytest.mark.parametrize("content, message", [
    ("3 3\n2 2\na 1 2 3\nb 1 2\n", "got dim 2 while expecting 3"),
    ("3 3\n4 4\n", "file is empty"), ("", "file is empty"),
    ("a 1 2\n\nb 1 2\n", "token with 1-dimensional vector"),
    ("a 1 2\nb 1 2\n\n", "token with 1-dimensional vector"),
    ("a 1 2\nb 1\n", "token with 1-dimensional vector"),
    ("a  1 2\n", "got dim 2 while expecting 3"),
])
def test_bad_files(tmp_path, content, message):
    with pytest.raises(RuntimeError, match=message):
        text.Vectors.from_file(_file(tmp_path, "v.txt", content))


def test_max_vectors(tmp_path):
    path = _file(tmp_path, "v.txt", "3 2\na 1 2\nb 3 4\nc 5\n")
    got = text.ToVectors(text.Vectors.from_file(path, max_vectors=2))(["a", "b", "c"])
    np.testing.assert_array_equal(got, [[1, 2], [3, 4], [0, 0]])   # "c 5" never read
    assert text.ToVectors(text.Vectors.from_file(_file(tmp_path, "w.txt", "a 1 2\n"),
                                                 max_vectors=0))("a").tolist() == [1, 2]
    with pytest.raises(ValueError, match=r"max_vectors is not within the required interval "
                                         r"of \[0, 2147483647\]"):
        text.Vectors.from_file(path, max_vectors=-1)
    with pytest.raises(TypeError, match="Argument max_vectors"):
        text.Vectors.from_file(path, max_vectors=1.0)
    with pytest.raises(TypeError, match="Argument file_path"):
        text.Vectors.from_file(b"v.txt")
    with pytest.raises(RuntimeError, match="Vectors: get real path failed"):
        text.Vectors.from_file(str(tmp_path / "missing.txt"))


@pytest.mark.parametrize("name, ok", [
    ("f.vec", True), (".vec", True), ("vec", True), ("a.b.vec", True), ("x.VEC", False),
    ("a.vec.txt", False)])
def test_fasttext_names(tmp_path, name, ok):
    path = _file(tmp_path, name, "2 2\na 1 2\n")
    if ok:
        assert text.ToVectors(text.FastText.from_file(path))("a").tolist() == [1, 2]
    else:
        with pytest.raises(RuntimeError, match=r"FastText: invalid file, can not find file "
                                               r"'\*.vec', but got"):
            text.FastText.from_file(path)


@pytest.mark.parametrize("name, ok", [
    ("glove.6B.3d.txt", True), ("glove.6B..txt", True), ("glove.6B.txt", False),
    ("glove.6B.x.y.txt", False), ("glove.840B.300d.txt", False), ("xglove.6B.3d.txt", False),
    ("glove.6B.3d.TXT", False), ("a.glove.6B.3d.txt", False)])
def test_glove_names(tmp_path, name, ok):
    path = _file(tmp_path, name, "a 1 2\n")
    if ok:
        assert text.ToVectors(text.GloVe.from_file(path))("a").tolist() == [1, 2]
    else:
        with pytest.raises(RuntimeError, match="GloVe: invalid file, can not find file "):
            text.GloVe.from_file(path)


def test_named_files_missing_or_folders(tmp_path):
    with pytest.raises(RuntimeError, match="FastText: invalid file, failed to open FastText"):
        text.FastText.from_file(str(tmp_path / "missing.vec"))
    (tmp_path / "d.vec").mkdir()
    with pytest.raises(RuntimeError, match="FastText: invalid file, failed to open FastText"):
        text.FastText.from_file(str(tmp_path / "d.vec"))
    with pytest.raises(RuntimeError, match="GloVe: invalid file, failed to open GloVe"):
        text.GloVe.from_file(str(tmp_path / "glove.6B.3d.txt"))


def test_char_ngram_means_the_grams_found(tmp_path):
    path = _file(tmp_path, "any.txt", "2gram-#BEGIN#a 1 2\n2gram-ab 3 4\n3gram-#BEGIN#ab 5 6\n"
                                      "4gram-#BEGIN#ab#END# 7 8\n2gram-b#END# 0 0\n"
                                      "2gram-A#END# 9 9\n")
    grams = text.CharNGram.from_file(path)
    np.testing.assert_array_equal(text.ToVectors(grams)(["ab", "a", "zz", "AB", ""]),
                                  [[4, 5], [1, 2], [0, 0], [0, 0], [0, 0]])
    np.testing.assert_array_equal(text.ToVectors(grams, lower_case_backup=True)(["AB", "a"]),
                                  [[4, 5], [1, 2]])
    np.testing.assert_array_equal(text.ToVectors(grams, unk_init=[1, 2])(["ab", "zz", "b"]),
                                  [[3.75, 4.5], [1, 2], [0, 0]])


def test_to_vectors_arguments_and_inputs(vectors):
    for kwargs, message in [
            ({"unk_init": np.ones(3)}, "Argument unk_init with value"),
            ({"unk_init": [1.5, "a", 3]}, r"Argument unk_init\[1\]"),
            ({"unk_init": [True, 1, 1]}, r"Argument unk_init\[0\]"),
            ({"lower_case_backup": 1}, "Argument lower_case_backup")]:
        with pytest.raises(TypeError, match=message):
            text.ToVectors(vectors, **kwargs)
    with pytest.raises(TypeError, match="Argument vectors with value None"):
        text.ToVectors(None)
    with pytest.raises(RuntimeError, match="unk_init must be the same length as vectors, but "
                                           "got unk_init: 2 and vectors: 3"):
        text.ToVectors(vectors, unk_init=[9, 9])(["a"])
    for bad in (np.array([1, 2]), np.array([b"a", b"b"])):
        with pytest.raises(RuntimeError, match="ToVectors: input tensor type should be string"):
            text.ToVectors(vectors)(bad)
    with pytest.raises(RuntimeError, match="Input Tensor has no data"):
        text.ToVectors(vectors)([])
    np.testing.assert_array_equal(text.ToVectors(vectors, unk_init=[1e300, 1, 1])(["zz"]),
                                  [np.inf, 1, 1])
