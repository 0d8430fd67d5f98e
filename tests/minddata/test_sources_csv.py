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


# --- found by tools/text_sources_vs_mindspore.py against MindSpore 2.10 (values measured there)


def _read(tmp_path, data, defaults=None, names=("a", "b"), delim=","):
    path = tmp_path / "t.csv"
    path.write_bytes(data)
    return _values(CsvSource([str(path)], delim, defaults, list(names) if names else None))


@pytest.mark.parametrize("data", [b'x,1"2\ny,2\n', b'x, "1"\n', b'x,"1"2\n', b'x,"1"  \n',
                                  b'x,1\ny,"abc'])
def test_a_quote_that_does_not_enclose_a_whole_field_is_an_error(tmp_path, data):
    # MindSpore 2.10: "unexpected quote in unquote field" / "receive unquote char in quote
    # field" / "reach the end of file in quote field"; pyarrow alone served '1"2', ' "1"', '12'
    with pytest.raises(RuntimeError, match="quote"):
        _read(tmp_path, data)


def test_whole_quoted_fields_keep_delimiters_line_ends_and_doubled_quotes(tmp_path):
    # MindSpore 2.10: ('a', '1"2'), ('b', '"'), ('c', 'x\r\ny,z')
    data = b'a,"1""2"\r\nb,""""\n"c","x\r\ny,z"\n'
    assert _read(tmp_path, data) == [("a", '1"2'), ("b", '"'), ("c", "x\r\ny,z")]


@pytest.mark.parametrize("text, value", [("+5", 5), ("-0", 0), ("007", 7), (" 12", 12),
                                         ("12 ", 12), ("\t7", 7), ("\x0b7", 7), ("\f7", 7),
                                         ("2147483647", 2 ** 31 - 1), ("-2147483648", -2 ** 31)])
def test_int_fields_as_mindspore_reads_them(tmp_path, text, value):
    # measured in MindSpore 2.10 (column_defaults [0]); '+5' was an error here before
    assert _read(tmp_path, f"x,{text}\n".encode(), ["", 0]) == [("x", value)]


@pytest.mark.parametrize("text", ["0x1F", "1e3", "1.", "12abc", "\u00a07", "inf", "", "--1"])
def test_int_fields_that_are_no_whole_int_are_errors(tmp_path, text):
    # MindSpore 2.10 reads a number at the start ('0x1F' -> 0, '1e3' -> 1; a deviation):
    # here '0x1F' was 31 before; the rest fail there too
    with pytest.raises(RuntimeError, match="type does not match"):
        _read(tmp_path, f"x,{text}\n".encode(), ["", 0])


@pytest.mark.parametrize("text", ["2147483648", "-2147483649", "9223372036854775808",
                                  "99999999999999999999"])
def test_ints_past_int32_are_out_of_range(tmp_path, text):
    # MindSpore 2.10: "parse failed at line 1 : value out of range."
    with pytest.raises(RuntimeError, match="value out of range"):
        _read(tmp_path, f"x,{text}\n".encode(), ["", 0])


@pytest.mark.parametrize("text", ["1e40", "-1e39", "3.4028236e38", "1e-40", "1e-45", "1e-50",
                                  "-1e-46"])
def test_floats_past_float32_are_out_of_range(tmp_path, text):
    # MindSpore 2.10 (stof): "value out of range"; here 1e40 was inf and 1e-50 0.0 before
    with pytest.raises(RuntimeError, match="value out of range"):
        _read(tmp_path, f"x,{text}\n".encode(), ["", 0.0])


def test_float_fields_as_mindspore_reads_them(tmp_path):
    # measured in MindSpore 2.10: 1000.0, 0.5, 1.0, inf, -inf, nan, -0.0, 2147483648.0 and
    # 1.1754944e-38 (the smallest normal float32)
    texts = ["1e3", ".5", "1.", "inf", "-Infinity", "NaN", "-0", "2147483647",
             "1.17549435e-38", " -1.5 "]
    got = [v for _, v in _read(tmp_path, "".join(f"x,{t}\n" for t in texts).encode(),
                               ["", 0.0])]
    expected = np.array([1000.0, 0.5, 1.0, np.inf, -np.inf, np.nan, -0.0, 2147483648.0,
                         np.finfo(np.float32).tiny, -1.5], np.float32)
    np.testing.assert_array_equal(np.array(got, np.float32), expected)
    assert np.signbit(got[6])


def test_a_bom_before_the_header_is_no_part_of_its_first_name(tmp_path):
    # a deviation: MindSpore 2.10 names the column '\ufeffx' (and keeps it in a first value)
    path = tmp_path / "t.csv"
    path.write_bytes(b"\xef\xbb\xbfx,y\n1,2\n")
    src = CsvSource([str(path)], ",", None, None)
    assert src.column_names == ["x", "y"] and _values(src) == [("1", "2")]


def test_a_field_delim_that_is_not_ascii_is_refused(tmp_path):
    # MindSpore 2.10 takes 'é' and never splits on it ('aéb' read as one field)
    f = _write(tmp_path / "a.csv", "a\u00e9b\n")
    with pytest.raises(ValueError, match="field_delim is invalid"):
        CSVDataset(f, field_delim="\u00e9", column_names=["x", "y"])


def test_more_column_defaults_than_column_names_is_an_error_when_built(tmp_path):
    # MindSpore 2.10 raises this RuntimeError from get_col_names, before any file is read
    f = _write(tmp_path / "a.csv", "1\n")
    with pytest.raises(RuntimeError, match="the size of column_names should be equal"):
        CSVDataset(f, column_defaults=[1, 2], column_names=["x"])


def test_a_header_with_no_line_break_after_it_is_a_file_with_no_rows(tmp_path):
    # MindSpore 2.10 (measured): [b"c0,c1\n1,2\n", b"c0,c1"] gives the one row ('1', '2');
    # pyarrow failed to skip the header line here before
    a = _write(tmp_path / "a.csv", "c0,c1\n1,2\n")
    b = _write(tmp_path / "b.csv", "c0,c1")
    src = CsvSource([a, b], ",", None, None)
    assert _values(src) == [("1", "2")] and src.file_row_ranges() == [(0, 1), (1, 1)]


def test_the_header_is_read_from_the_first_line_only(tmp_path):
    # bytes that are not UTF-8 in a later line are that line's error, not the header's (the
    # header was decoded with a chunk of the file before)
    path = tmp_path / "a.csv"
    path.write_bytes(b"c0\n7\xe2\x82\n")
    with pytest.raises(RuntimeError, match="invalid UTF8") as caught:
        CsvSource([str(path)], ",", [0], None)
    assert "cannot parse its header line" not in str(caught.value)
