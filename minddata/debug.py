"""Debug hooks of debug mode (``mindspore.dataset.debug``): ``ds.config.set_debug_mode(True,
[hook, ...])`` calls each hook on the input columns of a map's first operation and on the output
columns of every operation, as MindSpore 2.x does; ``PrintMetaDataHook`` (the default) prints
each column's dtype and shape, ``PrintDataHook`` its values."""
import abc
import collections.abc

import numpy as np
from PIL import Image

__all__ = ["DebugHook", "PrintMetaDataHook", "PrintDataHook"]


class DebugHook(abc.ABC):
    """Base class of debug hooks: override ``compute(self, *args)``, which gets one argument,
    the tuple of columns."""

    def __init__(self, prev_op_name=None):
        self.prev_op_name = prev_op_name
        self.is_first_op = None

    def __call__(self, *args):
        # A hook put in a map's operations list by hand has no op name: no header then.
        if self.prev_op_name:
            which = "INPUT" if self.is_first_op else "OUTPUT"
            print(f"[Dataset debugger] Print the [{which}] of the operation "
                  f"[{self.prev_op_name}].", flush=True)
        self.compute(args)
        return args

    @abc.abstractmethod
    def compute(self, *args):
        """The hook's work on ``args[0]``, the tuple of columns."""
        raise RuntimeError("compute() is not overridden in subclass of class DebugHook.")

    def set_previous_op_name(self, prev_op_name):
        self.prev_op_name = prev_op_name

    def set_is_first(self, is_first_op):
        self.is_first_op = is_first_op


def _columns(args):
    return enumerate(args[0]) if args else ()


class PrintMetaDataHook(DebugHook):
    """Prints each column's dtype and shape (an image's type and size; a sized object's type and
    length)."""

    def compute(self, *args):
        for i, col in _columns(args):
            msg = f"Column {i}. "
            if isinstance(col, np.ndarray):
                msg += f"The dtype is [{col.dtype}]. The shape is [{col.shape}]."
            elif isinstance(col, Image.Image):
                msg += f"The type is [{type(col)}]. The shape is [{col.size}]."
            elif isinstance(col, collections.abc.Sized):
                msg += f"The type is [{type(col)}]. The size is [{len(col)}]."
            print(msg, flush=True)
        return args


class PrintDataHook(DebugHook):
    """Prints each column's values."""

    def compute(self, *args):
        for i, col in _columns(args):
            data = np.asarray(col) if isinstance(col, Image.Image) else col
            print(f"Column {i}. The data is [{data}].", flush=True)
        return args
