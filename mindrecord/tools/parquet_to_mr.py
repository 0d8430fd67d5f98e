"""ParquetToMR: a Parquet file (or a directory of them, one dataset) -> MindRecord via pyarrow.

Types map as in :mod:`arrow_rows` (numbers, strings, binary -> bytes, numeric lists -> ndarray
fields with shape [-1]); every scalar field is indexed (as CsvToMR), desc "parquet_schema".
"""
import pyarrow as pa
import pyarrow.parquet as pq

from .arrow_rows import ArrowTableLoader, index_fields, table_schema
from .bad_input import ConversionError
from .conversion import ConversionSpec
from .converter import Converter
from .params import (check_columns_list, check_destination_arg, check_partition_number,
                     check_path_arg)


class ParquetToMR(Converter):
    """Convert Parquet data to MindRecord.

    Args:
        source (str): a Parquet file, or a directory read as one dataset.
        destination (str): MindRecord file to write.
        columns_list (list[str]): columns to convert (default all).
        partition_number (int): number of shard files. Default 1.
    """

    def __init__(self, source, destination, columns_list=None, partition_number=1):
        self.source = check_path_arg(source, "source", "any")
        self.columns_list = check_columns_list(columns_list)
        self.destination = check_destination_arg(destination)
        self.partition_number = check_partition_number(partition_number)

    def _build_specs(self):
        try:
            table = pq.read_table(self.source, columns=self.columns_list)
        except (pa.ArrowInvalid, OSError) as exc:
            if self.columns_list and "No match for FieldRef" in str(exc):
                raise RuntimeError(f"The parameter columns_list is illegal: {exc}") from None
            raise ConversionError(f"{self.source}: cannot read as Parquet: {exc}") from None
        table, schema = table_schema(table.combine_chunks(), self.source, self.columns_list)
        index = index_fields(table, schema)
        return [ConversionSpec(self.destination, schema, "parquet_schema", range(table.num_rows),
                               ArrowTableLoader(table, schema, self.source),
                               self.partition_number, index,
                               header_size=1 << 24, page_size=1 << 26)]
