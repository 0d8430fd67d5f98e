"""RayService on a real two-node Ray cluster on loopback (the short run of make test): the
rows each rank receives, their content and order equal a local run's; no prefetch thread in
front of the service; minddata-bench --service. The slow modules
test_service_ray_resume.py and test_service_ray_kill.py test resuming and node failures."""
import json
import threading

import numpy as np
import pytest

from minddata.bench import cli
from minddata.device_tail import split_device_tail
from minddata.service import RayService
from .engine_helpers import numbers
from .service_helpers import cluster, rank_pipeline, run_items  # noqa: F401 (fixture)
from .test_bench_helpers import make_small_image_folder


def test_each_rank_gets_a_local_runs_batches_in_order(cluster):  # noqa: F811
    svc = RayService(address=cluster.address, num_workers=2, piece_items=2)
    try:
        for rank in range(2):
            pipe = rank_pipeline(40, 2, rank)
            assert run_items(pipe, 2, service=svc) == run_items(pipe, 2)
        st = svc.stats()
        assert st["queue_depth"] == 0
        # Per-worker throughput: every batch of the 4 rank-epochs came from some actor, once
        # more for each piece redone. An actor lost by the cluster mid-run (it happened once
        # in a full CI run) is the service's normal failure path: its pieces are redone and
        # the rows above still equal a local run's.
        assert sum(w["items"] for w in st["workers"]) >= 4 * 7
        assert all(w["items_per_s"] > 0 for w in st["workers"] if w["items"])
        assert "items/s" in svc.format_stats()
    finally:
        svc.close()


def test_no_prefetch_thread_in_front_of_the_actors(cluster):  # noqa: F811
    """The node receiving the actors' pieces keeps items ready itself: the planner starts no
    producer thread above it (nor above a repeat over it)."""
    svc = RayService(address=cluster.address, num_workers=2, piece_items=2,
                     pieces_per_worker=3)
    try:
        pipe = rank_pipeline(12, 1, 0).repeat(2)
        plan = svc.ship(pipe).plan()
        assert plan.nodes == ["Repeat", "RayService"]
        prefetch = [r for r in plan.rewrites if r.rule == "prefetch"]
        assert len(prefetch) == 1 and not prefetch[0].fired
        assert "RayService keeps items ready itself" in prefetch[0].why
        it = pipe.create_tuple_iterator(num_epochs=1, output_numpy=True, service=svc)
        try:
            next(it)
            assert "minddata-producer" not in [t.name for t in threading.enumerate()]
            assert not it.plan_report().fired("prefetch")
        finally:
            it.close()
        assert not rank_pipeline(12, 1, 0).plan().fired("native_batch")
        assert rank_pipeline(12, 1, 0).plan().fired("prefetch")   # run locally: a producer
    finally:
        svc.close()


def test_minddata_bench_through_the_service(cluster, tmp_path, capsys):  # noqa: F811
    folder = make_small_image_folder(tmp_path / "imgs")
    out_json = tmp_path / "s.json"
    code = cli.main(["imagenet-eval", folder, "--batches", "5", "--batch-size", "2",
                     "--service", cluster.address, "--service-workers", "2",
                     "--json", str(out_json), "--no-progress", "--no-op-breakdown"])
    assert code == 0
    text = capsys.readouterr().out
    assert f"RayService at {cluster.address}: trainer queue depth" in text
    assert text.count("items/s") == 2          # one line per actor
    assert "bottleneck: none" in text or "more actors (RayService num_workers" in text
    report = json.loads(out_json.read_text())
    assert report["batches"] == 5 and report["rows"] == 10
    svc = report["service"]
    assert svc["address"] == cluster.address and svc["num_workers"] == 2
    assert len(svc["workers"]) == 2
    # Every batch the trainer took came from an actor (pieces run ahead may add more).
    assert sum(w["items"] for w in svc["workers"]) >= 5
    assert any(w["items_per_s"] > 0 for w in svc["workers"])
    assert svc["queue_depth_mean"] >= 0 and isinstance(svc["queue_depth"], int)
    # The trainer runs only the node that receives the actors' batches.
    assert report["plan"]["nodes"] == ["RayService"]
    assert [s["name"] for s in report["stages"]] == ["RayService"]


def _image_pipeline(folder):
    import minddata as ds
    import minddata.vision as V
    data = ds.ImageFolderDataset(folder, shuffle=True, num_parallel_workers=1)
    ops = [V.Decode(), V.RandomResizedCrop(16), V.RandomHorizontalFlip(),
           V.Rescale(1 / 255, 0.0), V.Normalize([0.5, 0.4, 0.3], [0.2, 0.25, 0.3]),
           V.HWC2CHW()]
    return data.map(ops, ["image"], num_parallel_workers=1).batch(4)


@pytest.mark.parametrize("finish_on_trainer", [True, False])
def test_the_trainer_finishes_the_pointwise_tail_with_the_same_values(cluster, tmp_path,  # noqa: F811
                                                                      monkeypatch,
                                                                      finish_on_trainer):
    """With finish_on_trainer (the default), actors on the trainer's node finish their batches
    and the others ship uint8 HWC batches that the trainer finishes (Rescale/Normalize/HWC2CHW):
    the batches equal a local run's bit for bit either way."""
    from minddata.service import ray_service

    class FirstActorsNode:
        """The trainer's node, for the scheduler: the node of the first actor it asks about
        (where this test process's own raylet is depends on how the run connected to Ray, and
        an actor may wait for the CPU a closed service's actor still holds)."""
        node = None

        def __eq__(self, other):
            if self.node is None and other is not None:
                self.node = other
            return other is not None and other == self.node

        __hash__ = None

    trainer = FirstActorsNode()
    monkeypatch.setattr(ray_service, "_node_of_this_process", lambda ray: trainer)
    folder = make_small_image_folder(tmp_path / "imgs")
    pipe = _image_pipeline(folder)
    svc = RayService(address=cluster.address, num_workers=2, piece_items=1,
                     finish_on_trainer=finish_on_trainer)
    try:
        served = svc.ship(pipe)
        assert (served.tail is not None) == finish_on_trainer
        if finish_on_trainer:
            assert [type(op).__name__ for op in served.shipped.children[0].operations] == [
                "Decode", "RandomResizedCrop", "RandomHorizontalFlip"]
        remote, local = run_items(pipe, 1, service=svc), run_items(pipe, 1)
        assert len(local[0]) == 3 and np.asarray(local[0][0][0]).shape == (4, 3, 16, 16)
        assert remote == local
        # Actors on the trainer's node finish their batches themselves; the other nodes'
        # batches are finished by the trainer.
        workers = [w for w in svc.stats()["workers"] if w["items"]]
        finishing = [w["finishes_tail"] for w in workers]
        if not finish_on_trainer:
            assert not any(finishing)
        else:
            assert finishing == [w["node"] == trainer.node for w in workers]
            assert any(finishing)           # the actor's path ran
            if len({w["node"] for w in workers}) > 1:
                assert not all(finishing)   # and the trainer's
    finally:
        svc.close()


def test_a_device_finishing_the_tail_gets_every_served_batch_unfinished(cluster, tmp_path):  # noqa: F811
    """The sink on an accelerator splits the device tail off a served pipeline as off a local
    one: every actor then ships uint8 batches (the trainer's CPU finishes none of them), and
    the tail gives a local run's values."""
    folder = make_small_image_folder(tmp_path / "imgs")
    pipe = _image_pipeline(folder)
    svc = RayService(address=cluster.address, num_workers=2, piece_items=1)
    try:
        served = svc.ship(pipe)
        head, tail = split_device_tail(served)
        assert tail is not None and head.tail is None
        assert [type(op).__name__ for op in head.shipped.children[0].operations] == [
            "Decode", "RandomResizedCrop", "RandomHorizontalFlip"]
        unfinished = run_items(head, 1)[0]
        assert unfinished == run_items(split_device_tail(pipe)[0], 1)[0]
        images = np.asarray(unfinished[0][0])
        assert images.shape == (4, 16, 16, 3) and 0 <= images.min() and images.max() <= 255
        workers = [w for w in svc.stats()["workers"] if w["items"]]
        assert workers and not any(w["finishes_tail"] for w in workers)
        for got, want in zip(unfinished, run_items(pipe, 1)[0]):
            np.testing.assert_allclose(tail.apply_numpy(np.asarray(got[0], np.uint8)), want[0],
                                       rtol=0, atol=1e-5)
            assert got[1] == want[1]
    finally:
        svc.close()


def test_model_trains_on_a_served_pipeline(cluster):  # noqa: F811
    """training's Model.train takes ``svc.ship(dataset)`` like any dataset, sink mode
    included: the same batches as a local run, so the same weights (numpy backend: exact)."""
    from training import Model, nn, set_seed
    import minddata as ds
    rng = np.random.default_rng(0)
    x = rng.standard_normal((48, 6)).astype(np.float32)
    y = rng.integers(0, 3, 48).astype(np.int32)
    weights = []
    svc = RayService(address=cluster.address, num_workers=2, piece_items=2)
    try:
        for served in (False, True):
            data = ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=True)
            data = data.batch(8)
            ds.config.set_seed(5)
            set_seed(0)
            net = nn.Dense(6, 3)
            model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                          nn.Momentum(net.trainable_params(), 0.1, 0.9))
            model.train(2, svc.ship(data) if served else data, dataset_sink_mode=True)
            assert model.last_train_stats["steps"] == 12
            weights.append(net.weight.data.copy())
        assert sum(w["items"] for w in svc.stats()["workers"]) >= 12
    finally:
        svc.close()
    np.testing.assert_array_equal(weights[0], weights[1])


def _thread_ident(y):
    return np.int64(threading.get_ident())


def test_actors_run_on_as_many_threads_as_they_reserve_cpus(cluster):  # noqa: F811
    """A pipeline written for 4 workers runs on one thread in each 1-CPU actor, with the rows
    of a local run."""
    svc = RayService(address=cluster.address, num_workers=2, piece_items=2)
    try:
        pipe = rank_pipeline(40, 1, 0, workers=4)
        assert run_items(pipe, 1, service=svc) == run_items(pipe, 1)
        where = numbers(40).map(_thread_ident, "y", num_parallel_workers=4).batch(4)
        threads = {t for batch in run_items(where, 1, service=svc)[0] for t in batch[1]}
        assert 1 <= len(threads) <= 2 + svc.stats()["actors_replaced"]
    finally:
        svc.close()


def test_arguments_are_checked_before_any_cluster_is_used():
    with pytest.raises(ValueError, match="num_workers"):
        RayService(num_workers=0)
    with pytest.raises(TypeError, match="piece_items"):
        RayService(piece_items=2.5)
    with pytest.raises(TypeError, match="address"):
        RayService(address=6379)
    with pytest.raises(TypeError, match="finish_on_trainer"):
        RayService(finish_on_trainer=1)
    with pytest.raises(TypeError, match="service"):
        numbers(4).create_tuple_iterator(service="ray://x")
    with pytest.raises(ValueError, match="ShuffleDataset"):
        numbers(8).shuffle(4).batch(2).create_tuple_iterator(service=RayService())
