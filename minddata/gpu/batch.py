"""The GPU path's batch computation: encoded rows in, one torch tensor on the device out.

``GpuRun(ops, device, decoder)(datas, seeds)`` runs a map's ops (checked by
``plan.run_refusal``) over one batch of encoded images:
- decode: JPEG rows in one batched call of ``decoder`` (torchvision's ``decode_jpeg``: nvJPEG
  on CUDA), except a share that CPU threads decode meanwhile (``split``, tuned from the
  measured rates: decode_split.py); rows it cannot take (PNG and other formats, a JPEG it
  refuses, and the JPEGs jpeg_batch_sizes leaves out: cut short, 12-bit, RGB/CMYK-coded, which
  a GPU decoder might misread without an error) are decoded by the CPU path's own Decode
  (libjpeg-turbo / OpenCV) and joined to the batch on the device, so a broken file raises the
  CPU op's error. Without ``decoder``
  every row is decoded that way. Each image the decoder gives must be (3, H, W) of the
  header's size (or the window's), or the batch fails naming the row. The headers are read
  and the decoder's rows packed into one buffer per thread by native calls without the GIL
  (the buffer page-locked on CUDA and reused batch after batch: the decoder's copies to the
  device are DMA transfers), so the training loop beside the pipeline waits less for the GIL.
  A decoder with ``decode_batch`` (the direct nvJPEG decoder) takes that buffer whole, in one
  call, and gives one buffer of the decoded rows back (a DecodedBatch, which the crop-resize
  reads in place): no Python object per row.
  With ``regions`` the decoder reads only each JPEG row's crop window, drawn from the header's
  size before the decode (when the first op after Decode crops); that row's window is then
  resized whole.
- geometry on CHW uint8: each op draws each row's window with its own ``window()`` from the
  row's seed, as on the CPU; then one gather over the whole batch crops and resizes every row
  bilinearly with OpenCV's pixel mapping (half-pixel centres, samples clamped to the window),
  rounded back to uint8: one Triton kernel on CUDA where Triton is installed
  (resample_kernel.py), torch operations otherwise, the same values;
- flips, then pointwise and layout ops on the stacked batch (in the same kernel as the last
  crop or resize where that kernel runs);
- casts last (TypeCast, ToType, a ToTensor's output_type), with numpy's rules, on the
  finished batch.
The result is (N, H, W, C) as the CPU path gives it, or (N, C, H, W) after HWC2CHW/ToTensor.
"""
import threading
import time
import warnings

import numpy as np

from transforms_c._rng import Rng
from transforms_c.vision.crop import CenterCrop, Crop, center_crop_padding
from transforms_c.vision.decode import (Decode, EncodedRows, gather_encoded, jpeg_batch_sizes,
                                        stage_jpegs)
from transforms_c.vision.flip import HorizontalFlip, RandomVerticalFlip, VerticalFlip
from transforms_c.vision.normalize import HWC2CHW, Normalize, Rescale, per_channel
from transforms_c.vision.resize import Resize, resized_shape
from transforms_c.vision.resized_crop import RandomResizedCrop
from transforms_c.vision.tensor import ToTensor
from transforms_c._validate import size_hw

from . import resample_kernel
from .decoded_batch import DecodedBatch
from .host_copy import torch_dtype, upload, upload_arrays
from .plan import KINDS, cast_type


class RowError(Exception):
    """Row ``row`` of the batch failed; the op's own exception is the cause."""

    def __init__(self, row, op_name):
        super().__init__(f"row {row} of the batch failed in {op_name}")
        self.row = row
        self.op_name = op_name


class GpuRun:
    def __init__(self, ops, device, decoder=None, split=None, cpu_pool=None, fused=None,
                 regions=False):
        """``decoder``: ``decode(tensors, device=...)`` (backend.jpeg_decoder()); ``split`` (a
        DecodeSplit) with ``cpu_pool`` (its threads): the CPU decodes a share of the JPEG
        rows while the decoder does the rest. ``fused``: crop and resize in one kernel
        (resample_kernel.py); None: wherever that kernel runs on ``device``. ``regions``:
        the decoder decodes only each row's crop window (it takes ``regions=``, as
        nvimgcodec_decoder does), where the map's first op after Decode crops."""
        import torch
        self.torch = torch
        self.ops = list(ops)
        self.device = device
        self.decoder = decoder
        self.split = split if cpu_pool is not None else None
        self.cpu_pool = cpu_pool
        self.cpu_decode = Decode()
        self.fused = resample_kernel.available(device) if fused is None else fused
        # the op whose windows a region decode reads: the first after the decodes, if it crops
        first = next((k for k, op in enumerate(self.ops) if KINDS[type(op)] != "decode"), None)
        self.region_op = first if (regions and decoder is not None and first is not None
                                   and KINDS[type(self.ops[first])] in ("decode_crop", "geometry")
                                   ) else None
        # the last geometry op: the kernel also does the flips, point and layout ops after it
        geometry = [k for k, op in enumerate(self.ops)
                    if KINDS[type(op)] in ("decode_crop", "geometry")]
        self.last_geometry = geometry[-1] if geometry else None
        self.tail_op = self.last_geometry if geometry and all(
            KINDS[type(op)] in ("flip", "point", "layout", "cast")
            for op in self.ops[self.last_geometry + 1:]) else None
        # the dtypes the finished batch is cast to, in turn (plan.run_refusal: casts come last)
        self.casts = [dtype for dtype in map(cast_type, self.ops) if dtype is not None]
        # a decoder taking whole batches in one call: the batch is staged and its headers read
        # by one native call, before the decode (the region decode wants the headers first)
        self.stages_whole = getattr(decoder, "decode_batch", None) is not None \
            and self.region_op is None and self.split is None
        self.tail_plans = {}                # (op, channels) -> _tail_plan(), the same each batch
        self.local = threading.local()      # each calling thread's staging buffer
        self.decoder_warned = False         # a refused batch warns once

    def __call__(self, datas, seeds):
        """``datas``: the rows' encoded images (1-D uint8 arrays, or an EncodedRows: where
        their bytes lie); ``seeds[k][i]``: op k's seed for row i (the CPU path's)."""
        datas = EncodedRows.of(datas)
        staged = None
        if self.stages_whole and len(datas):
            buffer = self._staging_buffer(int(datas.sizes.sum()))
            offsets, sizes = stage_jpegs(datas, buffer.numpy())
            staged = buffer, offsets
        else:
            sizes = self._jpeg_sizes(datas)
        windows = {}
        if self.region_op is not None:
            windows = self._crop_windows(sizes, seeds[self.region_op])
        # a list of (C, H, W) rows, or one (N, C, H, W) batch; the rows decoded to their window
        images, cropped = self._decode(datas, sizes, windows, staged)
        chw = False         # the output's layout: CHW once HWC2CHW or ToTensor ran
        for k, op in enumerate(self.ops):
            kind = KINDS[type(op)]
            if kind == "decode":
                continue
            if kind in ("decode_crop", "geometry"):
                # a row decoded to its window is that window whole: resize it
                boxes = {i: (0, 0) + tuple(windows[i][2:]) for i in cropped} \
                    if k == self.region_op else None
                if k == self.tail_op and self.fused:
                    done = self._geometry_and_tail(op, images, seeds, k, boxes)
                    if done is not None:
                        return self._finish(*done)
                images = self.geometry(op, images, seeds[k], boxes)
                continue
            if kind == "cast":
                continue                    # _finish casts the finished batch
            if kind == "flip" and not isinstance(images, self.torch.Tensor) \
                    and k < self.last_geometry:
                # before the geometry that gives the rows one size: row by row
                images = self._flip_rows(op, images, seeds[k])
                continue
            images = self._stack(images)
            if kind == "flip":
                images = self._flip(op, images, seeds[k])
            elif kind == "point":
                images = self._point(op, images)
                chw = chw or isinstance(op, ToTensor)
            elif isinstance(op, HWC2CHW):
                chw = True
        return self._finish(self._stack(images), chw)

    def _finish(self, batch, chw):
        """The batch (N, C, H, W) in the run's layout (HWC unless ``chw``), cast in turn to
        each of the run's cast dtypes as numpy casts (float64 to float16 through float32, as
        the CPU op does)."""
        for dtype in self.casts:
            if dtype == np.float16 and batch.dtype == self.torch.float64:
                batch = batch.float()
            batch = batch.to(torch_dtype(self.torch, dtype))
        return batch if chw else batch.permute(0, 2, 3, 1).contiguous()

    # -- decode ----------------------------------------------------------------------------
    def decode(self, datas):
        """Every row decoded to a (C, H, W) uint8 tensor on the device: JPEGs by the decoder
        (with the CPU share beside it), the rest by the CPU path's Decode."""
        datas = EncodedRows.of(datas)
        return list(self._decode(datas, self._jpeg_sizes(datas), {})[0])

    def _crop_windows(self, sizes, seeds):
        """{row: (top, left, crop_h, crop_w, out_h, out_w)} of the JPEG rows (``sizes``:
        _jpeg_sizes()) whose window, drawn by the region op from the header's size and the
        row's seed as geometry() draws it, lies inside the image and is smaller than it."""
        op = self.ops[self.region_op]
        windows = {}
        for i in np.flatnonzero(sizes[:, 0]).tolist():
            height, width = sizes[i].tolist()
            try:
                box = self._box(op, height, width, seeds[i], i)
            except RowError:
                continue                    # geometry() raises the op's error for the row
            top, left, crop_h, crop_w = box[:4]
            if top >= 0 and left >= 0 and top + crop_h <= height and left + crop_w <= width \
                    and (crop_h, crop_w) != (height, width):
                windows[i] = box
        return windows

    def _jpeg_sizes(self, datas):
        """(N, 2) int64 (height, width) of the rows the decoder takes: JPEGs whose header parses
        within the pixel limit (the CPU decode gives the others their error); (0, 0) for the
        others (every row without a decoder)."""
        if self.decoder is None:
            return np.zeros((len(datas), 2), np.int64)
        return jpeg_batch_sizes(datas)

    def _decode(self, datas, sizes, windows, staged=None):
        """decode() of ``datas`` (an EncodedRows; ``sizes``: _jpeg_sizes()), the decoder reading
        only ``windows`` (_crop_windows()) of its rows; also the set of rows it decoded to their
        window. ``staged``: (buffer, offsets) of the whole batch where __call__ staged it."""
        whole = self._decode_whole(datas, sizes, windows, staged)
        if isinstance(whole, DecodedBatch):
            return whole, set()
        out = whole or [None] * len(datas)      # rows the whole-batch decode left: None
        cropped = set()
        jpegs = np.flatnonzero(sizes[:, 0]).tolist() if whole is None else []
        if jpegs:
            share = self.split.cpu_rows(len(jpegs)) if self.split is not None else 0
            on_gpu, on_cpu = jpegs[:len(jpegs) - share], jpegs[len(jpegs) - share:]
            pending = [(i, self.cpu_pool.submit(self._timed_cpu_decode, datas[i]))
                       for i in on_cpu]
            regions = [windows[i][:4] if i in windows else None for i in on_gpu]
            decoded = self._decode_jpegs(datas, on_gpu, regions)
            for i, img, region in zip(on_gpu, decoded, regions):
                if img is None:
                    continue                # the CPU decode below takes the row
                # (3, H, W) of the header's size, or of the window: anything else (another
                # layout, a region ignored) would be cut wrong, so the batch fails instead
                expected = (3,) + tuple(region[2:4] if region is not None
                                        else sizes[i].tolist())
                if tuple(img.shape) != expected:
                    where = "the whole image" if region is None else \
                        f"the window at (top={region[0]}, left={region[1]})"
                    raise RowError(i, "Decode") from RuntimeError(
                        f"Decode: the GPU decoder gave shape {tuple(img.shape)} for "
                        f"{where}, expected {expected} (C, H, W)")
                out[i] = img
                if region is not None:
                    cropped.add(i)
            for i, future in pending:
                try:
                    out[i] = self._upload(future.result())
                except Exception as exc:
                    raise RowError(i, "Decode") from exc
        for i in range(len(datas)):
            if out[i] is None:          # PNG and the rest, or a JPEG the decoder refused
                try:
                    img = self.cpu_decode.apply((datas[i],), 0)[0]
                except Exception as exc:
                    raise RowError(i, "Decode") from exc
                out[i] = self._upload(img)
        return out, cropped

    def _decode_whole(self, datas, sizes, windows, staged):
        """The batch in one call of a decoder with ``decode_batch`` (the direct nvJPEG
        decoder), where every row is a JPEG it may take whole (no crop windows, no CPU share):
        a DecodedBatch, without a Python object per row; a list of (3, H, W) rows with None
        for the rows it left to the CPU; None where it does not apply or refused the batch
        (decoded then as the other decoders' batches are). ``staged``: the batch already in
        the staging buffer, (buffer, offsets), or None."""
        decode_batch = getattr(self.decoder, "decode_batch", None)
        if decode_batch is None or windows or self.split is not None or not len(datas) \
                or not sizes[:, 0].all():
            return None
        buffer, offsets = staged if staged is not None else \
            self._stage(datas, np.arange(len(datas), dtype=np.int64))
        try:
            flat, hw, taken = decode_batch(buffer, offsets, self.device)
        except RuntimeError as exc:
            self._decoder_refused(f"refused {len(datas)} rows at once ({exc})")
            return None
        finally:
            self._staging_used()    # also after a failure: copies of it may still be queued
        hw, taken = np.asarray(hw, np.int64).reshape(-1, 2), np.asarray(taken, bool)
        wrong = np.flatnonzero(taken & (hw != sizes).any(1))
        if len(wrong):      # cut by another size, the rows would be garbage: the batch fails
            i = int(wrong[0])
            raise RowError(i, "Decode") from RuntimeError(
                f"Decode: the GPU decoder gave shape {(3, *hw[i].tolist())} for the whole "
                f"image, expected {(3, *sizes[i].tolist())} (C, H, W)")
        batch = DecodedBatch(flat, hw[taken])
        return batch if taken.all() else batch.by_row(taken)

    def _upload(self, img):
        """An HWC uint8 image decoded on the host as a CHW tensor on the device."""
        return upload(self.torch, self.torch.from_numpy(img).permute(2, 0, 1), self.device)

    def _timed_cpu_decode(self, data):
        """One row decoded by a CPU thread of the split (its time measures the CPU's rate)."""
        began = time.perf_counter()
        img = self.cpu_decode.apply((data,), 0)[0]
        self.split.cpu_decoded(1, time.perf_counter() - began)
        return img

    def _decode_jpegs(self, datas, rows, regions):
        """One batched decoder call over ``datas[rows]`` (``regions``: each row's (top, left,
        h, w) or None); if it refuses the batch, row by row (a refused row is left to the CPU
        decode: None). With a split, the call is timed on the device's clock."""
        if not rows:
            return []
        tensors = self._staged(datas, rows)
        try:
            return self._decode_staged(tensors, regions)
        finally:
            self._staging_used()    # also after a failure: copies of it may still be queued

    def _decode_staged(self, tensors, regions):
        timer = DeviceTimer(self.torch, self.device) if self.split is not None else None

        def call(rows, row_regions):
            if any(r is not None for r in row_regions):
                return list(self.decoder(rows, device=self.device, regions=row_regions))
            return list(self.decoder(rows, device=self.device))
        try:
            decoded = call(tensors, regions)
        except RuntimeError as exc:
            decoded = None
            self._decoder_refused(f"refused {len(tensors)} rows at once ({exc})")
        if decoded is not None and len(decoded) != len(tensors):
            self._decoder_refused(f"gave {len(decoded)} images for {len(tensors)} rows")
            decoded = None      # which image is which row is unknown: row by row
        if timer is not None and decoded is not None:
            self.split.gpu_decoded(len(decoded), timer.seconds())
        if decoded is None:
            decoded = []
            for t, region in zip(tensors, regions):
                try:
                    one = call([t], [region])
                except RuntimeError:
                    one = []
                decoded.append(one[0] if len(one) == 1 else None)
        return decoded

    def _decoder_refused(self, what):
        """Warns once per run that the batched decode failed: its rows then go one by one
        (and to the CPU path's decoder where refused again), right but much slower."""
        if not self.decoder_warned:
            self.decoder_warned = True
            name = getattr(self.decoder, "name", type(self.decoder).__name__)
            warnings.warn(f"the GPU JPEG decoder ({name}) {what}: its rows are decoded one by "
                          f"one, and by the CPU path's decoder where it refuses them (right, "
                          f"but slower); warned once", RuntimeWarning, stacklevel=3)

    def _staged(self, datas, rows):
        """The encoded ``datas[rows]`` as 1-D uint8 tensors, views of one buffer (_stage)."""
        buffer, offsets = self._stage(datas, rows)
        return list(buffer[:int(offsets[-1])].split(np.diff(offsets).tolist()))

    def _stage(self, datas, rows):
        """(buffer, offsets): the encoded ``datas[rows]`` one after another in one buffer of
        the calling thread, reused batch after batch, and their (len(rows) + 1,) offsets in
        it: page-locked on CUDA, so the decoder's copies to the device are DMA transfers
        instead of staged ones, and one native copy (without the GIL) instead of a copy per
        read-only row."""
        buffer = self._staging_buffer(datas.nbytes(rows))
        offsets = gather_encoded(datas, rows, buffer.numpy())
        return buffer, offsets

    def _staging_buffer(self, need):
        """The calling thread's staging buffer (1-D uint8, at least ``need`` bytes), once the
        decoder's copies of the last batch from it have run."""
        torch, local = self.torch, self.local
        buffer = getattr(local, "staging", None)
        if buffer is not None and getattr(local, "staging_read", None) is not None:
            local.staging_read.synchronize()    # the last batch's copies have read it
        if buffer is None or buffer.numel() < need:
            local.staging = buffer = torch.empty(
                need + need // 4, dtype=torch.uint8,
                pin_memory=self.device.type == "cuda")
        return buffer

    def _staging_used(self):
        """After the decoder's calls: on CUDA, the point of the stream after which the staging
        buffer may be written again."""
        if self.device.type == "cuda":
            if getattr(self.local, "staging_read", None) is None:
                self.local.staging_read = self.torch.cuda.Event(blocking=True)   # asleep
            self.local.staging_read.record()

    # -- geometry (uint8, one gather for the whole batch) --------------------------------
    def geometry(self, op, images, seeds, boxes=None):
        """The op over every row: each row's window and output size (drawn by the op itself
        from the row's seed, as on the CPU; ``boxes``: {row: box} given instead), then one
        batched resample; rows whose outputs differ in size (Resize(int) of images of
        different shapes) one by one."""
        boxes, sizes = self._boxes(op, images, seeds, boxes)
        if not _one_output_size(boxes):
            return [self._resample([images[i]], boxes[i:i + 1], sizes[i:i + 1])[0]
                    for i in range(len(sizes))]
        return self._resample(images, boxes, sizes)

    def _boxes(self, op, images, seeds, given):
        """(boxes (N, 6), sizes (N, 2) int64 (height, width)) of geometry(): each row's box,
        drawn or ``given``. A RandomResizedCrop draws its windows for the whole batch at once
        (natively, without the GIL), the other ops row by row."""
        sizes = images.hw if isinstance(images, DecodedBatch) else np.array(
            [(int(img.shape[-2]), int(img.shape[-1])) for img in images], np.int64).reshape(-1, 2)
        given = given or {}
        if isinstance(op, RandomResizedCrop) and len(given) < len(sizes):
            boxes = np.empty((len(sizes), 6), np.int64)
            boxes[:, :4] = op.windows(sizes[:, 0], sizes[:, 1], seeds)
            boxes[:, 4:] = op.output_hw()
            for i, box in given.items():
                boxes[i] = box
            return boxes, sizes
        boxes = np.array([given[i] if i in given else self._box(op, h, w, seeds[i], i)
                          for i, (h, w) in enumerate(sizes.tolist())], np.int64).reshape(-1, 6)
        return boxes, sizes

    def _geometry_and_tail(self, op, images, seeds, k, given):
        """The last geometry op (``k``) and every op after it (flips, point and layout ops)
        in the one kernel: (batch, chw), or None where the rows' output sizes differ or the
        kernel does not run here (the caller then runs the ops one by one)."""
        boxes, sizes = self._boxes(op, images, seeds[k], given)
        if not _one_output_size(boxes):
            return None
        channels = 3 if isinstance(images, DecodedBatch) else int(
            images.shape[1] if isinstance(images, self.torch.Tensor) else images[0].shape[0])
        fixed, drawn, points, chw = self._tail_plan(k, channels)
        flips = np.full(len(boxes), fixed, np.int32)    # bit 0: horizontal, bit 1: vertical
        for j, bit in drawn:
            flips ^= self.ops[j].draws(seeds[j]).astype(np.int32) * np.int32(bit)
        batch = self._resample(images, boxes, sizes, resample_kernel.Tail(flips, points))
        return None if batch is None else (batch, chw)

    def _tail_plan(self, k, channels):
        """What the ops after geometry op ``k`` do in the kernel, the same every batch: (the
        flip bits every row gets, [(op index, bit)] of the random flips, the point ops' (P,
        channels, 3) float32 parameters (_point_params), whether the output is CHW)."""
        plan = self.tail_plans.get((k, channels))
        if plan is None:
            fixed, drawn, points, chw = 0, [], [], False
            for j in range(k + 1, len(self.ops)):
                tail_op = self.ops[j]
                kind = KINDS[type(tail_op)]
                if kind == "flip":
                    bit = 2 if isinstance(tail_op, (RandomVerticalFlip, VerticalFlip)) else 1
                    if isinstance(tail_op, (HorizontalFlip, VerticalFlip)):
                        fixed ^= bit
                    else:
                        drawn.append((j, bit))
                elif kind == "point":
                    points.append(_point_params(tail_op, channels))
                    chw = chw or isinstance(tail_op, ToTensor)
                elif isinstance(tail_op, HWC2CHW):
                    chw = True
            plan = self.tail_plans[(k, channels)] = (
                fixed, drawn, np.array(points, np.float32).reshape(len(points), channels, 3),
                chw)
        return plan

    @staticmethod
    def _box(op, height, width, seed, row):
        """(top, left, crop_h, crop_w, out_h, out_w) of one row: the window the op reads (a
        CenterCrop larger than the image reaches outside it: zeros there, as the CPU op pads)
        and the size it resizes that window to."""
        try:
            if isinstance(op, Resize):
                return (0, 0, height, width) + tuple(resized_shape(height, width, op.size))
            if isinstance(op, (CenterCrop, Crop)):
                crop_h, crop_w = size_hw(op.size)
                if isinstance(op, Crop):
                    top, left = op.coordinates
                    if top + crop_h > height or left + crop_w > width:
                        raise RuntimeError(f"Crop: crop window {crop_h}x{crop_w} at (top={top}, "
                                           f"left={left}) exceeds the image of shape "
                                           f"{(height, width, 3)}")
                else:
                    center_crop_padding(height, width, crop_h, crop_w)    # the CPU op's limit
                    top = _centred(height, crop_h)
                    left = _centred(width, crop_w)
                return top, left, crop_h, crop_w, crop_h, crop_w
            # RandomResizedCrop, RandomCropDecodeResize: the op's own draw from the row's seed
            return tuple(op.window(height, width, Rng(seed))) + tuple(op.output_hw())
        except Exception as exc:
            raise RowError(row, type(op).__name__) from exc

    def _resample(self, images, boxes, sizes, tail=None):
        """(N, C, out_h, out_w) uint8: each row's window resized bilinearly with OpenCV's
        mapping (half-pixel centres; samples clamped to the window's edges), rounded; a window
        of the output's size is copied exactly. Gathers from all rows at once: in one kernel
        where it runs (resample_kernel.py), else with torch operations. With ``tail`` (a
        resample_kernel.Tail) the kernel also flips and applies the point ops; None where it
        cannot run."""
        torch = self.torch
        out_h, out_w = int(boxes[0, 4]), int(boxes[0, 5])
        if isinstance(images, torch.Tensor):
            channels = int(images.shape[1])
            flat = images.reshape(-1)
        elif isinstance(images, DecodedBatch):
            channels, flat = 3, images.flat
        else:
            channels = int(images[0].shape[0])
            flat = self._flat(images)
        hw = np.asarray(sizes, np.int64).reshape(-1, 2)
        # each row: its box's top, left, crop_h, crop_w, its height, width, plane, first byte
        meta = np.empty((len(boxes), 8), np.int64)
        meta[:, :4] = boxes[:, :4]
        meta[:, 4:6] = hw
        np.multiply(hw[:, 0], hw[:, 1], out=meta[:, 6])
        meta[:1, 7] = 0
        np.cumsum(meta[:-1, 6] * channels, out=meta[1:, 7])
        inside = bool(boxes[:, :2].min() >= 0 and (boxes[:, :2] + boxes[:, 2:4] <= hw).all())
        exact = bool((boxes[:, 2:4] == boxes[:, 4:6]).all())
        if self.fused:
            # the scales as _taps computes them (one IEEE float32 division, here on the host:
            # no kernels queued for them), so both paths sample the same points
            scales = boxes[:, 2:4].astype(np.float32) / np.array([out_h, out_w], np.float32)
            flip = tail is not None and bool(tail.flips.any())
            points = tail is not None and len(tail.points) > 0
            arrays = upload_arrays(torch, [meta, scales] + ([tail.flips] if flip else [])
                                   + ([tail.points] if points else []), self.device)
            try:
                return resample_kernel.resample(
                    torch, flat, arrays[0], arrays[1], channels, out_h, out_w, exact, inside,
                    arrays[2] if flip else None, arrays[-1] if points else None)
            except resample_kernel.KernelUnavailable as exc:
                self.fused = False
                warnings.warn(f"{exc}; crop and resize run as torch operations (the same "
                              f"values, more GPU time)", RuntimeWarning, stacklevel=2)
        if tail is not None:
            return None
        return self._gather(flat, upload(torch, torch.from_numpy(meta), self.device), channels,
                            out_h, out_w, exact, inside)

    def _flat(self, images):
        """The rows one after another as one 1-D tensor: a view where they already lie so in
        one buffer (the direct nvJPEG decoder writes a batch that way), else a copy (a kernel
        over the whole batch: 0.3 ms of an H200 a batch of 256)."""
        first, last = images[0], images[-1]
        end = first.data_ptr()
        for img in images:
            if not img.is_contiguous() or img.data_ptr() != end or img.dtype != first.dtype:
                return self.torch.cat([img.reshape(-1) for img in images])
            end += img.numel() * img.element_size()
        # one after another from the first's start to the last's end, both in one allocation:
        # every row lies inside it, whichever tensor objects hold them
        if first.untyped_storage().data_ptr() != last.untyped_storage().data_ptr():
            return self.torch.cat([img.reshape(-1) for img in images])
        total = (end - first.data_ptr()) // first.element_size()
        return first.as_strided((total,), (1,))

    def _gather(self, flat, meta, channels, out_h, out_w, exact, inside):
        """_resample with torch operations (any device)."""
        torch = self.torch
        top, left, crop_h, crop_w, height, width, plane_t, base_t = meta.unbind(1)
        y0, y1, wy = self._taps(out_h, crop_h)
        x0, x1, wx = self._taps(out_w, crop_w)
        ys = [top[:, None] + y for y in (y0, y1)]       # rows of the image, (N, out_h)
        xs = [left[:, None] + x for x in (x0, x1)]
        mask = None
        if not inside:      # a CenterCrop wider than an image: zeros outside it
            mask = (((ys[0] >= 0) & (ys[0] < height[:, None]))[:, :, None]
                    & ((xs[0] >= 0) & (xs[0] < width[:, None]))[:, None, :])
        rows = [(y.clamp(min=0).minimum(height[:, None] - 1) * width[:, None])[:, :, None]
                for y in ys]
        cols = [x.clamp(min=0).minimum(width[:, None] - 1)[:, None, :] for x in xs]
        out = torch.empty((len(meta), channels, out_h, out_w), dtype=torch.uint8,
                          device=self.device)
        wy, wx = wy[:, :, None], wx[:, None, :]
        for c in range(channels):
            at = (base_t + c * plane_t)[:, None, None]
            if exact:       # a crop: every sample on a pixel
                value = flat[at + rows[0] + cols[0]]
            else:
                top_row = ((1 - wx) * flat[at + rows[0] + cols[0]].float()
                           + wx * flat[at + rows[0] + cols[1]].float())
                bottom_row = ((1 - wx) * flat[at + rows[1] + cols[0]].float()
                              + wx * flat[at + rows[1] + cols[1]].float())
                value = ((1 - wy) * top_row + wy * bottom_row).round_().clamp_(0, 255)
            if mask is not None:
                value = value * mask
            out[:, c] = value
        return out

    def _taps(self, out_size, window):
        """For each row's window length (N,) and output positions 0..out_size-1: the first and
        second sample (window coordinates) and the second's weight, (N, out_size) each."""
        torch = self.torch
        position = torch.arange(out_size, device=self.device, dtype=torch.float32)
        scale = window.to(torch.float32)[:, None] / out_size
        source = ((position[None] + 0.5) * scale - 0.5).clamp_(min=0)
        first = source.floor()
        weight = source - first
        last = window[:, None] - 1
        first = first.long().minimum(last)
        return first, (first + 1).minimum(last), weight

    # -- the stacked batch -----------------------------------------------------------------
    def _stack(self, rows):
        if isinstance(rows, self.torch.Tensor):
            return rows
        rows = list(rows)
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
        mask = op.draws(seeds)
        if not mask.any():
            return batch
        if mask.all():
            return batch.flip(axis)
        where = upload(self.torch, self.torch.from_numpy(mask), batch.device).view(
            -1, 1, 1, 1)
        return self.torch.where(where, batch.flip(axis), batch)

    def _flip_rows(self, op, rows, seeds):
        """_flip of rows not stacked (a list of (C, H, W) tensors, or a DecodedBatch): each
        row flipped or not as its own draw says."""
        axis = -2 if isinstance(op, (RandomVerticalFlip, VerticalFlip)) else -1
        flips = np.ones(len(rows), bool) if isinstance(op, (HorizontalFlip, VerticalFlip)) \
            else op.draws(seeds)
        return [img.flip(axis) if flip else img for img, flip in zip(rows, flips.tolist())]

    def _point(self, op, batch):
        """The point op on the stacked batch: the same (kind, a, b) as the kernel's tail
        (_point_params)."""
        torch = self.torch
        x = batch if batch.dtype == torch.float32 else batch.float()
        rows = _point_params(op, int(x.shape[1]))
        params = upload(torch, torch.tensor(rows, dtype=torch.float32), x.device)
        a, b = (params[:, j].view(1, -1, 1, 1) for j in (1, 2))
        return (x - a) / b if rows[0][0] == 0.0 else x * a + b


class DeviceTimer:
    """Time from construction to ``seconds()`` of the work queued meanwhile: on CUDA, events
    on the current stream (the device's own clock; ``seconds()`` waits for that work to end,
    asleep: with one CUDA context CUDA's default wait spins, and a worker spinning through a
    batch beside a busy GPU would take the core the pipeline's other threads need), on the
    CPU the wall time."""

    def __init__(self, torch, device):
        self.cuda = device.type == "cuda"
        if self.cuda:
            self.began, self.ended = (torch.cuda.Event(enable_timing=True, blocking=True)
                                      for _ in range(2))
            self.began.record()
        else:
            self.t0 = time.perf_counter()

    def seconds(self):
        if not self.cuda:
            return time.perf_counter() - self.t0
        self.ended.record()
        self.ended.synchronize()
        return self.began.elapsed_time(self.ended) / 1000.0


def _one_output_size(boxes):
    """Whether every row of ``boxes`` (N, 6) resizes to the same (out_h, out_w)."""
    return bool((boxes[:, 4:6] == boxes[:1, 4:6]).all())


def _point_params(op, channels):
    """(channels, 3) rows of (kind, a, b) of a point op, for the kernel's tail and for
    GpuRun._point alike: kind 0 computes (x - a) / b (Normalize), kind 1 x * a + b (Rescale;
    ToTensor: MindSpore's x * float32(1/255), one rounding, b = 0)."""
    if isinstance(op, Normalize):
        mean = per_channel(op.mean, channels, "Normalize", "mean")
        std = per_channel(op.std, channels, "Normalize", "std")
        return [(0.0, m, d) for m, d in zip(mean, std)]
    if isinstance(op, ToTensor):
        return [(1.0, np.float32(1.0) / np.float32(255.0), 0.0)] * channels
    assert isinstance(op, Rescale), op           # plan.KINDS has no other point op
    return [(1.0, np.float32(op.rescale), np.float32(op.shift))] * channels


def _centred(size, crop):
    """CenterCrop's first row (or column) of the window in the image; negative when the CPU
    op pads the image first (the larger half of the padding before it)."""
    pad = max(0, crop - size)
    return -(pad // 2 + pad % 2) if pad else (size - crop) // 2


__all__ = ["GpuRun", "RowError"]
