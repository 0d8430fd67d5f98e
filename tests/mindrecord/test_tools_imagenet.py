"""ImageNetToMR: map file + class folders -> MindRecord with MindSpore's schema."""
import os

import pytest

from mindrecord import ShardReader
from mindrecord.errors import PathNotExistsError
from mindrecord.tools import ConversionError, ImageNetToMR
from .test_tools_helpers import make_image_folder, read_rows


def _map_file(path, text):
    path.write_text(text)
    return str(path)


def test_round_trip_and_schema(tmp_path):
    make_image_folder(tmp_path / "img", classes=("n01", "n02"), per_class=2, ext=".JPEG")
    with open(tmp_path / "img" / "n01" / "notes.txt", "w") as f:
        f.write("ignored: not JPEG/jpg")
    map_file = _map_file(tmp_path / "map.txt", "n01 0\nn02 5\n")
    result = ImageNetToMR(map_file, str(tmp_path / "img"), str(tmp_path / "o.mr"), 2).transform()
    assert result.rows == 4
    with ShardReader(result.files[0]) as reader:
        assert reader.schema == {"file_name": {"type": "string"}, "image": {"type": "bytes"},
                                 "label": {"type": "int32"}}
    rows = read_rows(result.files[0])
    base = os.path.join(str(tmp_path / "img"))
    assert [(r["file_name"], r["label"]) for r in rows] == [
        (os.path.join(base, "n01", "img_0.JPEG"), 0), (os.path.join(base, "n01", "img_1.JPEG"), 0),
        (os.path.join(base, "n02", "img_0.JPEG"), 5), (os.path.join(base, "n02", "img_1.JPEG"), 5)]
    with open(rows[2]["file_name"], "rb") as f:
        assert rows[2]["image"] == f.read()


def test_map_file_with_a_bad_label_names_its_line(tmp_path):
    make_image_folder(tmp_path / "img", classes=("n01",), per_class=1, ext=".JPEG")
    map_file = _map_file(tmp_path / "map.txt", "n01 0\nn02 two\n")
    conv = ImageNetToMR(map_file, str(tmp_path / "img"), str(tmp_path / "o.mr"))
    with pytest.raises(ConversionError, match=r"map.txt line 2: label 'two' is not an integer"):
        conv.transform()
    assert not os.path.exists(tmp_path / "o.mr")


def test_map_file_naming_no_existing_folder(tmp_path):
    os.makedirs(tmp_path / "img")
    map_file = _map_file(tmp_path / "map.txt", "n09 0\n")
    # MindSpore 2.10: PathNotExistsError "not valid image dir in ..." (measured)
    with pytest.raises(PathNotExistsError, match="no folder named in map_file"):
        ImageNetToMR(map_file, str(tmp_path / "img"), str(tmp_path / "o.mr")).transform()


def test_missing_map_file_fails_at_construction(tmp_path):
    with pytest.raises(OSError, match="map_file"):     # MindSpore 2.10: IOError
        ImageNetToMR(str(tmp_path / "none.txt"), str(tmp_path), str(tmp_path / "o.mr"))


def test_folders_without_images_give_an_empty_file_with_mindspores_page_size(tmp_path):
    # Measured against MindSpore 2.10 (tools/converters_vs_mindspore.py): with no image its
    # ImageNetToMR never writes, and the header keeps the 64 MiB pages it asked for (32 MiB
    # once rows are written); the files are byte-identical.
    from mindrecord.tools.shard_set import read_header
    os.makedirs(tmp_path / "img" / "n01")
    (tmp_path / "map.txt").write_text("n01 4\n")
    ImageNetToMR(str(tmp_path / "map.txt"), str(tmp_path / "img"),
                 str(tmp_path / "d.mr")).transform()
    assert read_header(str(tmp_path / "d.mr"))[0]["page_size"] == 1 << 26
    assert read_rows(str(tmp_path / "d.mr")) == []
