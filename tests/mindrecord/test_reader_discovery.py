"""Shard-set discovery follows MindSpore (§7): names come from the header's shard_addresses,
resolved in the given file's directory; a missing member is a clean RuntimeError naming it."""
import os
import shutil

import pytest

from mindrecord import FileReader, ParamValueError, ShardReader


def copy_case(shared_fixtures, case, dest, rename=None, skip=()):
    src = shared_fixtures / "mindrecord" / case
    for f in sorted(os.listdir(src)):
        if f == "manifest.json" or any(f.startswith(s) for s in skip):
            continue
        name = f.replace(case, rename) if rename else f
        shutil.copyfile(src / f, dest / name)
        os.chmod(dest / name, 0o644)


def test_missing_member_is_named(shared_fixtures, tmp_path):
    copy_case(shared_fixtures, "f_multi_shard", tmp_path, skip=("f_multi_shard.mindrecord1",))
    with pytest.raises(RuntimeError, match="f_multi_shard.mindrecord1 can not be found"):
        FileReader(str(tmp_path / "f_multi_shard.mindrecord0"))


def test_renamed_single_shard_fails_naming_the_original(shared_fixtures, tmp_path):
    copy_case(shared_fixtures, "a_scalars", tmp_path, rename="renamed")
    with pytest.raises(RuntimeError) as err:
        ShardReader(str(tmp_path / "renamed.mindrecord"))
    assert str(tmp_path / "a_scalars.mindrecord") in str(err.value)


def test_renamed_file_reads_the_original_next_to_it(shared_fixtures, tmp_path):
    copy_case(shared_fixtures, "a_scalars", tmp_path)
    shutil.copyfile(tmp_path / "a_scalars.mindrecord", tmp_path / "copy.mindrecord")
    with ShardReader(str(tmp_path / "copy.mindrecord")) as reader:
        assert reader.files == [str(tmp_path / "a_scalars.mindrecord")]
        assert reader.num_rows == 4


def test_renamed_file_given_in_a_list_needs_its_db_name_to_match(shared_fixtures, tmp_path):
    copy_case(shared_fixtures, "a_scalars", tmp_path, rename="renamed")
    with pytest.raises(RuntimeError, match="can not match"):
        ShardReader([str(tmp_path / "renamed.mindrecord")])


def test_nonexistent_file(tmp_path):
    with pytest.raises(RuntimeError, match=r"The input: .*nope.mindrecord is not exists\."):
        FileReader(str(tmp_path / "nope.mindrecord"))
    with pytest.raises(RuntimeError, match="is not exists"):
        FileReader([str(tmp_path / "nope.mindrecord")])


@pytest.mark.parametrize("bad", [5, None, "", []])
def test_file_name_must_be_a_path(bad):
    with pytest.raises(ParamValueError):
        ShardReader(bad)


def test_pathlike_is_accepted(shared_fixtures):
    path = shared_fixtures / "mindrecord" / "d_no_blob" / "d_no_blob.mindrecord"
    with ShardReader(path) as reader:
        assert reader.num_rows == 5
