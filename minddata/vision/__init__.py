"""minddata.vision: MindSpore 2.x's unified ``mindspore.dataset.vision``. The names here are the
native ops (transforms_c.vision); ``minddata.vision.c_transforms`` re-exports the same, and
``minddata.vision.py_transforms`` is the PIL path with the same op names; ``transforms`` and
``utils`` are MindSpore 2.x's module layout (``mindspore.dataset.vision.transforms``,
``.utils``)."""
from transforms_c.vision import *  # noqa: F401,F403
from transforms_c.vision import __all__ as _native_all

_SUBMODULES = ("c_transforms", "py_transforms", "py_transforms_util", "transforms", "utils")
__all__ = list(_native_all) + list(_SUBMODULES)


def __getattr__(name):
    if name in _SUBMODULES:
        import importlib
        return importlib.import_module(f"minddata.vision.{name}")
    raise AttributeError(f"module 'minddata.vision' has no attribute {name!r}")
