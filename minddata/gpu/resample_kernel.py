"""GpuRun's crop-and-resize as one fused GPU kernel (Triton), where Triton is installed.

Written with torch operations (GpuRun._gather), the bilinear gather of a batch is about 80
kernels: each builds a (N, out_h, out_w) index or float temporary in device memory, so a batch
of 256 rows at 224x224 moves some gigabytes; on an H200 it took 6.4 ms of each batch's 24 ms of
GPU work, time taken from the training step beside it. Here one
kernel reads each output pixel's four taps and writes the uint8 result: the memory traffic is
the output and the taps read. Given a ``Tail``, the same kernel also does the flips and the
point ops (Normalize, Rescale, ToTensor) that follow the map's last crop or resize, and writes
float32: the flipped, normalized batch in one pass instead of a flip, a where and three
full-size float passes.

The arithmetic is the torch path's, step for step in float32 (the same per-row scales, computed
by torch, the same tap and weight rule, the same interpolation order, rounding half to even),
so the two agree to the level except where the compiler fuses a multiply and an add (a 1-ulp
difference that can move a value across a rounding boundary: at most 1 level; in the tail's
Rescale, 1 ulp of the float). The point ops keep GpuRun._point's order and IEEE division.
Tests run the kernel on the CPU in Triton's interpreter (TRITON_INTERPRET=1) against the torch
path: equal values.

``meta`` rows (int64): top, left, crop_h, crop_w, height, width, plane (height*width), base
(the row's first element in ``flat``); ``scales`` rows (float32): crop_h/out_h, crop_w/out_w.
"""
import collections

from .triton_kernel import KernelUnavailable, TritonKernel

#: output pixels of one row per program
BLOCK = 128


#: The ops after the resample, done by the same kernel: ``flips`` (N,) int32, bit 0 a
#: horizontal and bit 1 a vertical flip of the row's output; ``points`` (K, C, 3) float32,
#: op k's (kind, a, b) for channel c: kind 0 gives (x - a) / b, kind 1 x * a + b, in order.
Tail = collections.namedtuple("Tail", "flips points")


def _make(triton, tl):
    """The jitted kernel."""
    @triton.jit
    def resample(src, meta, scales, flips, points, out, out_h, out_w,
                 CHANNELS: tl.constexpr, EXACT: tl.constexpr, INSIDE: tl.constexpr,
                 FLIP: tl.constexpr, POINTS: tl.constexpr, BLOCK: tl.constexpr):
        n = tl.program_id(0).to(tl.int64)      # output offsets may pass 2**31
        out_y = tl.program_id(1)
        out_x = tl.program_id(2) * BLOCK + tl.arange(0, BLOCK)
        keep = out_x < out_w
        # the output position whose sample this pixel holds (mirrored where the row flips)
        oy = out_y
        ox = out_x
        if FLIP:
            flip = tl.load(flips + n)
            oy = tl.where((flip & 2) != 0, out_h - 1 - out_y, out_y)
            ox = tl.where((flip & 1) != 0, out_w - 1 - out_x, out_x)
        row = meta + n * 8
        top = tl.load(row)
        left = tl.load(row + 1)
        crop_h = tl.load(row + 2)
        crop_w = tl.load(row + 3)
        height = tl.load(row + 4)
        width = tl.load(row + 5)
        plane = tl.load(row + 6)
        base = tl.load(row + 7)
        if EXACT:       # a crop: every sample on a pixel
            y0 = oy + top * 0
            x0 = ox + left * 0
            y1 = y0
            x1 = x0
        else:
            # (position + 0.5) * scale - 0.5, clamped at 0; the first tap clamped to the window
            sy = tl.maximum((oy + 0.5) * tl.load(scales + n * 2) - 0.5, 0.0)
            sx = tl.maximum((ox.to(tl.float32) + 0.5) * tl.load(scales + n * 2 + 1) - 0.5, 0.0)
            fy = tl.floor(sy)
            fx = tl.floor(sx)
            wy = sy - fy
            wx = sx - fx
            y0 = tl.minimum(fy.to(tl.int64), crop_h - 1)
            x0 = tl.minimum(fx.to(tl.int64), crop_w - 1)
            y1 = tl.minimum(y0 + 1, crop_h - 1)
            x1 = tl.minimum(x0 + 1, crop_w - 1)
        # the rows as vectors like the columns (the interpreter masks with vectors only)
        ry0 = top + y0 + tl.zeros([BLOCK], dtype=tl.int64)
        ry1 = top + y1 + tl.zeros([BLOCK], dtype=tl.int64)
        rx0 = left + x0
        rx1 = left + x1
        if INSIDE:
            valid = keep
        else:           # a CenterCrop wider than the image: zeros outside it
            valid = keep & (ry0 >= 0) & (ry0 < height) & (rx0 >= 0) & (rx0 < width)
        ry0 = tl.minimum(tl.maximum(ry0, 0), height - 1) * width
        ry1 = tl.minimum(tl.maximum(ry1, 0), height - 1) * width
        rx0 = tl.minimum(tl.maximum(rx0, 0), width - 1)
        rx1 = tl.minimum(tl.maximum(rx1, 0), width - 1)
        for c in tl.static_range(CHANNELS):
            at = src + base + c * plane
            # the four taps: (first row, first column), (first, second), (second, first), ...
            tap00 = tl.load(at + ry0 + rx0, mask=valid, other=0).to(tl.float32)
            if EXACT:
                value = tap00
            else:
                tap01 = tl.load(at + ry0 + rx1, mask=valid, other=0).to(tl.float32)
                tap10 = tl.load(at + ry1 + rx0, mask=valid, other=0).to(tl.float32)
                tap11 = tl.load(at + ry1 + rx1, mask=valid, other=0).to(tl.float32)
                upper = (1 - wx) * tap00 + wx * tap01
                lower = (1 - wx) * tap10 + wx * tap11
                value = (1 - wy) * upper + wy * lower
                # round half to even (torch.round), then clamp to uint8
                r = tl.floor(value + 0.5)
                odd = (r - 2.0 * tl.floor(r * 0.5)) == 1.0
                r = tl.where(((r - value) == 0.5) & odd, r - 1.0, r)
                value = tl.minimum(tl.maximum(r, 0.0), 255.0)
            at_out = out + ((n * CHANNELS + c) * out_h + out_y) * out_w + out_x
            if POINTS > 0:
                for k in tl.static_range(POINTS):
                    param = points + (k * CHANNELS + c) * 3     # (kind, a, b): see Tail
                    kind = tl.load(param)
                    pa = tl.load(param + 1)
                    pb = tl.load(param + 2)
                    divisor = tl.where(kind == 0.0, pb, 1.0)
                    value = tl.where(kind == 0.0, tl.math.div_rn(value - pa, divisor),
                                     value * pa + pb)
                tl.store(at_out, value, mask=keep)
            else:
                tl.store(at_out, value.to(tl.uint8), mask=keep)

    return resample


#: launched with variants (channels, exact, inside, flip, points)
KERNEL = TritonKernel("fused resample kernel", _make)


def available(device):
    """Whether the kernel runs on ``device``: a CUDA device with Triton installed, or any
    device under Triton's interpreter (TRITON_INTERPRET=1: the tests, on the CPU)."""
    return KERNEL.runs_on(device)


def resample(torch, flat, meta, scales, channels, out_h, out_w, exact, inside, flips=None,
             points=None):
    """(N, channels, out_h, out_w) on ``flat``'s device: uint8, or float32 with ``points``;
    ``flips`` and ``points``: a Tail's, on the device, None where no row flips or there are
    no point ops. See the module doc for the other arguments. Launched on the current
    stream."""
    count = int(meta.shape[0])
    npoints = 0 if points is None else int(points.shape[0])
    out = torch.empty((count, channels, out_h, out_w), device=flat.device,
                      dtype=torch.float32 if npoints else torch.uint8)
    if count == 0:
        return out
    flip = flips is not None
    flips = meta if flips is None else flips            # unread placeholders
    points = scales if points is None else points
    grid = (count, out_h, -(-out_w // BLOCK))
    variant = (channels, bool(exact), bool(inside), flip, npoints)
    KERNEL.launch(grid, variant, flat, meta.contiguous(), scales.contiguous(), flips, points,
                  out, out_h, out_w, CHANNELS=channels, EXACT=variant[1], INSIDE=variant[2],
                  FLIP=flip, POINTS=npoints, BLOCK=BLOCK)
    return out


__all__ = ["KERNEL", "KernelUnavailable", "Tail", "available", "resample"]
