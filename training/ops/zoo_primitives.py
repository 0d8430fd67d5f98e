"""Primitives of `mindspore.ops` the model zoo's ported networks use: InvertPermutation and
CTCLoss, TensorFlow's form (logits (max_time, batch, num_classes), sparse labels, the last
class the blank; it gives the loss per sequence and its gradient with respect to the logits).
CTCLoss runs its forward-backward recursion on the host in float64 (the loss is small next
to the network: MindSpore's CPU kernel does the same work) and hands the gradient to either
backend's autodiff. Values as MindSpore 2.10's CPU kernel (measured)."""
import numpy as np

from training.backends.dispatch import is_torch
from training.ops.operations import Primitive
from training.tensor import Tensor, as_array


class InvertPermutation(Primitive):
    """The inverse of a permutation given as a tuple or list of ints: position i of the
    result holds where i stands in the input."""

    def __call__(self, input_x):
        if hasattr(input_x, "shape"):
            raise ValueError(f"For 'InvertPermutation', the value of 'input_x' must be "
                             f"non-Tensor, but got {input_x!r}")
        for index, value in enumerate(input_x):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"For 'InvertPermutation', the type of 'input[{index}]' should "
                                f"be 'int', but got type '{type(value).__name__}'.")
        if not input_x:
            raise ValueError("min() arg is an empty sequence")
        seen = set()
        for value in input_x:
            if value in seen:
                raise ValueError(f"For 'InvertPermutation', the 'input_x' can not contain "
                                 f"duplicate values, but got duplicated {value} in the "
                                 f"'input_x'.")
            seen.add(value)
        if max(input_x) != len(input_x) - 1 or min(input_x) != 0:
            bad, bound = (max(input_x), len(input_x) - 1) if max(input_x) != len(input_x) - 1 \
                else (min(input_x), 0)
            raise ValueError(f"For 'InvertPermutation', the value {'max' if bound else 'min'} "
                             f"should be = : {bound}, but got {bad}.")
        inverse = [0] * len(input_x)
        for position, value in enumerate(input_x):
            inverse[value] = position
        return tuple(inverse)


def _log_add(a, b):
    top = np.maximum(a, b)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):      # (both -inf: the sum is -inf, kept by where)
        added = safe + np.log(np.exp(a - safe) + np.exp(b - safe))
    return np.where(np.isfinite(top), added, top)


def _sequence_loss(log_probs, labels, merge_repeated):
    """-log p(labels | log_probs (T, C), blank C - 1) and its gradient with respect to the
    logits, by the forward-backward recursion over the labels with blanks between. Without
    merge_repeated, a label state lasts one frame (a label repeated frame after frame counts
    each time)."""
    steps, classes = log_probs.shape
    extended = np.full(2 * len(labels) + 1, classes - 1)
    extended[1::2] = labels
    states = len(extended)
    is_label = extended != classes - 1
    stays = ~is_label if not merge_repeated else np.ones(states, bool)
    skips = np.zeros(states, bool)
    skips[2:] = is_label[2:] & ((extended[2:] != extended[:-2]) | (not merge_repeated))
    alpha = np.full((steps, states), -np.inf)
    alpha[0, :2] = log_probs[0, extended[:2]]
    for t in range(1, steps):
        previous = alpha[t - 1]
        came = np.where(stays, previous, -np.inf)
        came[1:] = _log_add(came[1:], previous[:-1])
        came[2:] = _log_add(came[2:], np.where(skips[2:], previous[:-2], -np.inf))
        alpha[t] = came + log_probs[t, extended]
    beta = np.full((steps, states), -np.inf)
    beta[-1, -2:] = log_probs[-1, extended[-2:]]
    for t in range(steps - 2, -1, -1):
        following = beta[t + 1]
        goes = np.where(stays, following, -np.inf)
        goes[:-1] = _log_add(goes[:-1], following[1:])
        goes[:-2] = _log_add(goes[:-2], np.where(skips[2:], following[2:], -np.inf))
        beta[t] = goes + log_probs[t, extended]
    log_p = _log_add(alpha[-1, -1], alpha[-1, -2]) if states > 1 else alpha[-1, -1]
    through = alpha + beta - log_probs[:, extended]    # log p of the paths through (t, s)
    per_class = np.full((steps, classes), -np.inf)
    for s in range(states):
        per_class[:, extended[s]] = _log_add(per_class[:, extended[s]], through[:, s])
    if not np.isfinite(log_p):      # no path spells the labels: an infinite loss, whose
        return np.inf, np.zeros_like(log_probs)     # gradient MindSpore gives as zeros
    return -log_p, np.exp(log_probs) - np.exp(per_class - log_p)


class CTCLoss(Primitive):
    """TensorFlow's CTC loss: (loss (batch,), gradient like `x`) of logits `x` (max_time,
    batch, num_classes), labels as `labels_indices` (N, 2) int64 (batch, position) and
    `labels_values` (N,) int32, and `sequence_length` (batch,) int32 frames per sequence. A
    label sequence longer than its frames is a RuntimeError, or with
    ignore_longer_outputs_than_inputs a loss and gradient of zero (MindSpore 2.10's CPU kernel
    raises RuntimeError 'log_beta_b' there: README)."""

    def __init__(self, preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                 ignore_longer_outputs_than_inputs=False):
        super().__init__()
        for name, value in (("preprocess_collapse_repeated", preprocess_collapse_repeated),
                            ("ctc_merge_repeated", ctc_merge_repeated),
                            ("ignore_longer_outputs_than_inputs",
                             ignore_longer_outputs_than_inputs)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'CTCLoss', the type of '{name}' should be 'bool', but "
                                f"got type '{type(value).__name__}'.")
        self.preprocess_collapse_repeated = preprocess_collapse_repeated
        self.ctc_merge_repeated = ctc_merge_repeated
        self.ignore_longer_outputs_than_inputs = ignore_longer_outputs_than_inputs

    def _labels(self, indices, values, batch, classes):
        sequences = [[] for _ in range(batch)]
        for position, ((row, _), value) in enumerate(zip(indices, values)):
            if not 0 <= value < classes - 1:
                raise RuntimeError(f"For 'CTCLoss', the value of labels_values[{position}] "
                                   f"must be in the range of [0, num_classes - 1), but got {value}")
            sequences[row].append(int(value))
        if self.preprocess_collapse_repeated:
            sequences = [[v for i, v in enumerate(seq) if i == 0 or seq[i - 1] != v]
                         for seq in sequences]
        return sequences

    def __call__(self, x, labels_indices, labels_values, sequence_length):
        kind = str(x.dtype).split(".")[-1]
        if kind not in ("float16", "float32", "float64"):
            raise TypeError(f"For 'CTCLoss', the 'x' should be one of [float16, float32, "
                            f"float64], but got {kind}.")
        if x.ndim != 3:
            raise ValueError(f"For 'CTCLoss', the dimension of 'x' must be 3, but got {x.ndim}.")
        logits = _host(x).astype(np.float64)
        _, batch, classes = logits.shape
        lengths = _host(sequence_length).astype(np.int64)
        sequences = self._labels(_host(labels_indices).astype(np.int64),
                                 _host(labels_values).astype(np.int64), batch, classes)
        shifted = logits - logits.max(-1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))
        loss, grad = np.zeros(batch), np.zeros_like(logits)
        for b, (labels, frames) in enumerate(zip(sequences, lengths)):
            if len(labels) > frames:
                if self.ignore_longer_outputs_than_inputs:
                    continue
                raise RuntimeError(f"For 'CTCLoss, input time(sequence length) must be greater "
                                   f"than output size(label length), but got sequence length: "
                                   f"{frames} and label length: {len(labels)}")
            loss[b], grad[:frames, b] = _sequence_loss(log_probs[:frames, b], labels,
                                                       self.ctc_merge_repeated)
        return _with_gradient(x, loss, grad)


def _host(value):
    if is_torch(value):
        return value.detach().cpu().numpy()
    return np.asarray(as_array(value))


def _with_gradient(x, loss, grad):
    """(loss, gradient) on `x`'s backend, in its dtype; the loss's gradient with respect to x
    is `grad` scaled by the loss's upstream gradient per sequence."""
    dtype = str(x.dtype).split(".")[-1]
    if is_torch(x):
        import torch
        gradient = torch.as_tensor(grad, device=x.device).to(x.dtype)
        value = torch.as_tensor(loss, device=x.device).to(x.dtype)
        return value + ((x - x.detach()) * gradient).sum((0, 2)), gradient
    gradient = grad.astype(dtype)
    result = Tensor.from_op(loss.astype(dtype), (x,),
                            lambda upstream: ((gradient * upstream[None, :, None]).astype(
                                dtype),))
    return result, Tensor(gradient)
