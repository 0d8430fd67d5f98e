"""Where a batch's decoded images lie in one device buffer, as nvJPEG's batched decode is told
(an ``nvjpegImage_t`` per image: four channel pointers, then four pitches) and as the rest of
the GPU path reads them: planar RGB images one after another, or each image's Y, Cb and Cr
planes at their coded sizes one after another (``ycbcr_to_rgb``'s layout)."""
import numpy as np

from . import ycbcr_to_rgb

MAX_COMPONENT = 4               # NVJPEG_MAX_COMPONENT: channel pointers in an nvjpegImage_t
_IMAGE_WORDS = 2 * MAX_COMPONENT    # nvjpegImage_t: 4 pointers, then 4 size_t pitches
#: the chroma subsamplings the YCbCr output takes, by nvjpegChromaSubsampling_t: each chroma
#: plane's sampling factors, horizontal * 16 + vertical (ycbcr_to_rgb's layout)
CSS_FACTORS = {0: 0x11, 1: 0x21, 2: 0x22, 3: 0x12, 4: 0x41, 5: 0x42}
CSS_GRAY = 6
#: the same as a table by code + 1 (codes -1 to 14; 0: not taken)
_FACTOR_OF_CSS = np.array([CSS_FACTORS.get(code, 0) for code in range(-1, 15)], np.int64)


def takes_ycbcr(info, gray=True):
    """Which images (``info`` rows: height, width, components, chroma subsampling, chroma
    height, chroma width, as nvjpegGetImageInfo reads them) YCbCr output serves: the
    three-component files of a subsampling ycbcr_to_rgb converts whose chroma planes nvJPEG
    reports at the size that subsampling gives (nvJPEG then writes what the conversion
    reads), and with ``gray`` the one-component (gray) files, whose luma plane is all."""
    info = np.asarray(info, np.int64).reshape(-1, 6)
    factors = _factors(info[:, 3])
    h, v = np.maximum(factors // 16, 1), np.maximum(factors % 16, 1)
    colour = (info[:, 2] == 3) & (factors > 0) & (info[:, 4] == -(-info[:, 0] // v)) \
        & (info[:, 5] == -(-info[:, 1] // h))
    return colour | (gray & (info[:, 2] == 1) & (info[:, 3] == CSS_GRAY))


def ycbcr_layout(info, align=1):
    """ycbcr_to_rgb's layout (N, LAYOUT_COLUMNS) of images (``info`` rows as takes_ycbcr's, of
    images it takes) whose planes lie one after another in one buffer (each Y, Cb, Cr; a gray
    file's Y alone: no chroma plane), each row padded to a multiple of ``align`` bytes (so
    every plane starts at such a multiple from the buffer's start), and whose RGB lies one
    after another in the output."""
    info = np.asarray(info, np.int64).reshape(-1, 6)
    factors = np.where(info[:, 2] == 1, 0x11, _factors(info[:, 3]))
    layout = np.zeros((len(info), ycbcr_to_rgb.LAYOUT_COLUMNS), np.int64)
    layout[:, 0:2] = info[:, 0:2]
    layout[:, 2:4] = np.where(info[:, 2:3] == 1, 0, info[:, 4:6])
    layout[:, 4] = factors
    layout[:, 5] = ycbcr_to_rgb.upsampling_modes(factors, info[:, 5])
    layout[:, 8] = -(-layout[:, 1] // align) * align
    layout[:, 9] = -(-layout[:, 3] // align) * align
    layout[:, 6] = np.concatenate([[0], np.cumsum(plane_bytes(layout))[:-1]])
    layout[:, 7] = np.concatenate([[0], np.cumsum(3 * info[:, 0] * info[:, 1])[:-1]])
    return layout


def _factors(codes):
    """CSS_FACTORS of each nvjpegChromaSubsampling_t code, 0 for a code not in it."""
    codes = np.asarray(codes, np.int64) + 1
    inside = (codes >= 0) & (codes < len(_FACTOR_OF_CSS))
    return np.where(inside, _FACTOR_OF_CSS[np.where(inside, codes, 0)], 0)


def plane_bytes(layout):
    """Each image's Y, Cb and Cr planes' bytes, their rows' padding included (``layout``:
    ycbcr_layout())."""
    return layout[:, 0] * layout[:, 8] + 2 * layout[:, 2] * layout[:, 9]


def plane_table(base, layout):
    """The nvjpegImage_t array (N, 8) uint64 of YCbCr images laid out as ``layout`` says from
    device address ``base``: the Y, Cb, Cr pointers and a null fourth, then the pitches (each
    plane's row pitch; 0 for the fourth); a gray file's chroma pointers and pitches null."""
    layout = np.asarray(layout, np.int64).reshape(-1, ycbcr_to_rgb.LAYOUT_COLUMNS)
    start = np.uint64(base) + layout[:, 6].astype(np.uint64)
    luma = (layout[:, 0] * layout[:, 8]).astype(np.uint64)
    chroma = (layout[:, 2] * layout[:, 9]).astype(np.uint64)
    colour = layout[:, 3] > 0
    table = np.zeros((len(layout), _IMAGE_WORDS), np.uint64)
    table[:, 0] = start
    table[colour, 1] = (start + luma)[colour]
    table[colour, 2] = (start + luma + chroma)[colour]
    table[:, MAX_COMPONENT] = layout[:, 8]
    table[colour, MAX_COMPONENT + 1] = table[colour, MAX_COMPONENT + 2] = layout[colour, 9]
    return table


def image_table(base, heights, widths):
    """The nvjpegImage_t array (N, 8) uint64 of planar RGB images laid out one after another
    from device address ``base``: three channel pointers (each plane height x width, the
    planes of an image consecutive) and a null fourth, then the pitches (the width; 0 for the
    fourth)."""
    heights = np.asarray(heights, np.uint64)
    widths = np.asarray(widths, np.uint64)
    plane = heights * widths
    offsets = np.concatenate([[0], np.cumsum(3 * plane)[:-1]]).astype(np.uint64)
    table = np.zeros((len(plane), _IMAGE_WORDS), np.uint64)
    for c in range(3):
        table[:, c] = np.uint64(base) + offsets + np.uint64(c) * plane
        table[:, MAX_COMPONENT + c] = widths
    return table


__all__ = ["CSS_FACTORS", "CSS_GRAY", "MAX_COMPONENT", "image_table", "plane_bytes", "plane_table",
           "takes_ycbcr", "ycbcr_layout"]
