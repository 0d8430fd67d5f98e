"""Perspective and RandomPerspective: a projective warp that moves four points onto four others.

MindSpore's numpy path is OpenCV 4's getPerspectiveTransform + warpPerspective (outside black);
its PIL path is Pillow's PERSPECTIVE transform. The array kernel here samples as OpenCV 4 does
(this package's OpenCV 5 rounds otherwise, see warp.py): the source of each output pixel is
projected in double precision, then cut to 1/32 pixel (rounded) whose fraction picks
fixed-point weights; nearest neighbour rounds to the closest pixel. Bicubic is computed here
from OpenCV 4's tables because OpenCV 5's remap weighs some pixels otherwise. Measured against
MindSpore 2.10: pixel-exact for every interpolation on uint8, uint16, int16, float32, float64,
1 to 4 channels, and for the PIL path; more channels (an N x H x W batch is an image of W) are
warped 4 at a time, nearest or bilinear, as MindSpore's OpenCV does."""
import cv2
import numpy as np

from transforms_c._base import TensorOperation, image_hwc, is_pil
from transforms_c._validate import INT32_MAX, check_enum, check_int, check_type
from transforms_c.enums import Inter
from transforms_c.vision.crop import _pad_rank_words
from transforms_c.vision.resize import check_array_interpolation
from transforms_c.vision.warp import _INTER_BITS

_TAB = 1 << _INTER_BITS                 # sub-pixel positions per pixel (32)
_COEF_BITS = 15                         # OpenCV's fixed-point weights of 8-bit images
#: The dtypes OpenCV 4's remap takes (MindSpore's kernel refuses the others with its error).
_WARP_DTYPES = (np.uint8, np.uint16, np.int16, np.float32, np.float64)


def _check_point_types(points, name):
    """The list and each of its points must be lists/tuples: checked for both lists before
    any length (MindSpore's order, so a bad argument gets the error MindSpore names)."""
    check_type(points, (list, tuple), name)
    for i, point in enumerate(points):
        check_type(point, (list, tuple), f"{name}[{i}]")


def _check_points(points, name):
    """Four (x, y) points of int32 ints, with MindSpore's words (types checked before)."""
    if len(points) != 4:
        raise TypeError(f"{name} should be a list or tuple of length 4.")
    out = []
    for i, point in enumerate(points):
        if len(point) != 2:
            raise TypeError(f"{name}[{i}] should be a list or tuple of length 2.")
        out.append(tuple(check_int(v, f"{name}[{i}][{k}]", -INT32_MAX - 1, INT32_MAX)
                         for k, v in enumerate(point)))
    return out


def perspective_matrix(start_points, end_points):
    """The 3x3 matrix taking start_points onto end_points (OpenCV's solve, as MindSpore)."""
    return cv2.getPerspectiveTransform(np.float32(start_points), np.float32(end_points))


def _source_coords(matrix, out_w, out_h, scale):
    """Per output pixel, the source (x, y) times `scale`, rounded (OpenCV 4's warpPerspective:
    the inverse projection in double precision, a zero denominator giving 0)."""
    inverse = cv2.invert(matrix)[1]
    xs = np.arange(out_w, dtype=np.float64)[None, :]
    ys = np.arange(out_h, dtype=np.float64)[:, None]
    num_x = inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2]
    num_y = inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2]
    den = inverse[2, 0] * xs + inverse[2, 1] * ys + inverse[2, 2]
    with np.errstate(divide="ignore"):
        factor = np.where(den != 0, scale / np.where(den != 0, den, 1.0), 0.0)
    limit = float(INT32_MAX)
    return tuple(np.rint(np.clip(num * factor, -limit - 1, limit)).astype(np.int64)
                 for num in (num_x, num_y))


def _cubic_tables():
    """OpenCV 4's bicubic weights (A = -0.75) for each of the 32 x 32 sub-pixel positions, as
    float32 (16 per position, row by row) and as 15-bit integers whose sum is exactly 1 << 15
    (the largest or smallest of the four middle weights takes the rounding error)."""
    f32 = np.float32
    x = np.arange(_TAB, dtype=f32) * f32(1.0 / _TAB)
    a, one = f32(-0.75), f32(1)
    c0 = ((a * (x + one) - f32(5) * a) * (x + one) + f32(8) * a) * (x + one) - f32(4) * a
    c1 = ((a + f32(2)) * x - (a + f32(3))) * x * x + one
    c2 = ((a + f32(2)) * (one - x) - (a + f32(3))) * (one - x) * (one - x) + one
    taps = np.stack([c0, c1, c2, one - c0 - c1 - c2], axis=1)
    weights = (taps[:, None, :, None] * taps[None, :, None, :]).reshape(_TAB * _TAB, 16)
    ints = np.rint(weights * f32(1 << _COEF_BITS)).astype(np.int64)
    middle = np.array([10, 11, 14, 15])
    for row in ints:
        error = int(row.sum()) - (1 << _COEF_BITS)
        if error:
            values = row[middle]
            pick = middle[np.argmax(values) if error < 0 else np.argmin(values)]
            row[pick] -= error
    return weights, ints


_CUBIC_FLOAT, _CUBIC_INT = _cubic_tables()


def _cubic_remap(img, src_x, src_y):
    """OpenCV 4's bicubic remap of `img` (H, W, C) at fixed-point source coordinates (1/32
    pixel), outside black: 8-bit images in integer arithmetic, the others with float32 weights
    summed in OpenCV's order (row by row inside the image, term by term at its border)."""
    height, width = img.shape[:2]
    left = np.clip(src_x >> _INTER_BITS, -32768, 32767) - 1
    top = np.clip(src_y >> _INTER_BITS, -32768, 32767) - 1
    position = (src_y & (_TAB - 1)) * _TAB + (src_x & (_TAB - 1))
    integer = img.dtype == np.uint8
    acc = np.int64 if integer else (np.float64 if img.dtype == np.float64 else np.float32)
    weights = (_CUBIC_INT if integer else _CUBIC_FLOAT)[position].astype(acc)
    rows = border = None
    for i in range(4):
        row = None
        for j in range(4):
            ys, xs = top + i, left + j
            inside = (ys >= 0) & (ys < height) & (xs >= 0) & (xs < width)
            pixels = img[np.clip(ys, 0, height - 1), np.clip(xs, 0, width - 1)].astype(acc)
            term = np.where(inside[..., None], pixels * weights[..., 4 * i + j, None], 0)
            row = term if row is None else row + term
            border = term if border is None else border + term
        rows = row if rows is None else rows + row
    inner = (left >= 0) & (left < width - 3) & (top >= 0) & (top < height - 3)
    total = np.where(inner[..., None], rows, border)
    if integer:
        out = np.clip((total + (1 << (_COEF_BITS - 1))) >> _COEF_BITS, 0, 255)
    elif img.dtype.kind in "iu":
        info = np.iinfo(img.dtype)
        out = np.clip(np.rint(total), info.min, info.max)
    else:
        out = total
    out = out.astype(img.dtype)
    far = (left >= width) | (left + 4 <= 0) | (top >= height) | (top + 4 <= 0)
    out[far] = 0
    return out


def warp_perspective_array(img, matrix, interpolation, op_name="Perspective"):
    """`img` (H, W) or (H, W, C) warped by the 3x3 `matrix` (source -> output), same size,
    outside black, sampled as OpenCV 4 does (see the module doc)."""
    nearest_only = img.dtype.type in (np.int8, np.int32)     # MindSpore's OpenCV: nearest
    if img.dtype.type not in _WARP_DTYPES and not (nearest_only and interpolation == Inter.NEAREST):
        raise RuntimeError(f"{op_name}: OpenCV's remap does not support images of type "
                           f"{img.dtype} (supported: uint8, uint16, int16, float32, float64)")
    if img.ndim == 3 and img.shape[2] > 4:
        if interpolation == Inter.BICUBIC:      # (MindSpore's OpenCV refuses it too)
            raise RuntimeError(f"{op_name}: the image should have at most 4 channels to be "
                               f"warped bicubically (OpenCV's remap), got {img.shape[2]}")
        # OpenCV's remap takes 4 channels at most: the channels 4 at a time, as MindSpore's
        # warpPerspective gives them (outside black in each)
        return np.concatenate([warp_perspective_array(img[:, :, c:c + 4], matrix,
                                                      interpolation, op_name)
                               for c in range(0, img.shape[2], 4)], axis=2)
    height, width = img.shape[:2]
    if interpolation == Inter.NEAREST:
        src_x, src_y = _source_coords(matrix, width, height, 1.0)
        if nearest_only:        # cv2.remap takes neither: each output pixel's source, gathered
            inside = (src_x >= 0) & (src_x < width) & (src_y >= 0) & (src_y < height)
            out = img[np.clip(src_y, 0, height - 1), np.clip(src_x, 0, width - 1)]
            out[~inside] = 0
            return out
        # beyond one pixel outside, only the border is read: the float32 maps stay exact
        map_x = np.clip(src_x, -2, width + 1).astype(np.float32)
        map_y = np.clip(src_y, -2, height + 1).astype(np.float32)
        out = cv2.remap(img, map_x, map_y, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT,
                        borderValue=0)
        return out[:, :, None] if img.ndim == 3 and out.ndim == 2 else out
    src_x, src_y = _source_coords(matrix, width, height, float(_TAB))
    if interpolation == Inter.BICUBIC:
        out = _cubic_remap(img if img.ndim == 3 else img[:, :, None], src_x, src_y)
        return out if img.ndim == 3 else out[:, :, 0]
    # BILINEAR; AREA and PILCUBIC too, as MindSpore's warp maps them
    cells = np.stack([np.clip(src_x >> _INTER_BITS, -4, width + 3),
                      np.clip(src_y >> _INTER_BITS, -4, height + 3)], axis=-1).astype(np.int16)
    fractions = (((src_y & (_TAB - 1)) << _INTER_BITS) | (src_x & (_TAB - 1))).astype(np.uint16)
    out = cv2.remap(img, cells, fractions, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=0)
    return out[:, :, None] if img.ndim == 3 and out.ndim == 2 else out


def pil_perspective(img, start_points, end_points, interpolation):
    """MindSpore's PIL path: Pillow's PERSPECTIVE transform, whose eight coefficients take each
    output point to its source, found by least squares from the point pairs; outside black.
    Inter.ANTIALIAS gives Pillow's own ValueError, as in MindSpore."""
    from PIL import Image
    from transforms_c.vision.pil_geometry import PIL_FILTER
    rows, targets = [], []
    for (src_x, src_y), (dst_x, dst_y) in zip(start_points, end_points):
        rows.append([dst_x, dst_y, 1, 0, 0, 0, -src_x * dst_x, -src_x * dst_y])
        rows.append([0, 0, 0, dst_x, dst_y, 1, -src_y * dst_x, -src_y * dst_y])
        targets += [src_x, src_y]
    coeffs = np.linalg.lstsq(np.array(rows, dtype=float), np.array(targets, dtype=float),
                             rcond=None)[0]
    return img.transform(img.size, Image.PERSPECTIVE, coeffs.tolist(), PIL_FILTER[interpolation])


class Perspective(TensorOperation):
    """Perspective(start_points, end_points, interpolation=Inter.BILINEAR): warps the image so
    that the four start_points ([top-left, top-right, bottom-right, bottom-left] (x, y)) land on
    the four end_points; same size, outside black. A PIL image goes through Pillow (NEAREST,
    BILINEAR, BICUBIC) and comes back as a PIL image."""

    pil_input = "image"
    pil_refused_interpolations = (Inter.AREA, Inter.PILCUBIC)

    def __init__(self, start_points, end_points, interpolation=Inter.BILINEAR):
        _check_point_types(start_points, "start_points")
        _check_point_types(end_points, "end_points")
        self.start_points = _check_points(start_points, "start_points")
        self.end_points = _check_points(end_points, "end_points")
        self.interpolation = check_enum(interpolation, Inter, "interpolation")

    def _compute_pil(self, img, rng):
        return pil_perspective(img, self.start_points, self.end_points, self.interpolation)

    def _compute(self, img, rng):
        if img.dtype == np.bool_:
            img = img.astype(np.uint8)      # MindSpore warps a bool image as uint8
        image_hwc(img, "Perspective", rank_words=_pad_rank_words)
        check_array_interpolation(self.interpolation)
        matrix = perspective_matrix(self.start_points, self.end_points)
        return warp_perspective_array(img, matrix, self.interpolation)


def random_perspective_points(width, height, distortion_scale, rng):
    """(start_points, end_points): the image's corners, and each corner moved inwards by up to
    distortion_scale times half the width and half the height (uniform integers, both ends
    included), as MindSpore draws them."""
    dx = int(width / 2 * distortion_scale)
    dy = int(height / 2 * distortion_scale)
    right, bottom = width - 1, height - 1
    end_points = [(rng.randint(0, dx), rng.randint(0, dy)),
                  (rng.randint(right - dx, right), rng.randint(0, dy)),
                  (rng.randint(right - dx, right), rng.randint(bottom - dy, bottom)),
                  (rng.randint(0, dx), rng.randint(bottom - dy, bottom))]
    return [(0, 0), (right, 0), (right, bottom), (0, bottom)], end_points


def _check_unit_float(value, name):
    """A float (an int is refused, as MindSpore) in [0, 1]. MindSpore's own test compares the
    whole sentence, so the value is not appended here (check_range would append it)."""
    check_type(value, float, name)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"Input {name} is not within the required interval of [0.0, 1.0].")
    return float(value)


class RandomPerspective(TensorOperation):
    """RandomPerspective(distortion_scale=0.5, prob=0.5, interpolation=Inter.BICUBIC): with
    probability prob, Perspective of a PIL image from its corners to corners moved inwards at
    random (random_perspective_points). MindSpore's Python-only op: it takes PIL images only
    (ValueError otherwise, also in a map: use Decode(to_pil=True) or ToPIL first), and
    interpolations NEAREST, BILINEAR and BICUBIC (ANTIALIAS: Pillow's ValueError; AREA and
    PILCUBIC: RuntimeError)."""

    is_random = True
    pil_input = "own"

    def __init__(self, distortion_scale=0.5, prob=0.5, interpolation=Inter.BICUBIC):
        self.distortion_scale = _check_unit_float(distortion_scale, "distortion_scale")
        self.prob = _check_unit_float(prob, "prob")
        self.interpolation = check_enum(interpolation, Inter, "interpolation")

    def _compute(self, img, rng):
        if not is_pil(img):
            raise ValueError("Input image should be a Pillow image.")
        if not rng.random() < self.prob:
            return img
        if self.interpolation in (Inter.AREA, Inter.PILCUBIC):    # MindSpore's words
            raise RuntimeError("Unsupported interpolation, only support NEAREST, ANTIALIAS, "
                               "LINEAR and CUBIC.")
        start_points, end_points = random_perspective_points(img.width, img.height,
                                                             self.distortion_scale, rng)
        return pil_perspective(img, start_points, end_points, self.interpolation)
