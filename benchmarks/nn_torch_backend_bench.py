"""Step time of a small ResNet written with training.nn on the numpy backend, on the torch
backend, and of the same network written directly as a torch.nn.Module (issue 23).

    .venv/bin/python benchmarks/nn_torch_backend_bench.py [--steps 10] [--batch 32] [--size 64]
                                                          [--threads 1]

Network: a 3x3 stem (3 -> 16) with BatchNorm and ReLU, three residual blocks (16, 32 stride 2,
64 stride 2; 1x1 projections where the shape changes), global average pooling and Dense(64, 10);
Momentum(0.01, 0.9), SoftmaxCrossEntropyWithLogits / CrossEntropyLoss; batch 32 of 64x64 RGB.
Each variant runs through Model's train step (backend.train_step on a batch already converted
for the backend), so the three figures differ only in how the step computes. The torch module
starts from the training.nn network's parameters, and the forward outputs of the three on one
batch are compared before timing. `--threads` sets both torch's intra-op threads and numpy's BLAS
threads (TRAINING_NUMPY_THREADS): one each by default, the fair comparison on a shared machine.
Prints the mean and the best step time of each, the ratios, and the load average before and
after (figures from a busy machine are not comparable)."""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def training_nn_resnet():
    from training import nn, ops

    def conv_bn(cin, cout, k, stride):
        return nn.SequentialCell([nn.Conv2d(cin, cout, k, stride=stride, weight_init="he_normal"),
                                  nn.BatchNorm2d(cout)])

    class Block(nn.Cell):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.a = conv_bn(cin, cout, 3, stride)
            self.b = conv_bn(cout, cout, 3, 1)
            self.relu = nn.ReLU()
            self.project = conv_bn(cin, cout, 1, stride) if stride != 1 or cin != cout else None
            self.add = ops.Add()

        def construct(self, x):
            identity = self.project(x) if self.project is not None else x
            return self.relu(self.add(self.b(self.relu(self.a(x))), identity))

    class SmallResNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.stem = conv_bn(3, 16, 3, 1)
            self.relu = nn.ReLU()
            self.blocks = nn.SequentialCell([Block(16, 16, 1), Block(16, 32, 2), Block(32, 64, 2)])
            self.pool = nn.AdaptiveAvgPool2d(1)
            self.flatten = nn.Flatten()
            self.fc = nn.Dense(64, 10)

        def construct(self, x):
            x = self.blocks(self.relu(self.stem(x)))
            return self.fc(self.flatten(self.pool(x)))
    return SmallResNet()


def torch_resnet():
    """The same network as a torch.nn.Module; 'same' padding of a stride-2 3x3 convolution on an
    even size pads one row/column at the bottom/right only, as MindSpore's."""
    import torch
    import torch.nn.functional as F
    from torch import nn

    class ConvBN(nn.Module):
        def __init__(self, cin, cout, k, stride):
            super().__init__()
            self.conv = nn.Conv2d(cin, cout, k, stride, bias=False)
            self.bn = nn.BatchNorm2d(cout, eps=1e-5, momentum=0.1)
            self.k, self.stride = k, stride

        def forward(self, x):
            total = max((-(-x.shape[2] // self.stride) - 1) * self.stride + self.k - x.shape[2], 0)
            if total:
                x = F.pad(x, (total // 2, total - total // 2, total // 2, total - total // 2))
            return self.bn(self.conv(x))

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.a, self.b = ConvBN(cin, cout, 3, stride), ConvBN(cout, cout, 3, 1)
            self.project = ConvBN(cin, cout, 1, stride) if stride != 1 or cin != cout else None

        def forward(self, x):
            identity = self.project(x) if self.project is not None else x
            return torch.relu(self.b(torch.relu(self.a(x))) + identity)

    class SmallResNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = ConvBN(3, 16, 3, 1)
            self.blocks = nn.Sequential(Block(16, 16, 1), Block(16, 32, 2), Block(32, 64, 2))
            self.fc = nn.Linear(64, 10)

        def forward(self, x):
            x = self.blocks(torch.relu(self.stem(x)))
            return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))
    return SmallResNet()


def copy_parameters(cell, module):
    """The torch module's parameters and BatchNorm statistics from the training.nn network (the
    two list them in the same order: weight; gamma, beta, moving mean and variance)."""
    import torch
    cell_values = [p.data for _, p in cell.parameters_and_names()]
    targets = []
    for m in module.modules():
        if isinstance(m, torch.nn.Conv2d):
            targets.append(m.weight)
        elif isinstance(m, torch.nn.BatchNorm2d):
            targets += [m.running_mean, m.running_var, m.weight, m.bias]
        elif isinstance(m, torch.nn.Linear):
            targets += [m.weight, m.bias]
    if len(targets) != len(cell_values):
        raise RuntimeError(f"{len(targets)} torch tensors for {len(cell_values)} parameters")
    with torch.no_grad():
        for target, value in zip(targets, cell_values):
            target.copy_(torch.from_numpy(np.array(value)).reshape(target.shape))


def build(variant):
    import torch
    from training import Model, nn, set_backend, set_seed
    set_backend("torch" if variant == "torch backend" else "numpy")
    set_seed(0)
    net = training_nn_resnet()
    if variant == "plain torch":
        module = torch_resnet()
        copy_parameters(net, module)
        return Model(module, torch.nn.CrossEntropyLoss(),
                     torch.optim.SGD(module.parameters(), lr=0.01, momentum=0.9)), module
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.01, 0.9))
    return model, net


def forward(variant, network, x):
    import torch
    from training import Tensor
    if variant == "numpy":
        network.set_train(False)
        return network(Tensor(x)).asnumpy()
    network.train(False) if variant == "plain torch" else network.set_train(False)
    with torch.no_grad():
        return network(torch.from_numpy(x)).numpy()


def time_steps(model, batch, steps):
    backend = model._backend
    times = []
    backend.set_train(model.train_network, True)
    with backend.compute_scope():
        device_batch = backend.to_device(batch)
        for _ in range(steps + 2):  # two warm-up steps
            start = time.perf_counter()
            loss = backend.train_step(model.train_network, device_batch)
            float(np.asarray(loss.detach().cpu() if hasattr(loss, "cpu") else loss.asnumpy()))
            times.append(time.perf_counter() - start)
    return times[2:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    os.environ["TRAINING_NUMPY_THREADS"] = str(args.threads)
    import torch
    torch.set_num_threads(args.threads)
    load_before = os.getloadavg()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((args.batch, 3, args.size, args.size)).astype(np.float32)
    y = rng.integers(0, 10, args.batch).astype(np.int32)
    variants = ("numpy", "torch backend", "plain torch")
    built = {v: build(v) for v in variants}
    outputs = {v: forward(v, built[v][1], x) for v in variants}
    for v in variants[1:]:
        print(f"forward max |{v} - numpy| = {np.abs(outputs[v] - outputs['numpy']).max():.2e}")
    results = {}
    for v in variants:
        times = time_steps(built[v][0], (x, y), args.steps)
        results[v] = (float(np.mean(times)), float(np.min(times)))
        mean, best = results[v]
        print(f"{v:14s} step: mean {mean * 1e3:8.1f} ms   best {best * 1e3:8.1f} ms")
    plain = results["plain torch"][0]
    print(f"torch backend / plain torch: {results['torch backend'][0] / plain:.2f}x   "
          f"numpy / torch backend: {results['numpy'][0] / results['torch backend'][0]:.1f}x")
    print(f"batch {args.batch} x 3 x {args.size} x {args.size}, {args.steps} steps, "
          f"{args.threads} thread(s); load average before {load_before[0]:.2f}, after "
          f"{os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
