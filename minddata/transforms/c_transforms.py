"""minddata.transforms.c_transforms: re-export of transforms_c.transforms."""
from transforms_c.transforms import *  # noqa: F401,F403
from transforms_c.transforms import __all__  # noqa: F401
