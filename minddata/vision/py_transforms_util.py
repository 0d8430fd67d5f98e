"""minddata.vision.py_transforms_util: the helpers of MindSpore's
``mindspore.dataset.vision.py_transforms_util`` that its scripts and tests call directly: the
vectorised HSV conversions behind RgbToHsv and HsvToRgb. MindSpore's other helpers there are the
bodies of its Python ops, which this project's ops are; they are not provided under these
names."""
from transforms_c.vision.colour_space import hsv_to_rgbs, rgb_to_hsvs

__all__ = ["hsv_to_rgbs", "rgb_to_hsvs"]
