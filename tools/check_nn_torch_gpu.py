"""GPU check of issue 23: a ResNet-50 written with training.nn, trained by Model on the torch
backend in sink mode with mixed precision, against torchvision's ResNet-50 with the same
settings; prints images/s of each and their ratio (the goal: at least 0.90).

    python tools/check_nn_torch_gpu.py [--batch 256] [--chunks 8] [--amp O2] [--compile]
                                       [--channels-last] [--workers 8]

Both models: Momentum / SGD(lr 0.1, momentum 0.9, weight decay 1e-4 except BatchNorm), amp_level
O2 (float16 autocast and dynamic loss scaling on CUDA), sink mode, fed by the project's pipeline:
minddata.NumpySlicesDataset over 512 random uint8 224x224 HWC images, map(RandomHorizontalFlip,
Normalize, HWC2CHW) with Normalize and HWC2CHW finished on the GPU (the sink's device tail),
batch. The pipeline's own rate is printed first: a model rate near it is the pipeline's limit,
not the model's. Without torchvision a plain torch.nn.Module ResNet-50 defined here stands in
(said so in the output). --compile runs both in GRAPH_MODE (torch.compile), --channels-last
puts both networks' weights in channels_last (TRAINING_CHANNELS_LAST=1). Without CUDA the script
prints SKIP and exits 0; --cpu-dry-run runs it on torch's CPU with batch 4 (a check of this
script on a machine without a GPU)."""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]


def nn_resnet50(num_classes=1000):
    """ResNet-50 (v1.5: the stride on the 3x3 convolution) written with training.nn, in the
    model zoo's style: Conv2d without bias, BatchNorm2d(momentum 0.9), ReLU, bottleneck blocks
    with a 1x1 projection where the shape changes, ops.Add, a mean over H and W, Dense."""
    from training import nn, ops

    def conv(cin, cout, k, stride=1):
        pad = (k - 1) // 2
        return nn.Conv2d(cin, cout, k, stride=stride, pad_mode="pad" if pad else "valid",
                         padding=pad, weight_init="he_normal")

    class Bottleneck(nn.Cell):
        def __init__(self, cin, width, stride):
            super().__init__()
            cout = width * 4
            self.conv1, self.bn1 = conv(cin, width, 1), nn.BatchNorm2d(width)
            self.conv2, self.bn2 = conv(width, width, 3, stride), nn.BatchNorm2d(width)
            self.conv3, self.bn3 = conv(width, cout, 1), nn.BatchNorm2d(cout)
            self.relu = nn.ReLU()
            self.down = stride != 1 or cin != cout
            if self.down:
                self.down_sample = nn.SequentialCell([conv(cin, cout, 1, stride),
                                                      nn.BatchNorm2d(cout)])
            self.add = ops.Add()

        def construct(self, x):
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.relu(self.bn2(self.conv2(out)))
            out = self.bn3(self.conv3(out))
            identity = self.down_sample(x) if self.down else x
            return self.relu(self.add(out, identity))

    class ResNet50(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1, self.bn1, self.relu = conv(3, 64, 7, 2), nn.BatchNorm2d(64), nn.ReLU()
            self.maxpool = nn.MaxPool2d(3, 2, pad_mode="pad", padding=1)
            layers, cin = [], 64
            for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
                cells = []
                for i in range(blocks):
                    cells.append(Bottleneck(cin, width, stride if i == 0 else 1))
                    cin = width * 4
                layers.append(nn.SequentialCell(cells))
            self.layer1, self.layer2, self.layer3, self.layer4 = layers
            self.mean = ops.ReduceMean(keep_dims=False)
            self.end_point = nn.Dense(2048, num_classes)

        def construct(self, x):
            x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
            x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
            return self.end_point(self.mean(x, (2, 3)))
    return ResNet50()


def torch_resnet50():
    """torchvision's ResNet-50, or the same architecture defined here when it is absent."""
    try:
        import torchvision
        return torchvision.models.resnet50(), "torchvision.models.resnet50"
    except ImportError:
        pass
    import torch
    from torch import nn

    class Bottleneck(nn.Module):
        def __init__(self, cin, width, stride):
            super().__init__()
            cout = width * 4
            self.body = nn.Sequential(
                nn.Conv2d(cin, width, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(True),
                nn.Conv2d(width, width, 3, stride, 1, bias=False), nn.BatchNorm2d(width),
                nn.ReLU(True), nn.Conv2d(width, cout, 1, bias=False), nn.BatchNorm2d(cout))
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                      nn.BatchNorm2d(cout)) \
                if stride != 1 or cin != cout else nn.Identity()

        def forward(self, x):
            return torch.relu(self.body(x) + self.down(x))

    layers, cin = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(True),
                   nn.MaxPool2d(3, 2, 1)], 64
    for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for i in range(blocks):
            layers.append(Bottleneck(cin, width, stride if i == 0 else 1))
            cin = width * 4
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2048, 1000)]
    return nn.Sequential(*layers), "a torch.nn.Module ResNet-50 (torchvision is not installed)"


def pipeline(batch, workers):
    import minddata as ds
    import minddata.vision as vision
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (512, 224, 224, 3), dtype=np.uint8)
    labels = rng.integers(0, 1000, 512).astype(np.int32)
    data = ds.NumpySlicesDataset((images, labels), column_names=["image", "label"], shuffle=False)
    data = data.map([vision.RandomHorizontalFlip(), vision.Normalize(MEAN, STD),
                     vision.HWC2CHW()], input_columns=["image"], num_parallel_workers=workers)
    return data.batch(batch, drop_remainder=True).repeat(64)


def pipeline_rate(dataset, batches):
    start, seen = time.perf_counter(), 0
    for _ in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True):
        seen += 1
        if seen == batches:
            break
    return seen * dataset.get_batch_size() / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--chunks", type=int, default=8,
                        help="sink chunks of 10 steps per model (the first 2 are warm-up)")
    parser.add_argument("--amp", default="O2", choices=["O0", "O2", "O3"])
    parser.add_argument("--compile", action="store_true", help="GRAPH_MODE (torch.compile)")
    parser.add_argument("--channels-last", action="store_true",
                        help="both networks in channels_last memory format")
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--cpu-dry-run", action="store_true",
                        help="the same run on torch's CPU, batch 4, 3 chunks (no GPU needed)")
    args = parser.parse_args()
    if args.cpu_dry_run:
        args.batch, args.chunks = 4, 3
    if args.channels_last:
        os.environ["TRAINING_CHANNELS_LAST"] = "1"  # read by both backends when they build
    try:
        import torch
    except ImportError:
        print("SKIP: PyTorch is not installed")
        return 0
    if not torch.cuda.is_available() and not args.cpu_dry_run:
        print("SKIP: no CUDA device (torch.cuda.is_available() is False)")
        return 0
    torch.backends.cudnn.benchmark = True
    from sink_rate import sink_rate
    from training import GRAPH_MODE, PYNATIVE_MODE, Model, nn, set_backend, set_context, set_seed
    set_context(device_target="CPU" if args.cpu_dry_run else "GPU", device_id=0,
                mode=GRAPH_MODE if args.compile else PYNATIVE_MODE)
    name = "the CPU (dry run)" if args.cpu_dry_run else torch.cuda.get_device_name(0)
    print(f"device: {name}; batch {args.batch}, {args.chunks} chunks, "
          f"amp {args.amp}, {'GRAPH_MODE' if args.compile else 'PYNATIVE_MODE'}"
          f"{', channels_last' if args.channels_last else ''}", flush=True)
    dataset = pipeline(args.batch, args.workers)
    print(f"pipeline alone: {pipeline_rate(dataset, 20):.0f} images/s (host side, before the "
          f"device tail)", flush=True)

    set_backend("torch")
    set_seed(0)
    net = nn_resnet50()
    decayed = [p for p in net.trainable_params() if "gamma" not in p.name and "beta" not in p.name]
    others = [p for p in net.trainable_params() if "gamma" in p.name or "beta" in p.name]
    optimizer = nn.Momentum([{"params": decayed, "weight_decay": 1e-4}, {"params": others}],
                            0.1, 0.9)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  optimizer, amp_level=args.amp)
    ours, stats = sink_rate(model, dataset, args.batch, chunks=args.chunks)
    print(f"training.nn ResNet-50 (torch backend): {ours:.0f} images/s; data wait p50 "
          f"{stats.get('data_wait_p50_ms', float('nan')):.1f} ms", flush=True)

    module, what = torch_resnet50()
    bn = [p for name, p in module.named_parameters() if p.ndim == 1]
    rest = [p for name, p in module.named_parameters() if p.ndim > 1]
    sgd = torch.optim.SGD([{"params": rest, "weight_decay": 1e-4}, {"params": bn}], lr=0.1,
                          momentum=0.9)
    reference = Model(module, torch.nn.CrossEntropyLoss(), sgd, amp_level=args.amp)
    theirs, stats = sink_rate(reference, dataset, args.batch, chunks=args.chunks)
    print(f"{what}: {theirs:.0f} images/s; data wait p50 "
          f"{stats.get('data_wait_p50_ms', float('nan')):.1f} ms", flush=True)
    ratio = ours / theirs
    print(f"{'PASS' if ratio >= 0.9 else 'FAIL'} training.nn / torch: {ratio:.2f} (goal >= 0.90)")
    return 0 if ratio >= 0.9 else 1


if __name__ == "__main__":
    sys.exit(main())
