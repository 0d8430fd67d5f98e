"""RayService (slow: a cluster of its own): state taken from a service run resumes with the
service, locally, and on another number of ranks; the profiler shows the actors; a pipeline
error reaches the trainer."""
import collections
import json

import pytest

import minddata as ds
from minddata.service import RayService
from .engine_helpers import numbers
from .service_helpers import cluster, rank_pipeline, run_items  # noqa: F401 (fixture)

pytestmark = pytest.mark.slow


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


def _fail_on_row_7(x):
    if int(x) == 7:
        raise ValueError("bad row 7")
    return x


def test_profile_and_errors_through_the_service(cluster):  # noqa: F811
    svc = RayService(address=cluster.address, num_workers=2, piece_items=2)
    try:
        report = rank_pipeline(24, 1, 0).profile(num_batches=6, service=svc)
        text = report.format()
        assert report.batches == 6 and "RayService" in text and "items/s" in text
        assert sum(w["items"] for w in report.service["workers"]) >= 6
        bad = numbers(12).map(_fail_on_row_7, "x").batch(2)
        with pytest.raises(RuntimeError, match="bad row 7"):
            run_items(bad, 1, service=svc)
    finally:
        svc.close()
