"""Loss scaling on the numpy backend: the update cells (`nn.FixedLossScaleUpdateCell`,
`nn.DynamicLossScaleUpdateCell`) and `nn.TrainOneStepWithLossScaleCell`, which differentiates
loss * scale, unscales the gradients, skips the update when they overflow and returns
(loss, overflow, scale) as MindSpore does."""
import numpy as np

from training import amp, profiling
from training.nn.cell import Cell
from training.backends.dispatch import is_torch
from training.nn.wrappers import TrainOneStepCell, _torch_grads
from training.tensor import Parameter, Tensor, grad_of, is_grad_enabled


class FixedLossScaleUpdateCell(Cell):
    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = loss_scale_value       # as given, as MindSpore's

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        return overflow


class DynamicLossScaleUpdateCell(Cell):
    """Divides the scale by scale_factor (at least 1) on overflow; multiplies it after
    scale_window steps without one."""

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        self.manager = amp.DynamicLossScaleManager(loss_scale_value, scale_factor, scale_window)

    def get_loss_scale(self):
        return self.manager.get_loss_scale()

    def construct(self, loss_scale, overflow):
        self.manager.update_loss_scale(bool(overflow))
        loss_scale.set_data(np.array(self.manager.get_loss_scale(), np.float32))
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """`scale_sense`: a Tensor (a fixed scale) or an update cell."""

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer)
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            value = scale_sense.get_loss_scale()
        elif isinstance(scale_sense, (Tensor, np.ndarray, float, int)):
            self.loss_scaling_manager = None
            value = np.asarray(getattr(scale_sense, "data", scale_sense)).reshape(-1)[0]
        else:
            raise TypeError(f"For 'TrainOneStepWithLossScaleCell', 'scale_sense' must be a Tensor "
                            f"or a Cell, but got {type(scale_sense).__name__}")
        self.scale_sense = Parameter(np.array(value, np.float32), name="scale_sense",
                                     requires_grad=False)

    def set_sense_scale(self, sens):
        self.scale_sense.set_data(np.asarray(getattr(sens, "data", sens), np.float32))

    def construct(self, *inputs):
        if not is_grad_enabled():
            raise RuntimeError("TrainOneStepWithLossScaleCell cannot run under no_grad()")
        scale = np.float32(self.scale_sense.data)
        with profiling.span("forward_backward"), np.errstate(over="ignore", invalid="ignore"):
            loss = self.network(*inputs)
            if is_torch(loss):  # the torch backend: torch's autograd, one host sync for overflow
                import torch
                grads = torch._foreach_div(_torch_grads(loss * float(scale), self.weights),
                                           float(scale))
                overflow = not bool(torch.stack([torch.isfinite(g).all() for g in grads]).all())
            else:
                grads = [g / scale for g in grad_of(loss * scale, self.weights)]
                overflow = not bool(amp.all_finite(grads).asnumpy())
        if self.loss_scaling_manager is not None:
            self.loss_scaling_manager(self.scale_sense, overflow)
        if not overflow:
            with profiling.span("update"):
                self.optimizer(grads)
        return loss.detach(), Tensor(np.array(overflow)), Tensor(np.array(scale, np.float32))
