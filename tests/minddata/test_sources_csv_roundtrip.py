"""CSVDataset reads back what Python's csv module writes: quotes, delimiters, newlines, unicode."""
import csv

from hypothesis import given, settings, strategies as st

from minddata.sources.csv_dataset import CsvSource

_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\r"),
                max_size=12)


@settings(deadline=None, max_examples=25)
@given(rows=st.lists(st.tuples(_text, st.integers(-2**31, 2**31 - 1), _text), min_size=1,
                     max_size=8),
       delimiter=st.sampled_from([",", ";", "\t", "|"]))
def test_written_rows_read_back(tmp_path_factory, rows, delimiter):
    path = tmp_path_factory.mktemp("csv") / "data.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, delimiter=delimiter, quoting=csv.QUOTE_NONNUMERIC)
        for a, n, b in rows:
            writer.writerow([a, str(n), b])
    src = CsvSource([str(path)], delimiter, ["", 0, ""], ["a", "n", "b"])
    got = [tuple(v.item() for v in row) for row in src.read_rows(range(len(src)))]
    assert got == [(a, n, b) for a, n, b in rows]
