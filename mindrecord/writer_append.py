"""Reading an existing dataset back for FileWriter.open_for_append: the headers of every shard
(found through shard_addresses, as MindSpore does) and their .db row tables. Every value read
from a file is checked before use; problems raise MRMOpenForAppendError naming the file.
"""
import json
import os
import struct

from .errors import MRMOpenForAppendError
from .index_db import read_index_db
from .schema import blob_fields, validate_schema
from .writer_pages import Page

_MIN_HEADER, _MAX_HEADER = 1 << 14, 1 << 27
_MIN_PAGE, _MAX_PAGE = 1 << 15, 1 << 28


def read_header(path):
    """Parse and sanity-check one shard header; returns (header dict, header JSON length)."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < 8:
                raise MRMOpenForAppendError(f"file {path} is {size} bytes, smaller than 8")
            (length,) = struct.unpack("<Q", f.read(8))
            if length > min(size - 8, _MAX_HEADER):
                raise MRMOpenForAppendError(
                    f"file {path} announces a {length}-byte header but holds {size} bytes")
            text = f.read(length)
    except OSError as exc:
        raise MRMOpenForAppendError(f"cannot read {path}: {exc}") from None
    try:
        header = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise MRMOpenForAppendError(f"file {path} has no valid MindRecord header") from None
    _check_header(header, path, length, size)
    return header, length


def _need(cond, path, what):
    if not cond:
        raise MRMOpenForAppendError(f"file {path}: invalid header, {what}")


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _check_header(h, path, length, size):
    _need(isinstance(h, dict), path, "not a JSON object")
    for key in ("header_size", "page_size", "compression_size", "shard_id"):
        _need(_is_int(h.get(key)), path, f"'{key}' is not an integer")
    _need(_MIN_HEADER <= h["header_size"] <= _MAX_HEADER and h["header_size"] % 4 == 0, path,
          "header_size out of range")
    _need(_MIN_PAGE <= h["page_size"] <= _MAX_PAGE and h["page_size"] % 4 == 0, path,
          "page_size out of range")
    _need(8 + length <= h["header_size"] or not h.get("page"), path, "header longer than header_size")
    schemas = h.get("schema")
    _need(isinstance(schemas, list) and len(schemas) == 1 and isinstance(schemas[0], dict), path,
          "'schema' is not a one-element list")
    _need(isinstance(schemas[0].get("schema"), dict), path, "schema map missing")
    _need(isinstance(schemas[0].get("desc", ""), str), path, "'desc' is not a string")
    addresses = h.get("shard_addresses")
    _need(isinstance(addresses, list) and 1 <= len(addresses) <= 1000
          and all(isinstance(a, str) and a and os.path.basename(a) == a for a in addresses),
          path, "'shard_addresses' is not a list of file names")
    _need(0 <= h["shard_id"] < len(addresses), path, "'shard_id' out of range")
    index = h.get("index_fields")
    _need(index is None or (isinstance(index, list) and all(
        isinstance(x, dict) and isinstance(x.get("index_field"), str) for x in index)),
        path, "'index_fields' malformed")
    if h.get("page") is None:
        h["page"] = []         # MindSpore writes "page":null for a shard without rows
    pages = h["page"]
    _need(isinstance(pages, list), path, "'page' is not a list")
    end = h["header_size"]
    for k, p in enumerate(pages):
        _need(isinstance(p, dict) and p.get("page_type") in ("BLOB_DATA", "RAW_DATA"), path,
              f"page {k} malformed")
        for key in ("page_id", "page_size", "page_type_id", "start_row_id", "end_row_id"):
            _need(_is_int(p.get(key)) and p[key] >= 0, path, f"page {k} '{key}' invalid")
        _need(p["page_id"] == k, path, f"page {k} has page_id {p['page_id']}")
        _need(p["page_size"] <= h["page_size"], path, f"page {k} larger than page_size")
        groups = p.get("row_group_ids")
        _need(isinstance(groups, list) and all(
            isinstance(g, dict) and _is_int(g.get("id")) and _is_int(g.get("offset"))
            and 0 <= g["offset"] <= p["page_size"] for g in groups), path,
            f"page {k} row_group_ids invalid")
        _need(p["start_row_id"] <= p["end_row_id"], path, f"page {k} row range invalid")
        end = h["header_size"] + k * h["page_size"] + p["page_size"]
    _need(not pages or end <= size, path, f"file truncated: pages end at {end}, file has {size} bytes")


def _check_page_chain(pages, path):
    """New rows continue the last blob page and the last raw row group: both must exist
    together and agree, or appending would write rows no reader can find."""
    blobs = [p for p in pages if p.blob]
    raws = [p for p in pages if not p.blob]
    if bool(blobs) != bool(raws):
        raise MRMOpenForAppendError(f"file {path}: blob and raw pages do not match")
    if not blobs:
        return
    if [p.page_type_id for p in blobs] != list(range(len(blobs))):
        raise MRMOpenForAppendError(f"file {path}: blob pages are not numbered 0..{len(blobs) - 1}")
    for prev, page in zip(blobs, blobs[1:]):
        if page.start_row_id != prev.end_row_id:
            raise MRMOpenForAppendError(f"file {path}: blob page {page.page_id} does not "
                                        f"continue the rows of page {prev.page_id}")
    if not raws[-1].groups or raws[-1].groups[-1][0] != blobs[-1].page_type_id:
        raise MRMOpenForAppendError(f"file {path}: the last raw page does not end with the "
                                    f"row group of the last blob page")


def load_dataset(file_name):
    """Everything FileWriter needs to continue a dataset (see open_for_append)."""
    first, _ = read_header(file_name)
    directory = os.path.dirname(os.path.abspath(file_name))
    paths = [os.path.join(directory, a) for a in first["shard_addresses"]]
    raw_schema = first["schema"][0]["schema"]
    try:
        schema = validate_schema(raw_schema)
    except ValueError as exc:
        raise MRMOpenForAppendError(f"file {file_name}: invalid schema in header ({exc})") from None
    index_fields = [x["index_field"] for x in first["index_fields"] or []]
    for name in index_fields:
        if name not in schema or "shape" in schema[name] or schema[name]["type"] == "bytes":
            raise MRMOpenForAppendError(f"file {file_name}: index field {name!r} is not a scalar field")
    shards = []
    for shard_id, path in enumerate(paths):
        if not os.path.isfile(path):
            raise MRMOpenForAppendError(f"shard file {path} listed in {file_name} does not exist")
        header, length = read_header(path)
        for key in ("header_size", "page_size", "shard_addresses", "schema", "index_fields"):
            if header[key] != first[key]:
                raise MRMOpenForAppendError(f"shard file {path}: '{key}' differs from {file_name}")
        if header["shard_id"] != shard_id:
            raise MRMOpenForAppendError(f"shard file {path} has shard_id {header['shard_id']}, "
                                        f"expected {shard_id}")
        pages = [Page.from_json(p) for p in header["page"]]
        _check_page_chain(pages, path)
        num_rows = max((p.end_row_id for p in pages if p.blob), default=0)
        try:
            locations, values = read_index_db(path + ".db", index_fields, os.path.basename(path))
        except ValueError as exc:
            raise MRMOpenForAppendError(str(exc)) from None
        if len(locations["ROW_ID"]) != num_rows:
            raise MRMOpenForAppendError(
                f"index file {path}.db has {len(locations['ROW_ID'])} rows, the data file {num_rows}")
        shards.append({"path": path, "pages": pages, "locations": locations, "values": values,
                       "header_len": length, "size": os.path.getsize(path)})
    return {
        "paths": paths, "schema": schema, "desc": first["schema"][0].get("desc", ""),
        "index_fields": index_fields, "header_size": first["header_size"],
        "page_size": first["page_size"], "compression_size": first["compression_size"],
        "blob_fields": blob_fields(schema), "shards": shards,
    }
