"""Element-wise activations, normalization, dropout and losses on Tensors, with gradients."""
import numpy as np

from training.tensor import Tensor, as_array, needs_grad


def relu(x):
    xd = x.data
    mask = xd > 0
    return Tensor.from_op(xd * mask, (x,), lambda g: (g * mask,))


def sigmoid(x):
    """1 / (1 + exp(-x)), its gradient g * (out * (1 - out)); float16 as MindSpore's kernels
    (measured on every float16 value): exp in float32, each later step rounded to float16."""
    xd = x.data
    exp = np.exp(-xd.astype(np.float32)).astype(np.float16) if xd.dtype == np.float16 else \
        np.exp(-xd)
    out = (1 / (1 + exp)).astype(x.dtype, copy=False)
    return Tensor.from_op(out, (x,), lambda g: (g * (out * (1 - out)),))


def tanh(x):
    """float16 as MindSpore's CPU kernels (measured on every float16 value): the forward the
    rational approximation x (x^6 + 378 x^4 + 17325 x^2 + 135135) / (28 x^6 + 3150 x^4 +
    62370 x^2 + 135135) (Lambert's continued fraction) in float32, clipped to [-1, 1], which
    rounds tanh(3.1504) up to 0.99658; the gradient g * (1 - out^2) in float32, rounded once."""
    xd = x.data
    if xd.dtype != np.float16:
        out = np.tanh(xd)
        return Tensor.from_op(out, (x,), lambda g: (g * (1 - out * out),))
    out = _tanh_rational(xd.astype(np.float32)).astype(np.float16)
    wide = out.astype(np.float32)
    return Tensor.from_op(out, (x,), lambda g: (
        (g.astype(np.float32) * (1 - wide * wide)).astype(np.float16),))


def _tanh_rational(x):
    with np.errstate(all="ignore"):
        square = x * x
        top = (((square + 378) * square + 17325) * square + 135135) * x
        bottom = ((28 * square + 3150) * square + 62370) * square + 135135
        return np.where(np.isinf(x), np.sign(x), np.clip(top / bottom, -1, 1))


def log_softmax(x, axis=-1):
    """float16 computed in float32, forward and backward (the backward from the float16
    output), each rounded to float16: MindSpore's LogSoftmax kernels (measured: [10, 11, -5, 0]
    gives -0.3132 where float16 throughout gives -0.3135)."""
    xd = x.data
    wide = xd.astype(np.float32) if xd.dtype == np.float16 else xd
    shifted = wide - wide.max(axis=axis, keepdims=True)
    out = (shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))).astype(xd.dtype)
    soft = np.exp(out.astype(wide.dtype))

    def backward(g):
        g = g.astype(wide.dtype)
        return ((g - soft * g.sum(axis=axis, keepdims=True)).astype(xd.dtype),)
    return Tensor.from_op(out, (x,), backward)


def softmax(x, axis=-1):
    xd = x.data
    e = np.exp(xd - xd.max(axis=axis, keepdims=True))
    out = e / e.sum(axis=axis, keepdims=True)
    return Tensor.from_op(out, (x,),
                          lambda g: (out * (g - (g * out).sum(axis=axis, keepdims=True)),))


def refuse_mixed_float16(x1, x2, primitive, message=None):
    """MindSpore 2.10's TypeError for float16 against float32 in a product (Dense, Conv,
    matmul: measured); computing on in float32 would hide that the network is not float16."""
    kinds = {np.dtype(x1.dtype), np.dtype(x2.dtype)}
    if kinds == {np.dtype(np.float16), np.dtype(np.float32)}:
        names = {np.float16: "Float16", np.float32: "Float32"}
        first, second = (names[np.dtype(t.dtype).type] for t in (x1, x2))
        raise TypeError(message or f"For '{primitive}', the type of 'x2' should be same as "
                        f"'x1', but got 'x1' with type Tensor[{first}] and 'x2' with type "
                        f"Tensor[{second}].")


def dense(x, weight, bias):
    """x @ weight.T + bias; weight is (out, in) as in MindSpore's Dense."""
    refuse_mixed_float16(x, weight, "MatMul")
    xd, wd = x.data, weight.data
    out = xd @ wd.T
    if bias is not None:
        out = out + bias.data

    x_needs_grad = needs_grad(x)

    def backward(g):
        g2 = g.reshape(-1, g.shape[-1])
        dx = g @ wd if x_needs_grad else None
        dw = g2.T @ xd.reshape(-1, xd.shape[-1])
        db = g2.sum(axis=0) if bias is not None else None
        return dx, dw, db
    return Tensor.from_op(out, (x, weight, bias), backward)


def batch_norm(x, gamma, beta, moving_mean, moving_var, eps, momentum, training):
    """Batch normalization over every axis but 1 (channels). In training, the moving statistics
    are updated in place: moving = momentum * moving + (1 - momentum) * batch (MindSpore's rule).
    float16 is computed in float32, as MindSpore's kernels (in float16 the squares of values
    past 256 overflow: every output was the same)."""
    given = x.data
    xd = given.astype(np.float32) if given.dtype == np.float16 else given
    axes = (0,) + tuple(range(2, xd.ndim))
    shape = [1, xd.shape[1]] + [1] * (xd.ndim - 2)
    if training:
        mean = xd.mean(axis=axes)
        var = xd.var(axis=axes)
        count = xd.size // xd.shape[1]
        unbiased = var * count / max(count - 1, 1)
        moving_mean.data[...] = momentum * moving_mean.data + (1 - momentum) * mean
        moving_var.data[...] = momentum * moving_var.data + (1 - momentum) * unbiased
    else:
        mean, var = moving_mean.data.astype(xd.dtype), moving_var.data.astype(xd.dtype)
    inv_std = 1.0 / np.sqrt(var + eps)
    xhat = (xd - mean.reshape(shape)) * inv_std.reshape(shape)
    g_data = gamma.data.reshape(shape) if gamma is not None else 1.0
    out = xhat * g_data + (beta.data.reshape(shape) if beta is not None else 0.0)

    def backward(g):
        g = g.astype(xd.dtype)
        dgamma = (g * xhat).sum(axis=axes).astype(gamma.dtype) if gamma is not None else None
        dbeta = g.sum(axis=axes).astype(beta.dtype) if beta is not None else None
        gx = g * g_data
        if training:
            m = xd.size // xd.shape[1]
            dx = (inv_std.reshape(shape) / m) * (
                m * gx - gx.sum(axis=axes).reshape(shape)
                - xhat * (gx * xhat).sum(axis=axes).reshape(shape))
        else:
            dx = gx * inv_std.reshape(shape)
        return dx.astype(given.dtype, copy=False), dgamma, dbeta
    return Tensor.from_op(out.astype(given.dtype, copy=False), (x, gamma, beta), backward)


def dropout(x, keep_prob, rng):
    mask = (rng.random(x.shape) < keep_prob).astype(x.dtype) / keep_prob
    return Tensor.from_op(x.data * mask, (x,), lambda g: (g * mask,))


def softmax_cross_entropy(logits, labels, sparse, reduction):
    """Per-sample -sum(onehot * log_softmax(logits)), then reduced."""
    ld = logits.data
    lab = as_array(labels)
    shifted = ld - ld.max(axis=-1, keepdims=True)
    log_prob = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    if sparse:
        idx = lab.astype(np.int64).reshape(-1)
        if idx.size != ld.shape[0] or (idx.size and (idx.min() < 0 or idx.max() >= ld.shape[-1])):
            raise ValueError(f"For 'SoftmaxCrossEntropyWithLogits', labels must be {ld.shape[0]} "
                             f"class indices in [0, {ld.shape[-1]}), but got shape {lab.shape} "
                             f"with values in [{idx.min() if idx.size else 0}, "
                             f"{idx.max() if idx.size else 0}]")
        onehot = np.zeros_like(ld)
        onehot[np.arange(idx.size), idx] = 1
    else:
        if lab.shape != ld.shape:
            raise ValueError(f"For 'SoftmaxCrossEntropyWithLogits', dense labels must have the "
                             f"logits' shape {ld.shape}, but got {lab.shape}")
        onehot = lab.astype(ld.dtype)
    per_sample = -(onehot * log_prob).sum(axis=-1)
    soft = np.exp(log_prob)
    n = per_sample.size
    if reduction == "mean":
        out, scale = per_sample.mean(), 1.0 / n
    elif reduction == "sum":
        out, scale = per_sample.sum(), 1.0
    else:
        out, scale = per_sample, None

    def backward(g):
        gs = (np.asarray(g) * scale) if scale is not None else g[:, None]
        return ((soft * onehot.sum(axis=-1, keepdims=True) - onehot) * gs,
                None)
    return Tensor.from_op(np.asarray(out, dtype=ld.dtype), (logits, labels), backward)
