"""``minddata-bench``: how fast does a pipeline run here, and where does the time go.

    minddata-bench imagenet-train /tmp/bench-data/imagenet/train --batches 20
    minddata-bench raw-read data.mindrecord --seconds 10 --json out.json --plot out.png
    minddata-bench my_pipeline.yaml data.mindrecord --compare-workers 1,2,4
    minddata-bench imagenet-train data.mindrecord --service 10.0.0.5:6379 --service-workers 8
    minddata-bench imagenet-train data.mindrecord --batches 20 --mindspore-python ms/bin/python

PIPELINE is a standard pipeline (imagenet-train, imagenet-eval, cifar-train, raw-read) or a
.yaml/.json pipeline file; DATA is a MindRecord file or an image folder (optional for a pipeline
file that names its source). A ratio to MindSpore is printed only with --mindspore-python, when
MindSpore ran the same pipeline on the same data in this invocation. Exit status 0 on success,
1 when the pipeline fails, 2 on usage errors.
"""
import argparse
import json
import os
import sys

from . import pipelines
from .profile import has_batch, profile
from .side_by_side import run_mindspore


def _workers_list(text):
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected e.g. 1,2,4, got {text!r}") from None
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"expected positive worker counts, got {text!r}")
    return values


def _positive_int(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {v}")
    return v


def _positive_float(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {v}")
    return v


def build_parser():
    p = argparse.ArgumentParser(
        prog="minddata-bench",
        description="Run a data pipeline and report its throughput and where the time goes.")
    p.add_argument("pipeline", metavar="PIPELINE",
                   help=f"{', '.join(pipelines.STANDARD)}, or a .yaml/.json pipeline file")
    p.add_argument("data", metavar="DATA", nargs="?", default=None,
                   help="MindRecord file or image folder")
    p.add_argument("--batches", type=_positive_int, default=None,
                   help="stop after N batches (rows for unbatched pipelines)")
    p.add_argument("--seconds", type=_positive_float, default=None, help="stop after S seconds")
    p.add_argument("--workers", type=_positive_int, default=2,
                   help="num_parallel_workers of the source and maps (default 2)")
    p.add_argument("--batch-size", type=_positive_int, default=None,
                   help="batch size (standard pipelines)")
    p.add_argument("--compare-workers", type=_workers_list, default=None, metavar="1,2,4",
                   help="run once per worker count and compare")
    p.add_argument("--json", default=None, metavar="FILE", help="write the figures as JSON")
    p.add_argument("--plot", default=None, metavar="FILE.png",
                   help="write throughput over time and the per-op breakdown as a PNG")
    p.add_argument("--no-op-breakdown", action="store_true",
                   help="skip timing each map op on sample rows")
    p.add_argument("--no-progress", action="store_true", help="no live progress bar")
    p.add_argument("--service", default=None, metavar="ADDRESS",
                   help="run the source, maps and batches in Ray actors (RayService) on the "
                        "cluster at ADDRESS (host:port, auto, ray://host:10001; local: a Ray "
                        "instance started for the run); the report adds per-actor throughput "
                        "and the trainer's queue depth")
    p.add_argument("--service-workers", type=_positive_int, default=None, metavar="N",
                   help="RayService actors (default 2; with --service)")
    p.add_argument("--mindspore-python", default=None, metavar="PYTHON",
                   help="also run the same pipeline on the same data with MindSpore, in this "
                        "interpreter (one that has mindspore installed), right after each "
                        "minddata run and with the same limits; prints both and the ratio")
    return p


def open_service(args):
    """The RayService the runs go through, or None without --service."""
    if args.service is None:
        return None
    from ..service import RayService
    address = None if args.service == "local" else args.service
    return RayService(address=address, num_workers=args.service_workers or 2)


def _pipeline_spec(args):
    """The pipeline file's description, or None for a standard pipeline."""
    if args.pipeline.endswith((".yaml", ".yml", ".json")):
        return pipelines.load_pipeline_file(args.pipeline)
    return None


def build_dataset(args, workers):
    name = args.pipeline
    spec = _pipeline_spec(args)
    if spec is not None:
        return pipelines.build_from_file(spec, name, args.data, workers), \
            spec.get("name") or name
    if args.data is None:
        raise ValueError(f"pipeline {name!r} needs DATA (a MindRecord file or an image folder)")
    return pipelines.build_standard(name, args.data, workers, args.batch_size), name


def mindspore_side(args, workers, dataset, report):
    """MindSpore's figures for the same pipeline, data and limits, with the ratio."""
    job = {"pipeline": args.pipeline, "spec": _pipeline_spec(args),
           "data": os.path.abspath(args.data) if args.data else None, "workers": workers,
           "batch_size": args.batch_size, "batches": args.batches, "seconds": args.seconds,
           "batched": has_batch(dataset)}
    ms = run_mindspore(args.mindspore_python, job)
    return {"workload": f"the same pipeline and data, run by MindSpore "
                        f"{ms['mindspore_version']} in this invocation",
            "python": args.mindspore_python, "mindspore_version": ms["mindspore_version"],
            "rows": ms["rows"], "batches": ms["batches"], "seconds": ms["seconds"],
            "rows_per_s": ms["rows_per_s"],
            "ratio": round(report["rows_per_s"] / ms["rows_per_s"], 3)
            if ms["rows_per_s"] else None}


def run_once(args, workers):
    dataset, label = build_dataset(args, workers)
    # A service of its own per run (it starts nothing before the run): each report's actor
    # figures are its run's.
    service = open_service(args)
    bar = None
    on_batch = None
    if not args.no_progress:
        from tqdm import tqdm
        if args.batches:
            bar = tqdm(total=args.batches, unit="batch", dynamic_ncols=True, file=sys.stderr,
                       desc=f"{label} w={workers}")
            on_batch = lambda b, r, t: bar.update(1)            # noqa: E731
        else:
            bar = tqdm(total=args.seconds, unit="s", dynamic_ncols=True, file=sys.stderr,
                       desc=f"{label} w={workers}",
                       bar_format="{l_bar}{bar}| {n:.1f}/{total} s {postfix}")
            state = {"last": 0.0}

            def on_batch(b, r, t):
                if args.seconds:
                    bar.update(min(t, args.seconds) - state["last"])
                    state["last"] = min(t, args.seconds)
                bar.set_postfix_str(f"{r / max(t, 1e-9):,.0f} rows/s", refresh=False)
    try:
        report = profile(dataset, num_batches=args.batches, seconds=args.seconds,
                         on_batch=on_batch, op_breakdown=not args.no_op_breakdown,
                         pipeline_name=label, data=args.data, num_workers=workers,
                         service=service)
    finally:
        if bar is not None:
            bar.close()
        if service is not None:
            service.close()
    if args.mindspore_python:
        report.fields["reference"] = mindspore_side(args, workers, dataset, report)
    return report


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.service_workers is not None and args.service is None:
        parser.error("--service-workers needs --service ADDRESS")
    if args.mindspore_python is not None and not (os.path.isfile(args.mindspore_python) and
                                                  os.access(args.mindspore_python, os.X_OK)):
        parser.error(f"--mindspore-python {args.mindspore_python}: not an executable file "
                     "(expected the python of an environment with mindspore installed)")
    try:
        counts = args.compare_workers or [args.workers]
        reports = []
        for workers in counts:
            report = run_once(args, workers)
            reports.append(report)
            print(report.format())
            print()
        if len(reports) > 1:
            side = " MindSpore rows/s   ratio" if args.mindspore_python else ""
            print(f"{'workers':>8}{'rows/s':>12}{'batches/s':>12}{'MB/s':>10}{side}  "
                  "bottleneck")
            for w, r in zip(counts, reports):
                ref = r["reference"]
                side = f"{ref['rows_per_s']:>17,.1f}{ref['ratio'] or 0:>7.2f}x" if ref else ""
                print(f"{w:>8}{r['rows_per_s']:>12,.1f}{r['batches_per_s']:>12,.2f}"
                      f"{r['mb_per_s']:>10,.1f}{side}  {r['bottleneck']['stage'] or 'none'}")
        if args.json:
            payload = reports[0].to_dict() if len(reports) == 1 else {
                "schema_version": reports[0]["schema_version"],
                "compare_workers": [{"workers": w, **r.to_dict()}
                                    for w, r in zip(counts, reports)]}
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(payload, f, indent=1)
                f.write("\n")
        if args.plot:
            from .plot import write_plot
            write_plot(reports if len(reports) > 1 else reports[0], args.plot)
    except KeyboardInterrupt:
        print("minddata-bench: interrupted", file=sys.stderr)
        return 130
    except (ValueError, RuntimeError, OSError, ImportError, TypeError) as exc:
        print(f"minddata-bench: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
