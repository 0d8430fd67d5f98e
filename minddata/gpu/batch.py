"""The GPU path's batch computation: encoded rows in, one torch tensor on the device out.

``GpuRun(ops, device, decoder)(datas, seeds)`` runs a map's ops (checked by
``plan.run_refusal``) over one batch of encoded images:
- decode: JPEG rows in one batched call of ``decoder`` (torchvision's ``decode_jpeg``: nvJPEG
  on CUDA); rows it cannot take (PNG and other formats, a JPEG it refuses) are decoded by the
  CPU path's own Decode (libjpeg-turbo / OpenCV) and joined to the batch on the device, so a
  broken file raises the CPU op's error. Without ``decoder`` every row is decoded that way.
- geometry per row on CHW uint8 (windows of different images differ): each op draws its
  window with its own ``window()`` from the row's seed, as on the CPU, and resizes bilinearly
  with OpenCV's pixel mapping (half-pixel centres, edges clamped), rounded back to uint8;
- flips, then pointwise and layout ops on the stacked batch.
The result is (N, H, W, C) as the CPU path gives it, or (N, C, H, W) after HWC2CHW/ToTensor.
"""
import numpy as np

from transforms_c._rng import Rng
from transforms_c.vision.crop import CenterCrop, Crop
from transforms_c.vision.decode import Decode, is_jpeg, jpeg_size
from transforms_c.vision.flip import HorizontalFlip, RandomVerticalFlip, VerticalFlip
from transforms_c.vision.normalize import HWC2CHW, Normalize, Rescale
from transforms_c.vision.resize import Resize, resized_shape
from transforms_c.vision.tensor import ToTensor
from transforms_c._validate import size_hw

from .plan import KINDS


class RowError(Exception):
    """Row ``row`` of the batch failed; the op's own exception is the cause."""

    def __init__(self, row, op_name):
        super().__init__(f"row {row} of the batch failed in {op_name}")
        self.row = row
        self.op_name = op_name


class GpuRun:
    def __init__(self, ops, device, decoder=None):
        import torch
        self.torch = torch
        self.ops = list(ops)
        self.device = device
        self.decoder = decoder
        self.cpu_decode = Decode()

    def __call__(self, datas, seeds):
        """``datas``: the rows' encoded images (1-D uint8 arrays); ``seeds[k][i]``: op k's seed
        for row i (the CPU path's)."""
        rows = self._decode(datas)
        batch = None        # the stacked (N, C, H, W) batch, once the rows are one size
        chw = False         # the output's layout: CHW once HWC2CHW or ToTensor ran
        for k, op in enumerate(self.ops):
            kind = KINDS[type(op)]
            if kind == "decode":
                continue
            if kind in ("decode_crop", "geometry"):
                if batch is not None:       # geometry after a flip: row by row again
                    rows, batch = list(batch), None
                rows = [self._geometry(op, img, seeds[k][i], i) for i, img in enumerate(rows)]
                continue
            if batch is None:
                batch = self._stack(rows)
            if kind == "flip":
                batch = self._flip(op, batch, seeds[k])
            elif kind == "point":
                batch = self._point(op, batch)
                chw = chw or isinstance(op, ToTensor)
            elif isinstance(op, HWC2CHW):
                chw = True
        if batch is None:
            batch = self._stack(rows)
        return batch if chw else batch.permute(0, 2, 3, 1).contiguous()

    # -- decode ----------------------------------------------------------------------------
    def _decode(self, datas):
        torch = self.torch
        out = [None] * len(datas)
        jpegs = []
        if self.decoder is not None:
            for i, data in enumerate(datas):
                if isinstance(data, np.ndarray) and data.dtype == np.uint8 and data.ndim == 1 \
                        and is_jpeg(data):
                    try:
                        jpeg_size(data)      # the header parses and is within the pixel limit
                    except RuntimeError:
                        continue             # the CPU decode gives the row its error
                    jpegs.append(i)
        if jpegs:
            decoded = self._decode_jpegs([datas[i] for i in jpegs])
            for i, img in zip(jpegs, decoded):
                out[i] = img
        for i, data in enumerate(datas):
            if out[i] is None:          # PNG and the rest, or a JPEG the decoder refused
                try:
                    img = self.cpu_decode.apply((data,), 0)[0]
                except Exception as exc:
                    raise RowError(i, "Decode") from exc
                out[i] = torch.from_numpy(img).permute(2, 0, 1).to(self.device,
                                                                   non_blocking=True)
        return out

    def _decode_jpegs(self, datas):
        """One batched decoder call; if it refuses the batch, row by row (a refused row is
        left to the CPU decode: None)."""
        from torchvision.io import ImageReadMode
        torch = self.torch
        tensors = [torch.from_numpy(d if d.flags.writeable else d.copy()) for d in datas]
        try:
            return list(self.decoder(tensors, mode=ImageReadMode.RGB, device=self.device))
        except RuntimeError:
            pass
        out = []
        for t in tensors:
            try:
                out.append(self.decoder([t], mode=ImageReadMode.RGB, device=self.device)[0])
            except RuntimeError:
                out.append(None)
        return out

    # -- geometry (per row, CHW uint8) -----------------------------------------------------
    def _geometry(self, op, img, seed, row):
        height, width = int(img.shape[1]), int(img.shape[2])
        try:
            if isinstance(op, Resize):
                return self._resize(img, *resized_shape(height, width, op.size))
            if isinstance(op, CenterCrop):
                return self._center_crop(op, img, height, width)
            if isinstance(op, Crop):
                top, left, crop_h, crop_w = op.window(height, width)
                if top + crop_h > height or left + crop_w > width:
                    raise RuntimeError(f"Crop: crop window {crop_h}x{crop_w} at (top={top}, "
                                       f"left={left}) exceeds the image of shape "
                                       f"{(height, width, img.shape[0])}")
                return img[:, top:top + crop_h, left:left + crop_w]
            # RandomResizedCrop, RandomCropDecodeResize: the op's own draw from the row's seed
            top, left, crop_h, crop_w = op.window(height, width, Rng(seed))
            return self._resize(img[:, top:top + crop_h, left:left + crop_w], *op.output_hw())
        except Exception as exc:
            raise RowError(row, type(op).__name__) from exc

    def _resize(self, img, out_h, out_w):
        """Bilinear resize of a CHW uint8 image, OpenCV's mapping, rounded to uint8."""
        if img.shape[1] == out_h and img.shape[2] == out_w:
            return img
        torch = self.torch
        out = torch.nn.functional.interpolate(img[None].float(), size=(out_h, out_w),
                                              mode="bilinear", align_corners=False,
                                              antialias=False)[0]
        return out.round_().clamp_(0, 255).to(torch.uint8)

    def _center_crop(self, op, img, height, width):
        crop_h, crop_w = size_hw(op.size)
        pad_h, pad_w = max(0, crop_h - height), max(0, crop_w - width)
        if pad_h or pad_w:      # a window larger than the image: zeros around it, as the CPU op
            img = self.torch.nn.functional.pad(
                img, (pad_w // 2 + pad_w % 2, pad_w // 2, pad_h // 2 + pad_h % 2, pad_h // 2))
            height, width = height + pad_h, width + pad_w
        top, left = (height - crop_h) // 2, (width - crop_w) // 2
        return img[:, top:top + crop_h, left:left + crop_w]

    # -- the stacked batch -----------------------------------------------------------------
    def _stack(self, rows):
        shapes = {tuple(r.shape) for r in rows}
        if len(shapes) > 1:
            first = tuple(rows[0].shape)
            other = next(k for k, r in enumerate(rows) if tuple(r.shape) != first)
            raise RowError(other, "Batch") from RuntimeError(
                f"Batch: rows of different shapes (C, H, W) {first} (row 0) and "
                f"{tuple(rows[other].shape)} (row {other}); use pad_info or padded_batch")
        return self.torch.stack(rows)

    def _flip(self, op, batch, seeds):
        axis = -2 if isinstance(op, (RandomVerticalFlip, VerticalFlip)) else -1
        if isinstance(op, (HorizontalFlip, VerticalFlip)):
            return batch.flip(axis)
        mask = [bool(op.draw(Rng(seed))) for seed in seeds]
        if not any(mask):
            return batch
        if all(mask):
            return batch.flip(axis)
        where = self.torch.tensor(mask, device=batch.device).view(-1, 1, 1, 1)
        return self.torch.where(where, batch.flip(axis), batch)

    def _point(self, op, batch):
        torch = self.torch
        x = batch if batch.dtype == torch.float32 else batch.float()
        if isinstance(op, ToTensor):
            # MindSpore's arithmetic: img * float32(1/255), one rounding
            return x * torch.tensor(np.float32(1.0) / np.float32(255.0), device=x.device)
        if isinstance(op, Rescale):
            return x * np.float32(op.rescale) + np.float32(op.shift)
        assert isinstance(op, Normalize), op     # plan.KINDS has no other point op
        channels = x.shape[1]
        mean = _per_channel(op.mean, channels, "mean")
        std = _per_channel(op.std, channels, "std")
        mean = torch.from_numpy(mean).to(x.device).view(1, -1, 1, 1)
        std = torch.from_numpy(std).to(x.device).view(1, -1, 1, 1)
        return (x - mean) / std


def _per_channel(values, channels, name):
    if len(values) == 1:
        return np.full(channels, values[0], np.float32)
    if len(values) != channels:
        raise RuntimeError(f"Normalize: {name} has {len(values)} values but the image has "
                           f"{channels} channels")
    return np.asarray(values, np.float32)


__all__ = ["GpuRun", "RowError"]
