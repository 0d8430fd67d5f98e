"""Scaling of the train pipeline with its worker count, and sink-mode training beside it.

    python tools/scaling_check.py [--workers 1,2,4,8,14] [--images 2048] [--nets resnet18,resnet50]

Part 1 prints images/s of the train pipeline (MindDataset, Decode, RandomResizedCrop(224),
RandomHorizontalFlip, Normalize, HWC2CHW, batch 128) for each worker count, per worker, and as a
share of linear scaling from one worker. Part 2 trains each net with ``training.Model`` in sink mode
on that pipeline and on synthetic batches already on the device (the same step), and prints both
rates, their ratio and the sink's statistics (data wait, host and device time per step).

On a GPU (torchvision's ResNet-18/50) it checks the aims of the engine issue and exits 1 when one
fails: >= 85% of linear scaling at the largest worker count, sink-mode ResNet-18 >= 90% of the
synthetic rate. Without a GPU it runs the same table on the CPU with small torch nets (and
smaller images and batches), and the checks are reported for information only.
The data is synthetic JPEGs (about 474x403, quality 90) written to a temporary MindRecord file.
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]


def make_jpegs(n, seed=0):
    import cv2
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        h, w = int(rng.integers(360, 450)), int(rng.integers(420, 530))
        small = rng.integers(0, 256, (h // 16 + 1, w // 16 + 1, 3), dtype=np.uint8)
        img = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
        img = np.clip(img.astype(np.int16) + rng.integers(-12, 12, img.shape), 0, 255)
        out.append(cv2.imencode(".jpg", img.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 90])[1]
                   .tobytes())
    return out


def write_file(path, jpegs):
    from mindrecord import FileWriter
    writer = FileWriter(path, shard_num=1, overwrite=True)
    writer.add_schema({"image": {"type": "bytes"}, "label": {"type": "int32"}}, "scaling")
    for start in range(0, len(jpegs), 256):
        writer.write_raw_data([{"image": b, "label": (start + i) % 10}
                               for i, b in enumerate(jpegs[start:start + 256])])
    writer.commit()
    return path


def pipeline(path, workers, size, batch):
    import minddata as ds
    import minddata.vision as vision
    data = ds.MindDataset(path, columns_list=["image", "label"], shuffle=True,
                          num_parallel_workers=min(workers, 4))
    data = data.map([vision.Decode(), vision.RandomResizedCrop(size),
                     vision.RandomHorizontalFlip(), vision.Normalize(MEAN, STD),
                     vision.HWC2CHW()], input_columns=["image"], num_parallel_workers=workers)
    return data.batch(batch, drop_remainder=True)


def pipeline_rate(path, workers, size, batch, epochs):
    data = pipeline(path, workers, size, batch)
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=epochs + 1)
    for _ in it:            # warm-up epoch (page cache, threads)
        pass
    t0 = time.perf_counter()
    images = 0
    for _ in range(epochs):
        for b in it:
            images += len(b[0])
    return images / (time.perf_counter() - t0)


def make_net(name, device_kind):
    import torch
    if device_kind == "cuda":
        import torchvision
        return getattr(torchvision.models, name)(num_classes=10)
    width = {"resnet18": 16, "resnet50": 32}[name]      # small CPU stand-ins
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, width, 3, stride=2, padding=1), torch.nn.BatchNorm2d(width),
        torch.nn.ReLU(), torch.nn.Conv2d(width, 2 * width, 3, stride=2, padding=1),
        torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
        torch.nn.Linear(2 * width, 10))


def synthetic_rate(torch, net, device, size, batch, steps):
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    loss_fn = torch.nn.CrossEntropyLoss()
    x = torch.randn(batch, 3, size, size, device=device)
    y = torch.randint(0, 10, (batch,), device=device)

    def step():
        opt.zero_grad(set_to_none=True)
        loss_fn(net(x), y).backward()
        opt.step()
    for _ in range(5):
        step()
    sync(torch, device)
    t0 = time.perf_counter()
    for _ in range(steps):
        step()
    sync(torch, device)
    return steps * batch / (time.perf_counter() - t0)


def sync(torch, device):
    if device.type == "cuda":
        torch.cuda.synchronize()


def sink_rate(torch, net, device, path, workers, size, batch, epochs):
    from training import Callback, Model, set_context

    class EpochTimer(Callback):
        def __init__(self):
            self.times = []

        def on_train_epoch_begin(self, run_context):
            sync(torch, device)
            self.t0 = time.perf_counter()

        def on_train_epoch_end(self, run_context):
            sync(torch, device)
            self.times.append(time.perf_counter() - self.t0)

    set_context(device_target="GPU" if device.type == "cuda" else "CPU")
    model = Model(net, torch.nn.CrossEntropyLoss(),
                  torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9))
    data = pipeline(path, workers, size, batch)
    timer = EpochTimer()
    model.train(epochs + 1, data, callbacks=[timer], dataset_sink_mode=True)
    steps = data.get_dataset_size()
    best = min(timer.times[1:])          # the first epoch warms up (cuDNN plans, page cache)
    return steps * batch / best, model.last_train_stats


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="1,2,4,8,14")
    parser.add_argument("--images", type=int, default=2048)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--nets", default="resnet18,resnet50")
    args = parser.parse_args(argv)
    import torch
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    size, batch = (224, 128) if device.type == "cuda" else (112, 32)
    cores = os.cpu_count() or 1
    counts = [w for w in (int(x) for x in args.workers.split(",")) if w <= cores] or [1]
    print(f"device {device} ({torch.cuda.get_device_name(0) if device.type == 'cuda' else 'CPU'})"
          f", {cores} cores, images {size}x{size}, batch {batch}, load {os.getloadavg()}",
          flush=True)
    tmp = tempfile.mkdtemp(prefix="scaling_check_")
    path = write_file(os.path.join(tmp, "scaling.mindrecord"), make_jpegs(args.images))
    checks = []

    print("\nworkers  images/s  per worker  share of linear", flush=True)
    base = None
    for w in counts:
        rate = pipeline_rate(path, w, size, batch, args.epochs)
        base = base or rate
        share = rate / (base * w)
        print(f"{w:7d}  {rate:8.0f}  {rate / w:10.0f}  {share:14.0%}", flush=True)
    checks.append(("scaling to %d workers >= 85%% of linear" % counts[-1], share >= 0.85))

    sink_workers = max(1, min(cores - 2, counts[-1]))
    print(f"\nnet        synthetic img/s  sink img/s  ratio  (sink: {sink_workers} pipeline "
          f"workers)", flush=True)
    for name in args.nets.split(","):
        torch.manual_seed(0)
        net = make_net(name, device.type).to(device)
        synthetic = synthetic_rate(torch, net, device, size, batch, steps=30)
        sink, stats = sink_rate(torch, net, device, path, sink_workers, size, batch,
                                args.epochs)
        ratio = sink / synthetic
        print(f"{name:10s} {synthetic:15.0f}  {sink:10.0f}  {ratio:5.0%}  stats {stats}",
              flush=True)
        if name == "resnet18":
            checks.append(("sink-mode resnet18 >= 90% of the synthetic rate", ratio >= 0.90))
    print()
    failed = False
    for what, ok in checks:
        verdict = ("PASS" if ok else "FAIL") if device.type == "cuda" else "INFO"
        print(f"{verdict} {what}")
        failed |= device.type == "cuda" and not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
