"""What letting go of the GIL costs a pipeline worker beside a Python training loop.

A GPU batch reads its 256 JPEG headers with nvJPEG. Made as 256 ctypes calls, each lets the GIL
go and takes it back; with a training loop in the same process holding the GIL (its own core,
many tiny numpy calls: training_thread.py), each re-take waits for the loop to give it up (up to
Python's 5 ms switch interval). ``transforms_c._native.nvjpeg_image_sizes`` makes the 256 calls
in one native loop that lets the GIL go once. This loop is the worst case: it never lets the
GIL go by itself, while torch lets it go in each operation a step dispatches, so beside a torch
training loop the waits are shorter; the ratio is what the native loop saves. Timed here per batch of 256, alone and beside the
loop, with libc's ``sched_yield`` standing in for the C function (it returns 0 and reads no
arguments), so only the GIL's part differs. No GPU needed; nothing is asserted.

    .venv/bin/python benchmarks/gil_retake_bench.py [--rounds 3]

Prints every round's figures and the load average.
"""
import argparse
import ctypes
import ctypes.util
import os
import time

import numpy as np

from gpu_batch_draws_bench import ms_per_call
from training_thread import TrainingThread
from transforms_c._native import nvjpeg_image_sizes

ROWS = 256


def per_image_calls():
    """256 ctypes calls of the stand-in: the GIL let go and taken back each time."""
    call = ctypes.CDLL(ctypes.util.find_library("c")).sched_yield
    call.argtypes, call.restype = [], ctypes.c_int

    def batch():
        for _ in range(ROWS):
            call()
    return batch


def one_native_loop():
    """The same 256 calls through the native loop: the GIL let go once."""
    address = ctypes.cast(ctypes.CDLL(ctypes.util.find_library("c")).sched_yield,
                          ctypes.c_void_p).value
    data = np.zeros(ROWS, np.uint64)
    lengths = np.ones(ROWS, np.uint64)
    out = np.zeros((ROWS, 2), np.int64)

    def batch():
        failed, _ = nvjpeg_image_sizes(address, 1, data, lengths, out)
        assert failed == -1
    return batch


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    os.sched_setaffinity(0, {0})            # the worker here, the training loop on core 1
    ways = {"256 ctypes calls": per_image_calls(), "one native loop": one_native_loop()}
    print(f"load average {os.getloadavg()[0]:.2f}")
    for round_ in range(args.rounds):
        alone = {name: ms_per_call(batch, 40) for name, batch in ways.items()}
        loop = TrainingThread(core=1).start()
        time.sleep(0.2)
        beside = {name: ms_per_call(batch, 10) for name, batch in ways.items()}
        loop.stop()
        print(f"round {round_ + 1}: " + "; ".join(
            f"{name}: {alone[name]:.3f} ms a batch alone, {beside[name]:.1f} ms beside the "
            f"training loop" for name in ways))
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
