"""The numpy backend: runs `training.nn` cells on the CPU, eagerly (GRAPH_MODE and PYNATIVE_MODE
behave the same here).

While Model runs, BLAS is limited to TRAINING_NUMPY_THREADS threads (default 1): the layers'
matrices are small, and multi-threaded BLAS then spends more time spinning than computing
(measured 5x slower for LeNet-5 on a busy 2-core machine)."""
import contextlib
import os

import numpy as np

from training import context
from training.tensor import Tensor, no_grad


class NumpyBackend:
    name = "numpy"

    def __init__(self):
        from training.nn.cell import check_cpu_target
        check_cpu_target("Model")

    # --- building ---------------------------------------------------------------------------
    def build_train_network(self, network, loss_fn, optimizer, amp_level="O0",
                            loss_scale_manager=None):
        from training.nn.loss_scale import TrainOneStepWithLossScaleCell
        from training.nn.wrappers import TrainOneStepCell, WithLossCell
        if amp_level not in ("O0", "auto"):  # 'auto' is O0 on the CPU, as in MindSpore
            from training.amp import numpy_backend_refusal
            raise numpy_backend_refusal("Model", amp_level)
        if context.get_auto_parallel_context("parallel_mode") == "data_parallel":
            raise RuntimeError("parallel_mode 'data_parallel' needs the torch backend "
                               "(training.set_backend('torch') under torchrun); the numpy backend "
                               "runs in one process")
        if loss_fn is None and optimizer is None:
            return network  # a custom training cell (TrainOneStepCell or its own)
        if optimizer is None:
            return None
        net = WithLossCell(network, loss_fn) if loss_fn is not None else network
        if loss_scale_manager is None:
            return TrainOneStepCell(net, optimizer)
        update_cell = loss_scale_manager.get_update_cell()
        if update_cell is None:  # fixed scale, no overflow check: the optimizer unscales
            return TrainOneStepCell(net, optimizer, sens=loss_scale_manager.get_loss_scale())
        return TrainOneStepWithLossScaleCell(net, optimizer, scale_sense=update_cell)

    def build_eval_network(self, network, loss_fn, eval_network):
        from training.nn.wrappers import WithEvalCell
        if eval_network is not None:
            return eval_network
        if loss_fn is not None:
            return WithEvalCell(network, loss_fn)
        return network

    # --- running ----------------------------------------------------------------------------
    def compute_scope(self):
        """Context manager for the duration of a train/eval/predict call."""
        try:
            from threadpoolctl import threadpool_limits
        except ImportError:
            return contextlib.nullcontext()
        threads = os.environ.get("TRAINING_NUMPY_THREADS", "1")
        if not threads.isdigit() or int(threads) < 1:
            raise ValueError(f"TRAINING_NUMPY_THREADS must be a positive int, got {threads!r}")
        return threadpool_limits(limits=int(threads), user_api="blas")

    def to_device(self, batch):
        return tuple(Tensor(a) if isinstance(a, np.ndarray) else a for a in batch)

    def sink_input(self, dataset):
        """(dataset, convert) of sink mode: the CPU runs the whole pipeline."""
        return dataset, self.to_device

    def set_train(self, network, mode):
        network.set_train(mode)

    def train_step(self, train_network, batch):
        return train_network(*batch)

    def eval_step(self, eval_network, batch):
        with no_grad():
            return eval_network(*batch)

    def predict(self, network, data):
        with no_grad():
            return network(*[Tensor(d) if isinstance(d, np.ndarray) else d for d in data])

    def synchronize(self):
        pass

    # --- optimizer and checkpoints ----------------------------------------------------------
    def get_lr(self, optimizer):
        return optimizer._current_lr()

    def set_lr(self, optimizer, lr):
        optimizer._assign_lr(lr)

    def checkpoint_object(self, network):
        return network

    def snapshot(self, network):
        return {name: p.data.copy() for name, p in network.parameters_and_names()}

    def restore(self, network, snapshot):
        for name, p in network.parameters_and_names():
            if name in snapshot:
                p.set_data(snapshot[name])
