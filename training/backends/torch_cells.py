"""`training.nn` cells on the torch backend.

Design. The same `Cell` class runs on numpy-backend Tensors or on torch tensors; which one is
decided by the tensors that reach it, not by a second class hierarchy:

* Parameters are bound, not copied. `bind(param)` gives a `training.Parameter` a
  `torch.nn.Parameter` made from its numpy array (on the CPU without a copy: `torch.from_numpy`
  shares the memory). From then on the torch tensor holds the value; `Parameter.data` reads it
  back as numpy (a view on the CPU, a host copy on a GPU) and assigning it copies in. So the
  parameter objects, their names, shapes and initial values (drawn with numpy for a seed, as
  always), `load_param_into_net`, `save_checkpoint` and the checkpoint files are the same on
  both backends, and a checkpoint saved on one loads on the other.
* Each layer's `construct` dispatches on its input: a torch tensor runs the layer's torch kernel
  (training.backends.torch_kernels: `conv2d`, `batch_norm`, ...) with the bound parameters, so
  gradients come from torch's autograd and the kernels are torch's own (cuDNN on a GPU). A
  numpy-backend Tensor runs the numpy kernel exactly as before: the numpy backend is unchanged.
  User-written `construct` code (`out + identity`, `x.view(...)`, `ops.*`) works on torch tensors
  as it is, since torch tensors have those methods and `ops` already dispatches on torch.
* `CellModule` wraps a cell as a `torch.nn.Module` (its parameters registered, `.to(device)`,
  `.train()` forwarded to `set_train`), so the existing torch backend runs it unchanged: device
  placement, the sink's device batches, `torch.compile` in GRAPH_MODE, amp levels and loss
  scaling, DistributedDataParallel.
* Called directly with numpy-backend Tensors while the backend is torch (a script's own
  training loop, `value_and_grad`, inference), a cell runs on torch all the same: its Tensor
  arguments go to the device, and its results (and gradients) come back as Tensors, as
  MindSpore returns them (`to_torch_call`, `autodiff`).
* A `training.nn` optimizer keeps its update rule, learning-rate schedule, weight-decay filter and
  state Parameters; `CellOptimizer` exposes it as a `torch.optim.Optimizer`. Momentum, SGD and
  Adam update on the device with torch's foreach kernels (`Optimizer.step_torch`); the other
  optimizers run their numpy rule on host copies of the gradients (correct, but one device-host
  round trip per step).

The alternative, a Tensor class wrapping a torch tensor with its own dispatch for every
operator, would keep one Python object per intermediate value and a second layer of dispatch
on every arithmetic operation; torch tensors flowing through the cells cost nothing extra and
reach `torch.compile` as plain torch code."""
import numpy as np
import torch

from training.tensor import Tensor

from training.backends.torch_backend import TorchBackend, TorchEvalStep, TorchTrainStep, \
    channels_last


def bind(param, device=None, dtype=None):
    """The torch.nn.Parameter holding `param`'s value from now on (created on first use on the
    CPU; moved to `device` and cast to `dtype` where given)."""
    tensor = param._torch
    if tensor is None:
        array = param._array
        if not array.flags.writeable or not array.flags.c_contiguous:
            array = np.array(array)
        floating = array.dtype.kind == "f"
        tensor = torch.nn.Parameter(torch.from_numpy(array),
                                    requires_grad=bool(param.requires_grad) and floating)
        param._torch = tensor
        param._array = None  # the torch tensor holds the value now
    if (device is not None and tensor.device != device) or \
            (dtype is not None and tensor.dtype != dtype):
        with torch.no_grad():
            tensor.data = tensor.data.to(device or tensor.device, dtype or tensor.dtype)
    return tensor


def param(p):
    """The torch tensor of Parameter `p` (None stays None), binding it on first use."""
    if p is None or isinstance(p, torch.Tensor):  # a construct on torch has the tensor already
        return p
    return p._torch if p._torch is not None else bind(p)


def host_array(tensor, dtype):
    """`tensor`'s value as a numpy array of `dtype`: a view for a CPU tensor of that dtype."""
    value = tensor.detach()
    if value.device.type != "cpu" or value.dtype != _torch_dtype(dtype):
        value = value.to("cpu", _torch_dtype(dtype))
    return value.numpy()


def copy_into(tensor, value):
    """Assign `value` (array-like of the same size) to the bound `tensor`."""
    source = torch.as_tensor(np.asarray(value))
    if source.numel() != tensor.numel():
        raise ValueError(f"cannot set data of shape {tuple(source.shape)} into a parameter of "
                         f"shape {tuple(tensor.shape)}")
    with torch.no_grad():
        if source.data_ptr() != tensor.data_ptr():
            tensor.copy_(source.reshape(tensor.shape))


def _torch_dtype(dtype):
    return torch.from_numpy(np.empty(0, dtype)).dtype


def is_torch(value):
    return isinstance(value, torch.Tensor)


class CellModule(torch.nn.Module):
    """A training.nn Cell as a torch.nn.Module: its parameters (bound) are the module's, under
    their MindSpore names with '.' written as '/' (torch forbids dots in parameter names)."""

    def __init__(self, cell):
        super().__init__()
        object.__setattr__(self, "cell", cell)  # not a torch submodule
        for name, p in cell.parameters_and_names():
            self.register_parameter(name.replace(".", "/"), bind(p))
        # the module's flag only: a wrapper's flag must not overwrite its sub-cells' modes
        super().train(cell.training)

    def forward(self, *inputs):
        return self.cell(*inputs)

    def train(self, mode=True):
        super().train(mode)
        self.cell.set_train(mode)
        return self


class CellOptimizer(torch.optim.Optimizer):
    """A training.nn optimizer as a torch.optim.Optimizer over its bound parameters: `step()`
    applies the optimizer's own rule to the gradients torch's backward left in `.grad`."""

    def __init__(self, optimizer):
        params = [bind(p) for p in optimizer.parameters]
        super().__init__(params, {"lr": optimizer._current_lr()})
        self.cell_optimizer = optimizer

    @torch.no_grad()
    def step(self, closure=None):
        if closure is not None:
            raise ValueError("CellOptimizer.step takes no closure")
        params = self.param_groups[0]["params"]
        grads = [torch.zeros_like(p) if p.grad is None else p.grad for p in params]
        self.cell_optimizer.step_torch(params, grads)
        self.param_groups[0]["lr"] = self.cell_optimizer._current_lr()

    def __getattr__(self, name):
        # what the training.nn optimizer offers (learning_rate, get_lr, parameters, ...): scripts
        # and callbacks read it from `model.train_network.optimizer` as on the numpy backend
        if name == "cell_optimizer":  # not set yet (during __init__ or unpickling)
            raise AttributeError(name)
        return getattr(self.cell_optimizer, name)


def module_of(cell, device):
    """The CellModule of `cell` on `device` (one per cell, so train and eval share it)."""
    module = cell.__dict__.get("_torch_module")
    if module is None:
        module = CellModule(cell)
        object.__setattr__(cell, "_torch_module", module)
    return module.to(device)


class CellTorchBackend(TorchBackend):
    """The torch backend for training.nn networks: the network, loss cell and optimizer of
    Model run as a torch module, loss and optimizer; Model's callbacks see the training.nn
    objects (learning rate, checkpoints) as on the numpy backend."""

    def build_train_network(self, network, loss_fn, optimizer, amp_level="O0",
                            loss_scale_manager=None):
        from training.amp import FixedLossScaleManager
        from training.backends.torch_amp import TorchAmp
        from training.nn.optim.optimizer import Optimizer
        from training.nn.wrappers import TrainOneStepCell, WithLossCell
        if loss_fn is None and optimizer is None:  # a custom training cell
            return CustomStep(self, network)
        if optimizer is None:
            return None
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"With a training.nn network, 'optimizer' must be a training.nn "
                            f"optimizer, but got {type(optimizer).__name__}")
        # A fixed scale without overflow checks is the numpy backend's sens: the loss is scaled
        # and the optimizer's own loss_scale unscales (MindSpore's convention).
        loss_scale = 1.0
        if isinstance(loss_scale_manager, FixedLossScaleManager) and \
                not loss_scale_manager.get_drop_overflow_update():
            loss_scale, loss_scale_manager = loss_scale_manager.get_loss_scale(), None
        amp = self.amp = TorchAmp(self.torch, self.device, amp_level, loss_scale_manager)
        # no dump hooks on the module: its cells record themselves (training.dump), by name
        module = channels_last(torch, amp.prepare_network(module_of(network, self.device)))
        wrapped, scale = self._data_parallel(module)
        step = TorchTrainStep(wrapped, loss_fn, CellOptimizer(optimizer), self.compiled,
                              scale * loss_scale, amp)
        step.module = module
        step.checkpoint_cell = TrainOneStepCell(
            WithLossCell(network, loss_fn) if loss_fn is not None else network, optimizer)
        return step

    def build_eval_network(self, network, loss_fn, eval_network):
        if eval_network is not None:
            return module_of(eval_network, self.device)
        module = module_of(network, self.device)
        return TorchEvalStep(module, loss_fn) if loss_fn is not None else module

    def predict(self, network, data):
        out = super().predict(module_of(network, self.device), data)
        return _to_host(out, Tensor)

    def train_step(self, train_network, batch):
        return _device_results(super().train_step(train_network, batch))

    def get_lr(self, optimizer):
        return optimizer._current_lr()

    def set_lr(self, optimizer, lr):
        optimizer._assign_lr(lr)

    def checkpoint_object(self, train_network):
        return getattr(train_network, "checkpoint_cell", train_network)

    def snapshot(self, train_network):
        cell = self.checkpoint_object(train_network)
        return {name: p.data.copy() for name, p in cell.parameters_and_names()}

    def restore(self, train_network, snapshot):
        for name, p in self.checkpoint_object(train_network).parameters_and_names():
            if name in snapshot:
                p.set_data(snapshot[name])


class CustomStep:
    """A custom training cell (TrainOneStepCell, or a cell computing its own update) run on
    torch tensors; the cell is its own checkpoint object."""

    def __init__(self, backend, cell):
        self.module = channels_last(torch, module_of(cell, backend.device))
        self.checkpoint_cell = cell

    def __call__(self, *batch):
        out = self.module(*batch)
        return out.detach() if is_torch(out) else out


def current_device():
    """The torch device of the context's device_target (the CPU where it is missing)."""
    from training import context
    from training.backends.torch_backend import resolve_device
    key = (context.get_context("device_target"), context.get_context("device_id"),
           context.is_set("device_id"))
    if _devices.get("key") != key:
        _devices.update(key=key, device=resolve_device(torch))
    return _devices["device"]


_devices = {}


def is_host_data(value):
    """Whether `value` is data a cell takes as input on the host: a numpy array, a
    numpy-backend Tensor or minddata's Tensor (a Parameter is a cell's state, not input)."""
    from training.tensor import Parameter
    if isinstance(value, np.ndarray):
        return True
    return not isinstance(value, Parameter) and callable(getattr(value, "asnumpy", None))


def to_device(value, device):
    """Host data (in tuples and lists too) as torch tensors on `device`."""
    if isinstance(value, (tuple, list)):
        return type(value)(to_device(v, device) for v in value)
    if is_host_data(value):
        array = value if isinstance(value, np.ndarray) else value.asnumpy()
        # (np.require keeps a 0-d array 0-d; np.ascontiguousarray would make it 1-d)
        return torch.from_numpy(np.require(array, requirements="C")).to(device)
    return value


def torch_arguments(args, kwargs):
    """(args, kwargs) of a torch function with numpy-backend Tensors replaced: a Parameter by
    its bound tensor (gradients flow into it), a Tensor by a constant, on the device of the
    torch tensors among the arguments."""
    from training.tensor import Parameter, Tensor
    device = _first_device(args) or _first_device(tuple(kwargs.values())) or current_device()

    def convert(value):
        if isinstance(value, (tuple, list)):
            return type(value)(convert(v) for v in value)
        if isinstance(value, Parameter):
            return bind(value, device)
        if isinstance(value, Tensor):
            return torch.from_numpy(np.require(value.data, requirements="C")).to(device)
        return value
    return convert(args), {k: convert(v) for k, v in kwargs.items()}


def _first_device(values):
    for value in values:
        if isinstance(value, torch.Tensor):
            return value.device
        if isinstance(value, (tuple, list)):
            found = _first_device(value)
            if found is not None:
                return found
    return None


def to_host(value):
    """torch tensors (in tuples and lists too) as numpy-backend Tensors."""
    return _to_host(value, Tensor)


def to_torch_call(cell, args, kwargs):
    """Run `cell` on torch for Tensor arguments; Tensor results."""
    device = current_device()
    module_of(cell, device)  # the cell's parameters on the device
    out = cell(*to_device(args, device), **kwargs)
    return to_host(out)


class DeviceResult(Tensor):
    """A step's result as Model hands it to callbacks (`net_outputs`): a Tensor whose value
    stays on the device until something reads it, so the step loop itself never waits for the
    device; `asnumpy()`, `float()` or a LossMonitor fetch it (once)."""

    def __init__(self, value):  # not Tensor.__init__: that would fetch the value
        self.requires_grad = False
        self._backward = None
        self._device_value = value.detach()
        self._host = None

    @property
    def data(self):
        if self._host is None:
            value = self._device_value
            if value.dtype == torch.bfloat16:  # numpy has no bfloat16
                value = value.float()
            self._host = value.cpu().numpy()
        return self._host


def _device_results(value):
    if isinstance(value, (tuple, list)):
        return type(value)(_device_results(v) for v in value)
    return DeviceResult(value) if is_torch(value) else value


def _to_host(value, tensor_cls):
    if isinstance(value, (tuple, list)):
        return type(value)(_to_host(v, tensor_cls) for v in value)
    if is_torch(value):
        return tensor_cls(value.detach().float().cpu().numpy() if value.dtype == torch.bfloat16
                          else value.detach().cpu().numpy())
    return value
