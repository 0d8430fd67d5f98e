"""MindSpore 2.10's image cells: SSIM, MSSSIM, PSNR, ImageGradients, CentralCrop, with their
arguments, checks, error types and parameters (SSIM's frozen Gaussian window is the Parameter
'conv.weight', MSSSIM's one per scale 'multi_convs_list.<i>.weight', so checkpoints load).
Built from training.ops, they run on both backends with gradients. MindSpore 2.10 runs SSIM,
MSSSIM and PSNR in graph mode only (in PyNative mode every call raises ValueError 'ScalarCast':
README); the values are its graph mode's."""
import numpy as np

from training.backends.dispatch import is_torch
from training.nn.cell import Cell
from training.nn.layers.arguments import positive_float
from training.nn.layers.container import CellList
from training.nn.layers.conv import Conv2d
from training.nn.layers.pooling import AvgPool2d
from training.ops import functional as F
from training.tensor import Tensor


def _dtype_name(x):
    return str(x.dtype).split(".")[-1]


def _constant(like, array):
    """`array` on `like`'s backend (and device)."""
    if is_torch(like):
        import torch
        return torch.as_tensor(array, device=like.device)
    return Tensor(array)


def _check_max_val(max_val, cls):
    if not isinstance(max_val, (int, float)) or isinstance(max_val, bool):
        raise TypeError(f"For '{cls}', the type of 'max_val' should be one of '['int', "
                        f"'float']', but got type '{type(max_val).__name__}'.")
    if max_val <= 0:
        raise ValueError(f"For '{cls}', the argument 'max_val' must > 0.0, but got {max_val}.")


def _check_window_arguments(cls, filter_size, filter_sigma, k1, k2):
    if not isinstance(filter_size, int) or isinstance(filter_size, bool):
        raise TypeError(f"For '{cls}', the 'filter_size' must be int, but got "
                        f"'{type(filter_size).__name__}'")
    if filter_size < 1:
        raise ValueError(f"For '{cls}', the 'filter_size' must be int and must >= 1, but got "
                         f"'{filter_size}' with type 'int'.")
    positive_float(filter_sigma, "filter_sigma", cls)
    for name, value in (("k1", k1), ("k2", k2)):
        if not isinstance(value, float):
            raise TypeError(f"For '{cls}', the type of '{name}' should be 'float', but got type "
                            f"'{type(value).__name__}'.")


def gaussian_window(size, sigma):
    """The (1, 1, size, size) normalized Gaussian over offsets -size // 2 + 1 .. size // 2
    (an even size is one off centre, as MindSpore's)."""
    offsets = np.arange(-size // 2 + 1, size // 2 + 1, dtype=np.float32)
    squared = offsets[:, None] ** 2 + offsets[None, :] ** 2
    g = np.exp(-squared / np.float32(2 * sigma ** 2)).astype(np.float32)
    return (g / g.sum()).reshape(1, 1, size, size)


def _window_conv(size, sigma):
    conv = Conv2d(1, 1, size, pad_mode="valid", weight_init=Tensor(gaussian_window(size, sigma)))
    conv.weight.requires_grad = False
    return conv


def _check_4d(x, name, cls):
    if x.ndim != 4:
        raise ValueError(f"For '{cls}', the dimension of '{name}' must be 4d, but got {x.ndim}.")


def _check_same(img1, img2):
    """MindSpore's SameTypeShape: img2 against img1."""
    if _dtype_name(img1) != _dtype_name(img2):
        raise TypeError(f"For 'SameTypeShape', the x dtype should be = y dtype: "
                        f"Tensor[{_dtype_name(img2).capitalize()}], but got "
                        f"Tensor[{_dtype_name(img1).capitalize()}].")
    if tuple(img1.shape) != tuple(img2.shape):
        raise ValueError(f"For 'SameTypeShape', the x shape should be = y shape: "
                         f"{list(img2.shape)}, but got {list(img1.shape)}.")


def _as_unit_float32(images, max_val):
    """The images and max_val as float32, both divided by the dtype's largest value for an
    integer dtype (uint8 images in [0, 255] become [0, 1])."""
    name = _dtype_name(images[0])
    scale = float(np.iinfo(name).max) if name.startswith(("int", "uint")) else 1.0
    scaled = [F.cast(image, np.float32) for image in images]
    if scale > 1.0:
        scaled = [image * np.float32(1.0 / scale) for image in scaled]
        max_val = np.float32(max_val) * np.float32(1.0 / scale)
    return scaled, float(np.float32(max_val))


def _ssim_and_contrast(c1, c2, img1, img2, conv):
    """Each channel's mean SSIM and contrast-structure terms, (N, C) each."""
    n, c, h, w = img1.shape
    flat = [F.reshape(image, (n * c, 1, h, w)) for image in (img1, img2)]
    mu1, mu2 = conv(flat[0]), conv(flat[1])
    mu1_sq, mu2_sq, mu1_mu2 = mu1 * mu1, mu2 * mu2, mu1 * mu2
    sigma1_sq = conv(flat[0] * flat[0]) - mu1_sq
    sigma2_sq = conv(flat[1] * flat[1]) - mu2_sq
    sigma12 = conv(flat[0] * flat[1]) - mu1_mu2
    contrast = (2 * sigma12 + c2) / (sigma1_sq + sigma2_sq + c2)
    ssim = (2 * mu1_mu2 + c1) / (mu1_sq + mu2_sq + c1) * contrast
    out_h, out_w = ssim.shape[2:]
    return tuple(F.mean(F.reshape(value, (n, c, out_h, out_w)), (2, 3))
                 for value in (ssim, contrast))


class SSIM(Cell):
    """The structural similarity of two NCHW float16/float32 image batches, per image (N,):
    a Gaussian window (filter_size, filter_sigma) slid without padding over each channel."""

    def __init__(self, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        _check_max_val(max_val, "SSIM")
        _check_window_arguments("SSIM", filter_size, filter_sigma, k1, k2)
        self.max_val, self.filter_size, self.filter_sigma = max_val, filter_size, filter_sigma
        self.k1, self.k2 = k1, k2
        self.conv = _window_conv(filter_size, filter_sigma)

    def construct(self, img1, img2):
        if _dtype_name(img1) not in ("float32", "float16"):
            raise TypeError(f"For 'SSIM', the 'img1' should be one of [mindspore.float32, "
                            f"mindspore.float16], but got 'mindspore.{_dtype_name(img1)}'.")
        _check_4d(img1, "img1", "SSIM")
        for axis in (2, 3):
            if img1.shape[axis] < self.filter_size:
                raise ValueError(f"For 'SSIM', the img1 shape[{axis}] should be >= filter_size: "
                                 f"{self.filter_size}, but got {img1.shape[axis]}.")
        _check_same(img1, img2)
        (img1, img2), max_val = _as_unit_float32((img1, img2), self.max_val)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        ssim, _ = _ssim_and_contrast(c1, c2, img1, img2, self.conv)
        return F.mean(ssim, -1)


class MSSSIM(Cell):
    """Multi-scale SSIM of two NCHW image batches (float16/32/64 or uint8), per image (N,):
    the contrast terms of every scale but the last and the last scale's SSIM, each clipped at
    zero and raised to its power factor, multiplied; each scale halves the images (2x2 average
    pooling)."""

    def __init__(self, max_val=1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333),
                 filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        _check_max_val(max_val, "MSSSIM")
        if not isinstance(power_factors, (tuple, list)):
            raise TypeError(f"For 'MSSSIM', the type of 'power_factors' should be one of "
                            f"'['tuple', 'list']', but got type "
                            f"'{type(power_factors).__name__}'.")
        _check_window_arguments("MSSSIM", filter_size, filter_sigma, k1, k2)
        self.max_val, self.filter_size, self.filter_sigma = max_val, filter_size, filter_sigma
        self.k1, self.k2 = k1, k2
        self.level = len(power_factors)
        self.power_factors = np.asarray(power_factors, np.float32)
        self.multi_convs_list = CellList([_window_conv(filter_size, filter_sigma)
                                          for _ in range(self.level)])
        self.avg_pool = AvgPool2d(kernel_size=2, stride=2, pad_mode="valid")

    def construct(self, img1, img2):
        _check_4d(img1, "img1", "MSSSIM")
        _check_4d(img2, "img2", "MSSSIM")
        if _dtype_name(img1) not in ("float64", "float32", "float16", "uint8"):
            raise TypeError(f"For 'MSSSIM', the 'img1' should be one of [mindspore.float64, "
                            f"mindspore.float32, mindspore.float16, mindspore.uint8], but got "
                            f"'mindspore.{_dtype_name(img1)}'.")
        _check_same(img1, img2)
        if not self.level:
            raise TypeError("Failed calling ReLU with \"input=Tuple[]\".")
        (img1, img2), max_val = _as_unit_float32((img1, img2), self.max_val)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        terms = []
        for conv in self.multi_convs_list:
            # (MindSpore's graph checks each scale's pooling, which follows its filter, first:
            # an image below 2 pixels gives its AvgPool error before a window that does not
            # fit gives Conv2d's, measured)
            if min(img1.shape[2:]) < 2:
                raise RuntimeError("For 'AvgPool' op, H_out/W_out must be positive, but "
                                   "H_out/W_out is 0, please check input and parameters.")
            _check_window_fits(img1, self.filter_size)
            ssim, contrast = _ssim_and_contrast(c1, c2, img1, img2, conv)
            terms.append(F.relu(contrast))
            img1, img2 = self.avg_pool(img1), self.avg_pool(img2)
        terms[-1] = F.relu(ssim)
        scales = F.pow(F.stack(terms, -1), _constant(ssim, self.power_factors))
        return F.mean(F.prod(scales, -1), -1)


def _check_window_fits(image, size):
    if image.shape[2] < size or image.shape[3] < size:
        raise ValueError("For 'Conv2d', input shape's h and w after padding must be greater "
                         "than or equal to kernel_size's h and w respectively.")


class PSNR(Cell):
    """Peak signal-to-noise ratio of two NCHW image batches, per image (N,), in float32."""

    def __init__(self, max_val=1.0):
        super().__init__()
        _check_max_val(max_val, "PSNR")
        self.max_val = max_val

    def construct(self, img1, img2):
        _check_4d(img1, "img1", "PSNR")
        _check_4d(img2, "img2", "PSNR")
        _check_same(img1, img2)
        (img1, img2), max_val = _as_unit_float32((img1, img2), self.max_val)
        mse = F.mean(F.square(img1 - img2), (-3, -2, -1))
        return 10 * F.log(F.reciprocal(mse) * float(np.float32(max_val) ** 2)) / float(np.log(10.0))


class ImageGradients(Cell):
    """(dy, dx): each pixel's difference to the next row / column of an NCHW batch, zero in
    the last row / column; the input's dtype."""

    def construct(self, images):
        _check_4d(images, "images", "ImageGradients")
        zeros_row, zeros_column = F.zeros_like(images[:, :, :1, :]), \
            F.zeros_like(images[:, :, :, :1])
        dy = F.concat([images[:, :, 1:, :] - images[:, :, :-1, :], zeros_row], 2)
        dx = F.concat([images[:, :, :, 1:] - images[:, :, :, :-1], zeros_column], 3)
        return dy, dx


class CentralCrop(Cell):
    """The central `central_fraction` (float in (0, 1]) of the height and width of a CHW or
    NCHW batch: int((H - H * fraction) / 2) rows off each side (columns likewise)."""

    def __init__(self, central_fraction):
        super().__init__()
        if not isinstance(central_fraction, float):
            raise TypeError(f"For 'CentralCrop', the type of 'central_fraction' should be "
                            f"'float', but got type '{type(central_fraction).__name__}'.")
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"For 'CentralCrop', the 'central_fraction' must be in range of "
                             f"(0.0, 1.0], but got {central_fraction} with type 'float'.")
        self.central_fraction = central_fraction

    def construct(self, image):
        if image.ndim not in (3, 4):
            raise ValueError(f"CentralCrop image must be 3d or 4d, but got shape "
                             f"{tuple(image.shape)}")
        if self.central_fraction == 1.0:
            return image
        h, w = image.shape[-2:]
        top = int((float(h) - float(h * self.central_fraction)) / 2)
        left = int((float(w) - float(w * self.central_fraction)) / 2)
        return image[..., top:h - top, left:w - left]
