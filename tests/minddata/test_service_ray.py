"""RayService on a real two-node Ray cluster on loopback (the short run of make test): the
rows each rank receives, their content and order equal a local run's; state taken from a
service run resumes (with the service, locally, and on another number of ranks)."""
import collections
import json

import pytest

import minddata as ds
from minddata.service import RayService
from .engine_helpers import numbers
from .service_helpers import cluster, rank_pipeline, run_items  # noqa: F401 (fixture)


def test_each_rank_gets_a_local_runs_batches_in_order(cluster):  # noqa: F811
    svc = RayService(address=cluster.address, num_workers=2, piece_items=2)
    try:
        for rank in range(2):
            pipe = rank_pipeline(40, 2, rank)
            assert run_items(pipe, 2, service=svc) == run_items(pipe, 2)
        st = svc.stats()
        assert st["pieces_redone"] == 0 and st["queue_depth"] == 0
        # per-worker throughput: every batch of the 4 rank-epochs came from some actor
        assert sum(w["items"] for w in st["workers"]) == 4 * 7
        assert all(w["items_per_s"] > 0 for w in st["workers"] if w["items"])
        assert "items/s" in svc.format_stats()
    finally:
        svc.close()


def test_state_of_a_service_run_resumes_anywhere(cluster):  # noqa: F811
    svc = RayService(address=cluster.address, num_workers=2, piece_items=3)
    try:
        pipes = [rank_pipeline(31, 2, rank) for rank in range(2)]
        states, before = [], []
        for rank, stop in ((0, 2), (1, 4)):
            ds.config.set_seed(99)
            it = pipes[rank].create_tuple_iterator(num_epochs=2, output_numpy=True,
                                                   service=svc)
            before += [next(it)[1].tolist() for _ in range(stop)]
            states.append(json.loads(json.dumps(it.get_state())))
            stats = svc.stats()
            it.close()
            assert sum(w["items"] for w in stats["workers"]) >= stop
        full = run_items(pipes[1], 2)
        # the driver died: a new service iterator (or a local one) continues exactly
        assert run_items(pipes[1], 2, service=svc, state=states[1]) == [full[0][4:], full[1]]
        assert run_items(pipes[1], 2, state=states[1]) == [full[0][4:], full[1]]
        # and a run with three ranks gets the rest of the epoch, each row once
        after = []
        for rank in range(3):
            pipe = rank_pipeline(31, 3, rank)
            rest = run_items(pipe, 1, service=svc, state=ds.reshard_state(pipe, states))
            after += [item[1] for item in rest[0]]
        whole = [item[1] for rank in range(2) for item in run_items(pipes[rank])[0]]
        flat = lambda batches: [v for b in batches for v in b]  # noqa: E731
        assert (collections.Counter(flat(before) + flat(after))
                == collections.Counter(flat(whole)))
    finally:
        svc.close()


def test_arguments_are_checked_before_any_cluster_is_used():
    with pytest.raises(ValueError, match="num_workers"):
        RayService(num_workers=0)
    with pytest.raises(TypeError, match="piece_items"):
        RayService(piece_items=2.5)
    with pytest.raises(TypeError, match="address"):
        RayService(address=6379)
    with pytest.raises(TypeError, match="service"):
        numbers(4).create_tuple_iterator(service="ray://x")
    with pytest.raises(ValueError, match="ShuffleDataset"):
        numbers(8).shuffle(4).batch(2).create_tuple_iterator(service=RayService())
