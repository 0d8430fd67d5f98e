"""CsvToMR: one CSV file (header line, comma-separated) -> MindRecord, read with pyarrow.

As MindSpore's CsvToMR: a field per column (or per ``columns_list`` entry) typed from the data
(int64, float64, bool -> int32, anything else string), every field indexed, desc "csv_schema",
header 16 MiB, pages 64 MiB. A line with the wrong number of fields is bad input naming the file
and line.
"""
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from .arrow_rows import table_schema
from .arrow_table_to_mr import ArrowTableToMR
from .bad_input import BadItem, ConversionError


class CsvToMR(ArrowTableToMR):
    """Convert a CSV file to MindRecord (``mindspore.mindrecord.CsvToMR``).

    Args:
        source (str): the CSV file.
        destination (str): MindRecord file to write.
        columns_list (list[str]): columns to convert (default all), in this order.
        partition_number (int): number of shard files. Default 1.
    """

    source_kind = "file"
    missing_source = OSError        # MindSpore 2.10's IOError "Csv file ... do not exist."
    desc = "csv_schema"

    def _read(self, column_types=None):
        bad_lines = []

        def on_invalid_row(row):
            where = f"{self.source} line {row.number}" if row.number is not None \
                else f"{self.source} line {row.text[:40]!r}"
            bad_lines.append((row.number, BadItem(
                where, f"expected {row.expected_columns} fields, got {row.actual_columns}")))
            return "skip" if self.skip_bad else "error"

        try:
            # One thread: row numbers are known, so messages can name the line.
            table = pcsv.read_csv(
                self.source, read_options=pcsv.ReadOptions(use_threads=False),
                parse_options=pcsv.ParseOptions(invalid_row_handler=on_invalid_row),
                convert_options=pcsv.ConvertOptions(column_types=column_types or {}))
        except pa.ArrowInvalid as exc:
            if bad_lines:
                raise ConversionError(f"bad input: {bad_lines[-1][1]}") from None
            raise ConversionError(f"{self.source}: cannot parse as CSV: {exc}") from None
        except OSError as exc:
            raise ConversionError(f"{self.source}: cannot read: {exc}") from None
        if column_types is None:
            header = table.column_names
            table = table.rename_columns(pandas_names(header))
            return self._hex_as_text(table, bad_lines, header)
        return table, bad_lines

    def _hex_as_text(self, table, bad_lines, header):
        """Columns pyarrow types otherwise than pandas (so MindSpore) does: it reads ``0x10``
        as the integer 16 (pandas keeps such a column as text) and ``+5`` as a float (pandas:
        an integer). Those columns are read again as strings (typed by ``header``, the file's
        own names) and retyped."""
        ints = [at for at, f in enumerate(table.schema) if pa.types.is_integer(f.type)]
        floats = [at for at, f in enumerate(table.schema) if pa.types.is_float64(f.type)]
        ints = ints if ints and _holds(self.source, (b"0x", b"0X")) else []
        floats = floats if floats and _holds(self.source, (b"+",)) else []
        if not ints and not floats:
            return table, bad_lines
        text, _ = self._read({header[at]: pa.string() for at in ints + floats})
        for at in ints + floats:            # by position: the file's names may repeat
            column, name = text.column(at), table.column_names[at]
            if at in ints:
                if pc.any(pc.match_substring_regex(column, r"^\s*[+-]?0[xX]")).as_py():
                    table = table.set_column(at, name, column)
                continue
            digits = pc.utf8_trim_whitespace(column)
            if column.null_count or not pc.all(pc.match_substring_regex(
                    digits, r"^[+-]?[0-9]+$")).as_py():
                continue
            try:
                table = table.set_column(at, name, pc.cast(pc.replace_substring_regex(
                    digits, r"^\+", ""), pa.int64()))
            except pa.ArrowInvalid:         # past int64: pandas reads a float too
                pass
        return table, bad_lines

    def _check_header(self, header):
        """The names of the columns converted as MindSpore 2.10 refuses them: a name starting
        with a digit (ValueError; the index database could not name it). A name twice in the
        header is pandas' ``a`` and ``a.1`` (``pandas_names``): ``a.1`` converted is the
        schema's MRMInvalidSchemaError, as in MindSpore."""
        for name in self.columns_list or header:
            if name[:1].isdigit():
                raise ValueError(f"{self.source}: the first line content: {name} of the CSV "
                                 "file is used as a column name and does not allow starting "
                                 "with a number.")

    def _build_specs(self):
        table, bad_lines = self._read()
        self._check_header(table.column_names)
        table, schema = table_schema(table, self.source, self.columns_list)
        # Physical line of each table row: header is line 1; skipped lines shift the rest.
        skipped = sorted(n for n, _ in bad_lines if n is not None)
        lines, line, k = [], 2, 0
        for _ in range(table.num_rows):
            while k < len(skipped) and skipped[k] == line:
                line += 1
                k += 1
            lines.append(line)
            line += 1
        return self.table_specs(table, schema, lines,
                                pre_skipped=[(b.where, b.reason) for _, b in bad_lines])


def pandas_names(names):
    """A header's names as pandas (so MindSpore 2.10's CsvToMR) names them: a name's repeats
    become ``name.1``, ``name.2`` ..."""
    seen, out = {}, []
    for name in names:
        count = seen.get(name, 0)
        seen[name] = count + 1
        out.append(f"{name}.{count}" if count else name)
    return out


def _holds(path, needles, chunk=1 << 20):
    """Whether the file holds one of ``needles`` (2 bytes each), read a chunk at a time."""
    tail = b""
    with open(path, "rb") as f:
        while True:
            data = f.read(chunk)
            if not data:
                return False
            data, tail = tail + data, data[-1:]
            if any(needle in data for needle in needles):
                return True
