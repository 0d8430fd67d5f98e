"""A batch of JPEGs' decoded Y, Cb, Cr planes to planar RGB in one GPU kernel, with the CPU
path's arithmetic: libjpeg-turbo's chroma upsampling and colour conversion, to the bit.

Why: asked for RGB, nvJPEG's hardware backend converts each image with a kernel of its own
(on the H200, 256 ``rgba2rgb`` kernels of about 3 us a batch of 256), and beside a training
step those small kernels slip between the step's and slow it (README, "On a GPU"). Asked for
its planes as coded (NVJPEG_OUTPUT_YUV), the conversion is this one kernel a batch. It
upsamples the chroma as libjpeg-turbo does by default ("fancy upsampling": a triangle filter
for 2x subsampling, 3/4 of the nearer sample and 1/4 of the next, in integers with libjpeg's
rounding biases; replication for other ratios, and where the chroma plane is at most 2 samples
wide) and converts with the JFIF equations in libjpeg's 16-bit fixed point, so given the same
planes it writes exactly the RGB the CPU path's Decode writes (the tests check this against
libjpeg-turbo's own raw planes, for 4:2:0, 4:2:2, 4:4:0, 4:4:4 and 4:1:1 files). nvJPEG's own
conversion upsamples otherwise: its RGB differed from the CPU path's by up to 44 levels on
real photos.

``layout`` rows (int64, LAYOUT_COLUMNS), one per image: height, width (the Y plane), chroma_h,
chroma_w (each chroma plane; 0, 0 for a gray file: R = G = B = Y, as libjpeg gives it), the
sampling factors (horizontal * 16 + vertical: 0x22 for 4:2:0), upsampling (bit 0: horizontal
triangle filter, bit 1: vertical; ``upsampling_modes`` gives it), src (the image's Y plane's
first byte in the planes buffer; Cb follows Y's height x y_pitch bytes, Cr follows Cb's
chroma_h x c_pitch), dst (its first byte in the output: R, G, B planes of height x width, one
after another), y_pitch and c_pitch (the bytes from one row of a plane to the next: its width,
or more where rows are padded).
"""
import warnings

import numpy as np

from .host_copy import upload_arrays
from .triton_kernel import KernelUnavailable, TritonKernel

#: pixels of a row per kernel block; each image is converted by PROGRAMS programs, each
#: looping over every PROGRAMS-th row segment of BLOCK pixels
BLOCK = 256
PROGRAMS = 32

LAYOUT_COLUMNS = 10

# JFIF's YCbCr -> RGB factors in libjpeg's fixed point: round(f * 2**16)
_CR_R, _CB_B, _CB_G, _CR_G = 91881, 116130, 22554, 46802
_HALF = 1 << 15


def upsampling_modes(factors, chroma_w):
    """Each image's upsampling bits (see the module doc) from its chroma ``factors``
    (horizontal * 16 + vertical) and chroma plane width, as libjpeg-turbo picks its
    upsampler: the triangle filter for 2x horizontally (4:2:2, 4:2:0) where the chroma plane
    is more than 2 samples wide, and for 2x vertically (4:2:0 likewise; 4:4:0 always)."""
    factors = np.asarray(factors, np.int64)
    h, v = factors // 16, factors % 16
    wide = np.asarray(chroma_w, np.int64) > 2
    horizontal = (h == 2) & ((v == 1) | (v == 2)) & wide
    vertical = (v == 2) & (((h == 2) & wide) | (h == 1))
    return horizontal.astype(np.int64) + 2 * vertical.astype(np.int64)


def _make(triton, tl):
    """The jitted kernel."""
    @triton.jit
    def convert(src, layout, out, CR_R: tl.constexpr, CB_B: tl.constexpr, CB_G: tl.constexpr,
                CR_G: tl.constexpr, HALF: tl.constexpr, COLUMNS: tl.constexpr,
                PROGRAMS: tl.constexpr, BLOCK: tl.constexpr):
        image = tl.program_id(0).to(tl.int64)
        row = layout + image * COLUMNS
        height = tl.load(row)
        width = tl.load(row + 1)
        ch = tl.load(row + 2)
        cw = tl.load(row + 3)
        factors = tl.load(row + 4)
        mode = tl.load(row + 5)
        base = tl.load(row + 6)
        dst = tl.load(row + 7)
        y_pitch = tl.load(row + 8)
        c_pitch = tl.load(row + 9)
        # the factors (1, 2 or 4) as shifts: no division per pixel
        h_shift = ((factors // 16) == 2).to(tl.int32) + 2 * ((factors // 16) == 4).to(tl.int32)
        v_shift = ((factors % 16) == 2).to(tl.int32) + 2 * ((factors % 16) == 4).to(tl.int32)
        fancy_h = (mode & 1) != 0
        fancy_v = (mode & 2) != 0
        plane = height * width
        cb_plane = src + base + height * y_pitch
        cr_plane = cb_plane + ch * c_pitch
        # libjpeg-turbo's filters as weights of the four chroma taps (00 over the pixel, 01 the
        # neighbour column, 10 the neighbour row, 11 both), a rounding bias and a shift
        w00 = tl.where(fancy_h & fancy_v, 9, tl.where(fancy_h | fancy_v, 3, 1))
        w01 = tl.where(fancy_h, tl.where(fancy_v, 3, 1), 0)
        w10 = tl.where(fancy_v, tl.where(fancy_h, 3, 1), 0)
        w11 = tl.where(fancy_h & fancy_v, 1, 0)
        shift = tl.where(fancy_h & fancy_v, 4, tl.where(fancy_h | fancy_v, 2, 0))
        # each program converts every PROGRAMS-th segment of BLOCK pixels of a row
        segments = tl.cdiv(width, BLOCK)
        for t in range(tl.program_id(1).to(tl.int64), height * segments, PROGRAMS):
            y = t // segments
            x = ((t - y * segments) * BLOCK).to(tl.int32) + tl.arange(0, BLOCK)
            keep = x < width
            # the chroma taps read: none for a gray file (cw 0), so Cb = Cr = 128, R = G = B = Y
            sampled = keep & ((x * 0 + cw) > 0)
            at = y * width + x
            luma = tl.load(src + base + y * y_pitch + x, mask=keep, other=0).to(tl.int32)
            # the chroma sample over the pixel and the neighbour the filter weighs: above for
            # an even row, below for an odd, left for an even column, right for an odd (the
            # edge sample itself at the edges); both planes have the same taps
            odd_y = (y & 1).to(tl.int32)
            odd_x = x & 1
            i = y >> v_shift
            j = x >> h_shift
            ni = tl.where(fancy_v, tl.minimum(tl.maximum(i - 1 + 2 * odd_y, 0), ch - 1), i)
            nj = tl.where(fancy_h, tl.minimum(tl.maximum(j - 1 + 2 * odd_x, 0), cw - 1), j)
            bias = tl.where(fancy_h & fancy_v, 8 - odd_x,
                            tl.where(fancy_h, 1 + odd_x, tl.where(fancy_v, 1 + odd_y, 0)))
            at00 = i * c_pitch + j
            at01 = i * c_pitch + nj
            at10 = ni * c_pitch + j
            at11 = ni * c_pitch + nj
            cb = ((w00 * tl.load(cb_plane + at00, mask=sampled, other=128).to(tl.int32)
                   + w01 * tl.load(cb_plane + at01, mask=sampled, other=128).to(tl.int32)
                   + w10 * tl.load(cb_plane + at10, mask=sampled, other=128).to(tl.int32)
                   + w11 * tl.load(cb_plane + at11, mask=sampled, other=128).to(tl.int32)
                   + bias) >> shift) - 128
            cr = ((w00 * tl.load(cr_plane + at00, mask=sampled, other=128).to(tl.int32)
                   + w01 * tl.load(cr_plane + at01, mask=sampled, other=128).to(tl.int32)
                   + w10 * tl.load(cr_plane + at10, mask=sampled, other=128).to(tl.int32)
                   + w11 * tl.load(cr_plane + at11, mask=sampled, other=128).to(tl.int32)
                   + bias) >> shift) - 128
            red = luma + ((CR_R * cr + HALF) >> 16)
            green = luma + ((-CB_G * cb - CR_G * cr + HALF) >> 16)
            blue = luma + ((CB_B * cb + HALF) >> 16)
            to = out + dst + at
            tl.store(to, tl.minimum(tl.maximum(red, 0), 255).to(tl.uint8), mask=keep)
            tl.store(to + plane, tl.minimum(tl.maximum(green, 0), 255).to(tl.uint8), mask=keep)
            tl.store(to + 2 * plane, tl.minimum(tl.maximum(blue, 0), 255).to(tl.uint8),
                     mask=keep)

    return convert


KERNEL = TritonKernel("YCbCr-to-RGB kernel", _make)


def to_rgb(torch, planes, layout, device):
    """The images of ``planes`` (1-D uint8 on ``device``) laid out as ``layout`` says ((N,
    LAYOUT_COLUMNS) int64 numpy, see the module doc) as one 1-D uint8 tensor of planar RGB images (each at its
    ``dst``), queued on the current stream: in one kernel where it runs, else image by image
    with torch operations (the same values; a warning says so on CUDA)."""
    layout = np.ascontiguousarray(layout, np.int64).reshape(-1, LAYOUT_COLUMNS)
    total = int((3 * layout[:, 0] * layout[:, 1]).sum())
    out = torch.empty(total, dtype=torch.uint8, device=device)
    if not len(layout):
        return out
    if KERNEL.runs_on(device):
        rows = upload_arrays(torch, [layout], device)[0]
        try:
            KERNEL.launch((len(layout), PROGRAMS), (), planes, rows, out, CR_R=_CR_R,
                          CB_B=_CB_B, CB_G=_CB_G, CR_G=_CR_G, HALF=_HALF,
                          COLUMNS=LAYOUT_COLUMNS, PROGRAMS=PROGRAMS, BLOCK=BLOCK)
            return out
        except KernelUnavailable as exc:
            if device.type == "cuda":
                warnings.warn(f"{exc}; the planes are converted image by image with torch "
                              f"operations (the same values, more GPU time)", RuntimeWarning,
                              stacklevel=2)
    for height, width, ch, cw, factors, mode, src, dst, y_pitch, c_pitch in layout.tolist():
        luma = planes[src:src + height * y_pitch].view(height, y_pitch)[:, :width]
        chroma_at = src + height * y_pitch
        chroma = [planes[start:start + ch * c_pitch].view(ch, c_pitch)[:, :cw]
                  for start in (chroma_at, chroma_at + ch * c_pitch)]
        rgb = rgb_of(torch, luma, *chroma, factors // 16, factors % 16, mode)
        out[dst:dst + 3 * height * width] = rgb.reshape(-1)
    return out


def rgb_of(torch, luma, cb, cr, hf, vf, mode):
    """One image's (3, H, W) uint8 RGB from its planes (uint8 tensors), with torch operations:
    the kernel's integer arithmetic (its filters written out by mode), the same values."""
    height, width = luma.shape
    y = torch.arange(height, device=luma.device)[:, None]
    x = torch.arange(width, device=luma.device)[None, :]
    luma = luma.to(torch.int32)
    if cb.numel() == 0:         # a gray file: Cb = Cr = 128
        values = [torch.zeros_like(luma)] * 2
    else:
        values = [_upsampled(torch, plane, y, x, hf, vf, mode) - 128 for plane in (cb, cr)]
    blue_chroma, red_chroma = values
    red = luma + ((_CR_R * red_chroma + _HALF) >> 16)
    green = luma + ((-_CB_G * blue_chroma - _CR_G * red_chroma + _HALF) >> 16)
    blue = luma + ((_CB_B * blue_chroma + _HALF) >> 16)
    return torch.stack([red, green, blue]).clamp_(0, 255).to(torch.uint8)


def _upsampled(torch, plane, y, x, hf, vf, mode):
    """The chroma ``plane`` at every pixel (y column, x row of indices), as the kernel's
    chroma_at."""
    ch, cw = plane.shape
    i, j = y // vf, x // hf
    even_y, even_x = (y & 1) == 0, (x & 1) == 0
    ni = torch.where(even_y, i - 1, i + 1).clamp(0, ch - 1) if mode & 2 else i
    nj = torch.where(even_x, j - 1, j + 1).clamp(0, cw - 1) if mode & 1 else j
    plane = plane.to(torch.int32)
    c00, c01, c10, c11 = plane[i, j], plane[i, nj], plane[ni, j], plane[ni, nj]
    if mode == 3:
        return (9 * c00 + 3 * c01 + 3 * c10 + c11 + torch.where(even_x, 8, 7)) >> 4
    if mode == 1:
        return (3 * c00 + c01 + torch.where(even_x, 1, 2)) >> 2
    if mode == 2:
        return (3 * c00 + c10 + torch.where(even_y, 1, 2)) >> 2
    return c00


__all__ = ["KERNEL", "LAYOUT_COLUMNS", "to_rgb", "rgb_of", "upsampling_modes"]
