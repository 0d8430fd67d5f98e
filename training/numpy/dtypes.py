"""mindspore.numpy's dtype names (numpy's types here, as training's dtypes), constants and
type queries."""
import numpy as np

from training.numpy._core import as_tensor, dtype_of, is_tensor, np_dtype

int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
bool_ = np.bool_
int_, uint, float_ = np.int64, np.uint64, np.float64     # MindSpore's aliases of the widest
numeric_types = [int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32,
                 float64, bool_]

pi = np.pi
inf = np.inf
nan = np.nan
PINF = np.inf
NINF = -np.inf


def promote_types(type1, type2):
    """The smallest type both safely cast to (numpy's rule)."""
    return np.promote_types(np_dtype(type1), np_dtype(type2)).type


def result_type(*arrays_and_dtypes):
    """The type of an element-wise result of the tensors and dtypes given (numpy's rule;
    Python numbers count as int32 and float32 tensors)."""
    types = [dtype_of(a) if is_tensor(a) else np_dtype(a) if isinstance(a, (type, str, np.dtype))
             else dtype_of(as_tensor(a, "result_type")) for a in arrays_and_dtypes]
    return np.result_type(*types).type


def isscalar(element):
    """Whether `element` is a Python or numpy scalar (a tensor is not)."""
    return isinstance(element, (bool, int, float, complex, str, bytes, np.generic))


__all__ = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
           "float32", "float64", "bool_", "int_", "uint", "float_", "numeric_types", "pi", "inf",
           "nan", "PINF", "NINF", "promote_types", "result_type", "isscalar"]
