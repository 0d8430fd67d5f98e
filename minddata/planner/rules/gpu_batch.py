"""gpu_batch: ``Batch(Map(Source))`` whose map is placed on the GPU (``map(device="GPU")`` or
an op's ``.device("GPU")``) and is a decode-and-augment run with GPU kernels becomes one
GpuBatch node (engine/gpu_batch.py): CPU threads read the encoded rows, the device decodes and
augments the whole batch, which stays there as a torch tensor.

Placement asked for but impossible here (no CUDA build of torch, or no GPU JPEG decoder that
loads: ``gpu.backend.unavailable()`` says which) lowers to a GpuUnavailable node, whose build
raises the reason, naming what to install: such a pipeline
plans (``Dataset.plan()`` shows the decision) but does not silently run on the CPU. A chain
the GPU path cannot take (another shape, an op placed on the CPU, ...) is a Skip, and the map
runs on the CPU as usual, with a warning: the user asked for the GPU."""
from __future__ import annotations

import warnings
from typing import Union

from ...gpu import backend
from ...gpu.plan import placed_on_gpu, run_refusal
from ...graph.batch import Batch
from ...graph.map import Map
from ...graph.node import LogicalNode
from ..physical import PhysicalNode
from ..rule import LoweringContext, LoweringRule, Skip
from ._chains import uncached_random_access_source, workers_of


class GpuBatch(LoweringRule):
    name = "gpu_batch"

    def lower(self, node: LogicalNode,
              lowering: LoweringContext) -> Union[PhysicalNode, Skip, None]:
        if isinstance(node, Map):
            if placed_on_gpu(node.device, node.operations):
                # Reached only when no batch above took the map: its rows run on the CPU.
                on_cpu = ("the map is placed on the GPU but runs on the CPU: the GPU path "
                          "takes Batch(Map(Source)) chains only (see its batch's decision)")
                warnings.warn(f"{on_cpu}; Dataset.plan() shows the decision (a repeat between "
                              f"the source and the map, say: put it after batch)", stacklevel=2)
                return Skip(on_cpu)
            return None
        if not isinstance(node, Batch) or not node.children:
            return None
        map_node = node.children[0]
        if not isinstance(map_node, Map) or not placed_on_gpu(map_node.device,
                                                              map_node.operations):
            return None     # nothing placed on the GPU: not this rule's business
        why = self._check(node, map_node, lowering)
        if why is not None:
            return Skip(f"{why}: the map runs on the CPU")
        source = map_node.children[0]
        missing = backend.unavailable()
        if missing is not None:
            lowering.note(self.name, "Batch", False, missing)
            return PhysicalNode("GpuUnavailable", "GpuUnavailable(Map placed on the GPU)", node,
                                params={"why": missing})
        options = lowering.options
        threads = workers_of(map_node, options)
        # A worker holds its batch until the device has finished it, so fewer batches in
        # flight than workers would leave workers (and the cores given to them) idle.
        depth = max(options.batch_ring_depth, threads)
        device = backend.get_device() or "cuda"
        ops = "+".join(type(op).__name__ for op in map_node.operations)
        lowering.note(self.name, "Batch", True,
                      f"{source.display_name()} + Map({ops}) + Batch({node.batch_size}) on "
                      f"{device}: {threads} CPU thread(s) read the encoded rows, the device "
                      f"decodes and augments each batch (JPEGs decoded by "
                      f"{backend.jpeg_decoder_name()}); ring of {depth} batches")
        return PhysicalNode("GpuBatch", f"GpuBatch({source.display_name()}+Map+Batch)", node,
                            params={"map": map_node, "source": source,
                                    "column": map_node.in_cols[0], "threads": threads,
                                    "ring_depth": depth},
                            ready_ahead=True)

    @staticmethod
    def _check(batch: Batch, map_node: Map, lowering: LoweringContext) -> Union[str, None]:
        """Why the chain cannot run as a GPU batch, or None."""
        if lowering.options.debug:
            return "debug mode runs every op in Python"
        if not batch.is_plain():
            return "the batch pads, has a per_batch_map or a callable batch_size"
        if map_node.cache is not None or map_node.callbacks or map_node.python_multiprocessing:
            return "the map caches, has callbacks or runs in processes"
        if len(map_node.in_cols) != 1 or list(map_node.out_cols) != list(map_node.in_cols):
            return "the map does not read and write one same column"
        source = map_node.children[0]
        if not uncached_random_access_source(source):
            return (f"the map's input is {source.display_name()}, not an uncached source read "
                    f"by row id")
        return run_refusal(map_node.device, map_node.operations)
