"""MindSpore's data types (`mindspore.common.dtype`, imported as `mstype`), as numpy scalar
types: `mstype.float32 is numpy.float32`, so they work wherever numpy or minddata takes a dtype
(`Tensor(x, mstype.float32)`, `transforms.TypeCast(mstype.int32)`)."""
import builtins

import numpy as np

bool_ = np.bool_
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128
half, single, double = float16, float32, float64
short, intc, intp = int16, int32, int64
ushort, uintc, uintp = uint16, uint32, uint64
string = np.str_
cfloat, cdouble = complex64, complex128
byte, ubyte = int8, uint8
# MindSpore's generic types (a category, no tensor dtype: Tensor(x, float_) is a TypeError in
# both) as numpy's abstract classes
float_, int_, uint, number = np.floating, np.signedinteger, np.unsignedinteger, np.number

number_type = (int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32,
               float64, complex64, complex128)
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64)
all_types = (bool_,) + number_type

# (measured in MindSpore 2.10: float -> float64, as numpy's)
_PY_TYPES = {builtins.bool: bool_, builtins.int: int64, builtins.float: float64, str: string}


def dtype_to_nptype(type_):
    """The numpy type of a MindSpore type (the same object here)."""
    return np.dtype(type_).type


def pytype_to_dtype(obj):
    """MindSpore's type for a Python type or numpy dtype (int -> int64, float -> float64)."""
    if obj in _PY_TYPES:
        return _PY_TYPES[obj]
    try:
        return np.dtype(obj).type
    except TypeError:
        raise NotImplementedError(f"For 'pytype_to_dtype', the type {obj!r} has no MindSpore "
                                  f"data type") from None


def dtype_to_pytype(type_):
    """The Python type a MindSpore type holds (float32 -> float)."""
    kind = np.dtype(type_).kind
    return {"b": builtins.bool, "i": builtins.int, "u": builtins.int, "f": builtins.float,
            "c": complex, "U": str}[kind]


def get_py_obj_dtype(obj):
    """The MindSpore type of a Python or numpy scalar (1 -> int64, 1.0 -> float64, a numpy
    scalar its own type), a string (string) or a Tensor (its dtype: MindSpore gives the tensor
    type tensor[float32], which has no numpy form)."""
    if isinstance(obj, np.generic):
        return type(obj)
    if hasattr(obj, "asnumpy"):     # a Tensor
        return np.dtype(obj.dtype).type
    if isinstance(obj, type):
        return pytype_to_dtype(obj)
    if type(obj) in _PY_TYPES:
        return _PY_TYPES[type(obj)]
    raise NotImplementedError(f"The python type {type(obj)} cannot be converted to MindSpore "
                              f"type.")


# types MindSpore has that numpy cannot hold: an AttributeError that says so (not numpy's
# nearest type, which would change the values silently)
NOT_HELD = ("bfloat16", "float8_e4m3fn", "float8_e5m2", "hifloat8", "qint4x2")


def not_held(name):
    return AttributeError(f"mindspore.{name} is not provided: numpy has no {name} type, so a "
                          f"Tensor cannot hold it; use float16 or float32 (on the torch backend, "
                          f"Model(amp_level=...) runs bfloat16 autocast on the CPU)")


def __getattr__(name):
    if name in NOT_HELD:
        raise not_held(name)
    raise AttributeError(f"module 'mindspore.common.dtype' has no attribute '{name}'")


# (last: these names shadow Python's within this module)
float, int, long, bool = float32, int32, int64, bool_  # noqa: A001
