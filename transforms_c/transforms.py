"""General ops of mindspore.dataset.transforms: Compose, RandomApply, RandomChoice, TypeCast,
OneHot, Fill, Duplicate, Concatenate, Mask, PadEnd, Slice, Unique (and the Relational enum)."""
import contextlib
import threading
from enum import IntEnum

import numpy as np

from transforms_c._base import TensorOperation, _to_numpy
from transforms_c._rng import Rng, derive_seed, eager_seed
from transforms_c._validate import check_float, check_int, is_int, is_number, wrong_type


def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)


def _check_transforms(transforms, name="transforms"):
    """A non-empty list (or tuple) of ops or callables, with MindSpore's errors and words."""
    if not isinstance(transforms, (list, tuple)):
        raise wrong_type(f"{name} list", transforms, list)
    if len(transforms) == 0:
        raise ValueError(f"{name} list can not be empty.")
    for i, op in enumerate(transforms):
        if isinstance(op, type):    # vision.Decode written for vision.Decode()
            raise ValueError(f"op_list[{i}] should be a dataset processing operation instance, "
                             f"but got: {op}. It may be missing parentheses for instantiation.")
        if not callable(op):
            raise TypeError(f"{name}[{i}] is neither a transforms op (TensorOperation) nor a "
                            f"callable pyfunc. Got {op!r}.")
    return list(transforms)


def call_op(op, arrays, seed):
    """Runs one op (protocol object or plain callable) on a tuple of arrays -> tuple."""
    if hasattr(op, "apply"):
        return _as_tuple(op.apply(arrays, seed))
    return _as_tuple(op(*arrays))


def not_random(function):
    """MindSpore's decorator marking a Python function as deterministic (there, a cache may hold
    a map's results only then). Python functions count as deterministic here already; the mark
    (function.random = False) is kept for code that reads it."""
    function.random = False
    return function


def refuse_empty_input(name, values):
    """MindSpore 2.10's eager calls of its C++ ops (and of Compose, RandomApply, RandomChoice,
    even of Python functions) refuse an empty array or list (measured: RuntimeError "Input
    Tensor has no data."); a pipeline's map hands such values to the ops."""
    for value in values:
        if (isinstance(value, np.ndarray) and value.size == 0) or (
                isinstance(value, (list, tuple)) and len(value) == 0):
            raise RuntimeError(f"{name}: Input Tensor has no data. An eager call takes a "
                               f"non-empty input, got one of shape {np.shape(value)}.")


class _DataOperation(TensorOperation):
    """A data transform: its eager call refuses empty input, as MindSpore's."""

    def __call__(self, *arrays):
        refuse_empty_input(type(self).__name__, arrays)
        return super().__call__(*arrays)

    def validate(self):
        """The argument errors MindSpore 2.10 raises when the op is first used, not when it is
        built (its ValidateParams): by an eager call, or by a composite holding it even where
        the op would not run (measured: RandomApply([TypeCast(np.bytes_)], prob=0))."""


def validate_members(transforms):
    """validate() of each op in ``transforms`` and in the composites among them."""
    for op in transforms:
        if isinstance(op, _DataOperation):
            op.validate()
        members = getattr(op, "transforms", ())
        if isinstance(members, (list, tuple)):  # a composite's ops (a user's callable may
            validate_members(members)           # have a "transforms" attribute of its own)


class _Composite(TensorOperation):
    """Ops holding a list of ops: random when any member is random."""

    pil_input = "own"       # a PIL image goes to the member ops as it is

    def __call__(self, *arrays):
        if not arrays:
            raise RuntimeError(f"{type(self).__name__}: Input Tensor is not valid: it was called "
                               f"without an input (as {type(self).__name__}([...])()).")
        refuse_empty_input(type(self).__name__, arrays)
        validate_members(self.transforms)
        # bytes are a 0-d bytes array, as MindSpore 2.10's composites make them (measured:
        # Compose([Duplicate()])(b"xy") gives b"xy" twice; Decode takes that array here)
        arrays = tuple(np.asarray(a) if isinstance(a, bytes) else a if _is_pil(a)
                       else _to_numpy(a) for a in arrays)
        with eager_call():
            out = self.apply(arrays, eager_seed() if self.is_random else 0)
        return out[0] if len(out) == 1 else out


#: Set while a composite runs eagerly (its __call__) in this thread, unset when the engine runs
#: it (apply): MindSpore hands a PIL image to the ops differently in the two cases.
_eager = threading.local()


@contextlib.contextmanager
def eager_call():
    """Marks the composite calls inside as eager (see _eager)."""
    outer = getattr(_eager, "active", False)
    _eager.active = True
    try:
        yield
    finally:
        _eager.active = outer


def _is_pil(value):
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover
        return False
    return isinstance(value, Image.Image)


class Compose(_Composite):
    """Compose(transforms): runs the ops in order; op i draws from derive_seed(seed, i).
    Runs of native ops are fused (transforms_c.compile_operations) with the same seeds."""

    def __init__(self, transforms):
        self.transforms = _check_transforms(transforms)
        self.is_random = any(getattr(op, "is_random", False) for op in self.transforms)
        from transforms_c.fusion import FusedPlan, compile_operations
        self._units = []
        position = 0
        for unit in compile_operations(self.transforms):
            count = len(unit.ops) if isinstance(unit, FusedPlan) else 1
            self._units.append((unit, list(range(position, position + count))))
            position += count

    def __call__(self, *arrays):
        """MindSpore 2.10's eager Compose (measured): when it runs its Python path (a member op
        MindSpore implements in Python only, or one PIL image given) it gives back the tuple of
        its outputs, a 1-tuple for one, e.g. (array,) of Compose([Decode(to_pil=True),
        ToTensor()])(data) and (image,) of Compose([Resize(10)])(pil_image); else an array."""
        out = super().__call__(*arrays)
        if (len(arrays) == 1 and _is_pil(arrays[0])) or _runs_python_path(self):
            return out if isinstance(out, tuple) else (out,)
        return out

    def apply(self, arrays, seed):
        from transforms_c.fusion import FusedPlan
        for unit, positions in self._units:
            if isinstance(unit, FusedPlan):
                arrays = unit.apply_seeds(arrays, [derive_seed(seed, p) for p in positions])
            else:
                if (len(arrays) == 1 and getattr(unit, "pil_input", "own") == "array"
                        and _is_pil(arrays[0]) and not getattr(_eager, "active", False)):
                    # In a pipeline MindSpore gives the ops it runs only in C++ (pil_input
                    # "array": ToTensor among them) an array of a PIL image, where an eager
                    # Compose calls their Python path (measured in MindSpore 2.10: ToTensor
                    # after Decode(to_pil=True) multiplies by float32(1/255) in a map's
                    # Compose, divides by 255 in an eager one)
                    arrays = (np.asarray(arrays[0]),)
                arrays = call_op(unit, arrays, derive_seed(seed, positions[0]))
        return arrays


#: Ops MindSpore 2.10 implements in Python only, and the Inter attribute that puts the others
#: on their Python path (ANTIALIAS); Decode with to_pil=True is Python too.
_PYTHON_ONLY_OPS = frozenset(["ToPIL", "Grayscale", "RandomGrayscale", "FiveCrop", "TenCrop",
                              "HsvToRgb", "RgbToHsv", "LinearTransformation", "MixUp",
                              "RandomErasing", "RandomPerspective", "RandomOrder"])
_ANTIALIAS_PYTHON_OPS = {"Resize": "interpolation", "RandomResizedCrop": "interpolation",
                         "Perspective": "interpolation", "RandomRotation": "resample",
                         "RandomAffine": "resample"}


def _runs_python_path(compose):
    """Whether MindSpore's eager Compose takes its Python path for these member ops (nested
    Composes count by their members, as MindSpore flattens them)."""
    for op in compose.transforms:
        if isinstance(op, Compose):
            if _runs_python_path(op):
                return True
            continue
        name = type(op).__name__
        if name in _PYTHON_ONLY_OPS or (name == "Decode" and getattr(op, "to_pil", False)):
            return True
        attr = _ANTIALIAS_PYTHON_OPS.get(name)
        if attr is not None and getattr(getattr(op, attr, None), "name", None) == "ANTIALIAS":
            return True
    return False


class RandomApply(_Composite):
    """RandomApply(transforms, prob=0.5): applies all the ops (as Compose) with probability prob."""

    is_random = True

    def __init__(self, transforms, prob=0.5):
        self.transforms = _check_transforms(transforms)
        if not is_number(prob):     # MindSpore lists float first here
            raise wrong_type("prob", prob, float, int)
        self.prob = check_float(prob, "prob", 0, 1)
        self._compose = Compose(self.transforms)

    def apply(self, arrays, seed):
        rng = Rng(seed)
        if rng.random() < self.prob:
            return self._compose.apply(arrays, rng.next_u64())
        return arrays


class RandomChoice(_Composite):
    """RandomChoice(transforms): applies one op chosen uniformly."""

    is_random = True

    def __init__(self, transforms):
        self.transforms = _check_transforms(transforms)

    def apply(self, arrays, seed):
        rng = Rng(seed)
        op = self.transforms[rng.randint(0, len(self.transforms) - 1)]
        return call_op(op, arrays, rng.next_u64())


def to_numpy_dtype(data_type, name="data_type"):
    """A numpy dtype from a numpy type/dtype, a type name ('int32'), a dtype-like object
    (minddata.mstype.int32 carries its numpy dtype) or an object whose name is a numpy type's
    (mindspore.int32 prints as Int32)."""
    if data_type is None or isinstance(data_type, (int, float, list, tuple)):
        raise _not_a_type(name, data_type)
    if isinstance(data_type, str):
        try:
            return np.dtype(data_type)
        except TypeError:
            raise _not_a_type(name, data_type) from None
    try:
        return np.dtype(data_type)
    except TypeError:
        pass
    text = str(data_type).split(".")[-1].lower()
    text = {"bool_": "bool", "string": "str"}.get(text, text)     # mstype.string prints String
    try:
        return np.dtype(text)
    except TypeError:
        raise _not_a_type(name, data_type) from None


def _not_a_type(name, value):
    """MindSpore's words for an argument that is not a data type."""
    return TypeError(f"Argument {name} with value {value} is not of type "
                     f"[<class 'mindspore._c_expression.typing.Type'>, <class 'numpy.dtype'>], "
                     f"but got {type(value)}.")


class TypeCast(_DataOperation):
    """TypeCast(data_type): casts the array to data_type."""

    def __init__(self, data_type):
        self.data_type = to_numpy_dtype(data_type)

    def validate(self):
        if self.data_type.kind not in "biufU":
            # MindSpore 2.10 (measured) has no bytes or complex tensors to cast to
            raise RuntimeError(f"TypeCast: Invalid data type {_kind_name(self.data_type)} "
                               f"(data_type must be bool, a number type or string)")

    def _compute(self, value, rng):
        self.validate()
        return cast(np.asarray(value), self.data_type)


def cast(value, dtype):
    """value as dtype, as MindSpore casts: float64 to float16 through float32 (two roundings),
    strings only to the same kind of strings (measured in MindSpore 2.10; numpy would read
    "aaaa" as True), a float to uint32 as C casts it on x86-64 (through int64, keeping the low
    32 bits: 1e10 is 1410065408, where numpy gives 0)."""
    if (value.dtype.kind in "US" or dtype.kind in "US") and value.dtype.kind != dtype.kind:
        raise RuntimeError(f"TypeCast: TypeCast does not support cast from "
                           f"{_kind_name(value.dtype)} to {_kind_name(dtype)}")
    if value.dtype == np.float64 and dtype == np.float16:
        value = value.astype(np.float32)
    if value.dtype.kind == "f" and dtype == np.uint32:
        with np.errstate(invalid="ignore"):
            value = value.astype(np.int64)
    return value.astype(dtype)


class OneHot(_DataOperation):
    """OneHot(num_classes, smoothing_rate=0.0): integer labels -> one-hot rows of the labels'
    dtype; with label smoothing, float64 rows (as MindSpore 2.10 returns them) holding
    (1 - s) + s / num_classes for the hot class and s / num_classes elsewhere."""

    def __init__(self, num_classes, smoothing_rate=0.0):
        if is_int(num_classes) and num_classes < 1:     # MindSpore's words
            raise ValueError(f"Input must be greater than 0. num_classes is {num_classes}.")
        self.num_classes = check_int(num_classes, "num_classes", 1, 2147483647)
        self.smoothing_rate = check_float(smoothing_rate, "smoothing_rate", 0.0, 1.0)

    def _compute(self, labels, rng):
        labels = np.asarray(labels)
        if labels.dtype.kind not in "ui":
            raise RuntimeError(f"OneHot: Only support input of int type, but got: "
                               f"{_kind_name(labels.dtype)}")
        # As MindSpore: dimensions of 1 are dropped first ([3] and [[3]] are the label 3; a
        # (10, 1) column is 10 labels).
        shape = labels.shape
        labels = np.squeeze(labels)
        if labels.ndim > 1:
            raise RuntimeError(f"OneHot: Only support scalar or 1D input, got rank: "
                               f"{labels.ndim} (shape {shape})")
        outside = (labels < 0) | (labels >= self.num_classes)
        if outside.any():
            # the first label outside the range named (a negative one too: MindSpore 2.10
            # serves a row of zeros for it and corrupts its heap, see the README)
            raise RuntimeError(f"OneHot: index values should not bigger than num classes: "
                               f"{self.num_classes}, but got: {int(labels[outside].flat[0])} "
                               f"(labels must be in [0, {self.num_classes}))")
        if self.smoothing_rate > 0:
            low = self.smoothing_rate / self.num_classes
            out = np.full(labels.shape + (self.num_classes,), low, np.float64)
            np.put_along_axis(out, labels[..., None].astype(np.int64),
                              1.0 - self.smoothing_rate + low, axis=-1)
        else:
            out = np.zeros(labels.shape + (self.num_classes,), labels.dtype)
            np.put_along_axis(out, labels[..., None].astype(np.int64), 1, axis=-1)
        # MindSpore drops dimensions of 1 from the output too: one class has no class axis
        # (a label gives a scalar, n labels n values)
        return out.reshape(labels.shape) if self.num_classes == 1 else out


def _kind_name(dtype):
    """MindSpore's name of a dtype in Fill's message: string, bytes or the numpy name."""
    return {"U": "string", "S": "bytes"}.get(dtype.kind, dtype.name)


class Fill(_DataOperation):
    """Fill(fill_value): an array of the input's shape filled with fill_value, of the input's
    dtype; a str (bytes) array is filled with a str (bytes) value only, and the result is as wide
    as the value (Fill(b"abc") on a |S1 array gives |S3 b"abc"s, as MindSpore)."""

    def __init__(self, fill_value):
        if not isinstance(fill_value, (int, float, bool, str, bytes, np.generic)):
            raise wrong_type("fill_value", fill_value, str, float, bool, int, bytes)
        self.fill_value = fill_value

    def _compute(self, value, rng):
        value = np.asarray(value)
        fill = np.asarray(self.fill_value)
        if {"U", "S"} & {value.dtype.kind, fill.dtype.kind}:
            if value.dtype.kind != fill.dtype.kind:
                raise RuntimeError(
                    f"Fill: fill_value and the input tensor must be of the same data type when "
                    f"involving strings or bytes, but got fill_value data type "
                    f"{_kind_name(fill.dtype)} and input tensor data type "
                    f"{_kind_name(value.dtype)}.")
            return np.full(value.shape, fill, dtype=fill.dtype)    # the value's own width
        # The value cast to the input's type as MindSpore casts it: a C cast (-3 -> 253 and
        # 300 -> 44 in uint8, 2.7 -> 2 in an int type).
        return np.full(value.shape, fill.astype(value.dtype))


class Duplicate(_DataOperation):
    """Duplicate(): one column -> two equal columns."""

    def apply(self, arrays, seed):
        if len(arrays) != 1:
            raise RuntimeError(f"Duplicate: only supports transform one column each time, got "
                               f"column num: {len(arrays)}, check 'input_columns' when call this "
                               f"operator.")
        value = np.asarray(arrays[0])
        return value, value.copy()


class Concatenate(_DataOperation):
    """Concatenate(axis=0, prepend=None, append=None): 1-D arrays joined with the optional
    prepend/append arrays (and any further input columns)."""

    def __init__(self, axis=0, prepend=None, append=None):
        self.axis = check_int(axis, "axis")
        if self.axis not in (0, -1):
            raise ValueError(f"only 1D concatenation supported. Concatenate: input 'axis' "
                             f"should be 0 or -1, but got: {axis}.")
        for name, value in (("prepend", prepend), ("append", append)):
            if value is None:
                continue
            if not isinstance(value, np.ndarray):
                raise wrong_type(name, value, np.ndarray)
            if value.ndim != 1:
                raise ValueError(f"can only {name} 1D arrays. Concatenate: rank of input "
                                 f"'{name}' should be 1, but got: {value.ndim} (shape "
                                 f"{value.shape}).")
        self.prepend = prepend
        self.append = append

    def apply(self, arrays, seed):
        inputs = [np.asarray(a) for a in arrays]
        # MindSpore concatenates tensors of one type only (numpy would promote int to float);
        # strings of any width are one type. It checks the types before the ranks.
        others = [("input", a) for a in inputs[1:]]
        others += [(name, a) for name, a in (("prepend", self.prepend), ("append", self.append))
                   if a is not None]
        for name, other in others:
            if _type_key(other) != _type_key(inputs[0]):
                raise RuntimeError(f"Concatenate: input datatype does not match the {name} "
                                   f"datatype, got input datatype: {_kind_name(inputs[0].dtype)}"
                                   f", {name} datatype:{_kind_name(other.dtype)}")
        for part in inputs:
            if part.ndim != 1:
                raise RuntimeError(f"Concatenate: only 1D input supported, got rank of input: "
                                   f"{part.ndim} (shape {part.shape})")
        parts = inputs
        if self.prepend is not None:
            parts = [self.prepend] + parts
        if self.append is not None:
            parts = parts + [self.append]
        try:
            return (np.concatenate(parts, axis=0),)
        except (TypeError, ValueError) as exc:
            raise RuntimeError(f"Concatenate: {exc}") from None


def _type_key(array):
    return array.dtype.kind if array.dtype.kind in "US" else array.dtype


class Relational(IntEnum):
    EQ = 0
    NE = 1
    GT = 2
    GE = 3
    LT = 4
    LE = 5


_RELATIONS = {Relational.EQ: np.equal, Relational.NE: np.not_equal, Relational.GT: np.greater,
              Relational.GE: np.greater_equal, Relational.LT: np.less,
              Relational.LE: np.less_equal}


class Mask(_DataOperation):
    """Mask(operator, constant, dtype=bool): elementwise comparison with a constant."""

    def __init__(self, operator, constant, dtype=np.bool_):
        if not isinstance(operator, Relational):
            raise wrong_type("operator", operator, Relational)
        if not isinstance(constant, (int, float, str, bytes, bool, np.generic)):
            raise wrong_type("constant", constant, str, float, bool, int, bytes)
        self.operator = operator
        self.constant = constant
        self.dtype = to_numpy_dtype(dtype, "dtype")

    def validate(self):
        if self.dtype.kind not in "biuf":
            # when the op is used, as MindSpore 2.10 (measured: Mask(..., mstype.string) is built)
            raise RuntimeError(f"Mask: Only supports bool or numeric datatype for generated "
                               f"mask type, but got:{_kind_name(self.dtype)} (complex types "
                               f"are refused too)")

    def _compute(self, value, rng):
        self.validate()
        value = np.asarray(value)
        # an array also for a 0-d input (numpy's comparison gives a scalar)
        return np.asarray(_RELATIONS[self.operator](
            value, _mask_constant(self.constant, value.dtype)).astype(self.dtype))


def _mask_constant(constant, dtype):
    """Mask's constant as MindSpore compares it: cast to the input's type (3.5 is 3 for an int
    input, -1 is 255 for uint8); str and bytes compare with either kind of string input."""
    text = isinstance(constant, (str, bytes, np.str_, np.bytes_))
    if text != (dtype.kind in "US"):
        raise RuntimeError(f"Mask: input datatype does not match the value datatype, both should "
                           f"be numeric or non-numerical in the same time. Got input {dtype}, "
                           f"value {constant!r}.")
    if not text:
        return np.asarray(constant).astype(dtype)
    if dtype.kind == "S":
        return constant.encode() if isinstance(constant, str) else constant
    return constant.decode() if isinstance(constant, bytes) else constant


class PadEnd(_DataOperation):
    """PadEnd(pad_shape, pad_value=None): pads (or truncates) each dimension at its end to
    pad_shape; None in pad_shape keeps that dimension."""

    def __init__(self, pad_shape, pad_value=None):
        self.pad_shape = _pad_shape(pad_shape)
        if pad_value is not None and not isinstance(pad_value, (int, float, str, bytes, bool)):
            raise wrong_type("pad_value", pad_value, str, float, bool, int, bytes)
        self.pad_value = pad_value

    def _compute(self, value, rng):
        value = np.asarray(value)
        if value.ndim != len(self.pad_shape):
            raise RuntimeError(f"PadEnd: invalid pad shape, as rank of input is: {value.ndim}, "
                               f"and rank of pad value: {len(self.pad_shape)}")
        shape = tuple(s if d is None else d for s, d in zip(value.shape, self.pad_shape))
        fill = self.pad_value
        if fill is None:
            fill = {"U": "", "S": b""}.get(value.dtype.kind, 0)
        fill = np.asarray(fill)
        _check_pad_kind(fill.dtype, value.dtype)
        if value.dtype.kind in "US":
            # as wide as the longer of the two: PadEnd([3], b"-1") on |S1 pads with b"-1"
            out = np.full(shape, fill, dtype=np.result_type(value.dtype, fill.dtype))
        else:
            # the value cast as MindSpore casts it (a C cast: -1 is 255 in uint8, 2.7 is 2)
            out = np.full(shape, fill.astype(value.dtype))
        region = tuple(slice(0, min(s, d)) for s, d in zip(value.shape, shape))
        out[region] = value[region]
        return out


def _pad_shape(pad_shape):
    """PadEnd's pad_shape: a list (or tuple) of ints >= 1, or None to keep a dimension; the
    errors in MindSpore's words."""
    if not isinstance(pad_shape, (list, tuple)):
        raise wrong_type("pad_shape", pad_shape, list)
    for dim in pad_shape:
        if dim is not None and not isinstance(dim, bool) and not is_int(dim):
            raise TypeError(f"pad_shape: a value in the list is not an integer. Got {dim!r}.")
    return [None if d is None else check_int(d, "pad_shape", 1, 2147483647) for d in pad_shape]


def _check_pad_kind(fill, value):
    """MindSpore pads numbers with numbers, strings with str and bytes with bytes."""
    if fill.kind != value.kind and {"U", "S"} & {fill.kind, value.kind}:
        pair = "string and byte" if {fill.kind, value.kind} == {"U", "S"} else \
            "numeric and string"
        raise RuntimeError(f"PadEnd: can not pad {pair} tensors together, but got: "
                           f"{_kind_name(fill)} and {_kind_name(value)}.")


class Slice(_DataOperation):
    """Slice(*slices): one index per dimension, from the first: int, list of ints, slice, or
    the whole dimension for None, True and Ellipsis (MindSpore documents Ellipsis as the same as
    None, and its kernel takes it so: Slice(Ellipsis, 1) indexes the second dimension, not the
    last as numpy's ``...`` would); no argument keeps the whole input. An empty list (or False)
    selects nothing, which MindSpore refuses when the op runs."""

    def __init__(self, *slices):
        self.slices = tuple(_slice_option(s) for s in slices)

    def _compute(self, value, rng):
        value = np.asarray(value)
        out = value
        for axis, s in enumerate(self.slices):
            if axis >= out.ndim:
                raise RuntimeError(f"Slice: Invalid shape, should be greater than slices "
                                   f"index. The input has {value.ndim} dimensions.")
            if isinstance(s, list):
                _check_indices(s, out.shape[axis])
            out = out[(slice(None),) * axis + (slice(None) if s is Ellipsis else s,)]
        return out


def _slice_option(s):
    """One argument of Slice as a numpy index (a list of ints for an int or a list)."""
    if s is None or s is True:
        return slice(None)
    if s is False:
        return []
    if s is Ellipsis or isinstance(s, slice):     # Ellipsis kept for serialization
        return s
    if is_int(s):
        return [int(s)]
    if isinstance(s, list):
        for i, v in enumerate(s):
            if not is_int(v):
                raise wrong_type(f"slice_option[{i}]", v, int)
        return [int(v) for v in s]
    raise wrong_type("slice", s, int, list, slice, bool, type(Ellipsis))


def _check_indices(indices, size):
    """MindSpore's errors for a list of indices: empty, or one out of [-size, size)."""
    if not indices:
        raise RuntimeError("Slice: Both indices and slices can not be empty.")
    for index in indices:
        if not -size <= index < size:
            shown = index + size if index < 0 else index
            raise RuntimeError(f"Slice: Index {shown} is out of bounds. (index {index}, "
                               f"dimension of size {size})")


class Unique(_DataOperation):
    """Unique(): array -> (its unique values in order of first appearance, index of each input
    element in them, count of each), over the flattened array as MindSpore does with a batch
    (which also refuses 1-D input, strings and bools: taken here). NaNs stay distinct, as
    MindSpore's."""

    def apply(self, arrays, seed):
        if len(arrays) != 1:
            raise RuntimeError(f"Unique: expected 1 input column, got {len(arrays)}")
        value = np.asarray(arrays[0])
        if value.ndim == 0:
            raise RuntimeError("Unique: input must be at least 1-D in order to do unique op, "
                               "got rank:0")
        values, first, inverse, counts = np.unique(value.reshape(-1), return_index=True,
                                                   return_inverse=True, return_counts=True,
                                                   equal_nan=False)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        return (values[order], rank[inverse].astype(np.int32), counts[order].astype(np.int32))


__all__ = ["not_random", "Compose", "RandomApply", "RandomChoice", "TypeCast", "OneHot", "Fill",
           "Duplicate", "Concatenate", "Mask", "PadEnd", "Slice", "Unique", "Relational"]
