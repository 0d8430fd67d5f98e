"""ParquetToMR: a Parquet file (or a directory of them, one dataset) -> MindRecord via pyarrow.

Types map as in :mod:`arrow_rows` (numbers, strings, binary -> bytes, numeric lists -> ndarray
fields with shape [-1]); every scalar field is indexed (as CsvToMR), desc "parquet_schema".
"""
import pyarrow as pa
import pyarrow.parquet as pq

from .arrow_rows import table_schema
from .arrow_table_to_mr import ArrowTableToMR
from .bad_input import ConversionError


class ParquetToMR(ArrowTableToMR):
    """Convert Parquet data to MindRecord.

    Args:
        source (str): a Parquet file, or a directory read as one dataset.
        destination (str): MindRecord file to write.
        columns_list (list[str]): columns to convert (default all).
        partition_number (int): number of shard files. Default 1.
    """

    source_kind = "any"
    desc = "parquet_schema"

    def _build_specs(self):
        try:
            table = pq.read_table(self.source, columns=self.columns_list)
        except (pa.ArrowInvalid, OSError) as exc:
            if self.columns_list and "No match for FieldRef" in str(exc):
                raise RuntimeError(f"The parameter columns_list is illegal: {exc}") from None
            raise ConversionError(f"{self.source}: cannot read as Parquet: {exc}") from None
        table, schema = table_schema(table.combine_chunks(), self.source, self.columns_list)
        return self.table_specs(table, schema)
