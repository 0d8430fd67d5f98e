"""The Tensor type the iterators return with ``output_numpy=False`` (MindSpore's default).

``minddata.Tensor`` plays ``mindspore.Tensor``'s part on the data side without importing the
training package: it wraps a numpy array without copying (``asnumpy()`` and
``numpy.asarray(t)`` give that same array back), reports MindSpore's ``shape`` (a tuple) and
``dtype`` (a ``minddata.mstype`` object that prints as ``Float32``), indexes and iterates into
Tensors, and takes part in numpy arithmetic (``t + 1``, ``t == 0``, ``np.mean(t)``) with
Tensor results, as MindSpore's Tensor does.

Only numeric and bool arrays become Tensors: the iterators pass string arrays through as numpy
arrays, as MindSpore's do, and convert the leaves of Python ``dict`` columns (see
``to_output``).
"""
import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from . import mstype

_NUMERIC_KINDS = frozenset("biufc")


def _unwrap(value):
    """Tensor -> its array; tuples and lists of indices / operands unwrapped one level."""
    if isinstance(value, Tensor):
        return value._array
    if isinstance(value, tuple):
        return tuple(v._array if isinstance(v, Tensor) else v for v in value)
    return value


def _wrap(value):
    """ndarray or numpy scalar result -> Tensor; anything else unchanged."""
    if isinstance(value, np.ndarray):
        return _new(value) if value.dtype.kind in _NUMERIC_KINDS else value
    if isinstance(value, np.generic) and value.dtype.kind in _NUMERIC_KINDS:
        return _new(np.asarray(value))
    if isinstance(value, tuple):
        return tuple(_wrap(v) for v in value)
    return value


def _np_dtype(dtype):
    """A MindSpore type, numpy dtype-like or Python type -> numpy dtype."""
    if isinstance(dtype, mstype.Type) and not isinstance(dtype, mstype.Number):
        raise TypeError(f"dtype {dtype!r} cannot be the dtype of a Tensor")
    try:
        return np.dtype(dtype)
    except TypeError:
        raise TypeError(f"dtype must be a MindSpore type (mindspore.float32, ...) or a numpy "
                        f"dtype, got {dtype!r}") from None


class Tensor(NDArrayOperatorsMixin):
    """Tensor(input_data=None, dtype=None): a copy of ``input_data`` as a Tensor (Python floats
    become float32, as in MindSpore); ``Tensor.from_numpy(array)`` shares the array."""

    __slots__ = ("_array",)
    __hash__ = object.__hash__      # identity, as MindSpore's (the mixin's __eq__ unsets it)

    def __init__(self, input_data=None, dtype=None):
        if input_data is None:
            raise ValueError("Tensor: input_data must not be None")
        np_dtype = None if dtype is None else _np_dtype(dtype)
        data = input_data._array if isinstance(input_data, Tensor) else input_data
        arr = np.array(data, dtype=np_dtype)
        if np_dtype is None and arr.dtype == np.float64 and not isinstance(
                data, (np.ndarray, np.generic)):
            arr = arr.astype(np.float32)
        if arr.dtype.kind not in _NUMERIC_KINDS:
            raise TypeError(f"Tensor: input_data must be numeric or bool, got an array of "
                            f"{arr.dtype}")
        self._array = arr

    @classmethod
    def from_numpy(cls, array):
        """A Tensor sharing ``array``'s memory (no copy)."""
        if not isinstance(array, np.ndarray):
            raise TypeError(f"Tensor.from_numpy: expected a numpy.ndarray, got "
                            f"{type(array).__name__}")
        if array.dtype.kind not in _NUMERIC_KINDS:
            raise TypeError(f"Tensor.from_numpy: the array must be numeric or bool, got "
                            f"{array.dtype}")
        t = cls.__new__(cls)
        t._array = array
        return t

    # -- MindSpore's interface --------------------------------------------------------------
    def asnumpy(self):
        """The underlying numpy array (shared, not copied)."""
        return self._array

    numpy = asnumpy

    @property
    def shape(self):
        return self._array.shape

    @property
    def dtype(self):
        return mstype.from_numpy_dtype(self._array.dtype)

    @property
    def ndim(self):
        return self._array.ndim

    @property
    def size(self):
        return self._array.size

    @property
    def itemsize(self):
        return self._array.itemsize

    @property
    def nbytes(self):
        return self._array.nbytes

    @property
    def strides(self):
        return self._array.strides

    @property
    def T(self):  # noqa: N802  (MindSpore's name)
        return _new(self._array.T)

    def dim(self):
        return self._array.ndim

    def numel(self):
        return self._array.size

    def item(self, *index):
        return self._array.item(*index)

    def tolist(self):
        return self._array.tolist()

    def astype(self, dtype, copy=True):
        return _new(self._array.astype(_np_dtype(dtype), copy=copy))

    def copy(self):
        return _new(self._array.copy())

    def reshape(self, *shape):
        return _new(self._array.reshape(*shape))

    def flatten(self):
        return _new(self._array.reshape(-1))

    def squeeze(self, axis=None):
        return _new(self._array.squeeze(axis))

    def transpose(self, *axes):
        return _new(self._array.transpose(*axes))

    # Reductions, also what numpy's np.sum(t) / np.mean(t) / ... call on a non-array.
    def sum(self, axis=None, dtype=None, keepdims=False, **kwargs):
        return _wrap(self._array.sum(axis=axis, dtype=dtype, keepdims=keepdims, **kwargs))

    def mean(self, axis=None, dtype=None, keepdims=False, **kwargs):
        return _wrap(self._array.mean(axis=axis, dtype=dtype, keepdims=keepdims, **kwargs))

    def max(self, axis=None, keepdims=False, **kwargs):
        return _wrap(self._array.max(axis=axis, keepdims=keepdims, **kwargs))

    def min(self, axis=None, keepdims=False, **kwargs):
        return _wrap(self._array.min(axis=axis, keepdims=keepdims, **kwargs))

    def all(self, axis=None, keepdims=False):
        return _wrap(self._array.all(axis=axis, keepdims=keepdims))

    def any(self, axis=None, keepdims=False):
        return _wrap(self._array.any(axis=axis, keepdims=keepdims))

    def std(self, axis=None, ddof=0, keepdims=False):
        return _wrap(self._array.std(axis=axis, ddof=ddof, keepdims=keepdims))

    def var(self, axis=None, ddof=0, keepdims=False):
        return _wrap(self._array.var(axis=axis, ddof=ddof, keepdims=keepdims))

    def argmax(self, axis=None, **kwargs):
        return _wrap(self._array.argmax(axis=axis, **kwargs))

    def argmin(self, axis=None, **kwargs):
        return _wrap(self._array.argmin(axis=axis, **kwargs))

    # -- Python protocols -------------------------------------------------------------------
    def __len__(self):
        if self._array.ndim == 0:
            raise TypeError("Not support len of a 0-D tensor")
        return len(self._array)

    def __getitem__(self, index):
        return _wrap(np.asarray(self._array[_unwrap(index)]))

    def __setitem__(self, index, value):
        self._array[_unwrap(index)] = _unwrap(value)

    def __iter__(self):
        if self._array.ndim == 0:
            raise TypeError("iteration over a 0-D tensor")
        return (_new(np.asarray(row)) for row in self._array)

    def __contains__(self, value):
        # As numpy's (and MindSpore's): any element equal to ``value``.
        return bool((self._array == _unwrap(value)).any())

    def __bool__(self):
        return bool(self._array)

    # Any one-element Tensor converts, as MindSpore's (numpy 2 converts 0-d arrays only).
    def __int__(self):
        return int(self._one_element())

    def __float__(self):
        return float(self._one_element())

    def _one_element(self):
        return self._array.item() if self._array.size == 1 else self._array

    def __index__(self):
        if self._array.dtype.kind not in "iub" or self._array.ndim:
            raise TypeError("only 0-D integer Tensors can be used as an index")
        return int(self._array)

    def __reduce__(self):
        return (Tensor.from_numpy, (self._array,))

    def __copy__(self):
        return _new(self._array)

    def __deepcopy__(self, memo):
        return _new(self._array.copy())

    # -- numpy interop --------------------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        arr = self._array
        if dtype is not None and np.dtype(dtype) != arr.dtype:
            if copy is False:
                raise ValueError("Tensor: a dtype conversion needs a copy")
            return arr.astype(dtype)
        return arr.copy() if copy else arr

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = tuple(_unwrap(x) for x in inputs)
        if "out" in kwargs:
            kwargs["out"] = _unwrap(kwargs["out"])
        return _wrap(getattr(ufunc, method)(*inputs, **kwargs))

    def __dlpack__(self, *args, **kwargs):
        return self._array.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()

    # -- printing -------------------------------------------------------------------------
    def __repr__(self):
        arr = self._array
        shape = list(arr.shape)
        body = np.array2string(arr, separator=", ", threshold=1000, edgeitems=3)
        sep = "\n" if arr.ndim > 1 else " "
        return f"Tensor(shape={shape}, dtype={self.dtype}, value={sep}{body})"

    def __str__(self):
        return str(self._array)


# The class of the Tensors handed out (iterators, indexing and arithmetic results): Tensor, or
# the subclass serve_tensors_as() installed (python -m training.compat: one that is also a
# mindspore.Tensor, i.e. training.Tensor, for MindSpore scripts' isinstance checks).
_served = Tensor


def serve_tensors_as(cls):
    """Hand out instances of ``cls`` (Tensor or a subclass of it) from now on; returns the
    class served before."""
    global _served
    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError(f"serve_tensors_as: {cls!r} is not a subclass of minddata.Tensor")
    before, _served = _served, cls
    return before


def _new(array):
    """A served Tensor sharing ``array`` (a numeric ndarray: the callers made sure)."""
    t = _served.__new__(_served)
    t._array = array
    return t


def to_output(value, output_numpy, do_copy=False):
    """One column value of a row as an iterator returns it: numeric arrays as Tensors (unless
    ``output_numpy``), string arrays as numpy arrays, and Python ``dict`` columns with their
    leaves (numbers, strings, arrays, inside dicts, lists and tuples) converted the same way."""
    if type(value) is np.ndarray:
        if do_copy:
            value = value.copy()
        if output_numpy or value.dtype.kind not in _NUMERIC_KINDS:
            return value
        return _new(value)
    if isinstance(value, dict):
        return _python_to_output(value, output_numpy, do_copy)
    if output_numpy and _is_torch_tensor(value):
        # A batch the GPU path made stays a device tensor unless numpy was asked for.
        return value.detach().cpu().numpy()
    return value


def _is_torch_tensor(value):
    """Without importing torch: a pipeline that made none never loads it."""
    return type(value).__module__.startswith("torch") and hasattr(value, "detach")


def _python_to_output(obj, output_numpy, do_copy):
    if isinstance(obj, (bool, int, float, str, np.generic, np.ndarray)):
        arr = np.array(obj) if do_copy or not isinstance(obj, np.ndarray) else obj
        if output_numpy or arr.dtype.kind not in _NUMERIC_KINDS:
            return arr
        return _new(arr)
    if isinstance(obj, dict):
        return {k: _python_to_output(v, output_numpy, do_copy) for k, v in obj.items()}
    if isinstance(obj, tuple):
        return tuple(_python_to_output(v, output_numpy, do_copy) for v in obj)
    if isinstance(obj, list):
        return [_python_to_output(v, output_numpy, do_copy) for v in obj]
    return obj
