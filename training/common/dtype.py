"""MindSpore's data types (`mindspore.common.dtype`, imported as `mstype`), as numpy scalar
types: `mstype.float32 is numpy.float32`, so they work wherever numpy or minddata takes a dtype
(`Tensor(x, mstype.float32)`, `transforms.TypeCast(mstype.int32)`)."""
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

number_type = (int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32,
               float64, complex64, complex128)
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64)
all_types = (bool_,) + number_type

_PY_TYPES = {bool: bool_, int: int64, float: float32, str: string}


def dtype_to_nptype(type_):
    """The numpy type of a MindSpore type (the same object here)."""
    return np.dtype(type_).type


def pytype_to_dtype(obj):
    """MindSpore's type for a Python type or numpy dtype (int -> int64, float -> float32)."""
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
    return {"b": bool, "i": int, "u": int, "f": float, "c": complex, "U": str}[kind]
