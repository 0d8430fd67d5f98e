"""CsvToMR: CSV (read with pyarrow) -> MindRecord with MindSpore's type mapping."""
import json
import math
import os

import pytest

from mindrecord import ShardReader
from mindrecord.tools import ConversionError, CsvToMR
from .test_tools_helpers import read_rows

CSV = "id,score,flag,name\n1,0.5,true,ann\n2,1.25,false,bob\n3,-2.0,true,\"c, d\"\n"


def test_round_trip_and_types(tmp_path):
    (tmp_path / "a.csv").write_text(CSV)
    result = CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr")).transform()
    assert result.rows == 3
    with ShardReader(str(tmp_path / "a.mr")) as reader:
        assert reader.schema == {"flag": {"type": "int32"}, "id": {"type": "int64"},
                                 "name": {"type": "string"}, "score": {"type": "float64"}}
    assert read_rows(str(tmp_path / "a.mr")) == [
        {"flag": 1, "id": 1, "name": "ann", "score": 0.5},
        {"flag": 0, "id": 2, "name": "bob", "score": 1.25},
        {"flag": 1, "id": 3, "name": "c, d", "score": -2.0}]


def test_columns_list_and_partitions(tmp_path):
    (tmp_path / "a.csv").write_text(CSV)
    CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr"), ["name", "id"], 2).transform()
    assert read_rows(str(tmp_path / "a.mr0")) == [
        {"id": 1, "name": "ann"}, {"id": 2, "name": "bob"}, {"id": 3, "name": "c, d"}]


def test_unknown_column_in_columns_list(tmp_path):
    (tmp_path / "a.csv").write_text(CSV)
    with pytest.raises(RuntimeError, match="column nope does not exist"):
        CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr"), ["nope"]).transform()


def test_int_column_with_gaps_becomes_float_with_nan(tmp_path):
    (tmp_path / "a.csv").write_text("a,b\n1,x\n,y\n3,z\n")
    CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr")).transform()
    values = [r["a"] for r in read_rows(str(tmp_path / "a.mr"))]
    assert values[0] == 1.0 and math.isnan(values[1]) and values[2] == 3.0
    # NaN cannot be indexed: the float column with gaps is left out of the index.
    with open(tmp_path / "a.mr", "rb") as f:
        header = json.loads(f.read(int.from_bytes(f.read(8), "little")))
    assert [i["index_field"] for i in header["index_fields"]] == ["b"]


def test_wrong_field_count_names_file_and_line(tmp_path):
    (tmp_path / "a.csv").write_text("a,b\n1,2\n3,4\n5,6,7\n8,9\n")
    with pytest.raises(ConversionError, match=r"a\.csv line 4: expected 2 fields, got 3"):
        CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr")).transform()
    assert sorted(os.listdir(tmp_path)) == ["a.csv"]


def test_wrong_field_count_skipped_with_report(tmp_path):
    (tmp_path / "a.csv").write_text("a,b\n1,2\n3\n5,6,7\n8,9\n")
    result = CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr")).transform(skip_bad=True)
    assert [r["a"] for r in read_rows(str(tmp_path / "a.mr"))] == [1, 8]
    lines = open(result.report_file).read().splitlines()
    assert lines == [f"{tmp_path}/a.csv line 3: expected 2 fields, got 1",
                     f"{tmp_path}/a.csv line 4: expected 2 fields, got 3"]


def test_invalid_column_name(tmp_path):
    # MindSpore 2.10: MRMInvalidSchemaError "Field 'a b' should be composed of ..." (measured)
    from mindrecord.errors import MRMInvalidSchemaError
    (tmp_path / "a.csv").write_text("a b,c\n1,2\n")
    with pytest.raises(MRMInvalidSchemaError, match="column name 'a b' is not a valid"):
        CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr")).transform()


def test_argument_errors(tmp_path):
    (tmp_path / "a.csv").write_text(CSV)
    with pytest.raises(ValueError, match="columns_list"):
        CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr"), "id")
    with pytest.raises(OSError, match="source"):       # MindSpore 2.10: IOError
        CsvToMR(str(tmp_path / "none.csv"), str(tmp_path / "a.mr"))
    with pytest.raises(ValueError, match="destination"):
        CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a?.mr"))


# Measured against MindSpore 2.10 with tools/converters_vs_mindspore.py.


def test_a_header_name_starting_with_a_digit_is_a_value_error_before_writing(tmp_path):
    # MindSpore 2.10: ValueError "The first line content: 1 of the CSV file is used as a column
    # name and does not allow starting with a number." (the index database leaked sqlite's
    # OperationalError here); a column left out by columns_list is not checked there.
    for header in ("1,b", "007,b", "2col,b"):
        (tmp_path / "a.csv").write_text(header + "\n1,2\n")
        with pytest.raises(ValueError, match="does not allow starting with a number"):
            CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr")).transform()
        assert os.listdir(tmp_path) == ["a.csv"]
    CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr"), ["b"]).transform()
    assert read_rows(str(tmp_path / "a.mr")) == [{"b": 2}]


def test_a_header_name_twice_is_an_invalid_schema(tmp_path):
    # MindSpore 2.10: MRMInvalidSchemaError (pandas names the second column "a.1"); a KeyError
    # leaked here
    from mindrecord.errors import MRMInvalidSchemaError
    (tmp_path / "a.csv").write_text("a,a\n1,2\n")
    with pytest.raises(MRMInvalidSchemaError, match="'a.1' is not a valid MindRecord field"):
        CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr")).transform()
    assert os.listdir(tmp_path) == ["a.csv"]


def test_a_header_name_twice_as_pandas_names_it(tmp_path):
    # Measured in MindSpore 2.10 on this file (a hex cell made pyarrow's second read leak a
    # KeyError here for every columns_list): the first "text" converts, a missing column is
    # the RuntimeError, every column the MRMInvalidSchemaError of "text.1"
    from mindrecord.errors import MRMInvalidSchemaError
    (tmp_path / "t.csv").write_text('text,text,name\n-1.25,"-",hello\n2.5E+2,nan,0x10\n')
    source = str(tmp_path / "t.csv")
    CsvToMR(source, str(tmp_path / "a.mr"), ["name", "text"]).transform()
    assert read_rows(str(tmp_path / "a.mr")) == [{"name": "hello", "text": -1.25},
                                                 {"name": "0x10", "text": 250.0}]
    with pytest.raises(RuntimeError, match="columns_list is illegal, column nope does not"):
        CsvToMR(source, str(tmp_path / "b.mr"), ["text", "nope"]).transform()
    with pytest.raises(MRMInvalidSchemaError, match="'text.1' is not a valid"):
        CsvToMR(source, str(tmp_path / "c.mr")).transform()


def test_an_empty_columns_list_converts_every_column(tmp_path):
    # MindSpore 2.10 takes columns_list=[] or "" as None (every column); ValueError here before
    (tmp_path / "a.csv").write_text(CSV)
    for empty in ([], ""):
        CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr"), empty).transform(
            overwrite=True)
        assert read_rows(str(tmp_path / "a.mr"))[0] == {"flag": 1, "id": 1, "name": "ann",
                                                        "score": 0.5}


def test_partition_number_out_of_range_is_a_param_value_error(tmp_path):
    # MindSpore 2.10's FileWriter: ParamValueError for shard_num 0, -1 or 1001
    from mindrecord.errors import ParamValueError
    (tmp_path / "a.csv").write_text(CSV)
    for number in (0, -1, 1001):
        with pytest.raises(ParamValueError, match="partition_number"):
            CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr"), None, number)
    # and for a destination ending with "/" (MindSpore: "File path can not end with '/'")
    with pytest.raises(ParamValueError, match="destination"):
        CsvToMR(str(tmp_path / "a.csv"), str(tmp_path) + "/")


def test_a_column_holding_a_hex_number_stays_text(tmp_path):
    # MindSpore 2.10 (pandas): a column of 0, -5, 0x10 is a string column whose last value is
    # "0x10"; pyarrow read it as the int64 16 here
    (tmp_path / "a.csv").write_text("a,b\n0,1\n-5,2\n0x10,0X1f\n")
    CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr")).transform()
    with ShardReader(str(tmp_path / "a.mr")) as reader:
        assert reader.schema == {"a": {"type": "string"}, "b": {"type": "string"}}
    assert [row["a"] for row in read_rows(str(tmp_path / "a.mr"))] == ["0", "-5", "0x10"]
    (tmp_path / "b.csv").write_text("a,b\n0,1\n-5,2\n16,x0x\n")
    CsvToMR(str(tmp_path / "b.csv"), str(tmp_path / "b.mr")).transform()
    assert read_rows(str(tmp_path / "b.mr"))[2] == {"a": 16, "b": "x0x"}


def test_a_column_of_signed_integers_is_int64(tmp_path):
    # MindSpore 2.10 (pandas): "+5" is the int64 5, so the column is int64; pyarrow read it as
    # a float64 column here (the schema differed, and so did the file's bytes)
    (tmp_path / "a.csv").write_text("score,text,name\n0.5,False,+5\n1.5,True, -3\n")
    CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr")).transform()
    with ShardReader(str(tmp_path / "a.mr")) as reader:
        assert reader.schema["name"] == {"type": "int64"}
    assert [row["name"] for row in read_rows(str(tmp_path / "a.mr"))] == [5, -3]
    (tmp_path / "b.csv").write_text("a\n+5\n+1.5\n")          # a float stays a float
    CsvToMR(str(tmp_path / "b.csv"), str(tmp_path / "b.mr")).transform()
    assert [row["a"] for row in read_rows(str(tmp_path / "b.mr"))] == [5.0, 1.5]


def test_a_column_named_twice_in_columns_list(tmp_path):
    # MindSpore 2.10: RuntimeError "The 'index_fields': name is added repeatedly ..." (measured
    # by tools/converters_vs_mindspore.py); a KeyError leaked here
    (tmp_path / "a.csv").write_text(CSV)
    with pytest.raises(RuntimeError, match=r"names \['id'\] more than once"):
        CsvToMR(str(tmp_path / "a.csv"), str(tmp_path / "a.mr"), ["id", "id"]).transform()
