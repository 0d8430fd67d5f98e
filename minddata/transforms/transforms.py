"""minddata.transforms.transforms: MindSpore 2.x's module ``mindspore.dataset.transforms.transforms``
(scripts import ``TypeCast``, ``Compose``, ``OneHot`` ... from it). The same classes as
``minddata.transforms``."""
from transforms_c.transforms import *  # noqa: F401,F403
from transforms_c.transforms import __all__ as _native_all

from .py_transforms import RandomOrder  # noqa: F401

__all__ = list(_native_all) + ["RandomOrder"]
