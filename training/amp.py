"""Loss scaling and mixed precision (`mindspore.amp`, `mindspore.train.loss_scale_manager`).

Managers, as Model's `loss_scale_manager`: FixedLossScaleManager(loss_scale,
drop_overflow_update) and DynamicLossScaleManager(init_loss_scale, scale_factor, scale_window)
(the scale is divided by scale_factor on overflow, and multiplied by it after scale_window
steps without one, never below 1). Scalers, for functional training with value_and_grad:
StaticLossScaler / DynamicLossScaler with scale(), unscale() and adjust(grads_finite); and
all_finite(grads)."""
import numbers

import numpy as np

from training.tensor import Tensor, as_array


def _positive(value, name, api, minimum=0.0, strict=True):
    if not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_)):
        raise TypeError(f"For '{api}', '{name}' must be a number, but got {type(value).__name__}")
    if value < minimum or (strict and value == minimum):
        raise ValueError(f"For '{api}', '{name}' must be {'>' if strict else '>='} {minimum}, "
                         f"but got {value}")


def _check_window(scale_window, api):
    """A positive int, as MindSpore's: a float or a bool is a TypeError."""
    if not isinstance(scale_window, int) or isinstance(scale_window, bool):
        raise TypeError(f"For '{api}', 'scale_window' must be int, but got "
                        f"{type(scale_window).__name__}")
    if scale_window <= 0:
        raise ValueError(f"For '{api}', 'scale_window' must be > 0, but got {scale_window}")


def all_finite(inputs):
    """True (a bool Tensor) when every gradient is free of inf and NaN."""
    from training.ops.functional import _torch_of
    for value in inputs:
        torch = _torch_of(value)
        finite = bool(torch.isfinite(value).all()) if torch else \
            bool(np.isfinite(as_array(value)).all())
        if not finite:
            return Tensor(np.array(False))
    return Tensor(np.array(True))


class LossScaleManager:
    """Base class of the managers."""

    def get_loss_scale(self):
        raise NotImplementedError

    def update_loss_scale(self, overflow):
        raise NotImplementedError

    def get_update_cell(self):
        raise NotImplementedError


class FixedLossScaleManager(LossScaleManager):
    """A constant scale. With drop_overflow_update=False the optimizer must be built with the
    same loss_scale (it unscales), as MindSpore requires; with True, steps whose gradients
    overflow are skipped."""

    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        _positive(loss_scale, "loss_scale", "FixedLossScaleManager", 1.0, strict=False)
        self._loss_scale = loss_scale      # as given: an int stays one, as in MindSpore
        self._drop_overflow_update = bool(drop_overflow_update)

    def get_loss_scale(self):
        return self._loss_scale

    def get_drop_overflow_update(self):
        return self._drop_overflow_update

    def update_loss_scale(self, overflow):
        """The scale is fixed."""

    def get_update_cell(self):
        if not self._drop_overflow_update:
            return None
        from training.nn.loss_scale import FixedLossScaleUpdateCell
        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """The scale, as given (an int stays one until an overflow halves it, as in MindSpore).
    scale_factor must be > 1 (MindSpore takes any positive one; torch's GradScaler, which the
    torch backend maps it onto, refuses the others)."""

    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        _positive(init_loss_scale, "init_loss_scale", "DynamicLossScaleManager", 1.0, strict=False)
        _positive(scale_factor, "scale_factor", "DynamicLossScaleManager", 1.0)
        _check_window(scale_window, "DynamicLossScaleManager")
        self._loss_scale = init_loss_scale
        self._read_scale = None
        self.scale_factor, self.scale_window = scale_factor, scale_window
        self.increase_ratio, self.decrease_ratio = scale_factor, 1.0 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0

    @property
    def loss_scale(self):
        return float(self._read_scale()) if self._read_scale is not None else self._loss_scale

    @loss_scale.setter
    def loss_scale(self, value):
        self._loss_scale = value

    def follow(self, read_scale):
        """From now on the scale is ``read_scale()``, read only when asked for: a device-side
        scaler (torch.amp.GradScaler on CUDA) keeps it on the GPU, and reading it after every
        step would stop the host until the step has finished."""
        self._read_scale = read_scale

    def get_loss_scale(self):
        return self.loss_scale

    def get_drop_overflow_update(self):
        return True

    def update_loss_scale(self, overflow):
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
        elif (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
            self.loss_scale *= self.increase_ratio
        self.cur_iter += 1

    def get_update_cell(self):
        from training.nn.loss_scale import DynamicLossScaleUpdateCell
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)


class StaticLossScaler:
    """scale(x) = x * scale_value; unscale(grads) divides; adjust() keeps the scale."""

    def __init__(self, scale_value):
        _positive(scale_value, "scale_value", type(self).__name__, 1.0, strict=False)
        self.scale_value = Tensor(np.array(scale_value, np.float32))

    def scale(self, inputs):
        return _map(inputs, lambda x: x * float(self.scale_value.asnumpy()))

    def unscale(self, inputs):
        return _map(inputs, lambda x: x * (1.0 / float(self.scale_value.asnumpy())))

    def adjust(self, grads_finite):
        return False


class DynamicLossScaler(StaticLossScaler):
    """adjust(grads_finite): the scale is divided by scale_factor (at least 1) when the
    gradients overflowed, and multiplied by it after scale_window finite steps."""

    def __init__(self, scale_value, scale_factor, scale_window):
        super().__init__(scale_value)
        _positive(scale_factor, "scale_factor", "DynamicLossScaler", 1.0)
        _check_window(scale_window, "DynamicLossScaler")
        self.scale_factor, self.scale_window = scale_factor, scale_window
        self.counter = 0

    def adjust(self, grads_finite):
        value = float(self.scale_value.asnumpy())
        if bool(np.asarray(as_array(grads_finite))):
            self.counter += 1
            if self.counter == self.scale_window:
                value, self.counter = value * self.scale_factor, 0
        else:
            value, self.counter = max(value / self.scale_factor, 1.0), 0
        self.scale_value = Tensor(np.array(value, np.float32))
        return True


def _map(inputs, fn):
    if isinstance(inputs, (tuple, list)):
        return type(inputs)(fn(x) for x in inputs)
    return fn(inputs)


AMP_LEVELS = ("O0", "O1", "O2", "O3", "auto")


def numpy_backend_refusal(api, amp_level):
    """The ValueError for a mixed-precision level on the numpy backend, which computes each
    cell in its parameters' type (float32): mixed precision is torch.autocast's."""
    return ValueError(f"For '{api}', amp_level {amp_level!r} needs the torch backend (mixed "
                      f"precision through torch.autocast): the numpy backend computes in "
                      f"float32 only. Use amp_level='O0', or the torch backend "
                      f"(training.set_backend('torch'))")


def auto_mixed_precision(network, amp_level="O0", dtype=np.float16):
    """MindSpore's levels, checked as MindSpore 2.10 checks them (measured): 'O0' (and 'auto'
    on the CPU) returns the network as it is; on the torch backend 'O1'/'O2' run it under
    torch.autocast (float16 on CUDA, bfloat16 on the CPU, whose autocast has no float16
    matmul; autocast keeps normalizations and losses in float32) with the output cast to
    float32, as MindSpore's O2 (_OutputTo32), and 'O3' casts a torch network to that type.
    The numpy backend refuses every level but O0 (ValueError naming what to use)."""
    from training.backends.base import get_backend, is_torch_module
    from training.nn.cell import Cell
    if not isinstance(amp_level, str) or amp_level not in AMP_LEVELS:
        raise ValueError(f"The amp level {amp_level} is not supported")
    names = {np.dtype(np.float16): "float16"}
    if str(dtype).split(".")[-1] != "bfloat16" and np.dtype(dtype) not in names:
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but "
                         f"got {np.dtype(dtype).name.capitalize()}.")
    if amp_level == "O0":
        return network
    if not isinstance(network, Cell) and not is_torch_module(network):
        raise TypeError(f"For amp_level '{amp_level}', the network type should be Cell.")
    if not is_torch_module(network) and get_backend() == "numpy":
        if amp_level == "auto":     # O0 on the CPU, as MindSpore's choice per device
            return network
        raise numpy_backend_refusal("auto_mixed_precision", amp_level)
    if amp_level == "O3" and not is_torch_module(network):
        raise ValueError("For 'auto_mixed_precision', amp_level 'O3' casts a torch network "
                         "(torch.nn.Module); for training.nn cells use 'O2'")
    return _OutputTo32(network, amp_level)


def custom_mixed_precision(network, *, white_list=None, black_list=None, dtype=np.float16):
    """Lists of cells to run in low precision: torch.autocast chooses per operation here, so
    this is O2 (the lists are checked: exactly one of them, as MindSpore requires)."""
    if (white_list is None) == (black_list is None):
        raise ValueError("For custom_mixed_precision, one of white_list and black_list must "
                         "be provided.")
    return auto_mixed_precision(network, "O2", dtype)


def get_white_list():
    """The cells MindSpore's O1 runs in float16."""
    from training import nn
    return [getattr(nn, name) for name in (
        "Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose",
        "Dense", "LSTMCell", "RNNCell", "GRUCell") if hasattr(nn, name)]


def get_black_list():
    """The cells MindSpore's O2 keeps in float32."""
    from training import nn
    return [getattr(nn, name) for name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
                                           "LayerNorm") if hasattr(nn, name)]


def build_train_network(network, optimizer, loss_fn=None, level="O0", boost_level="O0",
                        **kwargs):
    """Model's training network for `level` (the loss and the optimizer step in one cell), as
    Model(amp_level=level) builds it."""
    from training.model import Model
    return Model(network, loss_fn, optimizer, amp_level=level, boost_level=boost_level,
                 **kwargs).train_network


def _output_to_float32(torch, out):
    if isinstance(out, (tuple, list)):
        return type(out)(_output_to_float32(torch, o) for o in out)
    return out.float() if isinstance(out, torch.Tensor) and out.is_floating_point() else out


def _OutputTo32(network, amp_level):      # noqa: N802  (MindSpore's cell name)
    import torch

    from training.backends.torch_amp import TorchAmp
    from training.nn.cell import Cell

    class _OutputTo32(Cell):
        """Runs `network` at `amp_level` (torch inputs) and returns float32 outputs."""

        def __init__(self):
            super().__init__()
            self._backbone = network

        def construct(self, *inputs):
            device = next((x.device for x in inputs if isinstance(x, torch.Tensor)),
                          torch.device("cpu"))
            amp = TorchAmp(torch, device, amp_level, None)
            if amp_level == "O3":
                return amp.prepare_network(self._backbone)(*amp.cast_inputs(inputs))
            with amp.autocast():
                return _output_to_float32(torch, self._backbone(*inputs))
    return _OutputTo32()
