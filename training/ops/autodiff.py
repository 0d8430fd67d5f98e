"""Automatic differentiation with MindSpore's functional API: `grad`, `value_and_grad` and the
`GradOperation` primitive.

A function over numpy-backend Tensors and Cells is differentiated through the Tensor tape
(training.tensor.grad_of); one over torch tensors (a torch.nn.Module's parameters as
`weights`, or torch inputs) through torch.autograd. As in MindSpore, a function returning
several outputs is differentiated through their sum (each with sensitivity one), and with
`has_aux=True` only through the first output."""
import numpy as np

from training.backends.base import get_backend
from training.ops.functional import _torch_of
from training.tensor import Parameter, Tensor, as_array, grad_of


def _positions(grad_position, count):
    if grad_position is None:
        return ()
    items = (grad_position,) if isinstance(grad_position, int) else tuple(grad_position)
    for p in items:
        if not isinstance(p, int) or isinstance(p, bool) or not -count <= p < count:
            raise ValueError(f"For 'grad', 'grad_position' must be an int or tuple of ints in "
                             f"[{-count}, {count}), but got {grad_position!r}")
    return tuple(p % count for p in items)


def _weights(weights):
    if weights is None:
        return ()
    if isinstance(weights, (list, tuple)):
        return tuple(weights)
    return (weights,)


def _format(grad_position, weights, input_grads, weight_grads):
    """MindSpore's result shape: one gradient per int position / single Parameter, tuples for
    tuple positions / lists of parameters, (inputs, weights) when both are asked for."""
    inputs = None
    if grad_position is not None:
        inputs = input_grads[0] if isinstance(grad_position, int) else tuple(input_grads)
    params = None
    if weights is not None:
        params = weight_grads[0] if not isinstance(weights, (list, tuple)) else tuple(weight_grads)
    if inputs is not None and params is not None:
        return inputs, params
    return inputs if params is None else params


def _split_output(out, has_aux, fn):
    if has_aux:
        if not isinstance(out, (tuple, list)) or not out:
            raise ValueError(f"For 'grad' with has_aux=True, the function "
                             f"{getattr(fn, '__name__', fn)!r} must return a tuple whose first "
                             f"element is differentiated, but it returned {type(out).__name__}")
        return (out[0],)
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def _detach(value):
    if isinstance(value, (tuple, list)):
        return type(value)(_detach(v) for v in value)
    return value.detach() if hasattr(value, "detach") else value


class _Enabled:
    """Grad recording on, even inside no_grad() (MindSpore's grad works anywhere)."""

    def __enter__(self):
        from training import tensor
        self._previous = tensor.is_grad_enabled()
        tensor._state.grad_enabled = True

    def __exit__(self, *exc):
        from training import tensor
        tensor._state.grad_enabled = self._previous
        return False


def _numpy_grads(fn, args, positions, weights, has_aux, sens):
    args = list(args)
    leaves = []
    for p in positions:
        leaf = Tensor(as_array(args[p]))
        leaf.requires_grad = True
        args[p] = leaf
        leaves.append(leaf)
    for w in weights:
        if not isinstance(w, Parameter):
            raise TypeError(f"For 'grad', 'weights' must be Parameters (or torch tensors), but "
                            f"got {type(w).__name__}")
    with _Enabled():
        out = fn(*args)
    targets = _split_output(out, has_aux, fn)
    sens = (sens,) if sens is not None and not isinstance(sens, (tuple, list)) else sens
    total = None
    for i, target in enumerate(targets):
        if not isinstance(target, Tensor):
            continue
        scale = 1.0 if sens is None else np.asarray(as_array(sens[i]), dtype=target.dtype)
        with _Enabled():
            term = (target * scale).sum()
        total = term if total is None else total + term
    if total is None:
        raise ValueError("For 'grad', the function returned no Tensor to differentiate")
    grads = [Tensor(g) for g in grad_of(total, leaves + list(weights))]
    return out, grads[:len(leaves)], grads[len(leaves):]


def _torch_grads(torch, fn, args, positions, weights, has_aux, sens):
    from training.backends.torch_cells import param
    # training.nn Parameters run through their bound torch tensors (the torch backend's cells)
    weights = [param(w) if isinstance(w, Parameter) else w for w in weights]
    args = list(args)
    leaves = []
    for p in positions:
        leaf = torch.as_tensor(args[p]).detach().requires_grad_(True)
        args[p] = leaf
        leaves.append(leaf)
    with torch.enable_grad():
        out = fn(*args)
        targets = _split_output(out, has_aux, fn)
        sens = (sens,) if sens is not None and not isinstance(sens, (tuple, list)) else sens
        total = sum((t * (1.0 if sens is None else _torch_sens(torch, sens[i], t)))
                    .sum() for i, t in enumerate(targets) if isinstance(t, torch.Tensor))
    wrt = leaves + list(weights)
    if isinstance(total, torch.Tensor) and total.requires_grad:
        grads = torch.autograd.grad(total, wrt, allow_unused=True)
    else:   # outputs that depend on no input asked for: zeros, as MindSpore gives
        grads = [None] * len(wrt)
    grads = [torch.zeros_like(w) if g is None else g for g, w in zip(grads, wrt)]
    return _detach(out), grads[:len(leaves)], grads[len(leaves):]


def _torch_sens(torch, sens, like):
    """A sensitivity (number, array, Tensor or torch tensor) on `like`'s device and dtype."""
    value = sens if isinstance(sens, torch.Tensor) else as_array(sens)
    return torch.as_tensor(value, dtype=like.dtype, device=like.device)


def _run(fn, grad_position, weights, has_aux, args, sens=None):
    if grad_position is None and weights is None:
        raise ValueError("For 'grad', 'grad_position' and 'weights' can not both be None")
    positions = _positions(grad_position, len(args))
    weight_list = _weights(weights)
    torch = _torch_of(*args, *weight_list)
    if torch:
        out, gi, gw = _torch_grads(torch, fn, args, positions, weight_list, has_aux, sens)
    elif get_backend() == "torch":  # Tensor arguments, cells on torch: Tensor results
        from training.backends import torch_cells as tc
        import torch
        device = tc.current_device()
        sens = tc.to_device(sens, device) if sens is not None else None
        out, gi, gw = _torch_grads(torch, fn, tc.to_device(tuple(args), device), positions,
                                   weight_list, has_aux, sens)
        out, gi, gw = tc.to_host(out), tc.to_host(gi), tc.to_host(gw)
    else:
        out, gi, gw = _numpy_grads(fn, args, positions, weight_list, has_aux, sens)
    return _detach(out), _format(grad_position, weights, gi, gw)


def _one_position_bare(grad_position):
    """grad/value_and_grad give a one-position tuple's gradient bare, as MindSpore 2.10 does
    (GradOperation(get_all=True) keeps its 1-tuple)."""
    if isinstance(grad_position, tuple) and len(grad_position) == 1:
        return grad_position[0]
    return grad_position


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """A function returning (fn's outputs, gradients) for the same arguments."""
    if return_ids:
        raise ValueError("For 'value_and_grad', return_ids=True is not provided")
    grad_position = _one_position_bare(grad_position)

    def wrapper(*args):
        return _run(fn, grad_position, weights, has_aux, args)
    return wrapper


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """A function returning the gradients (and, with has_aux, (gradients, aux outputs))."""
    if return_ids:
        raise ValueError("For 'grad', return_ids=True is not provided")
    grad_position = _one_position_bare(grad_position)

    def wrapper(*args):
        out, grads = _run(fn, grad_position, weights, has_aux, args)
        return (grads, tuple(out[1:])) if has_aux else grads
    return wrapper


class GradOperation:
    """`GradOperation(get_all, get_by_list, sens_param)(net[, weights])` -> gradient function:
    by default the gradient of the first input; get_all: of every input; get_by_list: of
    `weights`; sens_param: the last argument is the output's sensitivity."""

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        for name, value in (("get_all", get_all), ("get_by_list", get_by_list),
                            ("sens_param", sens_param)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'GradOperation', '{name}' must be a bool, got {value!r}")
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param

    def __call__(self, fn, weights=None):
        if self.get_by_list and weights is None:
            raise ValueError("For 'GradOperation' with get_by_list=True, 'weights' must be given")

        def wrapper(*args):
            sens = None
            if self.sens_param:
                args, sens = args[:-1], args[-1]
            if self.get_all:
                position = tuple(range(len(args)))
            else:
                position = 0 if not self.get_by_list else None
            wanted = list(weights) if self.get_by_list else None
            _, grads = _run(fn, position, wanted, False, args, sens)
            return grads
        return wrapper
