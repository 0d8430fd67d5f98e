"""The benchmark data every benchmark reads: ../shared/tools/make_bench_data.py's output (the same
data MindSpore's reference figures were measured on), generated once on first use."""
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DIR = os.environ.get("MINDDATA_BENCH_DATA", "/tmp/bench-data")


def ensure_bench_data(path=DEFAULT_DIR):
    """Generate the benchmark data in ``path`` unless it is there already; returns ``path``."""
    if not os.path.exists(os.path.join(path, "manifest.json")):
        tool = os.path.join(ROOT, "..", "shared", "tools", "make_bench_data.py")
        print(f"generating benchmark data in {path} ...", flush=True)
        subprocess.run([sys.executable, tool, path, "--n-cifar", "10000"], check=True)
    return path


def imagenet_rows(data_dir):
    """The ImageNet-like JPEGs as FileWriter rows: {"image": bytes, "label": int}."""
    root = os.path.join(data_dir, "imagenet")
    rows = []
    with open(os.path.join(root, "files.txt")) as f:
        for line in f:
            rel, label = line.rstrip("\n").split("\t")
            with open(os.path.join(root, "train", rel), "rb") as img:
                rows.append({"image": img.read(), "label": int(label)})
    return rows


def cifar_rows(data_dir):
    """The CIFAR-like arrays as FileWriter rows: {"image": 3072 raw bytes, "label": int}."""
    images = np.load(os.path.join(data_dir, "cifar", "images.npy"))
    labels = np.load(os.path.join(data_dir, "cifar", "labels.npy"))
    return [{"image": img.tobytes(), "label": int(lab)} for img, lab in zip(images, labels)]
