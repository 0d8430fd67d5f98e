"""What a pipeline thread's work costs a training loop beside it, by kind: how much of its speed a
torch step loop on the other core (training_thread.TorchStepThread: a GPU step's host side,
torch operations that each let the GIL go) keeps while a thread on this core, every 15 ms
(about ResNet-18's step on an H200), does one of:
- N tiny torch calls (a CPU tensor's view()): each lets the GIL go and takes it back, as a GPU
  batch's torch calls and kernel launches do; the loop then waits for the hand-overs, not for
  work;
- Python holding the GIL for N ms;
- a copy of a batch's encoded rows (256 ImageNet-like JPEGs, one native call that lets the GIL
  go once: the staging copy of the GPU path).
Windows alone and beside alternate (``--cycles``); the median share of each is printed with
every cycle's. Two cores needed; no GPU; nothing is asserted.

    .venv/bin/python benchmarks/gil_handover_bench.py [--cycles 4]

Prints the shares and the load average.
"""
import argparse
import os
import statistics

import numpy as np

from bench_data import ensure_bench_data, imagenet_rows
from gpu_decode_host_bench import beside_a_step_loop
from training_thread import holding_gil, torch_calls
from transforms_c.vision.decode import gather_encoded


def staging_copy(datas):
    rows = np.arange(len(datas), dtype=np.int64)
    out = np.empty(sum(d.nbytes for d in datas), np.uint8)
    return lambda: gather_encoded(datas, rows, out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cycles", type=int, default=4)
    ap.add_argument("--data", default=None, help="the benchmark data (bench_data.py's default)")
    args = ap.parse_args()
    if len(os.sched_getaffinity(0)) < 2:
        print("needs two cores")
        return
    datas = [np.frombuffer(r["image"], np.uint8)
             for r in imagenet_rows(ensure_bench_data(*[args.data] if args.data else []))[:256]]
    mb = sum(d.nbytes for d in datas) / 1e6
    ways = {"nothing": lambda: None,
            "30 torch calls": torch_calls(30), "100 torch calls": torch_calls(100),
            "Python 1 ms": holding_gil(1.0), "Python 3 ms": holding_gil(3.0),
            f"copy of {mb:.1f} MB without the GIL": staging_copy(datas)}
    print(f"load average {os.getloadavg()[0]:.2f}; each every 15 ms beside the step loop")
    os.sched_setaffinity(0, {0})
    for name, shares in beside_a_step_loop(ways, args.cycles).items():
        print(f"beside {name}: the step loop keeps {statistics.median(shares):.1%}; cycles: "
              + ", ".join(f"{x:.1%}" for x in shares))
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
