"""uint8 batches for a device: ``split_device_tail(dataset)`` is the pipeline stopping before
its trailing Normalize / Rescale / HWC2CHW, and the ``DeviceTail`` (engine/device_tail.py)
that finishes the batches on the device (as FFCV and DALI do). Seeds are unchanged: every op
keeps its position."""
from transforms_c import folding
from transforms_c.contract import FusableOperation

from .engine.device_tail import DeviceTail
from .gpu.plan import placed_on_gpu
from .graph.batch import Batch
from .graph.map import Map

__all__ = ["DeviceTail", "split_device_tail"]


def _tail_of(ops):
    """The trailing ops to move: an optional HWC2CHW after a pointwise op or a chain of them
    (Rescale then Normalize), as the ops declare their phases."""
    k, chw, points, last = len(ops), False, 0, None
    while k > 0:
        op = ops[k - 1]
        phase = op.fusion_phase(0) if isinstance(op, FusableOperation) else None
        if phase == folding.PHASE_LAYOUT and not chw and not points:
            chw = True
        elif phase == folding.PHASE_POINT and (not points or folding.points_chain(op, last)):
            points += 1
        else:
            break
        last = op
        k -= 1
    return list(ops[k:])


def split_device_tail(dataset):
    """(dataset whose batches stop before the device tail, DeviceTail) for a pipeline whose root
    is ``batch(map(...))`` ending in Normalize/Rescale and/or HWC2CHW on one image column, or
    such a pipeline served by a RayService (its actors then ship every batch unfinished);
    (dataset, None) otherwise."""
    if isinstance(dataset, Batch):
        return split_batch_tail(dataset)
    split = getattr(dataset, "without_device_tail", None)   # a node that knows its own tail
    return split() if split is not None else (dataset, None)


def split_batch_tail(dataset):
    """split_device_tail of a BatchDataset. A map placed on the GPU keeps its tail: its batch
    is on the device already, and the GPU path finishes it (Normalize, HWC2CHW) in the pass
    that crops and resizes it, where the tail would add passes over the batch and the sink
    thread's launches."""
    if not isinstance(dataset, Batch) or dataset.per_batch_map is not None:
        return dataset, None
    map_ds = dataset.children[0]
    if (not isinstance(map_ds, Map) or len(map_ds.in_cols) != 1
            or map_ds.out_cols != map_ds.in_cols or map_ds.cache is not None
            or placed_on_gpu(map_ds.device, map_ds.operations)):
        return dataset, None
    tail = _tail_of(map_ds.operations)
    if not tail or len(tail) == len(map_ds.operations):
        return dataset, None
    column = map_ds.col_names().index(map_ds.in_cols[0])
    head = map_ds.replace(operations=tuple(map_ds.operations[:-len(tail)]))
    return dataset.with_children([head]), DeviceTail(column, tail)
