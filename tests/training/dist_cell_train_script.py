"""Run by test_torch_backend_cells.py under `torchrun --nproc_per_node=2`: a training.nn network
trained data-parallel on the torch backend (DistributedDataParallel around its CellModule), each
rank on its shard; writes its final weights to <out>/rank_<r>.npz.
(Not a test module itself: pytest does not collect it.)"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from training import Model, communication, nn, set_auto_parallel_context  # noqa: E402
from training import set_backend, set_seed  # noqa: E402
from tests.training.conftest import DuckDataset  # noqa: E402


def main(out_dir):
    communication.init()
    rank, size = communication.get_rank(), communication.get_group_size()
    set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
    set_backend("torch")
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 5)).astype(np.float32)
    y = (x[:, 1] > 0).astype(np.int32)
    set_seed(rank)  # different initial weights: DDP must broadcast rank 0's
    net = nn.SequentialCell([nn.Dense(5, 8), nn.ReLU(), nn.Dense(8, 2)])
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.05, 0.9))
    rows = np.arange(rank, len(x), size)
    model.train(2, DuckDataset([x[rows], y[rows]], 8))
    weights = np.concatenate([p.data.ravel() for p in net.trainable_params()])
    np.savez(os.path.join(out_dir, f"rank_{rank}.npz"), weights=weights, size=size)
    communication.release()


if __name__ == "__main__":
    main(sys.argv[1])
