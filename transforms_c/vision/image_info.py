"""``get_image_size`` and ``get_image_num_channels`` (mindspore.dataset.vision, also in
``vision.utils``): an image's [height, width] and its channel count, for a numpy array laid out
H x W [x C] (as every op here takes it) or a PIL image. MindSpore reads the last two dimensions
before the channels of a batch-like array the same way: (N, H, W, C) gives [H, W] and C."""
import numpy as np


def _as_hw_c(image, op):
    try:
        from PIL import Image
        pil = isinstance(image, Image.Image)
    except ImportError:
        pil = False
    if pil:
        return image.height, image.width, len(image.getbands())
    if not isinstance(image, np.ndarray):
        raise TypeError(f"Input image is not of type <class 'numpy.ndarray'> or "
                        f"<class 'PIL.Image.Image'>, but got: {type(image)}.")
    if image.ndim < 2:
        raise RuntimeError(f"{op}: invalid parameter, image should have at least two "
                           f"dimensions, but got: {image.ndim}")
    if image.ndim == 2:
        return image.shape[0], image.shape[1], 1
    return image.shape[-3], image.shape[-2], image.shape[-1]


def get_image_size(image):
    """[height, width] of `image` (numpy H x W [x C] array or PIL image)."""
    height, width, _ = _as_hw_c(image, "GetImageSize")
    return [int(height), int(width)]


def get_image_num_channels(image):
    """Number of channels of `image`: 1 for a 2-D array, the last dimension otherwise, the
    bands of a PIL image."""
    return int(_as_hw_c(image, "GetImageNumChannels")[2])
