"""Process-wide switches of the native engine.

- approximate decode: a fused Decode + random crop may decode at a coarser DCT scale (1/2, 1/4,
  1/8) when the scaled crop is still at least the output size. On by default; it only ever applies
  inside random crop ops (RandomResizedCrop, RandomCropDecodeResize), whose output is random anyway.
- max image pixels: images declaring more pixels are refused before any allocation.
"""
import threading

_lock = threading.Lock()
_state = {"approximate_decode": True, "max_image_pixels": 1 << 28}


def set_approximate_decode(enable):
    if not isinstance(enable, bool):
        raise TypeError(f"enable must be a bool, got {type(enable).__name__}")
    with _lock:
        _state["approximate_decode"] = enable


def get_approximate_decode():
    return _state["approximate_decode"]


def set_max_image_pixels(pixels):
    if isinstance(pixels, bool) or not isinstance(pixels, int):
        raise TypeError(f"pixels must be an int, got {type(pixels).__name__}")
    if pixels <= 0:
        raise ValueError(f"pixels must be positive, got {pixels}")
    with _lock:
        _state["max_image_pixels"] = pixels


def get_max_image_pixels():
    return _state["max_image_pixels"]
