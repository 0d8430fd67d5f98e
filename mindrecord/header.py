"""Reading and validating MindRecord shard headers and their .db index files.

Spec: ../shared/docs/mindrecord-format.md (§1 header, §3 schema, §6 pages and row groups,
§7 shard sets, §8 the .db, §11 error texts). A header is never trusted: every size, offset, id and
count is checked against the file before the native code walks the pages, so that a file that
lies fails here with MindSpore's RuntimeError text (naming the file) instead of later.
"""
import json
import os
import sqlite3
import struct
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .errors import ParamValueError

MIN_FILE_SIZE = 8
FIELD_TYPES = ("int32", "int64", "float32", "float64", "string", "bytes")
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
# Far above anything FileWriter accepts (128 MiB headers, 256 MiB pages); only guards arithmetic.
_SIZE_LIMIT = 1 << 40


def _read_error(path):
    return RuntimeError(f"[ERROR] Invalid file, failed to read header content of file: {path}, "
                        "please check correction of MindRecord File")


def _parse_error(path):
    return RuntimeError(f"[ERROR] Invalid file, failed to parse header content of file: {path}, "
                        "please check correction of MindRecord File")


def invalid_header(path, detail):
    return RuntimeError(f"[ERROR] Invalid file, the header of mindrecord file: {path} is invalid: "
                        f"{detail}. Please check correction of MindRecord File")


def truncated(path, detail):
    return RuntimeError(f"[ERROR] [Internal ERROR] Failed to read file. The mindrecord file: {path} "
                        f"is truncated or corrupt: {detail}.")


def not_found(path):
    return RuntimeError(f"[ERROR] Invalid file, mindrecord file: {path} can not be found. Please "
                        "check whether the mindrecord file exists and do not rename the mindrecord "
                        "file.")


def read_header(path):
    """Returns (header dict, file size) of the shard file at `path` (absolute)."""
    header, size, _ = read_header_and_id(path)
    return header, size


def read_header_and_id(path):
    """(header dict, file size, (st_dev, st_ino)) of the shard file at `path`: the identity of
    the file the header was read from, which a reader compares with the file it maps."""
    try:
        with open(path, "rb") as f:
            stat = os.fstat(f.fileno())
            size = stat.st_size
            check_file_size(path, size)
            head = f.read(8)
            (length,) = struct.unpack("<Q", head)
            if length > size - 8:
                raise _read_error(path)
            head += f.read(length)
    except FileNotFoundError:
        raise not_found(path) from None
    except IsADirectoryError:
        raise RuntimeError(f"[ERROR] Invalid file, mindrecord file: {path} is a directory.") from None
    except PermissionError:
        raise RuntimeError(f"[ERROR] Invalid file, mindrecord file: {path} can not be opened: "
                           "permission denied.") from None
    return header_from_bytes(path, head, size), size, (stat.st_dev, stat.st_ino)


def check_file_size(path, size):
    if size < MIN_FILE_SIZE:
        raise RuntimeError(
            f"Invalid file, the size of mindrecord file: {size} is smaller than the lower "
            f"limit: {MIN_FILE_SIZE}.\n Please check file path: {path} and use 'FileWriter' "
            "to generate valid mindrecord files.")


def header_length(path, head, size):
    """Bytes the header of a shard of `size` bytes takes (8 + JSON), from its first 8 bytes."""
    (length,) = struct.unpack("<Q", head[:8])
    if length > size - 8:
        raise _read_error(path)
    return 8 + length


def header_from_bytes(path, head, size):
    """The header dict of the shard `path` (`size` bytes) whose first bytes are `head` (at
    least the whole header)."""
    check_file_size(path, size)
    end = header_length(path, head, size)
    if len(head) < end:  # the file shrank while we read it
        raise _read_error(path)
    try:
        header = json.loads(head[8:end].decode("utf-8"))
    except (ValueError, RecursionError):
        raise _parse_error(path) from None
    if not isinstance(header, dict):
        raise _parse_error(path)
    header["_json_length"] = end - 8
    return header


def _int(path, obj, key, where, lo=0, hi=_SIZE_LIMIT):
    value = obj.get(key) if isinstance(obj, dict) else None
    if type(value) is not int or not lo <= value <= hi:
        raise invalid_header(path, f"{where}'{key}' must be an integer in [{lo}, {hi}], "
                                   f"got {value!r}")
    return value


@dataclass
class SchemaInfo:
    """The one schema of a dataset, split as the reader needs it."""
    fields: dict                      # name -> spec, as in the header
    blob_fields: list                 # header order (sorted names)
    raw_fields: list                  # sorted names
    compressed: bool                  # integer arrays are stored compressed (§5.3)
    desc: str = ""

    def is_array(self, name):
        return "shape" in self.fields[name]


def parse_schema(path, header):
    entries = header.get("schema")
    if not isinstance(entries, list) or len(entries) != 1 or not isinstance(entries[0], dict):
        raise invalid_header(path, "'schema' must be a list holding exactly one schema")
    entry = entries[0]
    fields = entry.get("schema")
    if not isinstance(fields, dict) or not fields:
        raise invalid_header(path, "the schema has no fields")
    expected_blobs = []
    compressed = False
    for name, spec in fields.items():
        if not isinstance(spec, dict) or spec.get("type") not in FIELD_TYPES:
            raise invalid_header(path, f"field '{name}' has an invalid spec {spec!r}")
        if set(spec) - {"type", "shape"}:
            raise invalid_header(path, f"field '{name}' has unknown attributes {spec!r}")
        if "shape" in spec:
            shape = spec["shape"]
            if (spec["type"] not in ARRAY_TYPES or not isinstance(shape, list)
                    or any(type(d) is not int or (d != -1 and d <= 0) for d in shape)
                    or shape.count(-1) > 1):
                raise invalid_header(path, f"field '{name}' has an invalid shape {spec!r}")
            if spec["type"].startswith("int"):
                compressed = True
        if spec["type"] == "bytes" or "shape" in spec:
            expected_blobs.append(name)
    blob_fields = entry.get("blob_fields")
    if (not isinstance(blob_fields, list) or len(blob_fields) != len(set(map(str, blob_fields)))
            or set(blob_fields) != set(expected_blobs)):
        raise invalid_header(path, f"'blob_fields' {blob_fields!r} does not list the bytes and "
                                   f"array fields {sorted(expected_blobs)}")
    desc = entry.get("desc", "")
    raw = sorted(n for n in fields if n not in expected_blobs)
    return SchemaInfo(fields=fields, blob_fields=list(blob_fields), raw_fields=raw,
                      compressed=compressed, desc=desc if isinstance(desc, str) else "")


@dataclass
class ShardLayout:
    """Where the rows of one shard file are, from its header alone."""
    path: str
    size: int
    header: dict
    schema: SchemaInfo
    num_rows: int
    # int64 [G, 6]: raw_begin, raw_end, blob_begin, blob_end, count, first_row (absolute offsets)
    groups: np.ndarray = field(repr=False)


def parse_layout(path, header, size):
    """Validates the header against the file and turns its page list into row groups (§6)."""
    json_len = header.pop("_json_length", 0)
    header_size = _int(path, header, "header_size", "", lo=8 + json_len)
    page_size = _int(path, header, "page_size", "", lo=1)
    schema = parse_schema(path, header)
    pages = header.get("page")
    if pages is None:
        pages = []          # MindSpore writes "page":null for a shard without rows
    if not isinstance(pages, list):
        raise invalid_header(path, "'page' must be a list or null")
    used_ids = set()
    blob_pages = {}
    raw_pages = []
    for i, page in enumerate(pages):
        where = f"page {i}: "
        if not isinstance(page, dict):
            raise invalid_header(path, f"page {i} is not an object")
        pid = _int(path, page, "page_id", where)
        used = _int(path, page, "page_size", where, hi=page_size)
        if pid in used_ids:
            raise invalid_header(path, f"page id {pid} appears twice")
        used_ids.add(pid)
        start = header_size + pid * page_size
        if start + used > size:
            raise truncated(path, f"page {pid} ends at byte {start + used} but the file has "
                                  f"{size} bytes")
        kind = page.get("page_type")
        if kind == "BLOB_DATA":
            type_id = _int(path, page, "page_type_id", where)
            first = _int(path, page, "start_row_id", where)
            end = _int(path, page, "end_row_id", where, lo=first)
            # Every blob row has an 8-byte length prefix: a count beyond that is a lie, and
            # rejecting it keeps a hostile header from making us allocate huge tables.
            if (end - first) * 8 > used:
                raise invalid_header(path, f"blob page {pid} claims {end - first} rows in "
                                           f"{used} bytes")
            if type_id in blob_pages:
                raise invalid_header(path, f"two blob pages have page_type_id {type_id}")
            blob_pages[type_id] = (start, used, first, end)
        elif kind == "RAW_DATA":
            groups = page.get("row_group_ids")
            if not isinstance(groups, list):
                raise invalid_header(path, f"raw page {pid} has no 'row_group_ids' list")
            for g in groups:
                gid = _int(path, g, "id", where + "row group ")
                offset = _int(path, g, "offset", where + "row group ", hi=used)
                raw_pages.append((pid, start, used, gid, offset))
        else:
            raise invalid_header(path, f"page {pid} has an unknown page_type {kind!r}")
    rows = []
    seen_groups = set()
    for pid, start, used, gid, offset in raw_pages:
        if gid not in blob_pages:
            raise invalid_header(path, f"raw page {pid} names row group {gid}, which has no "
                                       "blob page")
        if gid in seen_groups:
            raise invalid_header(path, f"row group {gid} appears in two raw pages")
        seen_groups.add(gid)
        b_start, b_used, first, end = blob_pages[gid]
        if (end - first) * 8 > used - offset:
            raise invalid_header(path, f"raw page {pid} cannot hold the {end - first} rows of "
                                       f"row group {gid}")
        rows.append((start + offset, start + used, b_start, b_start + b_used, end - first, first))
    for gid, (_, _, first, end) in blob_pages.items():
        if end > first and gid not in seen_groups:
            raise invalid_header(path, f"the rows of blob page group {gid} have no raw page")
    # The groups' row-id ranges must tile [0, num_rows) exactly.
    num_rows = 0
    for first, count in sorted((r[5], r[4]) for r in rows if r[4] > 0):
        if first != num_rows:
            raise invalid_header(path, f"row ids {num_rows}..{first - 1} are missing or repeated")
        num_rows += count
    groups = np.array(rows, dtype=np.int64).reshape(-1, 6)
    return ShardLayout(path=path, size=size, header=header, schema=schema, num_rows=num_rows,
                       groups=groups)


def _as_path(value):
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value:
        raise ParamValueError(f"File path: {value!r} is not string.")
    return os.path.abspath(value)


def _given_file(value):
    """A file named by the caller: MindSpore's check and text."""
    path = _as_path(value)
    if not os.path.isfile(path):
        raise RuntimeError(f"The input: {path} is not exists.")
    return path


def resolve_shard_files(file_name):
    """MindSpore's rule (§7): a str names one shard and the set is its header's shard_addresses,
    looked up in that file's directory; a list names exactly the files to read, in order.
    Returns the absolute paths in global order."""
    if isinstance(file_name, (list, tuple)):
        if not file_name:
            raise ParamValueError("Parameter file_name is an empty list.")
        return [_given_file(f) for f in file_name]
    path = _given_file(file_name)
    header, _ = read_header(path)
    names = header.get("shard_addresses")
    if (not isinstance(names, list) or not names
            or not all(isinstance(n, str) and n and os.path.basename(n) == n for n in names)):
        raise invalid_header(path, "'shard_addresses' must be a non-empty list of file names")
    directory = os.path.dirname(path)
    files = [os.path.join(directory, n) for n in names]
    for f in files:
        if not os.path.isfile(f):
            raise not_found(f)
    return files


def missing_index(db):
    """MindSpore's error for a shard whose .db index file is missing."""
    return RuntimeError(f"The input: {db} is not exists. [ERROR] Invalid file, failed to open "
                        f"mindrecord meta file. Please check whether the meta file: {db} exists "
                        f"and do not rename the mindrecord file and meta file.")


def check_index_db(path, num_rows):
    """Validates PATH.db as MindSpore does before reading (§8): present, a database, naming this
    shard, with one entry per row. Rows are located from the header, not from the .db."""
    db = path + ".db"
    if not os.path.isfile(db):
        raise missing_index(db)
    db_size = os.path.getsize(db)
    if db_size < MIN_FILE_SIZE:
        raise RuntimeError(f"Invalid file, the size of mindrecord file: {db_size} is smaller than "
                           f"the lower limit: {MIN_FILE_SIZE}.\n Please check file path: {db} and "
                           "use 'FileWriter' to generate valid mindrecord files.")
    sql = "SELECT NAME from SHARD_NAME;"
    try:
        conn = sqlite3.connect(Path(db).as_uri() + "?mode=ro", uri=True)
    except sqlite3.Error as e:
        raise RuntimeError(f"[ERROR] Failed to open the mindrecord meta file: {db}: {e}.") from None
    try:
        try:
            names = conn.execute(sql).fetchall()
            sql = "SELECT COUNT(*) FROM INDEXES;"
            (count,) = conn.execute(sql).fetchone()
        except sqlite3.Error as e:
            raise RuntimeError(f"[ERROR] Failed to execute the sql [ {sql[:-1]}; ] while verifying "
                               f"meta file, {e}. Meta file: {db}") from None
    finally:
        conn.close()
    if len(names) != 1 or names[0][0] != os.path.basename(path):
        raise RuntimeError(f"[ERROR] Invalid file, mindrecord meta file: {db} and mindrecord "
                           f"file: {path} can not match. Please do not rename the mindrecord file "
                           "or meta file.")
    if count != num_rows:
        raise RuntimeError(f"[ERROR] Unequal number of index entries and data entries. Meta file: "
                           f"{db} has {count} entries, mindrecord file: {path} has {num_rows} rows.")
