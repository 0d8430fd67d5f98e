"""The torch backend: any `torch.nn.Module` with torch losses and optimizers.

device_target CPU -> cpu, GPU -> cuda:<device_id>, Ascend -> npu:<device_id> (torch_npu).
GRAPH_MODE compiles forward + loss with `torch.compile` (falling back to eager, with a warning,
when compilation is unavailable); PYNATIVE_MODE runs eagerly. In sink mode, `to_device` runs in
the sink thread: on CUDA it copies through pinned memory on a side stream and the step waits on
an event, so copies overlap compute. Integer columns of 32 bits become int64 (torch losses want
long class indices). Data parallel: when training.communication is initialized and
parallel_mode is "data_parallel", the network is wrapped in DistributedDataParallel."""
import contextlib
import functools
import logging
import os

import numpy as np

from training import context, profiling
from training.backends.torch_cuda_graph import CudaGraphs, CudaGraphStep, cuda_graph_enabled

logger = logging.getLogger("training.torch")


def _import_torch():
    try:
        import torch
    except ImportError:
        raise RuntimeError("The network is a torch.nn.Module but PyTorch is not importable: install "
                           "it with `pip install torch` (or this project's [torch] extra)") from None
    return torch


def resolve_device(torch):
    target = context.get_context("device_target")
    device_id = context.get_context("device_id")
    if target == "CPU":
        return torch.device("cpu")
    from training.backends.devices import fall_back_to_cpu, missing_reason
    reason = missing_reason(target)
    if reason is not None:
        fall_back_to_cpu(target, reason)
        return torch.device("cpu")
    if target == "GPU":
        count = torch.cuda.device_count()
        if device_id >= count:
            raise RuntimeError(f"device_id {device_id} is out of range: {count} CUDA device(s) are "
                               f"visible (CUDA_VISIBLE_DEVICES decides which)")
        return torch.device("cuda", device_id)
    return torch.device("npu", device_id)


def channels_last(torch, network):
    """With TRAINING_CHANNELS_LAST=1, the network's 4-D weights in channels_last memory
    format (NHWC strides), which tensor-core convolutions prefer under mixed precision; the
    activations follow from the first convolution on. Values and shapes are unchanged."""
    flag = os.environ.get("TRAINING_CHANNELS_LAST", "0")
    if flag not in ("0", "1"):
        raise ValueError(f"TRAINING_CHANNELS_LAST must be '0' or '1', but got {flag!r}")
    if flag == "1" and hasattr(network, "to"):
        network.to(memory_format=torch.channels_last)
    return network


def step_stream(torch, device):
    """With TRAINING_HIGH_PRIORITY_STEP=1 on CUDA, a high-priority stream the train steps run
    on: when a GPU pipeline (minddata's map(device="GPU")) decodes on the same GPU, the step's
    kernels are scheduled first and the pipeline's fill the gaps. None otherwise (the steps
    run on the caller's stream)."""
    flag = os.environ.get("TRAINING_HIGH_PRIORITY_STEP", "0")
    if flag not in ("0", "1"):
        raise ValueError(f"TRAINING_HIGH_PRIORITY_STEP must be '0' or '1', but got {flag!r}")
    if flag == "1" and device.type == "cuda":
        return torch.cuda.Stream(device=device, priority=-1)
    return None


def run_on_stream(torch, stream, fn):
    """``fn()`` queued on ``stream`` in the caller's stream's order: ``stream`` waits for the
    caller's earlier work and the caller's later work waits for ``fn``'s, on the GPU (no host
    sync). The tensors ``fn`` returns are marked as used on the caller's stream, so their
    memory is not reused before the caller's work on them is done."""
    caller = torch.cuda.current_stream(stream.device)
    stream.wait_stream(caller)
    with torch.cuda.stream(stream):
        out = fn()
    caller.wait_stream(stream)
    for tensor in _tensors_in(torch, out):
        tensor.record_stream(caller)
    return out


def _tensors_in(torch, value):
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _tensors_in(torch, item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _tensors_in(torch, item)


class _DeviceBatch(tuple):
    """A batch already on the device; `event` marks the end of its copy on the side stream."""
    event = None


def _expected_input(module):
    """Text of the input shape a standard torch layer expects, or None."""
    for attr, template in (("in_features", "(N, {})"), ("in_channels", "(N, {}, ...)"),
                           ("num_features", "(N, {}, ...)")):
        value = getattr(module, attr, None)
        if isinstance(value, int):
            return template.format(value)
    return None


def explain_forward_error(network, inputs, exc):
    """Re-run the forward pass with hooks to find the layer that raised `exc`; returns a
    ValueError naming it, the expected and the received shape (None if it cannot tell)."""
    stack = []
    handles = []
    for name, module in network.named_modules():
        def pre(mod, args, _name=name or type(network).__name__):
            stack.append((_name, mod, [tuple(a.shape) for a in args if hasattr(a, "shape")]))

        def post(mod, args, out):
            if stack:
                stack.pop()
        handles.append(module.register_forward_pre_hook(pre))
        handles.append(module.register_forward_hook(post))
    try:
        import torch
        with torch.no_grad():
            network(*inputs)
    except Exception:  # the same failure again: the stack's top is the layer that raised
        pass
    finally:
        for handle in handles:
            handle.remove()
    if not stack:
        return None
    name, module, shapes = stack[-1]
    expected = _expected_input(module)
    received = shapes[0] if len(shapes) == 1 else shapes
    return ValueError(f"For '{type(module).__name__}' layer '{name}', the input shape must be "
                      f"{expected or 'different'}, but got {received} ({exc})")


def attach_dump_hooks(network):
    """With MINDSPORE_DUMP_CONFIG set, record every module's inputs and outputs as .npy."""
    from training import dump
    if not dump.enabled():
        return
    for name, module in network.named_modules():
        scope = name or type(network).__name__
        shim = type(module.__class__.__name__, (), {"scope_name": lambda self, s=scope: s})()

        def hook(mod, args, out, _shim=shim):
            def host(v):
                return v.detach().cpu().numpy() if hasattr(v, "detach") else v
            outs = out if isinstance(out, (tuple, list)) else (out,)
            dump.record(_shim, tuple(host(a) for a in args), tuple(host(o) for o in outs))
        module.register_forward_hook(hook)


class TorchTrainStep:
    """zero_grad; loss = loss_fn(network(*data), label); backward; optimizer.step()."""

    def __init__(self, network, loss_fn, optimizer, compiled, loss_scale=1.0, amp=None):
        self.network, self.loss_fn, self.optimizer = network, loss_fn, optimizer
        self.loss_scale = loss_scale
        self.amp = amp
        self._forward = self._eager_forward
        if compiled:
            torch = _import_torch()
            self._compiled = torch.compile(self._eager_forward)
            self._forward = self._compiled_forward

    def _eager_forward(self, *batch):
        if self.loss_fn is None:  # the network computes its own loss from every column
            return self.network(*batch)
        return self.loss_fn(self.network(*batch[:-1]), batch[-1])

    def _compiled_forward(self, *batch):
        try:
            return self._compiled(*batch)
        except Exception as exc:  # no compiler toolchain, unsupported op, ...
            logger.warning("torch.compile failed (%s: %s); GRAPH_MODE falls back to eager "
                           "execution", type(exc).__name__, exc)
            self._forward = self._eager_forward
            return self._eager_forward(*batch)

    def __call__(self, *batch):
        self.optimizer.zero_grad(set_to_none=True)
        return self.compute(*batch)

    def compute(self, *batch, autocast_cache=True):
        """The step after zero_grad: forward, loss, backward, update; the loss. A CUDA graph
        captures it with ``autocast_cache`` False (cached casts would outlive the capture)."""
        batch = self.amp.cast_inputs(batch)
        with profiling.span("forward_backward"):
            try:
                with self.amp.autocast(cache=autocast_cache):
                    loss = self._forward(*batch)
            except RuntimeError as exc:
                inputs = batch if self.loss_fn is None else batch[:-1]
                explained = explain_forward_error(getattr(self, "module", self.network), inputs, exc)
                if explained is None:
                    raise
                raise explained from exc
            self.amp.backward(loss * self.loss_scale if self.loss_scale != 1.0 else loss)
        with profiling.span("update"):
            self.amp.step(self.optimizer)
        return loss.detach().float()


class TorchEvalStep:
    def __init__(self, network, loss_fn):
        self.network, self.loss_fn = network, loss_fn

    def __call__(self, *batch):
        outputs = self.network(*batch[:-1])
        loss = self.loss_fn(outputs, batch[-1]) if self.loss_fn is not None else None
        return loss, outputs, batch[-1]


class TorchBackend:
    name = "torch"

    def __init__(self):
        self.torch = _import_torch()
        self.device = resolve_device(self.torch)
        self.compiled = context.get_context("mode") == context.GRAPH_MODE
        from training.backends.torch_amp import TorchAmp
        self.amp = TorchAmp(self.torch, self.device, "O0", None)  # set by build_train_network
        self._side_stream = None
        if self.device.type == "cuda":
            self._side_stream = self.torch.cuda.Stream(device=self.device)
        self._step_stream = step_stream(self.torch, self.device)

    # --- building ---------------------------------------------------------------------------
    def _module(self, obj):
        return obj.to(self.device) if hasattr(obj, "to") else obj

    def _data_parallel(self, network):
        from training import communication
        if context.get_auto_parallel_context("parallel_mode") != "data_parallel":
            return network, 1.0
        if not communication.is_initialized():
            raise RuntimeError("parallel_mode 'data_parallel' needs training.communication.init() "
                               "first (run the script under torchrun)")
        from torch.nn.parallel import DistributedDataParallel
        ids = [self.device.index] if self.device.type == "cuda" else None
        ddp = DistributedDataParallel(network, device_ids=ids)
        # DDP averages gradients; gradients_mean=False asks for their sum.
        scale = 1.0 if context.get_auto_parallel_context("gradients_mean") else \
            float(communication.get_group_size())
        return ddp, scale

    def build_train_network(self, network, loss_fn, optimizer, amp_level="O0",
                            loss_scale_manager=None):
        from training.backends.torch_amp import TorchAmp
        amp = self.amp = TorchAmp(self.torch, self.device, amp_level, loss_scale_manager)
        network = channels_last(self.torch, amp.prepare_network(self._module(network)))
        if loss_fn is None and optimizer is None:
            return network
        if optimizer is None:
            return None
        if not hasattr(optimizer, "step") or not hasattr(optimizer, "zero_grad"):
            raise TypeError(f"With a torch network, 'optimizer' must be a torch.optim.Optimizer, "
                            f"but got {type(optimizer).__name__}")
        from training.nn.cell import Cell
        if isinstance(loss_fn, Cell) or (loss_fn is not None and not callable(loss_fn)):
            raise TypeError(f"With a torch network, 'loss_fn' must be a torch loss (callable on "
                            f"torch tensors), but got {type(loss_fn).__name__}")
        loss_fn = self._module(loss_fn) if loss_fn is not None else None
        attach_dump_hooks(network)
        wrapped, scale = self._data_parallel(network)
        step = TorchTrainStep(wrapped, loss_fn, optimizer, self.compiled, scale, amp)
        step.module = network
        if cuda_graph_enabled() and self.device.type == "cuda":
            step = CudaGraphStep(step, CudaGraphs(self.torch, self.device))
        return step

    def build_eval_network(self, network, loss_fn, eval_network):
        if eval_network is not None:
            return self._module(eval_network)
        network = self._module(network)
        if loss_fn is not None:
            return TorchEvalStep(network, self._module(loss_fn))
        return network

    # --- running ----------------------------------------------------------------------------
    def compute_scope(self):
        return contextlib.nullcontext()

    def _tensor(self, value):
        torch = self.torch
        if isinstance(value, torch.Tensor):
            return value
        arr = np.asarray(value)
        if arr.dtype == np.int32:
            arr = arr.astype(np.int64)
        if arr.dtype.kind in "US":
            return value  # strings stay host-side
        # np.require, not np.ascontiguousarray: that one makes a 0-d row (a scalar column)
        # 1-d, and the network would get shape (1,) where MindSpore gives a 0-d Tensor.
        arr = np.require(arr, requirements="C")
        if not arr.flags.writeable:  # a view of a read-only file map: torch may write into it
            arr = arr.copy()
        return torch.from_numpy(arr)

    def sink_input(self, dataset):
        """(dataset, convert) of sink mode. On an accelerator, a pipeline ending in Normalize /
        HWC2CHW sends uint8 batches and the device finishes them (minddata's DeviceTail): a
        quarter of the copy, and the pointwise work off the CPU."""
        if self.device.type == "cpu":
            return dataset, self.to_device
        from minddata.device_tail import split_device_tail
        head, tail = split_device_tail(dataset)
        if tail is None:
            return dataset, self.to_device
        return head, functools.partial(self.to_device, tail=tail)

    def to_device(self, batch, tail=None):
        """Called in the sink thread: host -> device ahead of the step; `tail` (a DeviceTail)
        is applied to its column on the device."""
        tensors = [self._tensor(v) for v in batch]
        if self.device.type == "cpu":
            if tail is not None:
                tensors[tail.column] = tail.apply_torch(tensors[tail.column])
            return _DeviceBatch(tensors)
        torch = self.torch
        if self._side_stream is not None:
            with torch.cuda.stream(self._side_stream):
                # A batch the GPU pipeline made is on the device already: no pinning.
                moved = [(t.pin_memory() if t.device.type == "cpu" else t).to(
                    self.device, non_blocking=True)
                         if isinstance(t, torch.Tensor) else t for t in tensors]
                if tail is not None:
                    moved[tail.column] = tail.apply_torch(moved[tail.column])
                event = torch.cuda.Event()
                event.record(self._side_stream)
            out = _DeviceBatch(moved)
            out.event = event
            return out
        moved = [t.to(self.device) if isinstance(t, torch.Tensor) else t for t in tensors]
        if tail is not None:
            moved[tail.column] = tail.apply_torch(moved[tail.column])
        return _DeviceBatch(moved)

    def _ready(self, batch):
        event = getattr(batch, "event", None)
        if event is not None:
            stream = self.torch.cuda.current_stream(self.device)
            stream.wait_event(event)
            for t in batch:
                if isinstance(t, self.torch.Tensor):
                    t.record_stream(stream)  # the allocator must not reuse it early
        return batch

    def set_train(self, network, mode):
        target = getattr(network, "module", None) or getattr(network, "network", None) or network
        if hasattr(target, "train"):
            target.train(mode)

    def train_step(self, train_network, batch):
        if self._step_stream is None:
            return train_network(*self._ready(batch))
        return run_on_stream(self.torch, self._step_stream,
                             lambda: train_network(*self._ready(batch)))

    def eval_step(self, eval_network, batch):
        with self.torch.no_grad(), self.amp.autocast():
            return eval_network(*self.amp.cast_inputs(self._ready(batch)))

    def predict(self, network, data):
        network.eval()
        inputs = [self._tensor(d).to(self.device) if not isinstance(d, str) else d for d in data]
        with self.torch.no_grad(), self.amp.autocast():
            return network(*self.amp.cast_inputs(tuple(inputs)))

    def synchronize(self):
        if self.device.type == "cuda":
            self.torch.cuda.synchronize(self.device)

    # --- optimizer and checkpoints ----------------------------------------------------------
    def get_lr(self, optimizer):
        return float(optimizer.param_groups[0]["lr"])

    def set_lr(self, optimizer, lr):
        for group in optimizer.param_groups:
            group["lr"] = lr

    def checkpoint_object(self, train_network):
        return getattr(train_network, "module", train_network)

    def snapshot(self, train_network):
        module = self.checkpoint_object(train_network)
        return {k: v.detach().clone() for k, v in module.state_dict().items()}

    def restore(self, train_network, snapshot):
        self.checkpoint_object(train_network).load_state_dict(snapshot)
