"""The benchmark data every benchmark reads: ../shared/tools/make_bench_data.py's output (the same
data MindSpore's reference figures were measured on), generated once on first use."""
import json
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DIR = os.environ.get("MINDDATA_BENCH_DATA", "/tmp/bench-data")
#: The schema of imagenet_rows and cifar_rows.
IMAGE_LABEL_SCHEMA = {"image": {"type": "bytes"}, "label": {"type": "int32"}}


def ensure_bench_data(path=DEFAULT_DIR):
    """Generate the benchmark data in ``path`` unless it is there already; returns ``path``."""
    if not os.path.exists(os.path.join(path, "manifest.json")):
        tool = os.path.join(ROOT, "..", "shared", "tools", "make_bench_data.py")
        print(f"generating benchmark data in {path} ...", flush=True)
        subprocess.run([sys.executable, tool, path, "--n-cifar", "10000"], check=True)
    return path


def imagenet_files(data_dir):
    """[(path relative to imagenet/train, label)] of the ImageNet-like JPEGs, in files.txt order
    (which is also sorted path order)."""
    with open(os.path.join(data_dir, "imagenet", "files.txt")) as f:
        return [(rel, int(label)) for rel, label in
                (line.rstrip("\n").split("\t") for line in f)]


def read_imagenet_file(data_dir, rel):
    """The bytes of one ImageNet-like JPEG (``rel`` as imagenet_files gives it)."""
    with open(os.path.join(data_dir, "imagenet", "train", rel), "rb") as img:
        return img.read()


def imagenet_rows(data_dir):
    """The ImageNet-like JPEGs as FileWriter rows: {"image": bytes, "label": int}."""
    return [{"image": read_imagenet_file(data_dir, rel), "label": label}
            for rel, label in imagenet_files(data_dir)]


def cifar_arrays(data_dir):
    """(images (N, 32, 32, 3) uint8, labels (N,)) of the CIFAR-like data."""
    images = np.load(os.path.join(data_dir, "cifar", "images.npy"))
    labels = np.load(os.path.join(data_dir, "cifar", "labels.npy"))
    return images, labels


def cifar_rows(data_dir):
    """The CIFAR-like arrays as FileWriter rows: {"image": 3072 raw bytes, "label": int}."""
    images, labels = cifar_arrays(data_dir)
    return [{"image": img.tobytes(), "label": int(lab)} for img, lab in zip(images, labels)]


def write_mindrecord(path, rows, desc, schema=IMAGE_LABEL_SCHEMA, chunk=1000):
    """One MindRecord file of ``rows`` (FileWriter, one shard), handed over ``chunk`` rows per
    write_raw_data call."""
    from mindrecord import FileWriter
    writer = FileWriter(path, shard_num=1, overwrite=True)
    writer.add_schema(schema, desc)
    for start in range(0, len(rows), chunk):
        writer.write_raw_data(rows[start:start + chunk])
    writer.commit()


def run_measurement(script, framework, python, args, timeout):
    """Runs ``python script --worker framework *args`` in a fresh process and returns the JSON
    its last output line holds. MindSpore's interpreter runs without this project's
    PYTHONPATH and with its logging quiet, from /tmp, so it never imports this project."""
    env = dict(os.environ)
    if framework == "mindspore":
        env.pop("PYTHONPATH", None)
        env["GLOG_v"] = "3"
    out = subprocess.run([python, os.path.abspath(script), "--worker", framework,
                          *map(str, args)], capture_output=True, text=True, env=env, cwd="/tmp",
                         timeout=timeout)
    if out.returncode != 0:
        raise RuntimeError(f"{framework} {args} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])
