"""The .db index is validated as MindSpore does (§8); a missing or corrupt one is a clean
RuntimeError naming it."""
import os
import sqlite3

import pytest

from mindrecord import FileReader, ShardReader

from .test_corruption_helpers import copy_fixture, expect_clean


@pytest.fixture()
def shard(shared_fixtures, tmp_path):
    return copy_fixture(shared_fixtures, "g_index_fields", tmp_path)[0]


def edit_db(path, sql):
    conn = sqlite3.connect(path + ".db")
    with conn:
        conn.execute(sql)
    conn.close()


def test_missing_db(shard):
    os.remove(shard + ".db")
    with pytest.raises(RuntimeError, match=r"The input: .*g_index_fields.mindrecord.db is not "
                                           "exists"):
        FileReader(shard)


def test_empty_db(shard):
    open(shard + ".db", "wb").close()
    with pytest.raises(RuntimeError, match="size of mindrecord file: 0 is smaller than the lower "
                                           "limit: 8"):
        ShardReader(shard)


def test_db_that_is_not_a_database(shard):
    with open(shard + ".db", "wb") as f:
        f.write(os.urandom(4096))
    with pytest.raises(RuntimeError, match=r"SELECT NAME from SHARD_NAME.*file is not a "
                                           r"database.*\.db"):
        ShardReader(shard)


def test_db_of_another_shard(shard):
    edit_db(shard, "UPDATE SHARD_NAME SET NAME = 'other.mindrecord'")
    with pytest.raises(RuntimeError, match="can not match. Please do not rename"):
        ShardReader(shard)


def test_db_with_a_missing_entry(shard):
    edit_db(shard, "DELETE FROM INDEXES WHERE ROW_ID = 2")
    with pytest.raises(RuntimeError, match="Unequal number of index entries and data entries"):
        ShardReader(shard)


def test_db_without_tables(shard):
    edit_db(shard, "DROP TABLE INDEXES")
    with pytest.raises(RuntimeError, match="INDEXES.*no such table"):
        ShardReader(shard)


def test_check_index_false_skips_the_db(shard):
    os.remove(shard + ".db")
    with ShardReader(shard, check_index=False) as reader:
        assert reader.num_rows == 6


def test_db_flips_and_truncations_fail_cleanly(shard):
    data = open(shard + ".db", "rb").read()
    variants = [data[:n] for n in (4, 8, 100, 4096, len(data) - 1)]
    for pos in range(0, len(data), 61):
        mutated = bytearray(data)
        mutated[pos] ^= 0x5A
        variants.append(bytes(mutated))
    failures = 0
    for variant in variants:
        with open(shard + ".db", "wb") as f:
            f.write(variant)
        failures += expect_clean(shard) is not None
    assert failures >= 3  # at least the cuts to 4, 8 and 100 bytes are detected


def test_reading_leaves_no_journal_or_lock_files(shard):
    before = sorted(os.listdir(os.path.dirname(shard)))
    with ShardReader(shard) as reader:
        reader.read_rows([0, 1])
    assert sorted(os.listdir(os.path.dirname(shard))) == before
