"""CSVDataset's row source: headers, column_defaults types, delimiters, quoting, errors."""
import numpy as np
import pytest

from minddata.sources.csv_dataset import CSVDataset, CsvSource


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    return str(path)


def _values(src):
    return [tuple(v.item() for v in row) for row in src.read_rows(range(len(src)))]


def test_header_and_strings_by_default(tmp_path):
    f = _write(tmp_path / "a.csv", "x,y\n1,hello\n2,\n")
    src = CsvSource([f], ",", None, None)
    assert src.column_names == ["x", "y"]
    rows = src.read_rows([0, 1])
    assert rows[0][0].shape == () and rows[0][0].dtype.kind == "U"
    assert _values(src) == [("1", "hello"), ("2", "")]


def test_column_defaults_give_types_not_values(tmp_path):
    """As MindSpore 2.10 (measured): an empty string field is '', an empty int or float field
    is its RuntimeError naming the file and line; the defaults only type the columns."""
    f = _write(tmp_path / "a.csv", "1,2.5,a\n3,4.5,\n")
    src = CsvSource([f], ",", [7, 0.5, "z"], ["i", "f", "s"])
    rows = src.read_rows([0, 1])
    assert rows[0][0].dtype == np.int32 and rows[0][1].dtype == np.float32
    assert _values(src) == [(1, 2.5, "a"), (3, 4.5, "")]
    for line, column in (("9,,b", "f"), (",1.5,b", "i"), (" ,1.5,b", "i")):
        bad = _write(tmp_path / "b.csv", "1,2.5,a\n" + line + "\n")
        with pytest.raises(RuntimeError, match=rf"b.csv parse failed at data line 2, type does "
                                               rf"not match: column '{column}' is empty"):
            _values(CsvSource([bad], ",", [7, 0.5, "z"], ["i", "f", "s"]))


def test_column_names_mean_no_header(tmp_path):
    f = _write(tmp_path / "a.csv", "a,b\nc,d\n")
    assert len(CsvSource([f], ",", None, ["p", "q"])) == 2


def test_delimiter_and_quotes(tmp_path):
    f = _write(tmp_path / "a.csv", 'k;v\n1;"x;y"\n2;"line\nbreak"\n')
    src = CsvSource([f], ";", None, None)
    assert _values(src) == [("1", "x;y"), ("2", "line\nbreak")]


def test_multiple_files_in_order(tmp_path):
    a = _write(tmp_path / "a.csv", "n\n1\n2\n")
    b = _write(tmp_path / "b.csv", "n\n3\n")
    src = CsvSource([a, b], ",", [0], None)
    assert [r[0] for r in _values(src)] == [1, 2, 3]
    assert src.file_row_ranges() == [(0, 2), (2, 3)]
    assert "b.csv data line 0" in src.provenance(2)


def test_headers_must_agree(tmp_path):
    a = _write(tmp_path / "a.csv", "n\n1\n")
    b = _write(tmp_path / "b.csv", "m\n3\n")
    with pytest.raises(RuntimeError, match="b.csv.*header"):
        CsvSource([a, b], ",", None, None)


def test_bad_int_names_file_and_column(tmp_path):
    f = _write(tmp_path / "a.csv", "1\nxyz\n")
    with pytest.raises(RuntimeError, match="a.csv.*column 'n'.*int32"):
        CsvSource([f], ",", [0], ["n"])


def test_ragged_line_is_error(tmp_path):
    f = _write(tmp_path / "a.csv", "a,b\n1,2\n3\n")
    with pytest.raises(RuntimeError, match="a.csv"):
        CsvSource([f], ",", None, None)


def test_empty_file(tmp_path):
    f = _write(tmp_path / "a.csv", "")
    assert len(CsvSource([f], ",", None, ["a"])) == 0
    with pytest.raises(RuntimeError, match="empty"):
        CsvSource([f], ",", None, None)


def test_too_many_defaults(tmp_path):
    f = _write(tmp_path / "a.csv", "a\n1\n")
    with pytest.raises(RuntimeError, match="column_defaults has 2 entries"):
        CsvSource([f], ",", [1, 2], None)


def test_bad_arguments(tmp_path):
    f = _write(tmp_path / "a.csv", "a\n1\n")
    with pytest.raises(ValueError, match="did not match any files"):
        CSVDataset(str(tmp_path / "*.tsv"))
    with pytest.raises(ValueError, match="field_delim is invalid"):
        CSVDataset(f, field_delim='"')
    with pytest.raises(ValueError, match="field_delim is invalid"):
        CSVDataset(f, field_delim=",,")
    with pytest.raises(TypeError, match="column_defaults should be type of list"):
        CSVDataset(f, column_defaults=(1,))
    with pytest.raises(TypeError, match="column type in column_defaults is invalid"):
        CSVDataset(f, column_defaults=[None])
    with pytest.raises(TypeError, match="column_names should be a list of str"):
        CSVDataset(f, column_names=["a", 1])
    with pytest.raises(TypeError, match="Argument dataset files"):   # MindSpore 2.10's words
        CSVDataset(3)
