"""uint8 batches for a device: the pipeline stops before its trailing Normalize / Rescale /
HWC2CHW, and the device finishes them (as FFCV and DALI do).

A train batch of 128 224x224 images is 77 MB in float32 CHW and 19 MB in uint8 HWC: copying
uint8 to the accelerator cuts the copy fourfold, and the pointwise work moves to the device too.
``minddata.device_tail.split_device_tail(dataset)`` returns the pipeline without that tail and
a ``DeviceTail`` (this module) that applies it to a batch: ``apply_numpy`` (the reference, the same float32 arithmetic as the CPU
kernels), ``apply_native`` (the CPU kernels' own pass, GIL released; the RayService applies the
tail on the trainer with it, so batches cross object stores as uint8) or ``apply_torch`` on a
torch tensor on any device. Seeds are unchanged (every op keeps its position), so the result
equals the CPU path's within float rounding (bit for bit on the CPU).
"""
import numpy as np

from transforms_c import _batch, folding, settings
from transforms_c.fusion import run_unfused

from ..gpu.host_copy import upload


class DeviceTail:
    """The trailing pointwise and layout ops of a map (``ops``), applied to a whole uint8 HWC
    batch of column ``column`` (its index in the batch). What they do is what they declare:
    their native steps (``points``: ("rescale", scale, shift) and/or ("normalize", mean, std),
    and ``chw``) for numpy and torch, and those steps as one C++ row plan for the CPU."""

    def __init__(self, column, ops):
        self.column = column
        self.ops = list(ops)
        self.points = []
        self.chw = False
        for op in self.ops:
            step = op.native_step()
            if op.fusion_phase(0) == folding.PHASE_LAYOUT:
                self.chw = True
            else:
                self.points.append((step["kind"], list(step["a"]), list(step["b"])))

    def apply_numpy(self, batch):
        out = np.asarray(batch)
        if self.points:
            out = out.astype(np.float32)
        for point in self.points:
            out = self._affine(point, out, np)
        if self.chw:
            out = np.ascontiguousarray(out.transpose(0, 3, 1, 2))
        return out

    def apply_native(self, batch, empty=np.empty):
        """The tail on a uint8 (N, H, W, C) batch by the CPU kernels' pass: the ops' native
        steps as one C++ row plan over decoded images (transforms_c._batch.RowPlanHandle, as a
        fused plan runs them), one image at a time with the GIL released: their values bit for
        bit. Other input: ``apply_numpy``. ``empty(shape, dtype)`` allocates the output (e.g. a
        BufferRecycler's)."""
        arr = np.asarray(batch)
        if arr.dtype != np.uint8 or arr.ndim != 4 or 0 in arr.shape:
            return self.apply_numpy(arr)
        n, height, width, channels = arr.shape
        handle = self._row_plan()
        (out_h, out_w, out_c), float_output, chw = handle.output_layout(height, width, channels)
        shape = (n, out_c, out_h, out_w) if chw else (n, out_h, out_w, out_c)
        out = empty(shape, np.float32 if float_output else np.uint8)
        seeds = [0] * len(self.ops)
        for i in range(n):
            if handle.run_row(arr[i], seeds, out=out[i]) is None:
                # A row the plan leaves (e.g. more means than channels): the ops one by one
                # give its value or their own error.
                out[i] = run_unfused(self.ops, seeds, arr[i])
        return out

    def _row_plan(self):
        handle = self.__dict__.get("_handle")
        if handle is None:
            handle = self._handle = _batch.RowPlanHandle(
                [op.native_step() for op in self.ops], _batch.INPUT_IMAGE,
                settings.get_max_image_pixels())
        return handle

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_handle", None)      # rebuilt where the tail is unpickled (a Ray actor)
        return state

    def apply_torch(self, tensor):
        """The tail on a torch tensor (N, H, W, C) uint8, on its own device."""
        import torch
        out = tensor.to(torch.float32) if self.points else tensor
        for point in self.points:
            out = self._affine(point, out, torch, tensor.device)
        if self.chw:
            out = out.permute(0, 3, 1, 2).contiguous()
        return out

    @staticmethod
    def _affine(point, x, xp, device=None):
        kind, a, b = point
        channels = x.shape[-1]
        a = np.broadcast_to(np.asarray(a, np.float32), (channels,))
        b = np.broadcast_to(np.asarray(b, np.float32), (channels,))
        if xp is not np:
            a = upload(xp, xp.as_tensor(np.array(a)), device)
            b = upload(xp, xp.as_tensor(np.array(b)), device)
        if kind == "normalize":
            return (x - a) / b
        return x * a + b

    def __repr__(self):
        names = "+".join(type(op).__name__ for op in self.ops)
        return f"DeviceTail(column={self.column}, ops={names})"
