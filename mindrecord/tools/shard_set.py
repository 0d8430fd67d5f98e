"""Writing one MindRecord dataset as N shard files that are produced independently.

Converters write every shard with its own ``FileWriter(path, shard_num=1)`` (so shards can be
written in parallel threads, or by separate Ray tasks on other hosts) and then *link* them: each
header gets the list of all shard base names, its own ``shard_id`` and the dataset-wide
``compression_size``, exactly what ``FileWriter(name, shard_num=N)`` writes (format spec §1.1,
§7). Pages and .db files do not depend on the other shards, so the result is the same set of files
FileWriter would produce for the same split of rows, whoever wrote each shard.
"""
import json
import os
import struct


def shard_paths(destination, num_shards):
    """File names FileWriter uses for ``shard_num=num_shards`` (format spec §7)."""
    if num_shards == 1:
        return [destination]
    width = len(str(num_shards - 1))
    return [destination + str(i).rjust(width, "0") for i in range(num_shards)]


def existing_outputs(paths):
    """Data and .db files among ``paths`` that already exist."""
    return [p for path in paths for p in (path, path + ".db") if os.path.exists(p)]


def remove_outputs(paths):
    """Remove data and .db files (and FileWriter's temporaries); ignore the ones not there."""
    for path in paths:
        for p in (path, path + ".db", path + ".db-journal"):
            try:
                os.remove(p)
            except FileNotFoundError:
                pass


def split_rows(num_rows, num_shards):
    """Contiguous [start, stop) row ranges, one per shard; the first ``num_rows % num_shards``
    shards get one row more (FileWriter's deterministic distribution, format spec §7)."""
    q, rem = divmod(num_rows, num_shards)
    ranges, start = [], 0
    for k in range(num_shards):
        stop = start + q + (1 if k < rem else 0)
        ranges.append((start, stop))
        start = stop
    return ranges


def read_header(path):
    """(header dict in file key order, header_size reserved in the file) of one data file."""
    with open(path, "rb") as f:
        prefix = f.read(8)
        if len(prefix) != 8:
            raise ValueError(f"{path}: not a MindRecord file (shorter than 8 bytes)")
        (length,) = struct.unpack("<Q", prefix)
        size = os.fstat(f.fileno()).st_size
        if length > size - 8:
            raise ValueError(f"{path}: header length {length} is past the end of the file")
        text = f.read(length)
    header = json.loads(text.decode("utf-8"))
    if not isinstance(header, dict) or "header_size" not in header:
        raise ValueError(f"{path}: header is not a MindRecord header")
    return header, int(header["header_size"])


def dump_header(header):
    """Header bytes as MindSpore writes them: compact JSON, raw UTF-8, the given key order."""
    return json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def link_shards(paths):
    """Rewrite each shard's header so that ``paths`` form one dataset, in this order."""
    names = [os.path.basename(p) for p in paths]
    headers = [read_header(p) for p in paths]
    compression = sum(int(h.get("compression_size", 0)) for h, _ in headers)
    for k, (path, (header, header_size)) in enumerate(zip(paths, headers)):
        header["shard_addresses"] = names
        header["shard_id"] = k
        header["compression_size"] = compression
        for page in header.get("page") or []:
            page["shard_id"] = k
        body = dump_header(header)
        if 8 + len(body) > header_size:
            raise RuntimeError(
                f"{path}: the header of a {len(paths)}-shard dataset needs {8 + len(body)} bytes, "
                f"more than header_size {header_size}; use fewer shards or a larger header size")
        with open(path, "r+b") as f:
            old_len = struct.unpack("<Q", f.read(8))[0]
            f.seek(0)
            f.write(struct.pack("<Q", len(body)) + body)
            if not header.get("page"):
                f.truncate(8 + len(body))    # a shard without rows is just its header
            elif len(body) < old_len:        # the padding after the header stays zero
                f.write(b"\x00" * (old_len - len(body)))
