"""``mindspore.dataset.core.datatypes``: numpy and MindSpore types -> the pipeline's DataType."""
from minddata import mstype
from minddata.compat_layout._c_dataengine import DataType

__all__ = ["nptype_to_detype", "mstype_to_detype", "mstypelist_to_detypelist"]


def nptype_to_detype(type_):
    """The DataType of a numpy dtype or dtype-like (``np.int32``, ``"float32"``, ``int`` ->
    int64, ``str`` -> string, ``bytes`` -> bytes)."""
    return DataType.from_numpy(type_)


def mstype_to_detype(type_):
    """The DataType of a MindSpore type (``mindspore.int32``, ``mindspore.string``, ...)."""
    if isinstance(type_, mstype.String):
        return DataType("string")
    try:
        return DataType.from_numpy(type_)
    except TypeError:
        raise TypeError(f"mstype_to_detype: {type_!r} is not a MindSpore data type") from None


def mstypelist_to_detypelist(type_list):
    """``mstype_to_detype`` of each element of a list (None stays None)."""
    return [None if t is None else mstype_to_detype(t) for t in type_list]
