"""FileWriter / FileReader / MindPage as MindSpore 2.10 behaves (issue 20): the behaviours its
own mindrecord tests check, measured against MindSpore 2.10 and written here independently."""
import json
import os

import numpy as np
import pytest

import mindrecord
from mindrecord import FileReader, FileWriter, MindPage
from mindrecord import MRMDefineCategoryError, ParamTypeError, ParamValueError

SCHEMA = {"name": {"type": "string"}, "label": {"type": "int32"}, "score": {"type": "float64"},
          "arr": {"type": "int32", "shape": [-1]}, "data": {"type": "bytes"}}
NAMES = ["b", "a", "c", "10", "9"]
LABELS = [5, 10, -1, 5]
SCORES = [0.5, 2.0, 10.0]


def rows(n=11):
    return [{"name": NAMES[i % 5], "label": LABELS[i % 4], "score": SCORES[i % 3],
             "arr": np.arange(i % 3, dtype=np.int32), "data": b"D%d" % i} for i in range(n)]


def write(path, shards=3, index=("score", "label", "name"), data=None, schema=None):
    writer = FileWriter(str(path), shards)
    writer.add_schema(schema or SCHEMA, "ms suite")
    if index:
        writer.add_index(list(index))
    writer.write_raw_data(rows() if data is None else data)
    writer.commit()
    return str(path) + ("0" if shards > 1 else "")


def test_status_codes_and_every_mindspore_error_name_are_exported():
    assert mindrecord.SUCCESS == 0 and mindrecord.FAILED == 1
    for name in ["UnknownError", "ParamTypeError", "ParamValueError", "ParamMissError",
                 "PathNotExistsError", "DbConnectionError", "MRMOpenError",
                 "MRMOpenForAppendError", "MRMInvalidPageSizeError", "MRMInvalidHeaderSizeError",
                 "MRMSetHeaderError", "MRMWriteDatasetError", "MRMCommitError", "MRMLaunchError",
                 "MRMFinishError", "MRMCloseError", "MRMAddSchemaError", "MRMAddIndexError",
                 "MRMBuildSchemaError", "MRMGetMetaError", "MRMIndexGeneratorError",
                 "MRMGenerateIndexError", "MRMInitSegmentError", "MRMFetchCandidateFieldsError",
                 "MRMReadCategoryInfoError", "MRMFetchDataError", "MRMInvalidSchemaError",
                 "MRMValidateDataError", "MRMDefineIndexError", "MRMDefineBlobError",
                 "MRMUnsupportedSchemaError", "MRMDefineCategoryError", "MindPage"]:
        assert hasattr(mindrecord, name), name
    assert str(MRMDefineCategoryError("x")) == \
        "[MRMDefineCategoryError]: Failed to define category field. Detail: x"


def test_overwrite_that_is_not_a_bool_is_mindsporess_param_value_error(tmp_path):
    with pytest.raises(ParamValueError, match="Parameter overwrite's type is not bool."):
        FileWriter(str(tmp_path / "x"), 4, 1)


def test_file_reader_after_close_and_closed_mid_iteration(tmp_path):
    first = write(tmp_path / "r", shards=4)
    reader = FileReader(first)
    assert sum(1 for _ in reader.get_next()) == 11
    reader.close()
    assert list(reader.get_next()) == []       # MindSpore: nothing more, no error
    reader = FileReader(first)
    count = 0
    for _ in reader.get_next():
        count += 1
        if count == 5:
            reader.close()
    assert count == 5


def test_missing_index_file_of_a_later_shard_uses_mindspores_words(tmp_path):
    first = write(tmp_path / "m", shards=4)
    os.remove(str(tmp_path / "m3") + ".db")
    with pytest.raises(RuntimeError) as err:
        FileReader(first)
    assert ".db exists and do not rename the mindrecord file and meta file." in str(err.value)
    assert "The input: " in str(err.value) and "is not exists." in str(err.value)


def test_files_with_different_schemas_use_mindspores_words(tmp_path):
    a = write(tmp_path / "a", shards=1)
    other = dict(SCHEMA, extra={"type": "int64"})
    b = write(tmp_path / "b", shards=1, data=[dict(r, extra=1) for r in rows(2)], schema=other)
    with pytest.raises(RuntimeError, match="is different from others"):
        FileReader([a, b])


# ---- MindPage ------------------------------------------------------------------------------
def test_mindpage_candidate_fields_follow_add_index_order(tmp_path):
    page = MindPage(write(tmp_path / "p"))
    assert page.candidate_fields == ["score", "label", "name"]
    assert page.get_category_fields() == ["score", "label", "name"]     # MindSpore 1.x's call
    assert page.category_field is None


def test_mindpage_without_add_index_offers_every_scalar_field(tmp_path):
    page = MindPage(write(tmp_path / "p", shards=1, index=None))
    assert page.candidate_fields == ["label", "name", "score"]


def test_mindpage_category_info_is_mindsporess_json_sorted_by_text(tmp_path):
    page = MindPage(write(tmp_path / "p"))
    page.category_field = "label"
    info = page.read_category_info()
    assert info == ('{"categories":[{"count":3,"id":0,"name":"-1"},{"count":3,"id":1,"name":"10"},'
                    '{"count":5,"id":2,"name":"5"}],"key":"label_0"}')
    assert page.set_category_field("name") == mindrecord.SUCCESS
    cats = json.loads(page.read_category_info())["categories"]
    assert [(c["name"], c["count"]) for c in cats] == \
        [("10", 2), ("9", 2), ("a", 2), ("b", 3), ("c", 2)]
    page.category_field = "score"                # a float's name is SQLite's text: 2.0, not 2
    cats = json.loads(page.read_category_info())["categories"]
    assert [c["name"] for c in cats] == ["0.5", "10.0", "2.0"]


def test_mindpage_pages_of_a_category_in_global_order(tmp_path):
    page = MindPage(write(tmp_path / "p"))
    page.category_field = "label"
    ids = lambda got: [r["data"] for r in got]  # noqa: E731
    assert ids(page.read_at_page_by_id(0, 0, 2)) == [b"D2", b"D6"]
    assert ids(page.read_at_page_by_id(0, 1, 2)) == [b"D10"]
    assert ids(page.read_at_page_by_name("5", 0, 10)) == [b"D0", b"D3", b"D4", b"D7", b"D8"]
    assert ids(page.read_at_page_by_id(True, 0, 1)) == [b"D1"]    # an int, as MindSpore
    row = page.read_at_page_by_id(0, 0, 1)[0]                     # FileReader's dict
    assert list(row) == ["label", "name", "score", "arr", "data"]
    assert row["label"] == -1 and row["name"] == "c" and row["data"] == b"D2"
    assert isinstance(row["score"], float) and row["arr"].dtype == np.int32
    page.category_field = "score"
    assert ids(page.read_at_page_by_name("2.0", 0, 10)) == [b"D1", b"D4", b"D7", b"D10"]
    with pytest.raises(RuntimeError, match="category_name: 2 could not found"):
        page.read_at_page_by_name("2", 0, 10)


def test_mindpage_errors_have_mindspores_types_and_words(tmp_path):
    page = MindPage(write(tmp_path / "p"))
    with pytest.raises(RuntimeError, match="field: +is invalid"):
        page.read_category_info()
    with pytest.raises(RuntimeError, match="field: +is invalid"):
        page.read_at_page_by_id(0, 0, 1)
    with pytest.raises(ParamTypeError, match="'category_fields' expect str type."):
        page.category_field = 3
    with pytest.raises(ParamTypeError):
        page.category_field = ""
    with pytest.raises(MRMDefineCategoryError, match="Field 'arr' is not a candidate category"):
        page.category_field = "arr"
    page.category_field = "label"
    with pytest.raises(ParamValueError, match="Page should be int and greater than or equal"):
        page.read_at_page_by_id(0, "0", 1)
    with pytest.raises(ParamValueError, match="num_row should be int and greater than 0."):
        page.read_at_page_by_id(0, 0, "b")
    with pytest.raises(ParamValueError, match="num_row should be int and greater than 0."):
        page.read_at_page_by_id(0, 0, 0)
    with pytest.raises(ParamValueError, match="Page should be int"):
        page.read_at_page_by_name("5", "e", 1)
    with pytest.raises(ParamValueError, match="Category id should be int and greater than or"):
        page.read_at_page_by_id(-1, 0, 1)
    with pytest.raises(ParamValueError, match="Category name should be str."):
        page.read_at_page_by_name(5, 0, 1)
    with pytest.raises(RuntimeError, match=r"Invalid data, category_id: 99 must be in the "
                                           r"range \[0, 3\]."):
        page.read_at_page_by_id(99, 0, 1)
    with pytest.raises(RuntimeError, match="category_name: 05 could not found"):
        page.read_at_page_by_name("05", 0, 1)
    with pytest.raises(RuntimeError, match="Invalid data, page no: 2or page size: 2 is invalid"):
        page.read_at_page_by_id(1, 2, 2)


def test_mindpage_arguments_and_missing_files(tmp_path):
    with pytest.raises(ParamValueError, match="Parameter num_consumer is None."):
        MindPage("dummy.mindrecord", None)
    with pytest.raises(ParamValueError, match="Parameter num_consumer is not int."):
        MindPage("dummy.mindrecord", "2")
    with pytest.raises(ParamValueError, match="is not string."):
        MindPage(3)
    first = write(tmp_path / "p", shards=4)
    os.remove(first)
    with pytest.raises(RuntimeError, match="is not exists."):
        MindPage(first)
    write(tmp_path / "q", shards=4)
    os.remove(str(tmp_path / "q1"))
    with pytest.raises(RuntimeError, match="can not be found. Please check whether the "
                                           "mindrecord file exists"):
        MindPage(str(tmp_path / "q0"))


def test_mindpage_of_one_file_of_a_set_reads_that_file_only(tmp_path):
    write(tmp_path / "p")
    page = MindPage([str(tmp_path / "p1")])
    page.category_field = "label"
    cats = json.loads(page.read_category_info())["categories"]
    assert sum(c["count"] for c in cats) == len(FileReader([str(tmp_path / "p1")]))


# ---- converters ----------------------------------------------------------------------------
def test_a_finished_conversion_equals_mindspores_success(tmp_path):
    from mindrecord import Cifar10ToMR
    from .test_tools_helpers import make_cifar10
    make_cifar10(tmp_path / "c10", n_train=(2,), n_test=1)
    result = Cifar10ToMR(str(tmp_path / "c10"), str(tmp_path / "yes  ok")).transform(["label"])
    assert result == mindrecord.SUCCESS and result != mindrecord.FAILED
    assert result.rows > 0 and os.path.exists(str(tmp_path / "yes  ok_test"))


@pytest.mark.parametrize("name, words", [(":no_ok", "File name should not contains"),
                                         (" no_ok", "File name should not start/end with space")])
def test_converter_destination_names_use_mindspores_words(tmp_path, name, words):
    from mindrecord import Cifar10ToMR
    from .test_tools_helpers import make_cifar10
    make_cifar10(tmp_path / "c10", n_train=(2,), n_test=1)
    with pytest.raises(ParamValueError, match=words):
        Cifar10ToMR(str(tmp_path / "c10"), str(tmp_path / name)).transform()
