"""The op contract: what the engine, the planner and the plan compiler ask of an operation,
stated as ``typing.Protocol`` classes (docs/internals.md, "The op contract").

- ``Operation``: every op of ``transforms_c`` and of the PIL path. Callable eagerly
  (``op(*arrays)``), and for the engine ``is_random`` and ``apply(arrays, seed) -> tuple``.
  A plain Python callable is also accepted by ``map`` (called as ``fn(*columns)``) but is not an
  ``Operation``: the engine tells the two apart with ``isinstance(op, Operation)``.
- ``FusableOperation``: an ``Operation`` that declares where it fits in a fused plan
  (``fusion_phase``), which native step runs it (``native_step``: its C++ step folds it, on
  the per-row path and in native batches alike) or, for an op without one (the PIL path's),
  how it folds itself into one row's plan in Python (``fold``), and the optional declarations
  below. Op base
  classes inherit ``FusionDefaults``, which gives every optional declaration its default, so
  the compiler reads them as plain attributes. The native ops declare their arguments, phase and
  native step once, in a schema (transforms_c/schema.py), from which ``NativeOperation`` builds
  ``fusion_phase`` and ``native_step``.
- ``FusedPlanLike``: what ``compile_operations`` makes of a run of fusable ops
  (``transforms_c.fusion.FusedPlan``): ``ops``, ``apply_seeds(arrays, seeds)`` (one seed per
  op it runs) and ``native_steps()``.

The Protocols are ``runtime_checkable``: an ``isinstance`` check looks for the members by name
(not their signatures), once per map when a pipeline is built, never per row.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Protocol, Sequence, Tuple
from typing import runtime_checkable

if TYPE_CHECKING:  # folding imports the native module; the contract stays import-light
    from transforms_c.folding import Geometry, PassParams

#: The columns of one row, as the engine hands them to an op and takes them back.
Arrays = Tuple[Any, ...]
#: One native step: ``{"kind": "<step name>", <param>: number or list of numbers, ...}``
#: (transforms_c/folding.py, src/native_step.h).
NativeStep = Dict[str, Any]


@runtime_checkable
class Operation(Protocol):
    """An op of a map or a Compose (see the module doc)."""

    #: The output depends on random draws (every draw comes from ``apply``'s seed).
    is_random: bool

    def __call__(self, *arrays: Any) -> Any:
        """Eager call: one array, or a tuple of arrays for several outputs."""
        ...

    def apply(self, arrays: Arrays, seed: int) -> Arrays:
        """One row's columns in, the op's outputs out, every random decision drawn from
        ``seed``. Thread-safe."""
        ...


@runtime_checkable
class FusableOperation(Operation, Protocol):
    """An op that can be part of a fused plan (transforms_c/folding.py, fusion.py)."""

    #: False for an op whose unfused output is not an array (a PIL image): a run never ends
    #: on it. Default True.
    ends_fused_run: bool
    #: Its input is encoded bytes (the plan decodes them itself). Default False.
    decodes: bool
    #: A pointwise op whose output may feed another pointwise op of the same pass (Rescale).
    point_feeds_next: bool
    #: A pointwise op that may follow another one in the same pass (Normalize).
    point_follows_previous: bool

    def fusion_phase(self, position: int) -> Optional[int]:
        """Its phase (folding.PHASE_*) as the ``position``-th op of a run, or None when it
        cannot be fused there."""
        ...

    def fold(self, geo: Geometry, pss: PassParams, seed: int, channels: int) -> None:
        """An op without a native step (the PIL path's): folds itself into one row's
        Geometry / PassParams; raises folding.Unfoldable when the row must run op by op. An
        op with a native step has none: its C++ step folds it."""
        ...

    def native_step(self) -> Optional[NativeStep]:
        """The native step running it without Python (src/steps/), or None. A plan's ops all
        have one (the C++ row plan folds them) or none (their ``fold`` does)."""
        ...

    def fuses_encoded(self, data: Any) -> bool:
        """On a decoding op: whether the plan's native decode gives this op's pixels for these
        encoded bytes (else the run goes op by op). Default True."""
        ...

    def apply_unfused(self, data: Any, seed: int) -> Any:
        """The op alone on one column when its row does not fold (a decoding crop decodes,
        then crops). Default ``apply((data,), seed)[0]``."""
        ...


@runtime_checkable
class FusedPlanLike(Operation, Protocol):
    """A compiled run of fusable ops (transforms_c.fusion.FusedPlan)."""

    ops: List[FusableOperation]

    def apply_seeds(self, arrays: Arrays, seeds: Sequence[int]) -> Arrays:
        """Runs the plan with one seed per op (the engine passes each op its own)."""
        ...

    def native_steps(self) -> Optional[List[NativeStep]]:
        """The plan as native steps (transforms_c._batch), or None when an op has none."""
        ...


class FusionDefaults:
    """The defaults of ``FusableOperation``'s declarations, inherited by the op base classes
    (transforms_c's TensorOperation, the PIL path's PyTensorOperation): an op that declares
    nothing is not fusable (``fusion_phase`` gives None)."""

    ends_fused_run = True
    decodes = False
    point_feeds_next = False
    point_follows_previous = False

    def fusion_phase(self, position: int) -> Optional[int]:
        return None

    def fold(self, geo: Geometry, pss: PassParams, seed: int, channels: int) -> None:
        raise NotImplementedError(f"{type(self).__name__} has no Python fold (it is not "
                                  f"fusable, or its native step folds it)")

    def native_step(self) -> Optional[NativeStep]:
        return None

    def fuses_encoded(self, data: Any) -> bool:
        return True

    def apply_unfused(self: Operation, data: Any, seed: int) -> Any:
        return self.apply((data,), seed)[0]


__all__ = ["Arrays", "FusableOperation", "FusedPlanLike", "FusionDefaults", "NativeStep",
           "Operation"]
