"""Whether this machine has the device that device_target names, and MindSpore's behaviour when
it has not: a warning, and the work runs on the CPU. Falling back would be wrong when the script
named a device explicitly (`set_context(device_id=...)`): that stays an error."""
import functools
import importlib.util
import warnings

from training import context


@functools.lru_cache(maxsize=None)
def missing_reason(target):
    """Why `target`'s device cannot be used here, or None when it can."""
    if target == "CPU":
        return None
    if importlib.util.find_spec("torch") is None:
        return f"device_target '{target}' runs through PyTorch, which is not installed"
    import torch
    if target == "GPU":
        if torch.cuda.is_available():
            return None
        return ("device_target 'GPU' needs a CUDA build of PyTorch and a visible NVIDIA GPU, but "
                "torch.cuda.is_available() is False. Install a CUDA build (for example `pip "
                "install torch --index-url https://download.pytorch.org/whl/cu124`) or use "
                "device_target='CPU'")
    try:
        import torch_npu  # noqa: F401  (registers the 'npu' device with torch)
    except ImportError:
        return ("device_target 'Ascend' needs torch_npu: install it with `pip install torch_npu` "
                "(matching your torch and CANN versions)")
    return None if torch.npu.is_available() else "torch_npu sees no Ascend device"


def fall_back_to_cpu(target, reason):
    """Warn that `target` is missing and the CPU runs instead; raise RuntimeError when the
    script set device_id explicitly."""
    if context.is_set("device_id"):
        raise RuntimeError(f"{reason} (device_id {context.get_context('device_id')} was set "
                           f"explicitly, so the CPU does not stand in for it)")
    warnings.warn(f"{reason}. Running on the CPU instead, as MindSpore does when the device is "
                  f"missing", UserWarning, stacklevel=2)  # one place: shown once, not per cell
