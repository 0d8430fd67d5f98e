"""Host arrays copied to the device without a wait for the stream.

A blocking copy (``tensor.to(device)``) first waits for everything queued on the current
stream: in a GPU batch worker that is the batch's own decode, in the sink's copy stream the
batch's copy. A non-blocking copy from pageable memory may still wait (CUDA stages it through
page-locked memory and may synchronize the stream first), so on CUDA the arrays go through
torch's page-locked cache, which also keeps that memory until the copy has run. Small arrays
go together, in one copy: each copy lets go of the GIL, and a worker taking it back beside a
training loop in the same process may wait up to Python's switch interval (5 ms).
"""
import numpy as np

_ALIGN = 16     # bytes: each array's place in the shared buffer, so typed views of it work


def upload(torch, tensor, device):
    """The CPU tensor ``tensor`` (numpy arrays: ``torch.from_numpy``) on ``device``."""
    if device.type == "cuda":
        tensor = tensor.pin_memory()
    return tensor.to(device, non_blocking=True)


def upload_arrays(torch, arrays, device):
    """The numpy ``arrays`` as tensors on ``device`` (same dtypes and shapes, contiguous),
    copied together: views of one device buffer filled by one copy. Few torch calls (each lets
    go of the GIL and takes it back): the buffer viewed once per dtype, then one strided view
    per array."""
    arrays = [np.require(a, requirements="C") for a in arrays]     # 0-d arrays stay 0-d
    starts, end = [], 0
    for a in arrays:
        start = -(-end // _ALIGN) * _ALIGN
        starts.append(start)
        end = start + a.nbytes
    end = max(-(-end // _ALIGN) * _ALIGN, _ALIGN)     # whole elements of every dtype
    host = torch.empty(end, dtype=torch.uint8, pin_memory=device.type == "cuda")
    flat = host.numpy()
    for a, start in zip(arrays, starts):
        flat[start:start + a.nbytes] = a.reshape(-1).view(np.uint8)
    buffer = host.to(device, non_blocking=True)
    typed, out = {}, []
    for a, start in zip(arrays, starts):
        dtype = torch_dtype(torch, a.dtype)
        if dtype not in typed:
            typed[dtype] = buffer.view(dtype)
        out.append(typed[dtype].as_strided(a.shape, [s // a.itemsize for s in a.strides],
                                           start // a.itemsize))
    return out


_DTYPES = {}        # numpy dtype -> torch dtype, as torch.from_numpy maps it


def torch_dtype(torch, dtype):
    """The torch dtype of numpy ``dtype``."""
    found = _DTYPES.get(dtype)
    if found is None:
        found = _DTYPES[dtype] = torch.from_numpy(np.empty(0, dtype)).dtype
    return found


__all__ = ["torch_dtype", "upload", "upload_arrays"]
