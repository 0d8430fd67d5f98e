"""Run by test_distributed.py under `torchrun --nproc_per_node=2`: data-parallel training with
each rank reading its shard; writes the row ids it saw and its final weights to <out>/rank_<r>.npz.
(Not a test module itself: pytest does not collect it.)"""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from training import Model, communication, set_auto_parallel_context  # noqa: E402
from training.callbacks import Callback  # noqa: E402


class RecordIds(Callback):
    def __init__(self):
        super().__init__()
        self.ids = []

    def on_train_step_begin(self, run_context):
        features = run_context.original_args().train_dataset_element[0]
        self.ids.extend(int(v) for v in features[:, 0].tolist())


def sharded_dataset(x, y, rank, size, batch):
    try:
        import minddata
        ds = minddata.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False,
                                         num_shards=size, shard_id=rank)
        return ds.batch(batch)
    except ImportError:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from conftest import DuckDataset
        rows = np.arange(rank, len(x), size)
        return DuckDataset([x[rows], y[rows]], batch)


def main(out_dir):
    communication.init()
    rank, size = communication.get_rank(), communication.get_group_size()
    set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 5)).astype(np.float32)
    x[:, 0] = np.arange(64)  # the row id rides in the first feature
    y = (x[:, 1] > 0).astype(np.int32)
    torch.manual_seed(rank)  # different initial weights: DDP must broadcast rank 0's
    net = torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    model = Model(net, torch.nn.CrossEntropyLoss(), torch.optim.SGD(net.parameters(), lr=0.01))
    recorder = RecordIds()
    model.train(2, sharded_dataset(x, y, rank, size, 8), callbacks=recorder)
    weights = np.concatenate([p.detach().numpy().ravel() for p in net.parameters()])
    np.savez(os.path.join(out_dir, f"rank_{rank}.npz"), ids=np.array(recorder.ids), weights=weights,
             size=size)
    communication.release()


if __name__ == "__main__":
    main(sys.argv[1])
