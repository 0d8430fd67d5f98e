"""MindRecord from object storage: the train pipeline over S3 against the same local files.

    .venv/bin/python benchmarks/remote_bench.py [--data /tmp/bench-data] [--repeats 3]
                                                [--shuffle global|blocks]

The ImageNet-like JPEGs of ../shared/tools/make_bench_data.py (2,000 rows) are written as a
4-shard MindRecord set and put in an S3-compatible store on loopback (moto's server in a child
process, tools/loopback_s3.py). The train pipeline (Decode, RandomResizedCrop(224),
RandomHorizontalFlip, Normalize, HWC2CHW, batch 128, 2 workers) then runs one pass, timed from
``MindDataset(...)`` to the last batch, over:
  local  the local files (in the page cache);
  cold   s3://bench/train.mindrecord0 with an empty node-local cache (opens, downloads, reads);
  warm   the same URL again, its shards in the node-local cache.
The three alternate, ``--repeats`` times; every run is printed, then the medians and the ratios
to local. Then, through a counting proxy: the requests of opening a 100-shard set, and those
of a cold pass over the 4-shard set per page of data. Nothing is asserted.
"""
import argparse
import glob
import os
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_data import ensure_bench_data, imagenet_rows  # noqa: E402

BATCH = 128


def write_set(path, rows, shards):
    from mindrecord import FileWriter
    if os.path.exists(path + "0"):
        return sorted(glob.glob(path + "*"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    writer = FileWriter(path, shard_num=shards, overwrite=True)
    writer.add_schema({"image": {"type": "bytes"}, "label": {"type": "int32"}}, "remote bench")
    for start in range(0, len(rows), 500):
        writer.write_raw_data(rows[start:start + 500])
    writer.commit()
    return sorted(glob.glob(path + "*"))


def one_pass(path, shuffle, block_options):
    import minddata as ds
    from minddata import vision
    start = time.perf_counter()
    data = ds.MindDataset(path, columns_list=["image", "label"], num_parallel_workers=2,
                          shuffle=shuffle, **block_options)
    data = data.map([vision.Decode(), vision.RandomResizedCrop(224),
                     vision.RandomHorizontalFlip(),
                     vision.Normalize([123.675, 116.28, 103.53], [58.395, 57.12, 57.375]),
                     vision.HWC2CHW()], input_columns="image", num_parallel_workers=2)
    data = data.batch(BATCH)
    rows = 0
    for images, _ in data.create_tuple_iterator(num_epochs=1, output_numpy=True):
        rows += images.shape[0]
    return rows / (time.perf_counter() - start)


def count_requests(store, files_dir, proxy_cls):
    """(requests to open a 100-shard set, its shard count; requests of a cold pass of the
    4-shard set, its pages)."""
    from mindrecord import ShardReader
    small = write_set(os.path.join(files_dir, "hundred", "small.mindrecord"),
                      [{"image": bytes([i % 256]) * 100, "label": i} for i in range(1000)], 100)
    store.upload_files(small, "bench", "hundred")
    with proxy_cls(store.endpoint) as proxy:
        os.environ["AWS_ENDPOINT_URL"] = proxy.endpoint
        _clear_fs_caches()
        with tempfile.TemporaryDirectory() as cache:
            os.environ["MINDDATA_REMOTE_CACHE"] = cache
            proxy.reset()
            with ShardReader("s3://bench/hundred/" + os.path.basename(small[0])) as reader:
                opened = proxy.counts()["total"]
                shards = len(reader.files)
            proxy.reset()
            with ShardReader("s3://bench/train.mindrecord0") as reader:
                pages = sum(len(h.get("page") or []) for h in reader._remote.headers)
                proxy.reset()
                reader.will_read(list(range(reader.num_rows)))
                reader.read_rows(list(range(reader.num_rows)), ["label"])
                cold = proxy.counts()
    os.environ["AWS_ENDPOINT_URL"] = store.endpoint
    _clear_fs_caches()
    return opened, shards, cold, pages


def _clear_fs_caches():
    import fsspec
    import s3fs
    fsspec.AbstractFileSystem.clear_instance_cache()
    s3fs.S3FileSystem.clear_instance_cache()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=None)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--shuffle", choices=("global", "blocks"), default="global")
    parser.add_argument("--block-rows", type=int, default=None,
                        help="shuffle_block_rows with --shuffle blocks")
    parser.add_argument("--window-rows", type=int, default=None,
                        help="shuffle_window_rows with --shuffle blocks")
    args = parser.parse_args()
    block_options = {}
    if args.shuffle == "blocks":
        block_options = {"shuffle_block_rows": args.block_rows,
                         "shuffle_window_rows": args.window_rows}
    import loopback_s3
    import minddata as ds
    shuffle = ds.Shuffle.GLOBAL if args.shuffle == "global" else ds.Shuffle.BLOCKS
    data_dir = ensure_bench_data(args.data) if args.data else ensure_bench_data()
    files = write_set(os.path.join(data_dir, "remote4", "train.mindrecord"),
                      imagenet_rows(data_dir), 4)
    work = tempfile.mkdtemp(prefix="remote-bench-")
    try:
        with loopback_s3.LoopbackS3() as store:
            os.environ.update(store.env())
            store.create_bucket("bench")
            store.upload_files(files, "bench")
            url = "s3://bench/train.mindrecord0"
            cache = os.path.join(work, "cache")
            one_pass(files[0], shuffle, block_options)     # warm-up: page cache, imports
            runs = {"local": [], "cold": [], "warm": []}
            for r in range(args.repeats):
                shutil.rmtree(cache, ignore_errors=True)
                os.environ["MINDDATA_REMOTE_CACHE"] = cache
                runs["local"].append(one_pass(files[0], shuffle, block_options))
                runs["cold"].append(one_pass(url, shuffle, block_options))
                runs["warm"].append(one_pass(url, shuffle, block_options))
                print(f"run {r + 1}: " + ", ".join(f"{k} {v[-1]:,.0f} img/s"
                                                  for k, v in runs.items()), flush=True)
            med = {k: statistics.median(v) for k, v in runs.items()}
            print(f"median of {args.repeats}: local {med['local']:,.0f} img/s, "
                  f"S3 first pass {med['cold']:,.0f} img/s ({med['cold'] / med['local']:.2f}x), "
                  f"S3 warm pass {med['warm']:,.0f} img/s ({med['warm'] / med['local']:.2f}x); "
                  f"shuffle {args.shuffle} {block_options or ''}; "
                  f"load average {os.getloadavg()[0]:.2f}")
            opened, shards, cold, pages = count_requests(store, work, loopback_s3.FaultyProxy)
            print(f"requests: opening a {shards}-shard set: {opened} (shards + 2 = "
                  f"{shards + 2}); a cold read of the 4-shard set: {dict(cold)} for {pages} "
                  f"pages")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
