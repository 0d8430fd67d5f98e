"""The zoo's distributed preamble run on one device: run_distribute chosen from the
environment, communication.management only when launched by a launcher, ParallelMode and the
auto-parallel context, context keys that configure MindSpore's own runtime."""
import argparse
import os
import warnings

import mindspore as ms
import mindspore.dataset as ds
import mindspore.nn as nn
from mindspore import context
from mindspore.communication.management import get_group_size, get_rank, init
from mindspore.context import ParallelMode

from synthetic_data import vectors

parser = argparse.ArgumentParser(description="image classification")
parser.add_argument("--run_distribute", type=int, default=int("RANK" in os.environ))
parser.add_argument("--device_target", type=str, default="CPU", choices=["Ascend", "GPU", "CPU"])
args_opt = parser.parse_args()

if __name__ == "__main__":
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        context.set_context(mode=context.GRAPH_MODE, device_target=args_opt.device_target,
                            save_graphs=False, max_device_memory="3.5GB",
                            enable_graph_kernel=False)
    assert any("no effect" in str(w.message) for w in caught)
    if args_opt.run_distribute:
        init()
        rank_id, rank_size = get_rank(), get_group_size()
        context.set_auto_parallel_context(device_num=rank_size,
                                          parallel_mode=ParallelMode.DATA_PARALLEL,
                                          gradients_mean=True)
    else:
        rank_id, rank_size = 0, 1
        context.set_auto_parallel_context(parallel_mode=ms.ParallelMode.STAND_ALONE)
    ms.set_seed(13)
    ds.config.set_seed(13)
    x, y = vectors(n=128, dim=8, classes=2, seed=5)
    data = ds.NumpySlicesDataset((x, y), ["x", "y"], num_shards=rank_size,
                                 shard_id=rank_id).batch(16)
    net = nn.Dense(8, 2)
    model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     nn.Momentum(net.trainable_params(), 0.1, 0.9), metrics={"acc"})
    model.train(5, data)
    acc = model.eval(data)["acc"]
    print(f"rank {rank_id}/{rank_size}: accuracy {acc}")
    assert acc > 0.9
    assert context.get_auto_parallel_context("parallel_mode") == "stand_alone"
