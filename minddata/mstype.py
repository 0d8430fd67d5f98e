"""MindSpore's data types (``mindspore.dtype``, imported in scripts as ``mstype``).

Tensors returned by the iterators (``minddata.tensor.Tensor``) report one of these objects as
their ``dtype``; they print as MindSpore's do (``str(float32) == "Float32"``, ``repr(float32)
== "mindspore.float32"``). A numeric type also compares equal to the numpy dtype it stands for
(``float32 == numpy.float32``, which MindSpore's does not), because the training package's
``mstype`` names are numpy's types: ``tensor.dtype == mstype.float32`` then holds whichever
package the two sides come from.

Each concrete type also carries the numpy dtype it stands for as ``.dtype``, which numpy reads
when it is given a dtype-like object: ``numpy.dtype(mstype.float32)``, ``arr.astype(mstype.int32)``
and ``TypeCast(mstype.int32)`` work without a conversion table at each call site.
"""
import numpy as np


class Type:
    """Base of every MindSpore type object."""

    __slots__ = ("_name", "_alias")

    def __init__(self, name, alias):
        self._name = name      # MindSpore's str(): "Float32"
        self._alias = alias    # attribute name in mindspore: "float32"

    def __str__(self):
        return self._name

    def __repr__(self):
        return f"mindspore.{self._alias}"

    def __eq__(self, other):
        return type(other) is type(self) and other._name == self._name

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(("mindspore.dtype", self._name))

    def __reduce__(self):
        # Pickles by name, so a type sent to a worker process is the same object there.
        return (_by_alias, (self._alias,))


class Number(Type):
    """A concrete numeric type: knows its numpy dtype (``.dtype``) and Python type."""

    __slots__ = ("_np", "_py")

    def __init__(self, name, alias, np_dtype, py_type):
        super().__init__(name, alias)
        self._np = np.dtype(np_dtype)
        self._py = py_type

    @property
    def dtype(self):
        """The numpy dtype (numpy's dtype-like protocol)."""
        return self._np

    def __eq__(self, other):
        if isinstance(other, Type):
            return type(other) is type(self) and other._name == self._name
        if isinstance(other, (np.dtype, type)) and other is not object:
            try:
                return np.dtype(other) == self._np
            except TypeError:
                return False
        return False

    def __hash__(self):
        # the hash of the numpy scalar type, which the training package's mstype names are: a
        # dict keyed by mstype.int32 finds a Tensor's dtype
        return hash(self._np.type)


class Bool(Number):
    __slots__ = ()


class Int(Number):
    __slots__ = ()


class UInt(Number):
    __slots__ = ()


class Float(Number):
    __slots__ = ()


class Complex(Number):
    __slots__ = ()


class String(Type):
    __slots__ = ()


bool_ = Bool("Bool", "bool", np.bool_, bool)
int8 = Int("Int8", "int8", np.int8, int)
int16 = Int("Int16", "int16", np.int16, int)
int32 = Int("Int32", "int32", np.int32, int)
int64 = Int("Int64", "int64", np.int64, int)
uint8 = UInt("UInt8", "uint8", np.uint8, int)
uint16 = UInt("UInt16", "uint16", np.uint16, int)
uint32 = UInt("UInt32", "uint32", np.uint32, int)
uint64 = UInt("UInt64", "uint64", np.uint64, int)
float16 = Float("Float16", "float16", np.float16, float)
float32 = Float("Float32", "float32", np.float32, float)
float64 = Float("Float64", "float64", np.float64, float)
complex64 = Complex("Complex64", "complex64", np.complex64, complex)
complex128 = Complex("Complex128", "complex128", np.complex128, complex)
string = String("String", "string_")

# MindSpore's aliases of the same objects.
half, single, double = float16, float32, float64
short, intc, long = int16, int32, int64
byte, ubyte, ushort, uintc, uintp, intp = int8, uint8, uint16, uint32, uint64, int64
cfloat, cdouble = complex64, complex128

int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64)
complex_type = (complex64, complex128)
number_type = int_type + uint_type + float_type + complex_type
all_types = (bool_,) + number_type + (string,)

_NUMBERS = {t.dtype: t for t in (bool_,) + number_type}
_ALIASES = {t._alias: t for t in all_types}


def _by_alias(alias):
    return _ALIASES[alias]


def dtype_to_nptype(type_):
    """The numpy scalar type of a MindSpore type (``dtype_to_nptype(float32) is np.float32``)."""
    if not isinstance(type_, Number):
        raise TypeError(f"dtype_to_nptype: {type_!r} is not a MindSpore numeric type")
    return type_.dtype.type


def dtype_to_pytype(type_):
    """The Python type of a MindSpore type (int, float, bool, complex; str for string)."""
    if type_ is string:
        return str
    if not isinstance(type_, Number):
        raise TypeError(f"dtype_to_pytype: {type_!r} is not a MindSpore type")
    return type_._py


def pytype_to_dtype(obj):
    """A numpy dtype-like, a Python type (int -> int64, float -> float64, bool -> bool) or a
    MindSpore type -> the MindSpore type."""
    if isinstance(obj, Type):
        return obj
    if obj is bool:
        return bool_
    if obj is int:
        return int64
    if obj is float:
        return float64
    if obj is str:
        return string
    return from_numpy_dtype(obj)


def from_numpy_dtype(dt):
    """numpy dtype (or dtype-like) -> MindSpore type; ValueError for types MindSpore lacks."""
    d = np.dtype(dt)
    if d.kind in "US":
        return string
    found = _NUMBERS.get(d if d.isnative else d.newbyteorder("="))
    if found is None:
        raise ValueError(f"numpy dtype {d} has no MindSpore type")
    return found


__all__ = [name for name, v in globals().items()
           if isinstance(v, Type) or name in (
               "Type", "Number", "Bool", "Int", "UInt", "Float", "Complex", "String",
               "int_type", "uint_type", "float_type", "complex_type", "number_type", "all_types",
               "dtype_to_nptype", "dtype_to_pytype", "pytype_to_dtype")]
