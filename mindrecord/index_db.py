"""The per-shard SQLite index NAME.db (../shared/docs/mindrecord-format.md section 8).

Written once per shard at commit, in one transaction with executemany, into a temporary file
that the writer renames into place; journal mode and synchronous are off while building (the
final file reports journal mode "delete", as MindSpore's do). Also reads an existing index back
for open_for_append.
"""
import os
import sqlite3

import numpy as np

from .schema import SQL_TYPES

# Columns of INDEXES before the index-field columns, with MindSpore's exact spacing.
LOCATION_COLUMNS = ("ROW_ID", "PAGE_ID_RAW", "PAGE_OFFSET_RAW", "PAGE_OFFSET_RAW_END",
                    "ROW_GROUP_ID", "PAGE_ID_BLOB", "PAGE_OFFSET_BLOB", "PAGE_OFFSET_BLOB_END")
_DDL_HEAD = ("CREATE TABLE INDEXES(  ROW_ID               INT  NOT NULL, PAGE_ID_RAW          INT  "
             "NOT NULL, PAGE_OFFSET_RAW      INT  NOT NULL, PAGE_OFFSET_RAW_END  INT  NOT NULL, "
             "ROW_GROUP_ID         INT  NOT NULL, PAGE_ID_BLOB         INT  NOT NULL, "
             "PAGE_OFFSET_BLOB     INT  NOT NULL, PAGE_OFFSET_BLOB_END INT  NOT NULL")
_DDL_SHARD_NAME = "CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL)"


def indexes_ddl(index_fields, schema):
    """CREATE TABLE INDEXES statement for the given index fields (in index order)."""
    parts = [_DDL_HEAD]
    for k, name in enumerate(index_fields):
        parts.append(f",INC_{k} INT, {name}_0 {SQL_TYPES[schema[name]['type']]}")
    keys = ",".join(["ROW_ID"] + [f"INC_{k}" for k in range(len(index_fields))])
    parts.append(f", PRIMARY KEY({keys}))")
    return "".join(parts)


def _fill(conn, shard_file_name, index_fields, schema, locations, index_values):
    conn.execute("PRAGMA page_size=4096")
    conn.execute("PRAGMA journal_mode=OFF")
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("BEGIN")
    conn.execute(indexes_ddl(index_fields, schema))
    conn.execute(_DDL_SHARD_NAME)
    conn.execute("INSERT INTO SHARD_NAME (NAME) VALUES (?)", (shard_file_name,))
    columns = [locations[c].tolist() for c in LOCATION_COLUMNS]
    names = list(LOCATION_COLUMNS)
    zeros = [0] * len(columns[0])
    for k, name in enumerate(index_fields):
        names += [f"INC_{k}", f"{name}_0"]
        columns += [zeros, index_values[k]]
    sql = (f"INSERT INTO INDEXES ({','.join(names)}) "
           f"VALUES ({','.join('?' * len(names))})")
    conn.executemany(sql, zip(*columns))
    conn.execute("COMMIT")


def write_index_db(path, shard_file_name, index_fields, schema, locations, index_values):
    """Create the index at `path` (must not exist).

    locations: dict column -> int64 array (LOCATION_COLUMNS), one entry per row, in row order.
    index_values: one list per index field, aligned with the rows.
    """
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        _fill(conn, shard_file_name, index_fields, schema, locations, index_values)
    finally:
        conn.close()


def index_db_bytes(shard_file_name, index_fields, schema, locations, index_values):
    """The index file's bytes, built in memory (no file until the caller writes them), or None
    when this sqlite3 module cannot serialise a database (Python < 3.11)."""
    if not hasattr(sqlite3.Connection, "serialize"):
        return None
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        _fill(conn, shard_file_name, index_fields, schema, locations, index_values)
        return conn.serialize()
    finally:
        conn.close()


def read_index_db(path, index_fields, expected_name):
    """Rows of an existing index in row order: (locations dict, index_values lists).

    Raises ValueError naming the file when it is not a MindRecord index for expected_name.
    """
    if not os.path.isfile(path):
        raise ValueError(f"index file {path} does not exist")
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        try:
            names = conn.execute("SELECT NAME FROM SHARD_NAME").fetchall()
            value_cols = [f"{name}_0" for name in index_fields]
            rows = conn.execute(
                f"SELECT {','.join(list(LOCATION_COLUMNS) + value_cols)} FROM INDEXES "
                f"ORDER BY ROW_ID").fetchall()
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"index file {path} is not a MindRecord index ({exc})") from None
    finally:
        conn.close()
    if names != [(expected_name,)]:
        raise ValueError(f"index file {path} belongs to {names!r}, expected {expected_name!r}")
    n = len(rows)
    columns = list(zip(*rows)) if n else [()] * (len(LOCATION_COLUMNS) + len(index_fields))
    locations = {}
    for k, col in enumerate(LOCATION_COLUMNS):
        try:
            locations[col] = np.asarray(columns[k], dtype=np.int64).reshape(n)
        except (TypeError, ValueError):
            raise ValueError(f"index file {path}: column {col} holds non-integer values") from None
    values = [list(columns[len(LOCATION_COLUMNS) + k]) for k in range(len(index_fields))]
    return locations, values
