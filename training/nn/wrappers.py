"""Training and evaluation wrappers: WithLossCell, TrainOneStepCell, WithEvalCell."""
import numpy as np

from training import profiling
from training.backends.dispatch import is_torch
from training.nn.cell import Cell
from training.nn.optim.optimizer import Optimizer
from training.ops.array_kernels import cast
from training.tensor import Tensor, as_array, grad_of, is_grad_enabled


class WithLossCell(Cell):
    """loss_fn(backbone(data), label)."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        if not isinstance(backbone, Cell) or not isinstance(loss_fn, Cell):
            raise TypeError("For 'WithLossCell', 'backbone' and 'loss_fn' must be Cells, but got "
                            f"{type(backbone).__name__} and {type(loss_fn).__name__}")
        self._backbone, self._loss_fn = backbone, loss_fn

    @property
    def backbone_network(self):
        return self._backbone

    def construct(self, data, label):
        return self._loss_fn(self._backbone(data), label)


def _float32(value):
    """A floating tensor as float32; anything else as it is."""
    if is_torch(value):
        return value.float() if value.is_floating_point() else value
    if isinstance(value, Tensor) and value.data.dtype.kind == "f":
        return cast(value, np.float32)
    return value


class WithEvalCell(Cell):
    """(loss, outputs, label) for Model.eval's metrics."""

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        self._network, self._loss_fn = network, loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:  # (a float16 network's outputs and labels, as MindSpore casts them)
            outputs, label = _float32(outputs), _float32(label)
        loss = self._loss_fn(outputs, label) if self._loss_fn is not None else None
        return loss, outputs, label


def _seed_for(output, sens):
    """Scalar whose gradient is the vector-Jacobian product of `output` with `sens`.

    A tuple output (several losses) takes one sens per element; with one sens value, or None,
    the first element is trained and the others are only reported."""
    if isinstance(output, (tuple, list)):
        if isinstance(sens, (tuple, list)):
            if len(sens) != len(output):
                raise ValueError(f"For 'TrainOneStepCell', got {len(sens)} sens values for a "
                                 f"network with {len(output)} outputs")
            pairs = list(zip(output, sens))
        else:
            pairs = [(output[0], 1.0 if sens is None else sens)]
        total = None
        for out, s in pairs:
            if not (isinstance(out, Tensor) or is_torch(out)):
                continue
            term = (out * _sens_like(s, out)).sum()
            total = term if total is None else total + term
        return total
    scale = 1.0 if sens is None else _sens_like(sens, output)
    return (output * scale).sum() if output.ndim or sens is not None else output


class TrainOneStepCell(Cell):
    """One optimizer step: loss = network(*inputs); grads = d(loss * sens)/d(weights);
    optimizer(grads); returns loss (and the gradients when return_grad=True)."""

    def __init__(self, network, optimizer, sens=None, return_grad=False):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"For 'TrainOneStepCell', 'network' must be a Cell, but got "
                            f"{type(network).__name__}")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"For 'TrainOneStepCell', 'optimizer' must be an Optimizer, but got "
                            f"{type(optimizer).__name__}")
        self.network, self.optimizer = network, optimizer
        self.weights = optimizer.parameters
        self.sens, self.return_grad = sens, return_grad
        self.network.set_grad()

    def construct(self, *inputs):
        if not is_grad_enabled():
            raise RuntimeError("TrainOneStepCell cannot run under no_grad()")
        with profiling.span("forward_backward"):
            loss = self.network(*inputs)
            first = loss[0] if isinstance(loss, (tuple, list)) else loss
            if is_torch(first):
                grads = _torch_grads(_seed_for(loss, self.sens), self.weights)
            else:
                grads = grad_of(_seed_for(loss, self.sens), self.weights)
        with profiling.span("update"):
            self.optimizer(grads)
        detached = tuple(_detach(x) for x in loss) if isinstance(loss, (tuple, list)) else _detach(loss)
        if self.return_grad:
            return detached, {p.name: g for p, g in zip(self.weights, grads)}
        return detached


def _sens_like(sens, output):
    """`sens` as a value that multiplies `output` (a numpy-backend or a torch tensor)."""
    if is_torch(output):
        import torch
        return torch.as_tensor(as_array(sens) if not is_torch(sens) else sens,
                               dtype=output.dtype, device=output.device)
    return np.asarray(as_array(sens), dtype=output.dtype)


def _torch_grads(target, weights):
    """Gradients of the torch scalar `target` for the bound torch tensors of `weights`."""
    import torch
    from training.backends.torch_cells import param
    tensors = [param(w) for w in weights]
    grads = torch.autograd.grad(target, tensors, allow_unused=True)
    return [torch.zeros_like(t) if g is None else g for g, t in zip(grads, tensors)]


def _detach(x):
    return x.detach() if isinstance(x, Tensor) or is_torch(x) else x
