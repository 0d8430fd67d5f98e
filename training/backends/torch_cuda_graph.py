"""The whole train step replayed as one CUDA graph: ``TRAINING_CUDA_GRAPH=1`` on CUDA.

Why: a step of a small network on a fast GPU is bound by the host, not the device: ResNet-18
queues about a thousand kernels a step, and on the H200 its host side (13 ms a step for a batch
of 256) is the whole step. Beside a GPU pipeline in the same process the training thread shares
the GIL with the pipeline's threads and queues its kernels later, and the GPU waits (in sink
mode the host side grew from 13.4 to 17.5 ms while the sink never waited for data). Captured
once, the step is one ``replay()``: the forward pass, the loss, the backward pass, the loss
scaler and the optimizer's update queued in microseconds, the same kernels on the same
memory. MindSpore's GPU sink mode runs its step as a compiled graph on the device too.

A replay repeats what was captured, so the step is captured only where that is exactly the
eager step, and captured again (or run eagerly) where it would no longer be:

- every input is a CUDA tensor of the captured shape, dtype and strides: a batch of another
  shape (an epoch's last, short batch) runs eagerly, and a new shape seen ``WARM_STEPS`` times
  in a row is captured in its turn;
- the optimizer keeps no state on the host: torch.optim.SGD (its update reads only device
  tensors), or an optimizer made with ``capturable=True``; with dynamic loss scaling
  (torch.amp.GradScaler) it must be a fused one (``fused=True``), which takes the scaler's
  overflow flag on the device. Others (Adam without ``capturable``, whose step count lives on
  the host) run eagerly, with a warning;
- the optimizer's hyperparameters, its state and the parameters' storage are those captured:
  a changed learning rate (a schedule), a loaded optimizer state or replaced parameters mean a
  new capture, and a step whose hyperparameters change more often than once every
  ``MIN_REPLAYS_PER_CAPTURE`` steps runs eagerly from then on, with a warning;
- the network is in training mode as when captured.

The first ``WARM_STEPS`` steps run eagerly on a side stream (cuDNN picks its algorithms, the
optimizer makes its state, the scaler its tensors), then one capture, on the step's stream
order. The capture is thread-local (``capture_error_mode="thread_local"``): the pipeline's
threads keep allocating and copying on their own streams meanwhile. A failed capture raises
RuntimeError naming this switch: the step's state could be half-updated on the host, so it is
not silently run another way.
"""
import logging
import os

logger = logging.getLogger("training.torch")

#: eager steps of a shape before it is captured (cuDNN's autotuning, lazily made state)
WARM_STEPS = 3
#: fewer replays than this between two captures: the step runs eagerly from then on
MIN_REPLAYS_PER_CAPTURE = 50


def cuda_graph_enabled():
    """TRAINING_CUDA_GRAPH: '1' replays the train step as a CUDA graph on CUDA devices."""
    flag = os.environ.get("TRAINING_CUDA_GRAPH", "0")
    if flag not in ("0", "1"):
        raise ValueError(f"TRAINING_CUDA_GRAPH must be '0' or '1', but got {flag!r}")
    return flag == "1"


class CudaGraphs:
    """The CUDA calls CudaGraphStep makes, in one place (tests stand another in)."""

    def __init__(self, torch, device):
        self.torch, self.device = torch, device

    def on_side_stream(self, fn, inputs):
        """``fn()`` on a fresh side stream, ordered after the caller's earlier work and before
        its later work (torch asks for warm-up off the capturing stream)."""
        torch = self.torch
        caller = torch.cuda.current_stream(self.device)
        side = torch.cuda.Stream(device=self.device)
        side.wait_stream(caller)
        with torch.cuda.stream(side):
            for tensor in inputs:
                tensor.record_stream(side)
            out = fn()
        caller.wait_stream(side)
        return out

    def holds(self, tensor):
        """Whether ``tensor`` can be a captured input: on this CUDA device."""
        if not isinstance(tensor, self.torch.Tensor) or tensor.device.type != "cuda":
            return False
        index = self.device.index       # "cuda" alone: the current device
        return tensor.device.index == (self.torch.cuda.current_device() if index is None
                                       else index)

    def capture(self, fn):
        """(graph, fn's result): ``fn``'s kernels captured, not run."""
        graph = self.torch.cuda.CUDAGraph()
        with self.torch.cuda.graph(graph, capture_error_mode="thread_local"):
            out = fn()
        return graph, out


class CudaGraphStep:
    """A TorchTrainStep (``step``) replayed as one CUDA graph where that is the eager step
    exactly (module docstring); the eager step otherwise. Same call, same result: the loss as a
    float32 tensor of its own."""

    def __init__(self, step, graphs):
        self.step, self.graphs = step, graphs
        self.module = getattr(step, "module", step.network)
        self.network, self.optimizer = step.network, step.optimizer
        self.captures = 0           # for the tests and the logs
        self._why_eager = self._not_capturable()
        self._graph = self._key = self._bindings = None
        self._static = self._loss = None
        self._replays = 0
        self._warming_key, self._warm = None, 0
        if self._why_eager:
            self._warn_eager(self._why_eager)

    # --- when a replay is the eager step ------------------------------------------------------
    def _not_capturable(self):
        """Why this step cannot be captured, or None."""
        import torch
        optimizer, amp = self.step.optimizer, self.step.amp
        defaults = getattr(optimizer, "defaults", {})
        if not (type(optimizer) is torch.optim.SGD or defaults.get("capturable")):
            return (f"its optimizer {type(optimizer).__name__} keeps state on the host (use "
                    f"torch.optim.SGD, or an optimizer made with capturable=True)")
        if amp is not None and amp.scaler is not None and not defaults.get("fused"):
            return ("dynamic loss scaling reads the overflow flag on the host unless the "
                    "optimizer is fused (make it with fused=True)")
        if amp is not None and amp.manager is not None and amp.scaler is None and \
                amp.manager.get_drop_overflow_update():
            return "FixedLossScaleManager(drop_overflow_update=True) checks every step on the host"
        if self.step.loss_scale != 1.0:
            return "data parallel training (DistributedDataParallel) syncs on the host"
        from training import dump
        if dump.enabled():
            return "MINDSPORE_DUMP_CONFIG copies every layer's tensors to the host"
        return None

    def _warn_eager(self, why):
        logger.warning("TRAINING_CUDA_GRAPH=1: the train step runs eagerly: %s", why)

    def _batch_key(self, batch):
        if not batch or not all(self.graphs.holds(t) for t in batch):
            return None
        return tuple((tuple(t.shape), t.dtype, t.device, t.stride()) for t in batch)

    def _current_bindings(self):
        """What the captured kernels hold as constants or addresses: the optimizer's
        hyperparameters and state, the parameters' storage, the training flag."""
        optimizer = self.step.optimizer
        hyper = tuple(tuple(sorted((k, v) for k, v in group.items()
                                   if k != "params" and isinstance(v, (bool, int, float, str,
                                                                       type(None)))))
                      for group in optimizer.param_groups)
        storage = tuple(p.data_ptr() for group in optimizer.param_groups
                        for p in group["params"])
        return hyper, id(optimizer.state), len(optimizer.state), storage, self.module.training

    # --- the step -----------------------------------------------------------------------------
    def __call__(self, *batch):
        if self._why_eager:
            return self.step(*batch)
        key = self._batch_key(batch)
        if key is None:
            return self.step(*batch)
        if self._graph is not None and key == self._key:
            if self._current_bindings() == self._bindings:
                return self._replay(batch)
            if self._replays < MIN_REPLAYS_PER_CAPTURE:
                self._release()
                self._why_eager = (f"the optimizer's hyperparameters or state changed after "
                                   f"{self._replays} steps, sooner than every "
                                   f"{MIN_REPLAYS_PER_CAPTURE} (a per-step schedule)")
                self._warn_eager(self._why_eager)
                return self.step(*batch)
            return self._capture(batch, key)
        if key != self._warming_key:
            self._warming_key, self._warm = key, 0
        if self._warm < WARM_STEPS:
            self._warm += 1
            return self.graphs.on_side_stream(lambda: self.step(*batch), batch)
        return self._capture(batch, key)

    def _replay(self, batch):
        for static, tensor in zip(self._static, batch):
            static.copy_(tensor)
        self._graph.replay()
        self._replays += 1
        return self._loss.clone()

    def _release(self):
        self._graph = self._static = self._loss = self._key = self._bindings = None

    def _capture(self, batch, key):
        self._release()
        self.step.optimizer.zero_grad(set_to_none=True)     # the graph's gradients: its own
        static = [t.clone() for t in batch]
        try:
            graph, loss = self.graphs.capture(
                lambda: self.step.compute(*static, autocast_cache=False))
        except Exception as exc:
            raise RuntimeError(f"TRAINING_CUDA_GRAPH=1: capturing the train step as a CUDA "
                               f"graph failed ({type(exc).__name__}: {exc}); set "
                               f"TRAINING_CUDA_GRAPH=0 to run it eagerly") from exc
        self._graph, self._static, self._loss, self._key = graph, static, loss, key
        self._bindings, self._replays = self._current_bindings(), 0
        self.captures += 1
        logger.info("TRAINING_CUDA_GRAPH=1: train step captured for inputs %s",
                    [k[0] for k in key])
        return self._replay(batch)
