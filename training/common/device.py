"""MindSpore 2.5+'s device functions (`mindspore.set_device`, `set_deterministic`,
`get_current_device`, `set_recursion_limit`) and `run_check`: spellings of set_context's keys,
with MindSpore 2.10's checks; the device fallback and its warnings are set_context's."""
from training import context

_device = []            # (device_target, device_id) of the first set_device call
_deterministic = []     # whether set_deterministic was called


def set_device(device_target, device_id=None):
    """set_context(device_target=..., device_id=...) (device_id only where given, so a CPU
    fallback stays allowed without one). A second call may repeat the first, not change it."""
    if not isinstance(device_target, str):
        raise TypeError(f"The parameter 'device_target' must be <class 'str'>, but got "
                        f"{type(device_target)}")
    if device_target not in context.DEVICE_TARGETS:
        raise ValueError(f"The argument 'device_target' must be one of "
                         f"{list(context.DEVICE_TARGETS)}, but got {device_target}.")
    if device_id is not None:
        if not isinstance(device_id, int) or isinstance(device_id, bool):
            raise TypeError(f"The parameter 'device_id' must be <class 'int'>, but got "
                            f"{type(device_id)}")
        if device_id < 0:
            raise ValueError("The device id must bigger than or equal to 0.")
    chosen = (device_target, device_id)
    if _device and _device[0] != chosen:
        raise RuntimeError("The 'mindspore.set_device' can not be modified.")
    options = {"device_target": device_target}
    if device_id is not None:
        options["device_id"] = device_id
    context.set_context(**options)
    _device[:] = [chosen]


def get_current_device():
    """(device_target, device_id) of the context."""
    return context.get_context("device_target"), context.get_context("device_id")


def set_deterministic(deterministic):
    """set_context(deterministic="ON" / "OFF"); once per process, as in MindSpore."""
    if not isinstance(deterministic, bool):
        raise TypeError(f"The parameter 'deterministic' must be <class 'bool'>, but got "
                        f"{type(deterministic)}")
    if _deterministic:
        raise RuntimeError("The 'mindspore.set_deterministic' can not be set repeatedly.")
    context.set_context(deterministic="ON" if deterministic else "OFF")
    _deterministic.append(deterministic)


def set_recursion_limit(recursion_limit=1000):
    """Checked as MindSpore checks it; the limit is its graph compiler's, which has no
    counterpart here (Python's own recursion limit stays as it is)."""
    if not isinstance(recursion_limit, int) or isinstance(recursion_limit, bool):
        raise TypeError(f"The input value must be int, but got "
                        f"'{type(recursion_limit).__name__}'")
    if recursion_limit <= 0:
        raise ValueError(f"The input value must be int and must > 0, but got "
                         f"'{recursion_limit}' with type 'int'.")


def run_check():
    """MindSpore's installation check: multiplies two tensors and prints the outcome."""
    import numpy as np
    from importlib import metadata
    from training.backends.base import get_backend
    from training.tensor import Tensor
    try:
        version = metadata.version("minddata")
    except metadata.PackageNotFoundError:
        version = "(not installed as a distribution)"
    print(f"training version:  {version} (MindSpore 2.10's API)")
    x = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    product = Tensor(x) * Tensor(x)
    platform = context.get_context("device_target") if get_backend() == "torch" else "CPU"
    if np.array_equal(np.asarray(product.asnumpy()), x * x):
        print(f"The result of multiplication calculation is correct, training has been "
              f"installed on platform [{platform}] successfully!")
    else:
        print(f"The result of multiplication calculation is wrong: {product.asnumpy()} for "
              f"{x * x}; training is not installed correctly on platform [{platform}].")
