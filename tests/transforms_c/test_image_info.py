"""vision.get_image_size / get_image_num_channels, with the values MindSpore 2.10 gives."""
import numpy as np
import pytest
from PIL import Image

import minddata.vision as vision
from minddata.vision import utils


@pytest.mark.parametrize("image,size,channels", [
    (np.zeros((4, 6, 3), np.uint8), [4, 6], 3),
    (np.zeros((4, 6), np.uint8), [4, 6], 1),
    (np.zeros((4, 6, 1), np.float32), [4, 6], 1),
    (np.zeros((2, 3, 4, 5)), [3, 4], 5),
    (Image.new("RGB", (6, 4)), [4, 6], 3),
    (Image.new("L", (6, 4)), [4, 6], 1),
    (Image.new("RGBA", (6, 4)), [4, 6], 4),
])
def test_size_and_channels(image, size, channels):
    assert vision.get_image_size(image) == size
    assert vision.get_image_num_channels(image) == channels
    assert utils.get_image_size is vision.get_image_size


def test_bad_images():
    with pytest.raises(RuntimeError, match="at least two dimensions, but got: 1"):
        vision.get_image_size(np.zeros(4, np.uint8))
    with pytest.raises(TypeError, match="numpy.ndarray'> or <class 'PIL.Image.Image'>"):
        vision.get_image_num_channels("x")
