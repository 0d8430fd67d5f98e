"""minddata.vision.transforms: MindSpore 2.x's module ``mindspore.dataset.vision.transforms``
(``from mindspore.dataset.vision.transforms import Decode``). The same classes as
``minddata.vision``."""
from transforms_c.vision import *  # noqa: F401,F403
from transforms_c.vision import __all__  # noqa: F401
