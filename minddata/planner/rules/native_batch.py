"""native_batch: ``Batch(Map(Source))`` whose map is one run of native ops becomes one
NativeBatch node (engine/native_batch.py): C++ threads read, decode, augment and write every
row into its slot of a reused batch buffer, the GIL released for the whole batch."""
from __future__ import annotations

from typing import Any, List, Tuple, Union

from transforms_c.contract import FusedPlanLike, NativeStep

from ...graph.batch import Batch
from ...graph.map import Map
from ...graph.operations import compile_map_operations, row_layout
from ...graph.node import LogicalNode
from ...graph.source import Source
from ..options import PlanOptions
from ..physical import PhysicalNode
from ..rule import LoweringContext, LoweringRule, Skip
from ._chains import workers_of

#: (map, source, fused plan, native steps, row layout) of a chain the rule takes over
_Found = Tuple[Map, Source, FusedPlanLike, List[NativeStep], Any]


class NativeBatch(LoweringRule):
    name = "native_batch"

    def lower(self, node: LogicalNode,
              lowering: LoweringContext) -> Union[PhysicalNode, Skip, None]:
        if not isinstance(node, Batch):
            return None
        found = self._check(node, lowering.options)
        if isinstance(found, str):
            return Skip(found)
        map_node, source, plan, steps, layout = found
        options = lowering.options
        threads = workers_of(map_node, options)
        name = f"NativeBatch({source.display_name()}+Map+Batch)"
        lowering.note(self.name, "Batch", True,
                      f"{source.display_name()} + Map({plan!r}) + Batch({node.batch_size}) run "
                      f"by {threads} native thread(s), ring of {options.batch_ring_depth} "
                      f"batches")
        return PhysicalNode("NativeBatch", name, node,
                            params={"map": map_node, "source": source, "plan": plan,
                                    "steps": steps, "column": map_node.in_cols[0],
                                    "layout": layout, "threads": threads,
                                    "ring_depth": options.batch_ring_depth},
                            ready_ahead=True)

    @staticmethod
    def _check(batch: Batch, options: PlanOptions) -> Union[str, _Found]:
        """(map, source, fused plan, native steps, row layout), or why not."""
        if not options.native_batches:
            return "native batches are switched off (config.set_native_batches)"
        if options.debug:
            return "debug mode runs every op in Python"
        if not batch.is_plain():
            return "the batch pads, has a per_batch_map or a callable batch_size"
        map_node = batch.children[0]
        if not isinstance(map_node, Map):
            return f"its input is {map_node.display_name()}, not a map"
        if map_node.cache is not None or map_node.callbacks or map_node.python_multiprocessing:
            return "the map caches, has callbacks or runs in processes"
        if len(map_node.in_cols) != 1 or list(map_node.out_cols) != list(map_node.in_cols):
            return "the map does not read and write one same column"
        source = map_node.children[0]
        if not isinstance(source, Source) or source.cache is not None or not source.random_access:
            return (f"the map's input is {source.display_name()}, not an uncached source read "
                    f"by row id")
        plan = compile_map_operations(map_node.operations)
        if plan is None:
            return "the map's operations are not one run of fusable native ops"
        steps = plan.native_steps()
        if steps is None:
            return f"an op of {plan!r} has no native step (e.g. an OpenCV-only interpolation)"
        column = map_node.in_cols[0]
        access = source.native_access()
        if column not in access["images"]:
            return f"{source.display_name()} offers no native access to column {column!r}"
        others = [c for c in source.col_names() if c != column]
        missing = [c for c in others if c not in access["gathered"]]
        if missing:
            return f"column(s) {missing} cannot be gathered per batch"
        layout = row_layout(steps, access["images"][column])
        if layout is None:
            return "the output shape depends on each image (no fixed-size op)"
        return map_node, source, plan, steps, layout
