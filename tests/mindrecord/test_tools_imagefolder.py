"""ImageFolderToMR: class folders -> MindRecord, read back equal to the source files."""
import os

import pytest

from mindrecord.tools import ConversionError, ImageFolderToMR
from .test_tools_helpers import make_image_folder, read_rows


def test_round_trip_single_file(tmp_path):
    expected = make_image_folder(tmp_path / "src")
    result = ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "out.mr")).transform()
    assert result.rows == len(expected) and result.files == [str(tmp_path / "out.mr")]
    rows = read_rows(str(tmp_path / "out.mr"))
    assert {r["file_name"]: (r["label"], r["image"]) for r in rows} == expected
    # Source order: sorted classes, sorted files.
    assert [r["file_name"] for r in rows] == sorted(expected)


def test_shards_split_contiguously_and_read_as_one_dataset(tmp_path):
    expected = make_image_folder(tmp_path / "src", per_class=4)   # 12 rows
    result = ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "o.mr"), 5).transform()
    assert [os.path.basename(f) for f in result.files] == [f"o.mr{i}" for i in range(5)]
    rows = read_rows(result.files[0])
    assert [r["file_name"] for r in rows] == sorted(expected)


def test_output_identical_for_any_worker_count(tmp_path):
    make_image_folder(tmp_path / "src", per_class=5)
    a = ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "a.mr"), 3).transform(workers=1)
    b = ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "b.mr"), 3).transform(workers=3)
    for fa, fb in zip(a.files, b.files):
        with open(fa, "rb") as x, open(fb, "rb") as y:
            da, db = x.read(), y.read()
        # Headers differ only by the shard base names they list.
        assert da.replace(b"a.mr", b"b.mr") == db


def test_class_indexing_sets_labels(tmp_path):
    make_image_folder(tmp_path / "src", classes=("x", "y"), per_class=1)
    ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "o.mr"),
                    class_indexing={"x": 7, "y": 3}).transform()
    assert {r["file_name"]: r["label"] for r in read_rows(str(tmp_path / "o.mr"))} == \
        {"x/img_0.jpg": 7, "y/img_0.jpg": 3}


def test_folder_outside_class_indexing_is_bad_input(tmp_path):
    make_image_folder(tmp_path / "src", classes=("x", "y"), per_class=1)
    conv = ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "o.mr"),
                           class_indexing={"x": 0})
    with pytest.raises(ConversionError, match=r"img_0.jpg.*label outside the class list"):
        conv.transform()
    assert sorted(os.listdir(tmp_path)) == ["src"]


def test_existing_destination_refused_without_overwrite(tmp_path):
    make_image_folder(tmp_path / "src", per_class=1)
    ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "o.mr")).transform()
    with pytest.raises(RuntimeError, match="already exist"):
        ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "o.mr")).transform()
    result = ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "o.mr")).transform(
        overwrite=True)
    assert result.rows == 3


@pytest.mark.parametrize("kwargs, message", [
    ({"partition_number": 0}, "partition_number"),
    ({"partition_number": "2"}, "partition_number"),
    ({"extensions": ".jpg"}, "extensions"),
    ({"class_indexing": {"x": "0"}}, "class_indexing"),
    ({"verify": "full"}, "verify"),
])
def test_bad_arguments_fail_at_construction(tmp_path, kwargs, message):
    make_image_folder(tmp_path / "src", per_class=1)
    with pytest.raises(ValueError, match=message):
        ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "o.mr"), **kwargs)


def test_missing_source_directory(tmp_path):
    with pytest.raises(FileNotFoundError, match="source.*does not exist"):
        ImageFolderToMR(str(tmp_path / "nope"), str(tmp_path / "o.mr"))


def test_more_shards_than_rows_leaves_empty_shards_in_the_set(tmp_path):
    expected = make_image_folder(tmp_path / "src", per_class=1)          # 3 rows
    result = ImageFolderToMR(str(tmp_path / "src"), str(tmp_path / "o.mr"), 5).transform()
    assert len(result.files) == 5
    for first in (result.files[0], result.files[4]):                    # any shard finds all
        assert sorted(r["file_name"] for r in read_rows(first)) == sorted(expected)
