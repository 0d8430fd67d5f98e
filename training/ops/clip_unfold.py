"""ops.clip_by_norm (the total-norm clipping of a tensor or a list of them, torch's
clip_grad_norm_) and ops.unfold (im2col: sliding blocks of an NCHW image as columns), with
MindSpore 2.10's arguments, checks and result types (measured); both backends, with gradients
(they are made of the ops they call)."""
import numbers


def _functional():
    """training.ops.functional (imported at the call: it imports this module's functions)."""
    from training.ops import functional
    return functional


def clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """``x`` (a Tensor, or a list or tuple of them, given back as a tuple) scaled by
    max_norm / (total_norm + 1e-6) where that is below 1; total_norm is the norm_type-norm of
    the tensors' norms (of the largest magnitude for inf), each in its tensor's type. The norm
    is of the magnitudes (MindSpore 2.10 raises the signed values to norm_type: with an odd
    norm_type negative values cancel, [[3, -4], [1, 2]] with norm_type 1 has norm 2 there)."""
    F = _functional()
    single = not isinstance(x, (list, tuple))
    tensors = [x] if single else list(x)
    if not tensors:
        raise ValueError("For primitive[Stack], the stack element num must be greater than or "
                         "equal to 1, but got 0.")
    types = {str(t.dtype) for t in tensors}
    if len(types) > 1:
        raise TypeError(f"All input must have the same data type! (got {sorted(types)})")
    if norm_type == float("inf"):
        total = F.amax(F.stack([F.amax(F.abs(t)) for t in tensors]))
    else:
        inverse = 1.0 / norm_type        # (norm_type 0: ZeroDivisionError, as MindSpore's)
        norms = [F.cast(F.pow(F.sum(F.pow(F.abs(t), norm_type)), inverse), t.dtype)
                 for t in tensors]
        total = F.pow(F.sum(F.pow(F.stack(norms), norm_type)), inverse)
    if error_if_nonfinite and not bool(F.isfinite(total)):
        raise RuntimeError(f"For clip_by_norm, the total norm of order {norm_type} from input "
                           f"is non-finite.")
    if not isinstance(max_norm, numbers.Real) and not hasattr(max_norm, "shape"):
        raise TypeError(f"Failed calling Mul with \"Mul()(input=Tensor, "
                        f"other={type(max_norm).__name__})\".")
    denominator = total + 1e-6
    coefficient = F.div(max_norm, denominator)
    if isinstance(max_norm, numbers.Real):      # (a number over a 0-d float16 total: float16)
        coefficient = F.cast(coefficient, denominator.dtype)
    clipped = tuple(F.mul(t, coefficient) for t in tensors) if bool(coefficient < 1) else \
        tuple(tensors)      # (a NaN norm clips nothing, as MindSpore's)
    return clipped[0] if single else clipped


def _sizes(name, value, least):
    """An int or a list/tuple of 1 or 2 ints of at least `least`, as a pair."""
    if isinstance(value, bool) or not isinstance(value, (int, tuple, list)):
        raise TypeError(f"For 'unfold', the type of '{name}' should be one of '['int', 'tuple', "
                        f"'list']', but got type '{type(value).__name__}'.")
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) not in (1, 2):
        raise ValueError(f"For 'unfold', the {name} size should be in : [1, 2], but got "
                         f"{len(pair)}.")
    pair = pair * (3 - len(pair))
    for index, size in enumerate(pair):
        if isinstance(size, bool) or not isinstance(size, int) or size < least:
            relation = "> 0" if least else ">= 0"
            raise ValueError(f"For 'unfold', the '{name}[{index}]' must be int and must "
                             f"{relation}, but got '{size}' with type '{type(size).__name__}'.")
    return pair


def patches(image, kernel, dilation, stride, counts):
    """The (N, C, counts...) slices of an NCHW ``image`` at each kernel offset, row by row."""
    found = []
    for row in range(kernel[0]):
        for col in range(kernel[1]):
            top, left = row * dilation[0], col * dilation[1]
            found.append(image[:, :, top:top + (counts[0] - 1) * stride[0] + 1:stride[0],
                               left:left + (counts[1] - 1) * stride[1] + 1:stride[1]])
    return found


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002
    """(N, C * kh * kw, L): each column one block of the zero-padded (N, C, H, W) input,
    channel-major (torch's F.unfold, MindSpore's Im2Col)."""
    F = _functional()
    kernel = _sizes("kernel_size", kernel_size, 1)
    dilation, pads = _sizes("dilation", dilation, 1), _sizes("padding", padding, 0)
    stride = _sizes("stride", stride, 1)
    if input.ndim != 4:
        raise ValueError(f"For primitive[Im2Col], the dimension of input x must be equal to 4, "
                         f"but got {input.ndim}.")
    n, c, h, w = input.shape
    counts = [(size + 2 * p - (k - 1) * d - 1) // s + 1 for size, p, k, d, s in
              zip((h, w), pads, kernel, dilation, stride)]
    if min(counts) <= 0:
        raise ValueError(f"For Im2Col, given input with spatial size {tuple(input.shape)}, "
                         f"ksizes={kernel}, dilation={dilation}, pads={pads}, the calculated "
                         f"shape of output is not positive.")
    if any(pads):
        input = F.pad(input, (pads[1], pads[1], pads[0], pads[0]))   # (last axis first)
    blocks = F.stack(patches(input, kernel, dilation, stride, counts), 2)
    return blocks.reshape((n, c * kernel[0] * kernel[1], counts[0] * counts[1]))
