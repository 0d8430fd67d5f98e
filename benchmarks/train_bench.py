"""Training throughput, sink vs non-sink, and the time the step loop waits for data.

    .venv/bin/python benchmarks/train_bench.py [--data /tmp/bench-data] [--backend numpy|torch]
                                               [--epochs 2] [--batch 64] [--rows 4096]
                                               [--torch-threads 1]

Pipeline (faster than the model): minddata.NumpySlicesDataset over the MNIST-like images of
../shared/tools/make_bench_data.py, a map that pads 28x28 -> 32x32 and scales to [0, 1], batch.
Model: LeNet-5 (numpy backend, or the same layers in torch), Momentum(0.01, 0.9).
Prints steps/s for both modes, the data-wait share of the step loop's time (steady state: the
first batch, which waits for the pipeline to start, is reported apart) and the sink/non-sink ratio.
MindSpore's reference table (../shared/tools/README.md) has no training-loop figure, so no ratio
to MindSpore is printed."""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_images(data_dir, rows):
    path = os.path.join(data_dir, "mnist", "images.npy")
    if os.path.exists(path):
        images = np.load(path, mmap_mode="r")[:rows]
        labels = np.load(os.path.join(data_dir, "mnist", "labels.npy"))[:rows]
        return np.ascontiguousarray(images), labels.astype(np.int32), path
    rng = np.random.default_rng(0)  # stand-in when the benchmark data was not generated
    return (rng.integers(0, 256, (rows, 28, 28), dtype=np.uint8),
            rng.integers(0, 10, rows).astype(np.int32), "synthetic (run make_bench_data.py)")


def pad_and_scale(image):
    out = np.zeros((1, 32, 32), np.float32)
    out[0, 2:30, 2:30] = image * np.float32(1 / 255)
    return out


def make_pipeline(images, labels, batch):
    import minddata
    ds = minddata.NumpySlicesDataset((images, labels), column_names=["image", "label"],
                                     shuffle=False)
    ds = ds.map(operations=pad_and_scale, input_columns=["image"], num_parallel_workers=2)
    return ds.batch(batch, drop_remainder=True)


def numpy_model():
    from training import Model, nn, set_seed
    set_seed(0)

    class LeNet5(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.fc1, self.fc2, self.fc3 = nn.Dense(400, 120), nn.Dense(120, 84), nn.Dense(84, 10)
            self.relu, self.pool, self.flatten = nn.ReLU(), nn.MaxPool2d(2, 2), nn.Flatten()

        def construct(self, x):
            x = self.pool(self.relu(self.conv1(x)))
            x = self.flatten(self.pool(self.relu(self.conv2(x))))
            return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))
    net = LeNet5()
    return Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                 nn.Momentum(net.trainable_params(), 0.01, 0.9))


def torch_model():
    import torch
    from training import Model
    torch.manual_seed(0)
    net = torch.nn.Sequential(
        torch.nn.Conv2d(1, 6, 5), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(6, 16, 5), torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
        torch.nn.Linear(400, 120), torch.nn.ReLU(), torch.nn.Linear(120, 84), torch.nn.ReLU(),
        torch.nn.Linear(84, 10))
    return Model(net, torch.nn.CrossEntropyLoss(),
                 torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9))


def pipeline_rate(dataset, batches):
    """Batches/s of the pipeline alone (no model)."""
    it = dataset.create_tuple_iterator(num_epochs=1, output_numpy=True)
    start, n = time.perf_counter(), 0
    for _ in it:
        n += 1
        if n >= batches:
            break
    return n / (time.perf_counter() - start)


def run(mode_sink, model_factory, dataset, epochs):
    model = model_factory()
    start = time.perf_counter()
    model.train(epochs, dataset, dataset_sink_mode=mode_sink)
    wall = time.perf_counter() - start
    s = model.last_train_stats
    steady_wait = s["data_wait_s"] - (s["first_wait_s"] or 0.0)
    loop = s["step_s"] + s["data_wait_s"]
    return {"steps": s["steps"], "steps_per_s": s["steps"] / wall,
            "wait_pct": 100 * steady_wait / loop, "first_wait_ms": 1000 * (s["first_wait_s"] or 0)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="/tmp/bench-data")
    parser.add_argument("--backend", choices=("numpy", "torch"), default="numpy")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--torch-threads", type=int, default=1,
                        help="torch intra-op threads on CPU (1 leaves a core to the pipeline on "
                             "a 2-core machine; torch's default spins on every core)")
    args = parser.parse_args()
    if args.backend == "torch":
        import torch
        torch.set_num_threads(args.torch_threads)
    images, labels, source = load_images(args.data, args.rows)
    dataset = make_pipeline(images, labels, args.batch)
    factory = numpy_model if args.backend == "numpy" else torch_model
    print(f"data: {source}, {len(images)} rows, batch {args.batch}, {args.epochs} epochs, "
          f"backend {args.backend}, {os.cpu_count()} CPUs")
    print(f"pipeline alone: {pipeline_rate(dataset, 40):.1f} batches/s")
    results = {}
    for sink in (False, True):
        r = run(sink, factory, dataset, args.epochs)
        results[sink] = r
        print(f"{'sink    ' if sink else 'non-sink'}: {r['steps_per_s']:.2f} steps/s over "
              f"{r['steps']} steps; data wait {r['wait_pct']:.2f}% of step-loop time "
              f"(steady state; first batch {r['first_wait_ms']:.1f} ms)")
    print(f"sink / non-sink steps/s: {results[True]['steps_per_s'] / results[False]['steps_per_s']:.2f}x")
    verdict = "met" if results[True]["wait_pct"] < 2.0 else "NOT met"
    print(f"target: sink data wait < 2% of step time: {verdict}")
    print("MindSpore 2.10 reference: no training-loop figure in ../shared/tools/README.md "
          "(ratio to MindSpore: n/a)")


if __name__ == "__main__":
    main()
