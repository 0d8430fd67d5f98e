"""The planner's rules on graphs alone (no file opened, nothing run), and what they change
when the plan runs: map fusion, auto-shard, the plan as data."""
import threading

import cv2
import numpy as np
import psutil
import pytest
from PIL import Image

import minddata as ds
import minddata.transforms as transforms
import minddata.vision as vision
from minddata.graph import Map, Source
from minddata.graph.operations import compile_segments, pil_boundaries
from minddata.planner import PlanOptions, plan, rewrite_graph

from .native_batch_helpers import (MEAN, STD, assert_same_batches, collect, jpeg_bytes,
                                   write_mindrecord)


def options(**kw):
    base = dict(debug=False, native_batches=True, num_parallel_workers=2, batch_ring_depth=4,
                prefetch_size=16)
    base.update(kw)
    return PlanOptions(**base)


def numbers(n=10, **kw):
    return ds.NumpySlicesDataset({"x": np.arange(n)}, shuffle=False, **kw)


@pytest.fixture(scope="module")
def mr_path(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("planner") / "imgs.mindrecord")
    return write_mindrecord(path, [jpeg_bytes(i) for i in range(24)])


def split_train_maps(path, workers=2):
    """Decode + crop in one map, flip + normalize + layout in another: two maps, one column."""
    data = ds.MindDataset(path, columns_list=["image", "label"], shuffle=True,
                          num_parallel_workers=workers)
    data = data.map([vision.Decode(), vision.RandomResizedCrop(32)], ["image"],
                    num_parallel_workers=workers)
    data = data.map([vision.RandomHorizontalFlip(), vision.Normalize(MEAN, STD),
                     vision.HWC2CHW()], ["image"], num_parallel_workers=workers)
    return data.batch(4)


# -- the logical graph ---------------------------------------------------------------------------
def test_logical_nodes_are_frozen_and_rewritten_by_copies():
    data = numbers().map(lambda x: x + 1, "x")
    with pytest.raises(AttributeError, match="immutable"):
        data.operations = ()
    copy = data.replace(num_parallel_workers=3)
    assert copy.num_parallel_workers == 3 and data.num_parallel_workers is None
    with pytest.raises(AttributeError, match="no field"):
        data.replace(no_such_field=1)


def test_nodes_declare_their_traits():
    data = numbers(10).map(lambda x: x, "x").batch(3)
    t = data.traits
    assert t.columns == ("x",) and t.size == 4 and t.keeps_positions and not t.passes_rows
    assert not t.random and t.shippable
    assert data.repeat(2).traits.passes_rows and not data.filter(lambda x: True).traits.size
    assert numbers(4, ).shuffle(2).traits.random
    cached = numbers(4).map(lambda x: x, "x", cache=ds.DatasetCache(session_id=1))
    assert not cached.traits.shippable and not cached.traits.keeps_positions


# -- map fusion ----------------------------------------------------------------------------------
def test_map_fusion_rewrites_consecutive_maps_on_one_column():
    data = numbers().map(lambda x: x + 1, "x").map([lambda x: x * 2, lambda x: x - 1], "x")
    graph, decisions = rewrite_graph(data, options())
    assert isinstance(graph, Map) and len(graph.operations) == 3
    assert isinstance(graph.children[0], Source)
    assert [d.rule for d in decisions if d.fired] == ["map_fusion"]
    assert len(data.operations) == 2          # the user's graph is unchanged


@pytest.mark.parametrize("second, why", [
    (lambda d: d.map(lambda x: x, "x", num_parallel_workers=3), "different numbers of workers"),
    (lambda d: d.map(lambda x: (x, x), "x", ["x", "y"]), "same columns"),
    (lambda d: d.map(lambda x: x, "x", python_multiprocessing=True), "processes"),
])
def test_map_fusion_says_why_not(second, why):
    data = second(numbers().map(lambda x: x + 1, "x"))
    graph, decisions = rewrite_graph(data, options())
    assert isinstance(graph.children[0], Map)
    assert any(d.rule == "map_fusion" and not d.fired and why in d.why for d in decisions)


def png_column():
    rng = np.random.default_rng(1)
    png = cv2.imencode(".png", rng.integers(0, 256, (40, 50, 3), dtype=np.uint8))[1]
    return ds.NumpySlicesDataset({"image": png[None]}, shuffle=False)


def _gives_pil_image(image):
    """A script's own function giving a PIL image."""
    return Image.fromarray(image)


@pytest.mark.parametrize("gives_pil", [[vision.Decode(), vision.ToPIL()],
                                       [vision.Decode(to_pil=True)],
                                       [transforms.Compose([vision.Decode(to_pil=True)])],
                                       [vision.Decode(), _gives_pil_image]])
def test_a_merged_map_hands_a_pil_image_on_as_an_array_where_a_map_ended(gives_pil):
    """MindSpore 2.10 hands a map's PIL output to the next map as an array (measured: Decode,
    ToPIL, then a map of Resize(17, BICUBIC) gives OpenCV's bicubic pixels, up to 138 levels
    from Pillow's); merged into one list, the Resize took its Pillow path. The maps still
    merge: the merged map makes the image an array where the first map ended."""
    data = png_column().map(gives_pil, "image").map(
        [vision.Resize(17, vision.Inter.BICUBIC)], "image")
    assert data.plan().fired("map_fusion")
    decoded = next(png_column().map(vision.Decode(), "image").create_tuple_iterator(
        output_numpy=True))[0]
    expected = vision.Resize(17, vision.Inter.BICUBIC)(decoded)
    previous = ds.config.get_num_parallel_workers()
    for workers in (1, 2):
        ds.config.set_num_parallel_workers(workers)
        try:
            row = next(data.create_tuple_iterator(output_numpy=True))[0]
        finally:
            ds.config.set_num_parallel_workers(previous)
        np.testing.assert_array_equal(row, expected)
    # within one map the image goes on as a PIL image (Pillow's resize), as in MindSpore
    one_map = png_column().map(list(gives_pil) + [vision.Resize(17, vision.Inter.BICUBIC)],
                               "image")
    pillow = np.asarray(Image.fromarray(decoded).resize((21, 17), Image.BICUBIC))
    np.testing.assert_array_equal(next(one_map.create_tuple_iterator(output_numpy=True))[0],
                                  pillow)


def test_maps_of_arrays_still_fuse_their_native_ops_across_the_maps():
    """Where no PIL image can cross (native ops only) the merged map's ops fuse into one
    native plan, as before."""
    data = png_column().map([vision.Decode()], "image").map(
        [vision.Resize(17), vision.HWC2CHW()], "image")
    ops, ends = compile_segments(rewrite_graph(data, options())[0].operations, [])
    assert len(ops) == 1 and ends == [False]
    assert pil_boundaries(rewrite_graph(data, options())[0].operations, (1,)) == []


def test_fused_maps_give_the_rows_of_the_maps_one_by_one():
    ds.config.set_seed(3)
    data = ds.NumpySlicesDataset({"x": np.arange(40)}, shuffle=True).map(
        lambda x: x + 1, "x").map(lambda x: x * 3, "x").batch(8)
    fused = collect(data, num_epochs=2)
    ds.config.set_debug_mode(True)          # debug mode runs each map as written
    try:
        assert not data.plan().fired("map_fusion")
        plain = collect(data, num_epochs=2)
    finally:
        ds.config.set_debug_mode(False)
    assert_same_batches(fused, plain)


def test_batch_of_two_maps_of_a_source_runs_as_one_native_batch_node(mr_path):
    data = split_train_maps(mr_path)
    report = data.plan()
    assert report.fired("map_fusion") and report.fired("native_batch")
    assert report.nodes == ["NativeBatch(MindDataset+Map+Batch)"]
    ds.config.set_seed(11)
    native = collect(data, num_epochs=2)
    ds.config.set_seed(11)
    general = collect(data, num_epochs=2, native=False)
    assert_same_batches(native, general)


# -- auto-shard ----------------------------------------------------------------------------------
def test_auto_shard_rewrites_the_source_and_each_row_is_read_once(mr_path):
    whole = ds.MindDataset(mr_path, columns_list=["label"], shuffle=True).map(
        lambda x: x, "label")
    seen = []
    for k in range(3):
        shard = ds.auto_shard(whole, 3, k)
        assert shard.plan().nodes[-1] == "MindDataset"
        seen += [int(r[0]) for r in shard.create_tuple_iterator(output_numpy=True,
                                                                num_epochs=1)]
    assert sorted(seen) == list(range(24))
    assert whole.num_shards is None if hasattr(whole, "num_shards") else True


@pytest.mark.parametrize("make, why", [
    (lambda: numbers().take(4), "per shard"),
    (lambda: numbers().zip(ds.NumpySlicesDataset({"y": np.arange(10)})), "aligned"),
    (lambda: numbers(num_shards=2, shard_id=0), "already reads shard"),
    (lambda: ds.GeneratorDataset(lambda: iter([(np.int64(1),)]), ["x"]), "stream"),
])
def test_auto_shard_refuses_what_sharding_would_change(make, why):
    with pytest.raises(ValueError, match=why):
        ds.auto_shard(make(), 2, 1)
    report = make().plan(num_shards=2, shard_id=1)
    assert any(r.rule == "auto_shard" and not r.fired and why in r.why for r in report.rewrites)


# -- the plan is data ----------------------------------------------------------------------------
def _children():
    return psutil.Process().children(recursive=True)


@pytest.mark.parametrize("make", [
    lambda p: split_train_maps(p),
    lambda p: ds.MindDataset(p, columns_list=["image", "label"]).map(
        [vision.Decode(to_pil=True), vision.Resize((16, 16))], ["image"],
        num_parallel_workers=2, python_multiprocessing=True).batch(2),
    lambda p: ds.GeneratorDataset(list(range(8)), ["x"], num_parallel_workers=2,
                                  python_multiprocessing=True).map(lambda x: x, "x"),
    lambda p: ds.MindDataset(p, columns_list=["label"]).map(
        lambda x: x, "label", cache=ds.DatasetCache(session_id=1)).batch(2),
])
def test_plan_starts_no_thread_or_process(mr_path, make):
    data = make(mr_path)
    threads, children = threading.active_count(), len(_children())
    report = data.plan()
    assert threading.active_count() == threads and len(_children()) == children
    assert report.nodes and report.rewrites


def test_a_plan_is_a_tree_of_physical_nodes_with_every_decision():
    report = numbers().map(lambda x: x, "x").batch(2).repeat(2).plan()
    assert report.nodes == ["Repeat", "Batch", "Map", "NumpySlicesDataset"]
    assert [(depth, node.kind) for depth, node in report.root.walk()] == [
        (0, "Repeat"), (1, "Batch"), (2, "Map"), (3, "Source")]
    assert report.fired("prefetch") and not report.fired("native_batch")
    assert "native_batch on Batch: not applied" in str(report)


def test_rules_run_on_graphs_built_without_the_api():
    source = numbers(6)
    graph = Map(Map(source, lambda x: x + 1, "x"), lambda x: x * 2, "x")
    report = plan(graph, options())
    assert report.fired("map_fusion") and report.nodes == ["Map", "NumpySlicesDataset"]
    assert report.root.logical.operations[0] is graph.children[0].operations[0]
