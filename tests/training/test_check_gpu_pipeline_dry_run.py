"""tools/check_gpu_pipeline.py --cpu-dry-run: the GPU check's parts run on torch's CPU and print
their figures (a GPU machine's time is scarce: a broken part must show here first). A stand-in
torchvision gives the sink part a tiny network where torchvision is not installed."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
cv2 = pytest.importorskip("cv2")

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
STAND_IN = '''import types
import torch


def resnet18():
    return torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, stride=4), torch.nn.AdaptiveAvgPool2d(1),
                               torch.nn.Flatten(), torch.nn.Linear(4, 10))


models = types.SimpleNamespace(resnet18=resnet18)
'''


def _bench_data(root, count=48):
    """The layout of benchmarks/bench_data.py's ImageNet-like data, with small JPEGs."""
    rng = np.random.default_rng(0)
    lines = []
    for i in range(count):
        rel = f"class_{i % 2:02d}/img_{i:06d}.JPEG"
        os.makedirs(root / "imagenet" / "train" / os.path.dirname(rel), exist_ok=True)
        h, w = int(rng.integers(60, 120)), int(rng.integers(60, 120))
        img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        assert cv2.imwrite(str(root / "imagenet" / "train" / rel), img)
        lines.append(f"{rel}\t{i % 2}\n")
    (root / "imagenet" / "files.txt").write_text("".join(lines))
    (root / "manifest.json").write_text(json.dumps({"imagenet": {"n": count}}))


def test_the_dry_run_prints_every_parts_figures(tmp_path):
    data = tmp_path / "data"
    _bench_data(data)
    stand_in = tmp_path / "stand_in"
    (stand_in / "torchvision").mkdir(parents=True)
    (stand_in / "torchvision" / "__init__.py").write_text(STAND_IN)
    env = dict(os.environ)
    try:
        import torchvision  # noqa: F401
    except ImportError:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(stand_in),
                                                          env.get("PYTHONPATH")]))
    out = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tools", "check_gpu_pipeline.py"), "--cpu-dry-run",
         "--data", str(data), "--parts", "kernels,mixed,sink,interference", "--decoders", "cpu",
         "--seconds", "1", "--sink-chunks", "3", "--sink-chunk-steps", "2",
         "--optimizers", "sgd-fused", "--gpu-workers", "4,2", "--cuda-graphs", "off,on"],
        capture_output=True, text=True, env=env, timeout=300)
    text = out.stdout + out.stderr
    assert out.returncode == 0, text
    assert "FAILED" not in text, text
    assert "GPU kernels per batch (the CPU path's decoder, whole batch):" in text, text
    host = [line for line in text.splitlines() if "host side per batch (the CPU path's" in line]
    assert len(host) == 2, text          # the decode, the whole batch
    torch_calls = int(host[1].split(" of them torch's")[0].split(", ")[-1])
    assert 0 < torch_calls < int(host[1].split(" calls of C functions")[0].split(", ")[-1])
    for workers in (4, 2):      # each of --gpu-workers in the mixed and the sink parts
        assert (f"mixed pipeline (the CPU path's decoder, 0 CPU decode threads, {workers} "
                f"workers, 4 cores):") in text, text
    assert "summary: mixed: " in text and "summary: mixed, cpu decode, 2 workers: " in text
    sinks = [line for line in text.splitlines() if "summary: sink resnet18" in line]
    assert len(sinks) == 4 and all("img/s, synthetic" in line for line in sinks), text
    assert [("4 pipeline workers" in line, "CUDA graph step" in line) for line in sinks] == [
        (True, False), (True, True), (False, False), (False, True)], text
    fed = [line for line in text.splitlines() if "fed by the mixed pipeline" in line]
    assert len(fed) == 4 and all("garbage collections" in line for line in fed), text
    beside = [line for line in text.splitlines()
              if "interference resnet18 (the CPU path's decoder): beside" in line]
    assert [line.split("beside ")[1].split(":")[0] for line in beside] == [
        "none", "batch", "decode", "augment", "GIL 1 ms", "GIL 4 ms", "50 torch calls",
        "200 torch calls"], text
