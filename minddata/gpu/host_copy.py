"""Host arrays copied to the device without a wait for the stream.

A blocking copy (``tensor.to(device)``) first waits for everything queued on the current
stream: in a GPU batch worker that is the batch's own decode, in the sink's copy stream the
batch's copy. A non-blocking copy from pageable memory may still wait (CUDA stages it through
page-locked memory and may synchronize the stream first), so on CUDA the array goes through
torch's page-locked cache, which also keeps that memory until the copy has run.
"""


def upload(torch, tensor, device):
    """The CPU tensor ``tensor`` (numpy arrays: ``torch.from_numpy``) on ``device``."""
    if device.type == "cuda":
        tensor = tensor.pin_memory()
    return tensor.to(device, non_blocking=True)


__all__ = ["upload"]
