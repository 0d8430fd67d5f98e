"""Conversion rate: ImageFolderToMR on the ImageNet-like folder (2,000 JPEGs) into 4 shards,
against FileWriter's own write rate on the same rows.

    .venv/bin/python benchmarks/convert_bench.py [--data /tmp/bench-data] [--repeats 3]
        [--workers 2]   (--repeats defaults to 5)

* converter: ``ImageFolderToMR(folder, dest, 4).transform(workers=W)``: listing, reading every
  file, the JPEG header check, writing 4 shards in parallel, linking them;
* FileWriter: the same rows already in memory, ``FileWriter(dest, 4)`` with the same schema,
  index and header/page sizes, one ``write_raw_data(rows, parallel_writer=True)`` and
  ``commit()``; only the writing is timed.

Prints rows/s and MB/s (median of the repeats after one untimed warm-up run of each, runs
alternated), the ratio converter / writer
(target >= 0.90), and MindSpore 2.10's FileWriter figure for 4 shards on the same data and
machine kind (../shared/tools/README.md). Nothing is asserted.
"""
import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench_data import ensure_bench_data  # noqa: E402

MS_FILEWRITER_4_SHARDS = 3871      # rows/s, MindSpore 2.10, ImageNet-like JPEG bytes + label


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(fn, *args):
    """(wall seconds, CPU seconds of this process, fn's result)."""
    c0, t0 = cpu_seconds(), time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - t0, cpu_seconds() - c0, result


def time_converter(folder, dest, workers):
    from mindrecord.tools import ImageFolderToMR
    start = time.perf_counter()
    result = ImageFolderToMR(folder, dest, 4).transform(workers=workers, overwrite=True)
    return time.perf_counter() - start, result.rows


def load_rows(folder):
    """The rows the converter writes, read into memory (not timed)."""
    from mindrecord.tools.image_folder_to_mr import ImageFolderToMR
    spec = ImageFolderToMR(folder, "unused.mindrecord", 4).prepare()[0]
    return spec, spec.loader.load_chunk(list(spec.items))


def time_filewriter(spec, rows, dest):
    from mindrecord.tools.conversion import open_shard_writer
    start = time.perf_counter()
    writer = open_shard_writer(spec, dest, shard_num=4)
    writer.write_raw_data(rows, parallel_writer=True)
    writer.commit()
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default="/tmp/bench-data")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    ensure_bench_data(args.data)
    folder = os.path.join(args.data, "imagenet", "train")
    spec, rows = load_rows(folder)
    payload = sum(len(r["image"]) + len(r["file_name"]) + 4 for r in rows)
    out = tempfile.mkdtemp(prefix="convert_bench_")
    conv_s, writer_s, conv_cpu, writer_cpu = [], [], [], []
    try:
        # One untimed run of each first: page cache, allocator and imports warmed alike.
        time_converter(folder, os.path.join(out, "conv.mindrecord"), args.workers)
        time_filewriter(spec, rows, os.path.join(out, "fw.mindrecord"))
        for i in range(args.repeats):
            wall, cpu, (_, n) = timed(time_converter, folder,
                                      os.path.join(out, "conv.mindrecord"), args.workers)
            assert n == len(rows)
            conv_s.append(wall)
            conv_cpu.append(cpu)
            wall, cpu, _ = timed(time_filewriter, spec, rows, os.path.join(out, "fw.mindrecord"))
            writer_s.append(wall)
            writer_cpu.append(cpu)
            print(f"run {i + 1}: converter {conv_s[-1]:.3f} s ({conv_cpu[-1]:.3f} s CPU), "
                  f"FileWriter {writer_s[-1]:.3f} s ({writer_cpu[-1]:.3f} s CPU)", flush=True)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    conv_rate = len(rows) / statistics.median(conv_s)
    writer_rate = len(rows) / statistics.median(writer_s)
    mb = payload / 1e6
    print(f"\nImageNet-like folder: {len(rows)} JPEGs, {mb:.1f} MB, 4 shards, "
          f"{args.workers} workers (median of {args.repeats})")
    print(f"  mindrecord-convert imagefolder : {conv_rate:8,.0f} rows/s "
          f"{conv_rate * mb / len(rows):7,.1f} MB/s  (reads the files, checks the JPEGs)")
    print(f"  FileWriter, rows in memory     : {writer_rate:8,.0f} rows/s "
          f"{writer_rate * mb / len(rows):7,.1f} MB/s")
    print(f"  ratio converter / FileWriter   : {conv_rate / writer_rate:8.2f}  (target >= 0.90)")
    print(f"  CPU seconds per run (median)   : converter {statistics.median(conv_cpu):.3f}, "
          f"FileWriter {statistics.median(writer_cpu):.3f} (reading {len(rows)} files is the "
          "difference; on a busy machine it decides the wall-clock ratio)")
    print(f"  MindSpore 2.10 FileWriter, 4 shards: {MS_FILEWRITER_4_SHARDS:,} rows/s; "
          f"converter / MindSpore = {conv_rate / MS_FILEWRITER_4_SHARDS:.2f}, "
          f"our FileWriter / MindSpore = {writer_rate / MS_FILEWRITER_4_SHARDS:.2f}")


if __name__ == "__main__":
    main()
