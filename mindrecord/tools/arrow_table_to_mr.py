"""What CsvToMR and ParquetToMR share: MindSpore's ``(source, destination, columns_list=None,
partition_number=1)`` arguments, and one MindRecord dataset written from a pyarrow table with
every scalar field indexed, header 16 MiB and pages 64 MiB (MindSpore's sizes for both)."""
from .arrow_rows import ArrowTableLoader, index_fields
from .conversion import ConversionSpec
from .converter import Converter
from .params import (check_columns_list, check_destination_arg, check_partition_number,
                     check_path_arg)


class ArrowTableToMR(Converter):
    """Base of the converters whose source reads into one pyarrow table.

    Subclasses set ``source_kind`` (what ``source`` may be: "file" or "any", as
    ``check_path_arg`` takes it), ``missing_source`` (the error a missing source raises) and
    ``desc`` (the schema description MindSpore writes), and
    build their specs with ``table_specs``.
    """

    source_kind = "file"
    missing_source = FileNotFoundError
    desc = None

    def __init__(self, source, destination, columns_list=None, partition_number=1):
        # the source last: MindSpore 2.10's CsvToMR makes its FileWriter when built, and looks
        # for the file when it runs
        self.columns_list = check_columns_list(columns_list)
        self.destination = check_destination_arg(destination)
        self.partition_number = check_partition_number(partition_number)
        self.source = check_path_arg(source, "source", self.source_kind, self.missing_source)

    def table_specs(self, table, schema, line_of_row=None, pre_skipped=()):
        """The one ConversionSpec of ``table`` (already mapped to ``schema``); ``line_of_row``
        and ``pre_skipped`` as ArrowTableLoader and ConversionSpec take them."""
        return [ConversionSpec(self.destination, schema, self.desc, range(table.num_rows),
                               ArrowTableLoader(table, schema, self.source, line_of_row),
                               self.partition_number, index_fields(table, schema),
                               header_size=1 << 24, page_size=1 << 26,
                               pre_skipped=list(pre_skipped))]
