"""`ops.Print`: strings and tensors printed in MindSpore's layout.

`Print()(*inputs)` prints strings and tensors in MindSpore's layout. With
`set_context(print_file_path=...)` the text is appended to that file instead of the screen
(MindSpore writes a binary file there; this writes text)."""
import sys
import threading

import numpy as np

from training.tensor import Tensor

_print_lock = threading.Lock()
_DTYPE_NAMES = {"float16": "Float16", "float32": "Float32", "float64": "Float64", "int8": "Int8",
                "int16": "Int16", "int32": "Int32", "int64": "Int64", "uint8": "UInt8",
                "bool": "Bool"}


def format_tensor(value):
    arr = np.asarray(getattr(value, "data", value))
    if hasattr(value, "detach") and hasattr(value, "cpu"):
        arr = value.detach().cpu().numpy()
    dtype = _DTYPE_NAMES.get(str(arr.dtype), str(arr.dtype))
    return f"Tensor(shape={list(arr.shape)}, dtype={dtype}, value=\n{arr})" if arr.ndim else \
        f"Tensor(shape=[], dtype={dtype}, value={arr})"


class Print:
    """Print strings and tensors, one line per input."""

    def __call__(self, *inputs):
        if not inputs:
            raise ValueError("For 'Print', at least one input is required")
        parts = []
        for item in inputs:
            if isinstance(item, str):
                parts.append(item)
            elif isinstance(item, (Tensor, np.ndarray, np.generic, int, float, bool)) or \
                    hasattr(item, "detach"):
                parts.append(format_tensor(item))
            else:
                raise TypeError(f"For 'Print', inputs must be strings or tensors, but got "
                                f"{type(item).__name__}")
        text = "\n".join(parts) + "\n"
        from training import context
        path = context.get_context("print_file_path")
        with _print_lock:
            if path:
                with open(path, "a") as f:
                    f.write(text)
            else:
                sys.stdout.write(text)
                sys.stdout.flush()
