"""One schema per native op: its parameters (types and ranges), its phase in a fused plan and
its native step, declared once, as DALI's operator schema (docs/internals.md, "The op contract").

The schema is the single source of
- the op's argument checks: ``schema.bind(op, name=value, ...)`` in its ``__init__`` checks each
  argument with MindSpore's error types and words (transforms_c/_validate.py) and sets it on the
  op, normalized (a size becomes an int or an (h, w) tuple, a pair a tuple of floats...);
- its ``native_step()``: ``{"kind": schema.step, <step parameter>: value, ...}``, each value
  converted from the op's checked argument (``Param.native`` names the step parameters an
  argument becomes) or given by the op (``OpSchema.step_only``, ``native_values()``);
- the C++ argument checks: when an op class is defined, the types and ranges of its step's
  parameters are handed to the native step registry (``_batch.register_step_schema``), and every
  plan's step dicts are checked against them when the plan is built (an unknown kind, a missing,
  misspelt, wrongly typed or out-of-range parameter is a ValueError then); the C++ steps
  (src/steps/*.cpp) read their parameters without checking them again;
- its ``fusion_phase(position)`` (``OpSchema.phase``; an op narrows it by its values, e.g. a
  RandomCrop that pads is not fused).

An op with a schema derives from ``NativeOperation`` and sets ``schema = OpSchema(...)``; the
class's ``__init__`` parameters must be the schema's, in order (checked when the class is made).
Ops that share a native step (the four flips, RandomResizedCrop and RandomCropDecodeResize) must
declare the same step parameters: the registry refuses a second, different declaration.
"""
from __future__ import annotations

import enum
import inspect
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Dict, Iterator, Optional, Tuple, Type, Union

from transforms_c import _batch
from transforms_c._base import TensorOperation
from transforms_c._validate import (MAX_SIZE, check_bool, check_choice, check_enum,
                                    check_fill_value, check_float, check_int, check_ints,
                                    check_padding, check_range_pair, check_size, check_values,
                                    size_hw)

# The types of a native step's parameters (every value travels to C++ as a double).
INT, FLOAT, BOOL = "int", "float", "bool"
# The kinds of an op's arguments besides INT, FLOAT and BOOL.
ENUM = "enum"          # a member of Param.enum
SIZE = "size"          # int, or (h, w) / (s,): ints in [low, high]
PAIR = "pair"          # (min, max) of numbers in [low, high], min <= max
VALUES = "values"      # a non-empty list or tuple of numbers in [low, high] (one per channel)
INTS = "ints"          # a list or tuple of Param.length ints in [low, high]
PADDING = "padding"    # int, (lr, tb) or (left, top, right, bottom) of ints in [low, high]
FILL = "fill"          # int in [low, high] or a 3-tuple of them
CHOICE = "choice"      # one of the strings Param.choices

Number = Union[int, float]
#: (type, low, high, low_open, high_open, length) of a step parameter, as the C++ registry
#: takes it (low/high None: unbounded; length 0: one or more values).
StepParamSpec = Tuple[str, Optional[Number], Optional[Number], bool, bool, int]


@dataclass(frozen=True)
class Native:
    """One parameter of a native step: its type, range and number of values (1, or 0 for one
    or more). The C++ registry checks every plan's step dicts against these."""

    name: str
    type: str
    low: Optional[Number] = None
    high: Optional[Number] = None
    low_open: bool = False
    high_open: bool = False
    length: int = 1

    def __post_init__(self) -> None:
        if self.type not in (INT, FLOAT, BOOL):
            raise ValueError(f"native parameter {self.name!r}: type {self.type!r} is not one of "
                             f"{INT!r}, {FLOAT!r}, {BOOL!r}")

    def spec(self) -> StepParamSpec:
        return (self.type, self.low, self.high, self.low_open, self.high_open, self.length)


#: The step parameters an argument kind becomes by default: (type, length) of each.
_NATIVE_FORM: Dict[str, Tuple[str, int]] = {
    INT: (INT, 1), FLOAT: (FLOAT, 1), BOOL: (BOOL, 1), SIZE: (INT, 1), INTS: (INT, 1),
    PAIR: (FLOAT, 2), VALUES: (FLOAT, 0)}


@dataclass(frozen=True)
class Param:
    """One argument of an op's constructor (MindSpore's name) and how it is checked; ``native``
    names the step parameters it becomes (a name takes the type and range declared here; a
    ``Native`` is used as it is, e.g. for an enum's code), ``to_native`` converts the checked
    value to their values (one per name; None: no native step for this value)."""

    name: str
    kind: str
    low: Optional[Number] = None
    high: Optional[Number] = None
    low_open: bool = False
    high_open: bool = False
    length: Optional[int] = None                   # INTS
    enum: Optional[Type[enum.Enum]] = None         # ENUM
    choices: Tuple[str, ...] = ()                  # CHOICE
    optional: bool = False                         # None is accepted and kept
    native: Tuple[Union[str, Native], ...] = ()
    to_native: Optional[Callable[[Any], Tuple[Any, ...]]] = field(default=None, compare=False)

    def __post_init__(self) -> None:
        natives = tuple(n if isinstance(n, Native) else self._derive(n) for n in self.native)
        object.__setattr__(self, "native", natives)

    def _derive(self, name: str) -> Native:
        if self.kind not in _NATIVE_FORM:
            raise ValueError(f"argument {self.name!r} ({self.kind}) has no default native form: "
                             f"declare step parameter {name!r} as a Native")
        kind, length = _NATIVE_FORM[self.kind]
        return Native(name, kind, self.low, self.high, self.low_open, self.high_open, length)

    @property
    def natives(self) -> Tuple[Native, ...]:
        return self.native  # type: ignore[return-value]  # all Native after __post_init__

    def check(self, value: Any) -> Any:
        """The checked, normalized value (TypeError / ValueError with MindSpore's words)."""
        if value is None and self.optional:
            return None
        return _CHECKS[self.kind](self, value)

    def native_values(self, value: Any) -> Tuple[Any, ...]:
        """The values of the step parameters this argument becomes."""
        if self.to_native is not None:
            return self.to_native(value)
        if self.kind == SIZE:
            return size_hw(value)
        if self.kind == INTS:
            return tuple(value) if len(self.native) == len(value) else (tuple(value),)
        if self.kind == PAIR:
            return (tuple(value),)
        if self.kind == VALUES:
            return (list(value),)
        return (value,)


#: The size (of an output, of a crop) most ops take: int or (h, w), in [1, 16777216]; native
#: size_h, size_w.
OUTPUT_SIZE = Param("size", SIZE, 1, MAX_SIZE, native=("size_h", "size_w"))

_CHECKS: Dict[str, Callable[[Param, Any], Any]] = {
    INT: lambda p, v: check_int(v, p.name, p.low, p.high),
    FLOAT: lambda p, v: check_float(v, p.name, p.low, p.high, p.low_open, p.high_open),
    BOOL: lambda p, v: check_bool(v, p.name),
    ENUM: lambda p, v: check_enum(v, p.enum, p.name),
    SIZE: lambda p, v: check_size(v, p.name, p.low, p.high),
    PAIR: lambda p, v: check_range_pair(v, p.name, p.low, p.high, low_open=p.low_open),
    VALUES: lambda p, v: check_values(v, p.name, p.low, p.high, p.low_open),
    INTS: lambda p, v: check_ints(v, p.name, p.length, p.low, p.high),
    PADDING: lambda p, v: check_padding(v, p.name, p.low, p.high),
    FILL: lambda p, v: check_fill_value(v, p.name, p.low, p.high),
    CHOICE: lambda p, v: check_choice(v, p.choices, p.name),
}


@dataclass(frozen=True)
class OpSchema:
    """An op's arguments, its phase in a fused plan (folding.PHASE_*; None: never fused), the
    kind of its native step (None: none) and the step parameters it gives itself besides its
    arguments' (``step_only``, valued by the op's ``native_values()``)."""

    params: Tuple[Param, ...] = ()
    phase: Optional[int] = None
    step: Optional[str] = None
    step_only: Tuple[Native, ...] = ()
    #: Fused only as the first op of a run (a decoding op).
    first_only: bool = False

    def __post_init__(self) -> None:
        for p in self.params:
            if p.kind not in _CHECKS:
                raise ValueError(f"argument {p.name!r}: unknown kind {p.kind!r}")
        names = [n.name for n in self.step_params()]
        if len(set(names)) != len(names):
            raise ValueError(f"step {self.step!r}: a parameter is declared twice: {names}")

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def step_params(self) -> Iterator[Native]:
        """Every parameter of the native step, the arguments' first (none without a step: the
        arguments' ``native`` declarations are then unused)."""
        if self.step is None:
            return
        for p in self.params:
            yield from p.natives
        yield from self.step_only

    def step_spec(self) -> Dict[str, StepParamSpec]:
        """The step's parameters as the C++ registry takes them."""
        return {n.name: n.spec() for n in self.step_params()}

    def bind(self, op: object, **values: Any) -> None:
        """Checks each argument (in the order given) and sets it on ``op``."""
        for name, value in values.items():
            setattr(op, name, self.param(name).check(value))

    def native_step(self, op: "NativeOperation") -> Optional[Dict[str, Any]]:
        """``op``'s native step, or None when it has none (its kind is None, or a value only the
        Python path runs, e.g. an interpolation without a native kernel)."""
        if self.step is None:
            return None
        step: Dict[str, Any] = {"kind": self.step}
        for p in self.params:
            if p.natives:
                step.update(zip((n.name for n in p.natives),
                                p.native_values(getattr(op, p.name))))
        step.update(op.native_values())
        if any(v is None for v in step.values()):
            return None
        return step

    def fusion_phase(self, position: int) -> Optional[int]:
        if self.first_only and position != 0:
            return None
        return self.phase


#: op class -> its schema; step kind -> its parameters (what the C++ registry was given).
_BY_CLASS: Dict[type, OpSchema] = {}
_BY_STEP: Dict[str, Dict[str, StepParamSpec]] = {}


def register(cls: type, schema: OpSchema) -> None:
    """Records ``cls``'s schema and hands its step's parameters to the C++ registry (a
    ValueError when no step of that kind is compiled in, or when another op declared the same
    kind with other parameters)."""
    if schema.step is not None:
        spec = schema.step_spec()
        try:
            _batch.register_step_schema(schema.step, spec)
        except ValueError as exc:
            raise ValueError(f"{cls.__name__}'s schema: {exc}") from None
        _BY_STEP[schema.step] = spec
    _BY_CLASS[cls] = schema


def schema_of(op: Union[type, object]) -> Optional[OpSchema]:
    """The schema of an op class or op (None for an op without one)."""
    cls = op if isinstance(op, type) else type(op)
    for klass in cls.__mro__:
        if klass in _BY_CLASS:
            return _BY_CLASS[klass]
    return None


def op_schemas() -> Dict[type, OpSchema]:
    """Every op class that declared a schema."""
    return dict(_BY_CLASS)


def step_schemas() -> Dict[str, Dict[str, StepParamSpec]]:
    """Every registered native step kind -> its parameters."""
    return {kind: dict(spec) for kind, spec in _BY_STEP.items()}


def _init_params(cls: type) -> Tuple[str, ...]:
    if cls.__init__ is object.__init__:  # type: ignore[misc]
        return ()
    params = list(inspect.signature(cls.__init__).parameters)  # type: ignore[misc]
    return tuple(params[1:])


class NativeOperation(TensorOperation):
    """Base of the ops that declare an ``OpSchema`` (see the module doc): ``fusion_phase`` and
    ``native_step`` come from it; an op narrows its phase by its values by overriding
    ``fusion_phase`` and gives its step-only parameters by ``native_values``."""

    is_native = True
    schema: ClassVar[OpSchema] = OpSchema()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "schema" not in cls.__dict__:
            return      # inherits its base's schema (and its arguments)
        names = tuple(p.name for p in cls.schema.params)
        if _init_params(cls) != names:
            raise TypeError(f"{cls.__name__}.__init__ takes {_init_params(cls)}, its schema "
                            f"declares {names}")
        register(cls, cls.schema)

    def fusion_phase(self, position: int) -> Optional[int]:
        # A native op is folded by its native step only (src/steps/): without one (a value
        # only its Python kernel runs, e.g. Inter.PILCUBIC) it runs by itself.
        if self.native_step() is None:
            return None
        return self.schema.fusion_phase(position)

    def native_step(self) -> Optional[Dict[str, Any]]:
        return self.schema.native_step(self)

    def native_values(self) -> Dict[str, Any]:
        """The values of the schema's ``step_only`` parameters."""
        return {}


__all__ = ["BOOL", "CHOICE", "ENUM", "FILL", "FLOAT", "INT", "INTS", "Native", "NativeOperation",
           "OUTPUT_SIZE", "OpSchema", "PADDING", "PAIR", "Param", "SIZE", "VALUES", "op_schemas",
           "register", "schema_of", "step_schemas"]
