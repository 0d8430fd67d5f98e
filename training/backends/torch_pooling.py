"""The torch side of training.backends.numpy.pooling: MaxPool1d/3d and AvgPool1d/3d through
torch's pooling, MindSpore's 'same' pad mode by padding first."""
from training.backends.numpy.pooling import counts_padding, pool_pads


def _torch_pads(pads):
    """torch.nn.functional.pad's flat list (last axis first) of [(before, after)]."""
    return [value for pair in reversed(pads) for value in pair]


def max_pool(x, kernel, stride, pad_mode, padding, dilation, ceil_mode=False,
               return_indices=False):
    import torch.nn.functional as F
    pool = getattr(F, f"max_pool{len(kernel)}d")
    if pad_mode != "same":      # symmetric padding: torch's own rule
        return pool(x, kernel, stride, padding if pad_mode == "pad" else 0, dilation, ceil_mode,
                    return_indices)
    # (MindSpore takes return_indices and ceil_mode in 'pad' mode only)
    pads = pool_pads(pad_mode, padding, tuple(x.shape[2:]), kernel, stride, dilation)
    return pool(F.pad(x, _torch_pads(pads), value=float("-inf")), kernel, stride, 0, dilation)


def avg_pool(x, kernel, stride, pad_mode, padding, count_include_pad=True,
             ceil_mode=False, divisor_override=None, same_counts_padding=False):
    import torch
    import torch.nn.functional as F
    pool = getattr(F, f"avg_pool{len(kernel)}d")
    extra = {"divisor_override": divisor_override} if len(kernel) > 1 else {}
    if pad_mode != "same":
        return pool(x, kernel, stride, padding if pad_mode == "pad" else 0, ceil_mode,
                    count_include_pad, **extra)
    pads = pool_pads(pad_mode, padding, tuple(x.shape[2:]), kernel, stride, (1,) * len(kernel))
    out = pool(F.pad(x, _torch_pads(pads)), kernel, stride, **extra)
    if divisor_override or not any(b or a for b, a in pads) or counts_padding(
            pad_mode, count_include_pad, ceil_mode, same_counts_padding):
        return out
    # divided by the number of input elements under each window (no padding counted)
    ones = torch.ones((1, 1) + tuple(x.shape[2:]), dtype=x.dtype, device=x.device)
    return out / pool(F.pad(ones, _torch_pads(pads)), kernel, stride)
