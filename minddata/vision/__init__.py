"""minddata.vision: MindSpore 2.x's unified ``mindspore.dataset.vision``. The names here are the
native ops (transforms_c.vision); ``minddata.vision.c_transforms`` re-exports the same, and
``minddata.vision.py_transforms`` is the PIL path with the same op names."""
from transforms_c.vision import *  # noqa: F401,F403
from transforms_c.vision import __all__ as _native_all

__all__ = list(_native_all) + ["c_transforms", "py_transforms"]


def __getattr__(name):
    if name in ("c_transforms", "py_transforms"):
        import importlib
        return importlib.import_module(f"minddata.vision.{name}")
    raise AttributeError(f"module 'minddata.vision' has no attribute {name!r}")
