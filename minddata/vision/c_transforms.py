"""minddata.vision.c_transforms: the native vision ops (re-export of transforms_c.vision)."""
from transforms_c.vision import *  # noqa: F401,F403
from transforms_c.vision import __all__  # noqa: F401
