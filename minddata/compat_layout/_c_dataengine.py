"""``mindspore._c_dataengine``: the parts of MindSpore's C++ dataset binding that Python code
uses directly, on numpy: ``Tensor`` (an array the pipeline holds), ``TensorShape`` and
``DataType`` (the pipeline's element types, named as MindSpore names them), and
``GlobalContext.profiling_manager()`` (Dataset Profiling, minddata/profiling.py)."""
import numpy as np

__all__ = ["DataType", "GlobalContext", "Tensor", "TensorShape"]

# MindSpore's element type names -> the numpy dtype a Tensor of that type holds ("string":
# numpy unicode strings, "bytes": numpy byte strings, "python": Python objects, e.g. dicts).
_NUMPY_OF = {
    "bool": np.dtype(np.bool_), "int8": np.dtype(np.int8), "uint8": np.dtype(np.uint8),
    "int16": np.dtype(np.int16), "uint16": np.dtype(np.uint16), "int32": np.dtype(np.int32),
    "uint32": np.dtype(np.uint32), "int64": np.dtype(np.int64), "uint64": np.dtype(np.uint64),
    "float16": np.dtype(np.float16), "float32": np.dtype(np.float32),
    "float64": np.dtype(np.float64), "string": np.dtype(np.str_), "bytes": np.dtype(np.bytes_),
    "python": np.dtype(object),
}
_NAME_OF_KIND = {"U": "string", "S": "bytes", "O": "python"}


class DataType:
    """DataType(name): a pipeline element type, e.g. ``DataType("int64")``; equal when the
    names are equal. ``str()`` gives the name."""

    __slots__ = ("_name",)

    def __init__(self, name):
        if not isinstance(name, str):
            raise TypeError(f"DataType: name must be of type str, but got {type(name).__name__}")
        if name not in _NUMPY_OF:
            raise ValueError(f"DataType: invalid data type {name!r}, expected one of "
                             f"{sorted(_NUMPY_OF)}")
        self._name = name

    @classmethod
    def from_numpy(cls, dtype):
        """The DataType of a numpy dtype (or dtype-like: ``np.int32``, ``int``, ``str``)."""
        dt = np.dtype(dtype)
        name = _NAME_OF_KIND.get(dt.kind) or dt.newbyteorder("=").name
        if name not in _NUMPY_OF:
            raise TypeError(f"numpy dtype {dt} has no dataset DataType")
        return cls(name)

    def to_numpy(self):
        """The numpy dtype of this type (variable-length for string and bytes)."""
        return _NUMPY_OF[self._name]

    def is_python(self):
        """True for the type of Python-object (dict) columns."""
        return self._name == "python"

    def __eq__(self, other):
        return isinstance(other, DataType) and other._name == self._name

    def __hash__(self):
        return hash(("DataType", self._name))

    def __str__(self):
        return self._name

    def __repr__(self):
        return f"DataType({self._name!r})"

    def __deepcopy__(self, memo):
        return self


class TensorShape:
    """TensorShape(dims): a shape; ``-1`` marks a dimension that is not known."""

    __slots__ = ("_dims",)

    def __init__(self, dims):
        self._dims = [int(d) for d in dims]

    def as_list(self):
        return list(self._dims)

    def is_known(self):
        """True when every dimension is known (none is -1)."""
        return all(d >= 0 for d in self._dims)

    def __str__(self):
        return "<" + ",".join(str(d) for d in self._dims) + ">"

    __repr__ = __str__


class Tensor:
    """Tensor(array): the pipeline's tensor, holding a copy of ``array`` (a numpy array, or
    anything numpy turns into one of bool, numbers, str or bytes).

    ``as_array()`` and ``numpy.array(t, copy=False)`` give the held array itself (no copy), so
    writing into one shows in the other, as with MindSpore's buffer protocol."""

    __slots__ = ("_array",)

    def __init__(self, array):
        arr = np.array(array)
        if arr.dtype.kind not in "biufUS":
            raise TypeError(f"Tensor: the array must hold bool, numbers, str or bytes, but got "
                            f"dtype {arr.dtype}")
        self._array = arr

    def as_array(self):
        """The held numpy array (not a copy)."""
        return self._array

    def __array__(self, dtype=None, copy=None):
        if dtype is not None and np.dtype(dtype) != self._array.dtype:
            return self._array.astype(dtype)
        return self._array.copy() if copy else self._array

    def shape(self):
        return TensorShape(self._array.shape)

    def type(self):
        return DataType.from_numpy(self._array.dtype)

    def __str__(self):
        return f"Tensor (shape: {self.shape()}, Type: {self.type()})\n{self._array}"


class GlobalContext:
    """MindSpore's global context of the dataset engine: its profiling manager."""

    @staticmethod
    def profiling_manager():
        """The process's Dataset Profiling manager (``init``, ``start``, ``stop``, ``save``;
        minddata/profiling.py)."""
        from minddata.profiling import MANAGER
        return MANAGER
