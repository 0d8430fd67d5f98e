"""One shard file being written: its page list, its row-location table and the page writes.

Implements the page algorithm of ../shared/docs/mindrecord-format.md section 6 exactly
(row groups, filling the last blob page, the raw-page "shift", MindSpore's page_type_id
quirk), so files are byte-identical to MindSpore's for the same rows and calls.
"""
import json
import os
import struct

import numpy as np

from ._writer_native import cut_groups
from .index_db import LOCATION_COLUMNS


def pwrite_all(fd, data, offset):
    view = memoryview(data).cast("B")
    while view:
        n = os.pwrite(fd, view, offset)
        view = view[n:]
        offset += n


class Page:
    __slots__ = ("page_id", "blob", "page_type_id", "start_row_id", "end_row_id", "page_size",
                 "groups")

    def __init__(self, page_id, blob, page_type_id, start_row_id=0, end_row_id=0, page_size=0,
                 groups=None):
        self.page_id = page_id
        self.blob = blob
        self.page_type_id = page_type_id
        self.start_row_id = start_row_id
        self.end_row_id = end_row_id
        self.page_size = page_size
        self.groups = groups if groups is not None else []   # raw pages: [[group_id, offset]]

    def to_json(self, shard_id):
        groups = [[0, 0]] if self.blob else self.groups
        rows = ",".join('{"id":%d,"offset":%d}' % (g, o) for g, o in groups)
        return ('{"end_row_id":%d,"page_id":%d,"page_size":%d,"page_type":"%s","page_type_id":%d,'
                '"row_group_ids":[%s],"shard_id":%d,"start_row_id":%d}' % (
                    self.end_row_id, self.page_id, self.page_size,
                    "BLOB_DATA" if self.blob else "RAW_DATA", self.page_type_id, rows, shard_id,
                    self.start_row_id))

    @classmethod
    def from_json(cls, d):
        blob = d["page_type"] == "BLOB_DATA"
        groups = [] if blob else [[int(g["id"]), int(g["offset"])] for g in d["row_group_ids"]]
        return cls(int(d["page_id"]), blob, int(d["page_type_id"]), int(d["start_row_id"]),
                   int(d["end_row_id"]), int(d["page_size"]), groups)


class ShardState:
    """Pages and row locations of one shard; writes pages through an open file descriptor."""

    def __init__(self, shard_id, fd, header_size, page_size, pages=(), locations=None,
                 index_values=None, n_index=0):
        self.shard_id = shard_id
        self.fd = fd
        self.header_size = header_size
        self.page_size = page_size
        self.pages = list(pages)
        self.last_blob = next((p for p in reversed(self.pages) if p.blob), None)
        self.last_raw = next((p for p in reversed(self.pages) if not p.blob), None)
        # Row locations, one dict of int64 arrays per write (concatenated at commit).
        self.chunks = [locations] if locations is not None else []
        self.index_values = index_values if index_values is not None else [[] for _ in range(n_index)]
        # (offset, length) of bytes written inside the file's original extent (for rollback).
        self.touched = []

    @property
    def num_rows(self):
        return self.last_blob.end_row_id if self.last_blob else 0

    def _page_offset(self, page, within=0):
        return self.header_size + page.page_id * self.page_size + within

    def _new_page(self, blob, page_type_id, start_row_id=0):
        page = Page(len(self.pages), blob, page_type_id, start_row_id, start_row_id)
        self.pages.append(page)
        return page

    def append_rows(self, enc, s, e, index_values):
        """Write rows [s, e) of an EncodedRows as one write call's share for this shard."""
        n = e - s
        if n == 0:
            return
        P = self.page_size
        blob_offsets = enc.blob_offsets[s:e + 1]
        raw_offsets = enc.raw_offsets[s:e + 1]
        blob_sizes = np.diff(blob_offsets)
        raw_sizes = np.diff(raw_offsets)
        LB, LR = self.last_blob, self.last_raw
        nb = LB.page_size if LB else 0
        nr = LR.page_size - LR.groups[-1][1] if LR and LR.groups else 0
        starts = cut_groups(blob_sizes, raw_sizes, nb, nr, P).tolist()
        bounds = [0] + starts + [n]        # starts[0] == 0 means group 0 is empty
        groups = list(zip(bounds[:-1], bounds[1:]))

        page_id_blob = np.empty(n, np.int64)
        off_blob = np.empty(n, np.int64)
        group_id = np.empty(n, np.int64)
        page_id_raw = np.empty(n, np.int64)
        off_raw = np.empty(n, np.int64)
        first_row = self.num_rows

        # Blob pages: group 0 continues the last blob page, every other group gets a new one.
        for k, (gs, ge) in enumerate(groups):
            if gs == ge:
                continue
            if k == 0:
                page = LB
            else:
                page = self._new_page(True, LB.page_type_id + 1 if LB else 0,
                                      LB.end_row_id if LB else 0)
                LB = page
            base = page.page_size
            lo, hi = blob_offsets[gs], blob_offsets[ge]
            offset = self._page_offset(page, base)
            self.touched.append((offset, int(hi - lo)))
            enc.write_blob(self.fd, s + gs, s + ge, offset)
            page_id_blob[gs:ge] = page.page_id
            off_blob[gs:ge] = blob_offsets[gs:ge] - lo + base
            group_id[gs:ge] = page.page_type_id
            page.page_size += int(hi - lo)
            page.end_row_id += ge - gs
        self.last_blob = LB

        # Shift: group 0 no longer fits beside the last raw page's other groups.
        g0s, g0e = groups[0]
        if g0e > g0s and LR.page_size + int(raw_offsets[g0e] - raw_offsets[g0s]) > P:
            LR = self._shift_last_group(LR)

        for k, (gs, ge) in enumerate(groups):
            if gs == ge:
                continue
            nbytes = int(raw_offsets[ge] - raw_offsets[gs])
            if LR is None:
                LR = self._new_page(False, 0)
            elif LR.page_size + nbytes > P:
                LR = self._new_page(False, LR.page_id + 1)
            base = LR.page_size
            if k != 0:
                LR.groups.append([int(group_id[gs]), base])
            lo = raw_offsets[gs]
            self._write(memoryview(enc.raw)[lo:raw_offsets[ge]], self._page_offset(LR, base))
            page_id_raw[gs:ge] = LR.page_id
            off_raw[gs:ge] = raw_offsets[gs:ge] - lo + base
            LR.page_size += nbytes
        self.last_raw = LR

        self.chunks.append({
            "ROW_ID": np.arange(first_row, first_row + n, dtype=np.int64),
            "PAGE_ID_RAW": page_id_raw, "PAGE_OFFSET_RAW": off_raw,
            "PAGE_OFFSET_RAW_END": off_raw + raw_sizes,
            "ROW_GROUP_ID": group_id, "PAGE_ID_BLOB": page_id_blob,
            "PAGE_OFFSET_BLOB": off_blob, "PAGE_OFFSET_BLOB_END": off_blob + blob_sizes,
        })
        for k, values in enumerate(index_values):
            self.index_values[k].extend(values[s:e])

    def _shift_last_group(self, LR):
        """Move LR's last row group to a new raw page (section 6 step 5); returns the page."""
        gid, start = LR.groups[-1]
        length = LR.page_size - start
        data = os.pread(self.fd, length, self._page_offset(LR, start))
        if len(data) != length:
            raise OSError(f"short read while moving row group {gid} of shard {self.shard_id}")
        page = self._new_page(False, LR.page_id + 1)
        page.groups.append([gid, 0])
        self._write(data, self._page_offset(page))
        page.page_size = length
        LR.groups.pop()
        LR.page_size = start
        for chunk in self.chunks:
            moved = chunk["ROW_GROUP_ID"] == gid
            if moved.any():
                chunk["PAGE_ID_RAW"][moved] = page.page_id
                chunk["PAGE_OFFSET_RAW"][moved] -= start
                chunk["PAGE_OFFSET_RAW_END"][moved] -= start
        return page

    def _write(self, data, offset):
        self.touched.append((offset, len(data)))
        pwrite_all(self.fd, data, offset)

    def locations(self):
        if not self.chunks:
            return {c: np.empty(0, np.int64) for c in LOCATION_COLUMNS}
        return {c: np.concatenate([ch[c] for ch in self.chunks]) for c in LOCATION_COLUMNS}

    def file_size(self, header_len):
        if not self.pages:
            return 8 + header_len
        last = self.pages[-1]
        return self._page_offset(last, last.page_size)

    def header_json(self, common):
        """The header JSON (bytes) of this shard; common holds the dataset-wide parts."""
        # A shard without pages has "page":null, not [] (what MindSpore 2.10 writes, checked
        # against it; the format spec's "[]" is wrong).
        pages = ("[" + ",".join(p.to_json(self.shard_id) for p in self.pages) + "]"
                 if self.pages else "null")
        text = ('{"header_size":%d,"index_fields":%s,"page":%s,"page_size":%d,'
                '"compression_size":%d,"schema":%s,"shard_addresses":%s,"shard_id":%d,'
                '"statistics":null,"version":"3.0"}' % (
                    self.header_size, common["index_fields"], pages, self.page_size,
                    common["compression_size"], common["schema"], common["shard_addresses"],
                    self.shard_id))
        return text.encode("utf-8")


def common_header_parts(schema, desc, blob_fields, index_fields, compression_size, addresses):
    """JSON fragments shared by every shard header (section 1.1 key order)."""
    def dump(obj):
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
    index = ("null" if not index_fields else
             dump([{"index_field": name, "schema_id": 0} for name in index_fields]))
    return {
        "index_fields": index,
        "compression_size": max(0, compression_size),
        "schema": dump([{"blob_fields": blob_fields, "desc": desc, "schema": schema}]),
        "shard_addresses": dump(addresses),
    }


def header_bytes(json_bytes):
    return struct.pack("<Q", len(json_bytes)) + json_bytes
