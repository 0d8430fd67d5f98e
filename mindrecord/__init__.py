"""MindRecord files without MindSpore: ``from mindrecord import FileWriter, FileReader``.

Names are imported lazily so that importing the package stays cheap and each part (writer,
reader, converters) can be used on its own.
"""
from .errors import *  # noqa: F401,F403  (MindSpore's exception names)
from .errors import __all__ as _error_names
from .status import FAILED, SUCCESS, MSRStatus  # noqa: F401  (MindSpore's status codes)

_LAZY = {
    "FileWriter": ".writer",
    "FileReader": ".reader",
    "MindPage": ".mindpage",
    "ShardReader": ".shard_reader",
    "ImageNetToMR": ".tools",
    "Cifar10ToMR": ".tools",
    "Cifar100ToMR": ".tools",
    "MnistToMR": ".tools",
    "CsvToMR": ".tools",
    "TFRecordToMR": ".tools",
    "ImageFolderToMR": ".tools",
    "ParquetToMR": ".tools",
}

__all__ = sorted(_LAZY) + list(_error_names) + ["SUCCESS", "FAILED", "MSRStatus"]


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mindrecord' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value
