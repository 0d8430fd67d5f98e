"""``mindrecord-convert``: convert a dataset to MindRecord shards from the shell.

    mindrecord-convert imagefolder SRC DEST --shards 8 --workers 2
    mindrecord-convert imagenet SRC DEST --map-file labels.txt
    mindrecord-convert cifar10|cifar100|mnist SRC DEST
    mindrecord-convert csv|parquet SRC DEST [--columns a,b,c]
    mindrecord-convert tfrecord SRC DEST --feature image:string --feature label:int64 \
        --bytes-fields image

Common options: --shards N, --workers W, --overwrite, --skip-bad [--report FILE],
--backend local|ray, --no-progress. Exit status 0 on success, 1 on a failed conversion
(message on stderr, nothing left behind), 2 on a usage error.
"""
import argparse
import os
import sys

from .bad_input import ConversionError

SUBCOMMANDS = ("imagefolder", "imagenet", "cifar10", "cifar100", "mnist", "csv", "parquet",
               "tfrecord")


def _columns(text):
    cols = [c.strip() for c in text.split(",") if c.strip()]
    if not cols:
        raise argparse.ArgumentTypeError("expected a comma-separated list of column names")
    return cols


def _feature(text):
    """NAME:TYPE or NAME:TYPE:LENGTH -> (name, FixedLenFeature)."""
    from .tfrecord_to_mr import FixedLenFeature, dtype_name
    parts = text.rsplit(":", 2) if text.count(":") >= 2 else text.rsplit(":", 1)
    if len(parts) < 2 or not parts[0]:
        raise argparse.ArgumentTypeError(f"expected NAME:TYPE[:LENGTH], got {text!r}")
    try:
        dtype_name(parts[1])
        shape = [int(parts[2])] if len(parts) == 3 else []
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r}: {exc}") from None
    return parts[0], FixedLenFeature(shape, parts[1])


def _positive(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def build_parser():
    parser = argparse.ArgumentParser(
        prog="mindrecord-convert",
        description="Convert a dataset to MindRecord files (readable by MindSpore and minddata).")
    sub = parser.add_subparsers(dest="source_format", metavar="SUBCOMMAND", required=True)
    helps = {
        "imagefolder": "class folders of images: SRC/<class>/<image>",
        "imagenet": "ImageNet layout with a map file ('<folder> <label>' per line)",
        "cifar10": "CIFAR-10 python batches (data_batch_*, test_batch)",
        "cifar100": "CIFAR-100 python files (train, test)",
        "mnist": "MNIST idx files (train-images-idx3-ubyte.gz, ...)",
        "csv": "a CSV file with a header line",
        "parquet": "a Parquet file or directory",
        "tfrecord": "a TFRecord file of tf.train.Example records",
    }
    for name in SUBCOMMANDS:
        p = sub.add_parser(name, help=helps[name], description=helps[name])
        p.add_argument("src", metavar="SRC", help="source file or directory")
        p.add_argument("dest", metavar="DEST", help="MindRecord file to write (shards get "
                                                    "0..N-1 appended), or a URL such as "
                                                    "s3://bucket/dir/train.mindrecord")
        p.add_argument("--shards", type=_positive, default=1, help="number of shard files")
        p.add_argument("--workers", type=_positive, default=None,
                       help="worker threads (default: all cores)")
        p.add_argument("--overwrite", action="store_true", help="replace existing files")
        p.add_argument("--skip-bad", action="store_true",
                       help="skip unusable items and list them in a report instead of stopping")
        p.add_argument("--report", default=None,
                       help="skip report file (default DEST.skipped.txt)")
        p.add_argument("--backend", choices=("local", "ray"), default="local",
                       help="ray: one Ray task per shard (uses a running cluster if "
                            "RAY_ADDRESS is set, else a local one)")
        p.add_argument("--no-progress", action="store_true", help="no progress bar")
        if name in ("imagefolder", "imagenet"):
            p.add_argument("--verify", choices=("header", "decode", "none"), default="header",
                           help="image check: header (cheap, default), decode (full), none")
        if name == "imagenet":
            p.add_argument("--map-file", required=True, help="'<folder> <label>' per line")
        if name in ("cifar10", "cifar100", "mnist"):
            p.add_argument("--image-format", choices=("jpeg", "png"), default="jpeg",
                           help="image encoding (MindSpore stores jpeg)")
        if name in ("csv", "parquet"):
            p.add_argument("--columns", type=_columns, default=None,
                           help="comma-separated columns to convert (default all)")
        if name == "tfrecord":
            p.add_argument("--feature", type=_feature, action="append", required=True,
                           metavar="NAME:TYPE[:LENGTH]",
                           help="a feature to convert, e.g. label:int64 or bbox:float32:4 "
                                "(repeat the option)")
            p.add_argument("--bytes-fields", type=_columns, default=None,
                           help="string features to store as bytes (e.g. encoded images)")
    return parser


def make_converter(args):
    from . import (Cifar100ToMR, Cifar10ToMR, CsvToMR, ImageFolderToMR, ImageNetToMR,
                   MnistToMR, ParquetToMR, TFRecordToMR)
    kind, n = args.source_format, args.shards
    if kind == "imagefolder":
        return ImageFolderToMR(args.src, args.dest, n, verify=args.verify)
    if kind == "imagenet":
        return ImageNetToMR(args.map_file, args.src, args.dest, n, verify=args.verify)
    if kind == "cifar10":
        return Cifar10ToMR(args.src, args.dest, partition_number=n,
                           image_format=args.image_format)
    if kind == "cifar100":
        return Cifar100ToMR(args.src, args.dest, partition_number=n,
                            image_format=args.image_format)
    if kind == "mnist":
        return MnistToMR(args.src, args.dest, n, image_format=args.image_format)
    if kind == "csv":
        return CsvToMR(args.src, args.dest, args.columns, n)
    if kind == "parquet":
        return ParquetToMR(args.src, args.dest, args.columns, n)
    return TFRecordToMR(args.src, args.dest, dict(args.feature), args.bytes_fields,
                        partition_number=n)


def _human_bytes(n):
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:,.1f} {unit}" if unit != "B" else f"{n} B"
        n /= 1000.0
    return f"{n:,.1f} TB"


def summary(result):
    seconds = max(result.seconds, 1e-9)
    lines = [f"converted {result.rows:,} rows into {len(result.files)} file(s), "
             f"{_human_bytes(result.bytes)}, in {result.seconds:.2f} s "
             f"({result.rows / seconds:,.0f} rows/s, {result.bytes / seconds / 1e6:,.1f} MB/s)"]
    for path in result.files:
        lines.append(f"  {path}")
    if result.skipped:
        lines.append(f"skipped {len(result.skipped):,} bad item(s); see {result.report_file}")
    return "\n".join(lines)


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    bar = None
    try:
        converter = make_converter(args)
        from ..remote.urls import is_url
        if not is_url(args.dest):          # a URL (s3://...) is uploaded; no local directory
            os.makedirs(os.path.dirname(os.path.abspath(args.dest)), exist_ok=True)
        progress = None
        if not args.no_progress:
            from tqdm import tqdm
            total = converter.total_items()
            bar = tqdm(total=total, unit="rows", unit_scale=True, dynamic_ncols=True,
                       desc=f"{args.source_format} -> {os.path.basename(args.dest)}",
                       file=sys.stderr)
            progress = bar.update
        result = converter.transform(workers=args.workers, skip_bad=args.skip_bad,
                                     overwrite=args.overwrite, report_file=args.report,
                                     progress=progress, backend=args.backend)
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
        print("mindrecord-convert: interrupted; partial output removed", file=sys.stderr)
        return 130
    except (ConversionError, ValueError, RuntimeError, OSError, ImportError) as exc:
        if bar is not None:
            bar.close()
        print(f"mindrecord-convert: error: {exc}", file=sys.stderr)
        return 1
    if bar is not None:
        bar.close()
    print(summary(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
