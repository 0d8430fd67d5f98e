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
    copied together: views of one device buffer filled by one copy."""
    arrays = [np.ascontiguousarray(a) for a in arrays]
    starts, end = [], 0
    for a in arrays:
        start = -(-end // _ALIGN) * _ALIGN
        starts.append(start)
        end = start + a.nbytes
    host = torch.empty(max(end, 1), dtype=torch.uint8, pin_memory=device.type == "cuda")
    flat = host.numpy()
    for a, start in zip(arrays, starts):
        flat[start:start + a.nbytes] = a.reshape(-1).view(np.uint8)
    buffer = host.to(device, non_blocking=True)
    return [buffer[start:start + a.nbytes].view(torch.from_numpy(a[:0]).dtype).view(a.shape)
            for a, start in zip(arrays, starts)]


__all__ = ["upload", "upload_arrays"]
