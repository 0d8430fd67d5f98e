"""to_torch under torch.distributed (gloo, 2 processes started by torch.multiprocessing):
each rank reads its own shard, and the ranks' rows are disjoint and cover the epoch, whether each
rank gives to_torch a factory or one built Dataset (re-sharded by minddata.auto_shard)."""
import json
import os
import socket

import pytest

torch = pytest.importorskip("torch")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rank_main(rank, world, port, out_dir, num_workers, built):
    import torch.distributed as dist
    from torch.utils.data import DataLoader

    from minddata import config
    from minddata.pytorch import to_torch
    from tests.minddata.torch_helpers import (check_mapped, ids_of, make_mapped_pipeline,
                                              make_pipeline)

    config.set_seed(3)
    too_early = to_torch(make_pipeline)  # made before the process group: must be refused
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=world)
    try:
        try:
            iter(too_early)
            early_error = None
        except RuntimeError as exc:
            early_error = str(exc)
        # One built Dataset per rank (shuffled source, a map), or a factory.
        adapter = to_torch(make_mapped_pipeline() if built else make_mapped_pipeline)
        batches = list(DataLoader(adapter, batch_size=None, num_workers=num_workers))
        check_mapped(batches)
        ids = ids_of(batches)
        # Explicit shards win over the process group's: a Dataset declared already sharded
        # (here: not sharded at all) is read whole; one auto_shard cannot re-shard (a take
        # above its source) is refused.
        whole = ids_of(to_torch(make_pipeline(), num_shards=1, shard_id=0))
        try:
            to_torch(make_pipeline().take(6))
            refused = None
        except ValueError as exc:
            refused = str(exc)
        gathered = [None] * world
        dist.all_gather_object(gathered, ids)
        with open(os.path.join(out_dir, f"rank{rank}.json"), "w") as f:
            json.dump({"ids": ids, "gathered": gathered, "early_error": early_error,
                       "whole": sorted(whole), "refused": refused,
                       "state": adapter.state_dict()}, f)
    finally:
        dist.destroy_process_group()


def _run(tmp_path, num_workers, built=False):
    import torch.multiprocessing as mp
    # fork: the ranks start without importing torch again (spawn costs seconds per process).
    mp.start_processes(_rank_main, args=(2, _free_port(), str(tmp_path), num_workers, built),
                       nprocs=2, join=True, start_method="fork")
    return [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in range(2)]


def _check_disjoint_cover(results):
    rank0, rank1 = results[0]["ids"], results[1]["ids"]
    assert len(rank0) == len(rank1) == 24
    assert not set(rank0) & set(rank1)
    assert sorted(rank0 + rank1) == list(range(48))
    assert results[0]["gathered"] == [rank0, rank1]
    for rank, result in enumerate(results):
        assert "init_process_group" in result["early_error"]
        assert result["whole"] == list(range(48))
        assert f"must read shard {rank} of 2" in result["refused"]
        assert "Take(6) would count rows per shard" in result["refused"]


def test_two_gloo_ranks_read_disjoint_shards_covering_the_epoch(tmp_path):
    results = _run(tmp_path, num_workers=0)
    _check_disjoint_cover(results)
    # The main process's pass finished: the state points at the next epoch of each rank's shard.
    assert [(r["state"]["epoch"], r["state"]["num_shards"], r["state"]["shard_id"])
            for r in results] == [(1, 2, 0), (1, 2, 1)]


def test_two_gloo_ranks_with_dataloader_workers(tmp_path):
    _check_disjoint_cover(_run(tmp_path, num_workers=2))


@pytest.mark.parametrize("num_workers", [0, 2])
def test_two_gloo_ranks_each_wrapping_one_built_dataset_see_every_row_once(tmp_path, num_workers):
    results = _run(tmp_path, num_workers=num_workers, built=True)
    _check_disjoint_cover(results)
    if num_workers == 0:
        assert [(r["state"]["num_shards"], r["state"]["shard_id"]) for r in results] == \
            [(2, 0), (2, 1)]
