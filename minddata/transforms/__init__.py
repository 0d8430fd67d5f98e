"""minddata.transforms: MindSpore 2.x's unified ``mindspore.dataset.transforms`` (the native
general ops of transforms_c.transforms); ``c_transforms`` and ``py_transforms`` submodules as
in MindSpore 1.x, ``transforms`` as in 2.x."""
from transforms_c.transforms import *  # noqa: F401,F403
from transforms_c.transforms import __all__ as _native_all

from .py_transforms import RandomOrder  # noqa: F401  (unified in MindSpore 2.x)

_SUBMODULES = ("c_transforms", "py_transforms", "transforms")
__all__ = list(_native_all) + ["RandomOrder"] + list(_SUBMODULES)


def __getattr__(name):
    if name in _SUBMODULES:
        import importlib
        return importlib.import_module(f"minddata.transforms.{name}")
    raise AttributeError(f"module 'minddata.transforms' has no attribute {name!r}")
