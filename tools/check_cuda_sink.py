"""Self-check of the torch backend's CUDA sink path, for a machine with an NVIDIA GPU.

    python tools/check_cuda_sink.py [--compile]

Prints one PASS/FAIL line per check (and INFO lines with figures); exits 1 if any check fails.
Checks: CUDA is visible; the sink thread's copies land on the GPU through pinned memory on a side
stream with an event; sink-mode training gives the same weights as non-sink training (no race
between the side-stream copies and the step), also with the steps on a high-priority stream
(TRAINING_HIGH_PRIORITY_STEP=1); device_id out of range is a clear error; with
--compile, GRAPH_MODE (torch.compile) trains on the GPU. Needs only torch and numpy (the dataset
is a small in-memory stand-in, so minddata need not be built)."""
import argparse
import os
import sys
import threading
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

RESULTS = []


def report(name, ok, detail=""):
    RESULTS.append(ok)
    print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)


class ArrayDataset:
    """In-memory batches with the dataset methods training uses."""

    def __init__(self, x, y, batch_size):
        self.x, self.y, self.batch_size = x, y, batch_size

    def get_dataset_size(self):
        return len(self.x) // self.batch_size

    def get_col_names(self):
        return ["image", "label"]

    def get_batch_size(self):
        return self.batch_size

    def create_tuple_iterator(self, num_epochs=-1, output_numpy=True):
        ds = self

        class It:
            left = num_epochs

            def __iter__(self):
                if self.left == 0:
                    return iter(())
                self.left -= 1
                b = ds.batch_size
                return iter([(ds.x[i:i + b], ds.y[i:i + b])
                             for i in range(0, ds.get_dataset_size() * b, b)])
        return It()


def make_net(torch):
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.ReLU(), torch.nn.AvgPool2d(16),
        torch.nn.Flatten(), torch.nn.Linear(32, 10))


def train(torch, dataset, sink, epochs=2, mode=None):
    from training import PYNATIVE_MODE, Model, set_context
    set_context(device_target="GPU", device_id=0, mode=mode if mode is not None else PYNATIVE_MODE)
    net = make_net(torch)
    model = Model(net, torch.nn.CrossEntropyLoss(), torch.optim.SGD(net.parameters(), lr=0.05),
                  metrics={"accuracy"})
    start = time.perf_counter()
    model.train(epochs, dataset, dataset_sink_mode=sink)
    torch.cuda.synchronize()
    elapsed = time.perf_counter() - start
    return net, model, elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compile", action="store_true", help="also check GRAPH_MODE")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        report("torch importable", False, "install PyTorch with CUDA")
        return 1
    if not torch.cuda.is_available():
        report("CUDA available", False, "torch.cuda.is_available() is False")
        return 1
    report("CUDA available", True, torch.cuda.get_device_name(0))
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False

    from training import context
    from training.backends.torch_backend import TorchBackend
    context.set_context(device_target="GPU", device_id=0)
    backend = TorchBackend()
    out = {}

    def produce():
        batch = (np.ones((64, 3, 32, 32), np.float32), np.arange(64, dtype=np.int32))
        out["batch"] = backend.to_device(batch)
    t = threading.Thread(target=produce)
    t.start()
    t.join()
    batch = out["batch"]
    ready = backend._ready(batch)
    on_gpu = all(x.is_cuda for x in ready)
    report("sink copies land on the GPU", on_gpu, f"devices {[str(x.device) for x in ready]}")
    side = backend._side_stream
    report("copies use a side stream and an event",
           side is not None and batch.event is not None
           and side.cuda_stream != torch.cuda.default_stream(0).cuda_stream)
    report("integer labels become int64", ready[1].dtype == torch.int64, str(ready[1].dtype))
    report("copied values are exact", bool(torch.all(ready[0] == 1).item()))

    rng = np.random.default_rng(0)
    x = rng.standard_normal((2048, 3, 32, 32)).astype(np.float32)
    y = rng.integers(0, 10, 2048).astype(np.int32)
    dataset = ArrayDataset(x, y, 128)
    train(torch, dataset, sink=False, epochs=1)  # warm-up: CUDA context, cuDNN plans
    net_plain, _, t_plain = train(torch, dataset, sink=False)
    net_sink, model_sink, t_sink = train(torch, dataset, sink=True)
    diffs = [float((a - b).abs().max()) for a, b in zip(net_plain.state_dict().values(),
                                                        net_sink.state_dict().values())]
    report("sink and non-sink training give the same weights", max(diffs) < 1e-4,
           f"max abs difference {max(diffs):.2e}")
    os.environ["TRAINING_HIGH_PRIORITY_STEP"] = "1"
    try:
        net_high, model_high, _ = train(torch, dataset, sink=True)
    finally:
        del os.environ["TRAINING_HIGH_PRIORITY_STEP"]
    diffs = [float((a - b).abs().max()) for a, b in zip(net_plain.state_dict().values(),
                                                        net_high.state_dict().values())]
    high = model_high._backend._step_stream
    report("steps on a high-priority stream give the same weights",
           max(diffs) < 1e-4 and high is not None and high.priority < 0,
           f"max abs difference {max(diffs):.2e}, stream priority "
           f"{None if high is None else high.priority}")
    stats = model_sink.last_train_stats
    steps = stats["steps"]
    print(f"INFO steps/s non-sink {steps / t_plain:.1f}, sink {steps / t_sink:.1f}", flush=True)
    _, long_model, _ = train(torch, dataset, sink=True, epochs=8)
    stats = long_model.last_train_stats
    steady = (stats["data_wait_s"] - stats["first_wait_s"]) / stats["total_s"]
    print(f"INFO sink data wait {1000 * stats['data_wait_s']:.2f} ms in {stats['total_s']:.3f} s "
          f"({stats['steps']} steps), first batch {1000 * stats['first_wait_s']:.2f} ms", flush=True)
    report("sink steady-state data wait under 2% of training time", steady < 0.02,
           f"{100 * steady:.2f}%")

    context.set_context(device_id=torch.cuda.device_count())
    try:
        TorchBackend()
        report("device_id out of range is an error", False, "no error raised")
    except RuntimeError as exc:
        report("device_id out of range is an error", "out of range" in str(exc), str(exc)[:80])
    context.set_context(device_id=0)

    if args.compile:
        try:
            net_graph, _, t_graph = train(torch, dataset, sink=True, mode=context.GRAPH_MODE)
            finite = all(torch.isfinite(p).all().item() for p in net_graph.parameters())
            report("GRAPH_MODE (torch.compile) trains on the GPU", finite,
                   f"{t_graph:.1f} s including compilation")
        except Exception as exc:  # report, don't crash: the other lines still matter
            report("GRAPH_MODE (torch.compile) trains on the GPU", False, repr(exc)[:200])
    failed = RESULTS.count(False)
    print(f"{'PASS' if not failed else 'FAIL'} overall: {len(RESULTS) - failed}/{len(RESULTS)} "
          f"checks passed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
