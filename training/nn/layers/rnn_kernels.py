"""The recurrences behind nn.LSTM / GRU / RNN and their cells, on both backends.

Numpy backend: one layer in one direction is one recorded operation (`scan`): the loop over
time runs in numpy and one backward closure runs backpropagation through time, so a sequence
costs two Python loops rather than a graph node per gate and step. Its result packs the output
sequence and the final states along the time axis ((T + 1) rows, (T + 2) for an LSTM); the
caller slices them apart, and the slices' gradients come back to the one closure.

Torch backend: torch's own kernels (`torch._VF.lstm` ... with the weights in MindSpore's
layout, which is torch's: gates i, f, g, o for an LSTM and r, z, n for a GRU), packed sequences
for `seq_length`.

Variable lengths follow MindSpore 2.10's CPU recurrence: at step t a sample whose length is at
most t keeps its state and outputs zeros, so the final state is the state at its last step
(the initial state for a length of 0); the reverse direction reads each sample's first
`length` steps backwards (ReverseSequence) and leaves the rest in place."""
import numpy as np

from training.tensor import Tensor, needs_grad

GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


# --- one step of each recurrence: (input projection, hidden projection, h, c) -> new h, c ----
# and its backward: (cache, dh', dc') -> (d input projection, d hidden projection, dh, dc)

def _lstm_step(xp, hp, h, c):
    i, f, g, o = np.split(xp + hp, 4, axis=1)
    i, f, g, o = _sigmoid(i), _sigmoid(f), np.tanh(g), _sigmoid(o)
    c_new = f * c + i * g
    tanh_c = np.tanh(c_new)
    return o * tanh_c, c_new, (i, f, g, o, c, tanh_c)


def _lstm_step_backward(cache, dh, dc):
    i, f, g, o, c, tanh_c = cache
    dc = dc + dh * o * (1 - tanh_c * tanh_c)
    gates = np.concatenate([dc * g * i * (1 - i), dc * c * f * (1 - f), dc * i * (1 - g * g),
                            dh * tanh_c * o * (1 - o)], axis=1)
    return gates, gates, 0.0, dc * f


def _gru_step(xp, hp, h, c):
    xr, xz, xn = np.split(xp, 3, axis=1)
    hr, hz, hn = np.split(hp, 3, axis=1)
    r, z = _sigmoid(xr + hr), _sigmoid(xz + hz)
    n = np.tanh(xn + r * hn)
    return n + z * (h - n), None, (r, z, n, hn, h)


def _gru_step_backward(cache, dh, dc):
    r, z, n, hn, h = cache
    dn = dh * (1 - z) * (1 - n * n)
    dr = dn * hn * r * (1 - r)
    dz = dh * (h - n) * z * (1 - z)
    return (np.concatenate([dr, dz, dn], axis=1), np.concatenate([dr, dz, dn * r], axis=1),
            dh * z, None)


def _tanh_step(xp, hp, h, c):
    out = np.tanh(xp + hp)
    return out, None, out


def _tanh_step_backward(out, dh, dc):
    d = dh * (1 - out * out)
    return d, d, 0.0, None


def _relu_step(xp, hp, h, c):
    out = np.maximum(xp + hp, 0)
    return out, None, out


def _relu_step_backward(out, dh, dc):
    d = dh * (out > 0)
    return d, d, 0.0, None


STEPS = {"LSTM": (_lstm_step, _lstm_step_backward), "GRU": (_gru_step, _gru_step_backward),
         "RNN_TANH": (_tanh_step, _tanh_step_backward),
         "RNN_RELU": (_relu_step, _relu_step_backward)}


def time_order(steps, lengths, reverse):
    """(positions, valid), both (T, B): the time index each sample reads at each step, and
    whether the step is within the sample's length. Each column of `positions` is its own
    inverse, so it also puts the outputs back in place."""
    batch = len(lengths) if lengths is not None else 1
    step = np.arange(steps)[:, None]
    if lengths is None:
        positions = np.broadcast_to(steps - 1 - step if reverse else step, (steps, batch))
        return positions, None
    lengths = np.asarray(lengths)[None, :]
    valid = step < lengths
    positions = np.where(valid, lengths - 1 - step, step) if reverse else \
        np.broadcast_to(step, valid.shape)
    return positions, valid


def scan(mode, x, h0, c0, w_ih, w_hh, b_ih, b_hh, lengths=None, reverse=False):
    """One layer in one direction over x (T, B, I) from h0 (and c0) (B, H): a Tensor of
    (T + 1, B, H) rows, (T + 2) for an LSTM: the outputs, then the final h (and c)."""
    step, step_backward = STEPS[mode]
    xd, wi, wh = x.data, w_ih.data, w_hh.data
    steps, batch = xd.shape[:2]
    positions, valid = time_order(steps, lengths, reverse)
    columns = np.arange(batch)
    x_seq = xd[positions, columns]
    xp = x_seq @ wi.T
    if b_ih is not None:
        xp = xp + b_ih.data
    bh = b_hh.data if b_hh is not None else 0
    h = h0.data
    c = c0.data if c0 is not None else None
    outputs, caches = np.zeros((steps,) + h.shape, h.dtype), []
    for t in range(steps):
        h_new, c_new, cache = step(xp[t], h @ wh.T + bh, h, c)
        caches.append((h, cache))
        if valid is None:
            h, c = h_new, c_new
            outputs[t] = h_new
        else:
            keep = valid[t][:, None]
            h = np.where(keep, h_new, h)
            c = np.where(keep, c_new, c) if c is not None else None
            outputs[t] = np.where(keep, h_new, 0)
    finals = [h[None]] + ([c[None]] if c is not None else [])
    packed = np.concatenate([outputs[positions, columns]] + finals).astype(xd.dtype, copy=False)

    def backward(grad):
        g_out = grad[:steps][positions, columns]
        dh = grad[steps].copy()
        dc = grad[steps + 1].copy() if c0 is not None else None
        dxp = np.empty_like(xp)
        dwh = np.zeros_like(wh)
        dbh = np.zeros(wh.shape[0], wh.dtype)
        for t in range(steps - 1, -1, -1):
            h_prev, cache = caches[t]
            keep = 1.0 if valid is None else valid[t][:, None]
            d_new = (g_out[t] + dh) * keep
            dc_new = dc * keep if dc is not None else None
            dx_t, dh_t, dh_direct, dc_prev = step_backward(cache, d_new, dc_new)
            dxp[t] = dx_t * keep
            dh_t = dh_t * keep
            dwh += dh_t.T @ h_prev
            dbh += dh_t.sum(axis=0)
            dh = dh_t @ wh + dh_direct * keep + dh * (1 - keep)
            if dc is not None:
                dc = dc_prev * keep + dc * (1 - keep)
        flat = dxp.reshape(-1, dxp.shape[-1])
        dx = (dxp @ wi)[positions, columns] if needs_grad(x) else None
        dwi = flat.T @ x_seq.reshape(-1, x_seq.shape[-1])
        return (dx, dh, dc, dwi, dwh, flat.sum(axis=0) if b_ih is not None else None,
                dbh if b_hh is not None else None)
    return Tensor.from_op(packed, (x, h0, c0, w_ih, w_hh, b_ih, b_hh), backward)


# --- torch -----------------------------------------------------------------------------------

def torch_layers(mode, x, hx, weights, has_bias, num_layers, dropout, training, bidirectional,
                 lengths):
    """Stacked layers on torch, x (T, B, I) and hx (h, or (h, c) for an LSTM) time-major:
    (output, h_n) or (output, (h_n, c_n)). `lengths`: a CPU int64 tensor, already in [0, T]."""
    import torch
    from torch import _VF
    from torch.nn.utils.rnn import PackedSequence, pack_padded_sequence, pad_packed_sequence
    run = {"LSTM": _VF.lstm, "GRU": _VF.gru, "RNN_TANH": _VF.rnn_tanh,
           "RNN_RELU": _VF.rnn_relu}[mode]
    states = hx if mode == "LSTM" else (hx,)
    options = (has_bias, num_layers, dropout, training, bidirectional)
    if lengths is None:
        result = run(x, states if mode == "LSTM" else hx, weights, *options, False)
        return result[0], (tuple(result[1:]) if mode == "LSTM" else result[1])
    # packing needs lengths of at least 1: a sample of length 0 gets its initial state and
    # zeros afterwards, as in MindSpore
    packed = pack_padded_sequence(x, lengths.clamp(min=1), enforce_sorted=False)
    sorted_states = tuple(s.index_select(1, packed.sorted_indices.to(s.device)) for s in states)
    result = run(packed.data, packed.batch_sizes,
                 sorted_states if mode == "LSTM" else sorted_states[0], weights, *options)
    output = pad_packed_sequence(PackedSequence(result[0], packed.batch_sizes,
                                                packed.sorted_indices, packed.unsorted_indices),
                                 total_length=x.shape[0])[0]
    finals = [s.index_select(1, packed.unsorted_indices.to(s.device)) for s in result[1:]]
    empty = (lengths == 0).to(x.device)
    if bool(empty.any()):
        output = output.masked_fill(empty[None, :, None], 0)
        finals = [torch.where(empty[None, :, None], s, f) for s, f in zip(states, finals)]
    return output, (tuple(finals) if mode == "LSTM" else finals[0])


def torch_cell(mode, x, hx, w_ih, w_hh, b_ih, b_hh):
    from torch import _VF
    run = {"LSTM": _VF.lstm_cell, "GRU": _VF.gru_cell, "RNN_TANH": _VF.rnn_tanh_cell,
           "RNN_RELU": _VF.rnn_relu_cell}[mode]
    return run(x, hx, w_ih, w_hh, b_ih, b_hh)
