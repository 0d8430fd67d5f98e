"""A Ray node dies mid-epoch (SIGKILL of its raylet and workers): the pieces it held are
redone on the surviving node, and each rank still gets every row of each epoch exactly once,
in the order, and with the content, of an uninterrupted local run."""
import collections
import time

import pytest

import minddata as ds
from minddata.service import RayService
from .service_helpers import cluster, rank_pipeline, run_items  # noqa: F401 (fixture)

pytestmark = pytest.mark.slow


def test_killing_a_node_mid_epoch_loses_and_repeats_no_row(cluster):  # noqa: F811
    svc = RayService(address=cluster.address, num_workers=2, piece_items=2)
    try:
        pipes = [rank_pipeline(240, 2, rank, delay=0.03, batch=4) for rank in range(2)]
        expected = [run_items(p, 2) for p in pipes]
        ds.config.set_seed(99)
        it = pipes[0].create_tuple_iterator(num_epochs=2, output_numpy=True, service=svc)
        got = [[], []]
        for item in it:
            got[0].append([a.tolist() for a in item])
            if len(got[0]) == 4:
                # both actors have started and hold pieces: kill the second node
                assert len({w["node"] for w in svc.stats()["workers"] if w["node"]}) == 2
                cluster.kill_node(1)
                t_kill = time.monotonic()
        got[1] = [[a.tolist() for a in item] for item in it]
        it.close()
        st = svc.stats()
        assert st["pieces_redone"] >= 1 and st["actors_replaced"] >= 1
        assert got == expected[0]
        # the other rank runs after the failure, on the node that survived
        assert run_items(pipes[1], 2, service=svc) == expected[1]
        rows = lambda epochs: collections.Counter(  # noqa: E731
            v for batch in epochs[0] for v in batch[1])
        assert rows(got) == rows(expected[0])
        print(f"recovered in {time.monotonic() - t_kill:.1f} s after the kill; {st}")
    finally:
        svc.close()
