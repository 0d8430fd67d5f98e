"""Recurrent layers as MindSpore 2.10's: LSTM, GRU and RNN (stacked, bidirectional, variable
lengths) and the single-step LSTMCell, GRUCell and RNNCell.

Parameters carry MindSpore's names, shapes, order and initial distribution (U(-1/sqrt(hidden),
1/sqrt(hidden))) so checkpoints interchange: `weight_ih_l{k}[_reverse]` (gates x input),
`weight_hh_l{k}[_reverse]`, `bias_ih_l{k}[_reverse]`, `bias_hh_l{k}[_reverse]`, every input
weight first, then the hidden weights, then the biases; a cell's are `weight_ih`, `weight_hh`,
`bias_ih`, `bias_hh`. The gates are stacked as torch stacks them (i, f, g, o; r, z, n), which is
MindSpore's layout too, so the torch backend hands the weights to torch's kernels as they are.
Weights are cast to the input's dtype, and the outputs have it (MindSpore's rule)."""
import math

import numpy as np

from training.backends.dispatch import is_torch
from training.backends.numpy import functional as F
from training.nn import initializer
from training.nn.cell import Cell
from training.nn.layers import rnn_kernels
from training.ops.array_kernels import cast, concat, stack
from training.tensor import Parameter, Tensor, as_array

_STATE_DTYPES = (np.float16, np.float32)


def _check_positive_int(value, name, cls):
    if isinstance(value, bool):
        raise TypeError(f"For '{cls}', the '{name}' must be int and must > 0, but got '{value}' "
                        f"with type 'bool'.")
    if not isinstance(value, (int, np.integer)):
        raise TypeError(f"For '{cls}', the '{name}' must be int, but got "
                        f"'{type(value).__name__}'")
    if value <= 0:
        raise ValueError(f"For '{cls}', the '{name}' must be int and must > 0, but got "
                         f"'{value}' with type 'int'.")


def _uniform(bound, shape, dtype):
    return Parameter(initializer.rng().uniform(-bound, bound, shape).astype(dtype))


def _dtype_of(value):
    """A Tensor's or torch tensor's dtype as numpy's."""
    if is_torch(value):
        return np.dtype(str(value.dtype).replace("torch.", ""))
    return np.dtype(value.dtype)


def _check_tensor(cls, name, value):
    if not (isinstance(value, Tensor) or is_torch(value)):
        raise TypeError(f"For '{cls}', the '{name}' must be a Tensor, but got "
                        f"'{type(value).__name__}'")


def _check_state_dtype(cls, name, value, x_dtype=None):
    """MindSpore's rule for given states: float16 or float32 (and, for the stacked layers, the
    input's dtype)."""
    dtype = _dtype_of(value)
    if dtype not in _STATE_DTYPES:
        raise TypeError(f"For '{cls}', the element of '{name}' must be one of Float32, Float16, "
                        f"but got {dtype}.")
    if x_dtype is not None and dtype != x_dtype:
        raise TypeError(f"For '{cls}', the type of '{name}' should be same as 'x', but got 'x' "
                        f"with type {x_dtype} and '{name}' with type {dtype}.")


def _states(cls, hx, is_lstm):
    """hx as a tuple of its state tensors, checked for kind as MindSpore checks it."""
    if not is_lstm:
        if isinstance(hx, (tuple, list)):
            raise TypeError(f"For '{cls}', the 'hx' must be a Tensor, but got "
                            f"'{type(hx).__name__}'")
        _check_tensor(cls, "hx", hx)
        return (hx,)
    if not isinstance(hx, tuple):
        raise TypeError(f"For '{cls}', the 'hx' must be a tuple (h, c), but got "
                        f"'{type(hx).__name__}'")
    if len(hx) != 2:
        raise TypeError(f"For '{cls}', the length of 'hx' must be '2', but got '{len(hx)}'")
    for index, state in enumerate(hx):
        _check_tensor(cls, f"hx[{index}]", state)
    return tuple(hx)


def _check_shape(cls, name, value, expected):
    if tuple(value.shape) != tuple(expected):
        raise ValueError(f"For '{cls}', the shape of '{name}' must be {tuple(expected)}, but got "
                         f"{tuple(value.shape)}")


def _as_input(value):
    return Tensor(value) if isinstance(value, np.ndarray) else value


def _in_dtype(p, dtype):
    """A weight in the input's dtype, differentiably (MindSpore casts them so)."""
    return p if p is None or np.dtype(p.dtype) == dtype else cast(p, dtype)


class _RNNBase(Cell):
    """The stacked recurrent layers of one mode ("LSTM", "GRU", "RNN_TANH", "RNN_RELU")."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, has_bias=True,
                 batch_first=False, dropout=0., bidirectional=False, dtype=np.float32):
        super().__init__()
        cls = self.cls_name
        _check_positive_int(hidden_size, "hidden_size", cls)
        _check_positive_int(input_size, "input_size", cls)
        _check_positive_int(num_layers, "num_layers", cls)
        if not isinstance(dropout, float):
            raise TypeError(f"For '{cls}', the type of 'dropout' must be 'float', but got "
                            f"'{type(dropout).__name__}'.")
        for name, value in (("has_bias", has_bias), ("batch_first", batch_first),
                            ("bidirectional", bidirectional)):
            self.check_bool(name, value)
        if not 0 <= dropout < 1:
            raise ValueError(f"For '{cls}', the 'dropout' must be a number in range [0, 1) "
                             f"representing the probability of an element being zeroed, but got "
                             f"{dropout}.")
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.has_bias, self.batch_first = num_layers, has_bias, batch_first
        self.dropout, self.bidirectional = dropout, bidirectional
        self.num_directions = 2 if bidirectional else 1
        gates = rnn_kernels.GATES[mode] * hidden_size
        bound = 1 / math.sqrt(hidden_size)
        drawn = {}      # drawn layer by layer as MindSpore draws, registered kind by kind
        for layer in range(num_layers):
            width = input_size if layer == 0 else hidden_size * self.num_directions
            for suffix in self._suffixes(layer):
                drawn["weight_ih" + suffix] = _uniform(bound, (gates, width), dtype)
                drawn["weight_hh" + suffix] = _uniform(bound, (gates, hidden_size), dtype)
                if has_bias:
                    drawn["bias_ih" + suffix] = _uniform(bound, (gates,), dtype)
                    drawn["bias_hh" + suffix] = _uniform(bound, (gates,), dtype)
        for kind in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            for name, value in drawn.items():
                if name.startswith(kind + "_l"):
                    value.name = name
                    setattr(self, name, value)

    def _suffixes(self, layer):
        return [f"_l{layer}"] + [f"_l{layer}_reverse"] * self.bidirectional

    def _weights(self, suffix):
        params = self._params
        return (params["weight_ih" + suffix], params["weight_hh" + suffix],
                params.get("bias_ih" + suffix), params.get("bias_hh" + suffix))

    def construct(self, x, hx=None, seq_length=None):
        cls, is_lstm = self.cls_name, self.mode == "LSTM"
        _check_tensor(cls, "x", x)
        x_dtype = _dtype_of(x)
        if x_dtype.kind != "f":
            raise TypeError(f"For '{cls}', the 'x' must be a float Tensor, but got {x_dtype}")
        self.check_input(x, x.ndim == 3 and x.shape[2] == self.input_size,
                         f"(seq_len, batch, {self.input_size})" if not self.batch_first else
                         f"(batch, seq_len, {self.input_size})")
        batch = x.shape[0] if self.batch_first else x.shape[1]
        steps = x.shape[1] if self.batch_first else x.shape[0]
        shape = (self.num_layers * self.num_directions, batch, self.hidden_size)
        if hx is not None:
            states = tuple(_as_input(s) for s in _states(cls, hx, is_lstm))
            for index, state in enumerate(states):
                name = f"hx[{index}]" if is_lstm else "hx"
                _check_state_dtype(cls, name, state, x_dtype)
                _check_shape(cls, name, state, shape)
        lengths = self._lengths(seq_length, batch, steps)
        if is_torch(x):
            return self._torch_forward(x, None if hx is None else states, lengths, shape)
        if hx is None:
            states = (Tensor(np.zeros(shape, x_dtype)),) * (2 if is_lstm else 1)
        if self.batch_first:
            x = x.transpose(1, 0, 2)
        output, finals = self._numpy_layers(x, states, lengths)
        if self.batch_first:
            output = output.transpose(1, 0, 2)
        return output, (tuple(finals) if is_lstm else finals[0])

    def _lengths(self, seq_length, batch, steps):
        """seq_length as a numpy int64 array in [0, steps], or None."""
        if seq_length is None:
            return None
        cls = self.cls_name
        _check_tensor(cls, "seq_length", _as_input(seq_length))
        if _dtype_of(seq_length) not in (np.int32, np.int64):
            raise TypeError(f"For '{cls}', the 'seq_length' should be one of [mindspore.int32, "
                            f"mindspore.int64], but got '{_dtype_of(seq_length)}'.")
        lengths = (seq_length.detach().cpu().numpy() if is_torch(seq_length)
                   else as_array(seq_length)).astype(np.int64).reshape(-1)
        if seq_length.shape[0] != batch or len(lengths) != batch:
            raise ValueError(f"For '{cls}' batch size of x and seq_length must be equal, but got "
                             f"{batch} of x and {seq_length.shape[0]} of seq_length.")
        if self.bidirectional:      # (MindSpore's ReverseSequence refuses them)
            wrong = np.flatnonzero((lengths < 0) | (lengths > steps))
            if len(wrong):
                raise RuntimeError(f"For '{cls}', Invalid seq_lengths[{wrong[0]}]: "
                                   f"{lengths[wrong[0]]} (the sequences have {steps} steps)")
        # one-directional: a length past the end runs to the end, a negative one is 0
        return np.clip(lengths, 0, steps)

    def _numpy_layers(self, x, states, lengths):
        steps, dtype = x.shape[0], x.dtype
        is_lstm = self.mode == "LSTM"
        layer_input, finals = x, [[] for _ in states]
        for layer in range(self.num_layers):
            outputs = []
            for direction, suffix in enumerate(self._suffixes(layer)):
                index = layer * self.num_directions + direction
                weights = [_in_dtype(p, dtype) for p in self._weights(suffix)]
                packed = rnn_kernels.scan(self.mode, layer_input, states[0][index],
                                          states[1][index] if is_lstm else None, *weights,
                                          lengths=lengths, reverse=direction == 1)
                outputs.append(packed[:steps])
                for state_index, kept in enumerate(finals):
                    kept.append(packed[steps + state_index])
            output = concat(outputs, 2) if len(outputs) > 1 else outputs[0]
            if self.training and self.dropout and layer < self.num_layers - 1:
                output = F.dropout(output, 1.0 - self.dropout, initializer.rng())
            layer_input = output
        return layer_input, [stack(kept, 0) for kept in finals]

    def _torch_forward(self, x, states, lengths, shape):
        import torch
        from training.backends.torch_cells import param
        weights = []
        for layer in range(self.num_layers):
            for suffix in self._suffixes(layer):
                weights += [param(p).to(x.dtype) for p in self._weights(suffix) if p is not None]
        if states is None:
            states = (x.new_zeros(shape),) * (2 if self.mode == "LSTM" else 1)
        if self.batch_first:
            x = x.transpose(0, 1)
        output, finals = rnn_kernels.torch_layers(
            self.mode, x, states if self.mode == "LSTM" else states[0], weights, self.has_bias,
            self.num_layers, self.dropout, self.training, self.bidirectional,
            None if lengths is None else torch.from_numpy(lengths))
        return (output.transpose(0, 1) if self.batch_first else output), finals

    def extend_repr(self):
        return f"input_size={self.input_size}, hidden_size={self.hidden_size}, " \
               f"num_layers={self.num_layers}, has_bias={self.has_bias}, " \
               f"batch_first={self.batch_first}, dropout={self.dropout}, " \
               f"bidirectional={self.bidirectional}"


class LSTM(_RNNBase):
    """Stacked LSTM layers: x (seq_len, batch, input_size), or batch first; hx = (h_0, c_0),
    each (num_layers * num_directions, batch, hidden_size), zeros by default; seq_length
    (batch,) int32/int64. Returns (output, (h_n, c_n))."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)


class GRU(_RNNBase):
    """Stacked GRU layers; returns (output, h_n)."""

    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)


class RNN(_RNNBase):
    """Stacked Elman RNN layers, nonlinearity 'tanh' (default) or 'relu'; returns
    (output, h_n)."""

    def __init__(self, *args, **kwargs):
        nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"For 'RNN', the 'nonlinearity' must be in ['tanh', 'relu'], but "
                             f"got {nonlinearity}.")
        super().__init__(f"RNN_{nonlinearity.upper()}", *args, **kwargs)
        self.nonlinearity = nonlinearity


class _CellBase(Cell):
    """One step of a recurrence: weight_ih (gates, input_size), weight_hh (gates, hidden_size),
    bias_ih and bias_hh (gates,), all U(-1/sqrt(hidden), 1/sqrt(hidden))."""

    def __init__(self, mode, input_size, hidden_size, has_bias, dtype):
        super().__init__()
        self.check_bool("has_bias", has_bias)
        _check_positive_int(hidden_size, "hidden_size", self.cls_name)
        _check_positive_int(input_size, "input_size", self.cls_name)
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.has_bias = has_bias
        gates, bound = rnn_kernels.GATES[mode] * hidden_size, 1 / math.sqrt(hidden_size)
        self.weight_ih = _uniform(bound, (gates, input_size), dtype)
        self.weight_hh = _uniform(bound, (gates, hidden_size), dtype)
        self.bias_ih = _uniform(bound, (gates,), dtype) if has_bias else None
        self.bias_hh = _uniform(bound, (gates,), dtype) if has_bias else None

    def construct(self, x, hx):
        cls, is_lstm = self.cls_name, self.mode == "LSTM"
        _check_tensor(cls, "x", x)
        if _dtype_of(x) not in _STATE_DTYPES:
            raise TypeError(f"For '{cls}', the 'x' should be one of [mindspore.float32, "
                            f"mindspore.float16], but got '{_dtype_of(x)}'.")
        if hx is None:
            raise TypeError(f"For '{cls}', the 'hx' must be given (the initial state)")
        states = tuple(_as_input(s) for s in _states(cls, hx, is_lstm))
        self.check_input(x, x.ndim == 2 and x.shape[1] == self.input_size,
                         f"(batch, {self.input_size})")
        params = self._params
        weight_dtype = np.dtype(params["weight_ih"].dtype)
        for name, value in (("x", x),) + tuple(zip(("hx[0]", "hx[1]") if is_lstm else ("hx",),
                                                   states)):
            if name != "x":
                _check_state_dtype(cls, name, value)
                _check_shape(cls, name, value, (x.shape[0], self.hidden_size))
            if _dtype_of(value) != weight_dtype:   # (MindSpore's MatMul refuses mixed types)
                raise TypeError(f"For '{cls}', the type of '{name}' should be the weights' "
                                f"{weight_dtype}, but got {_dtype_of(value)}")
        weights = [params.get(name) for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
        if is_torch(x):
            from training.backends.torch_cells import param
            out = rnn_kernels.torch_cell(self.mode, x, states if is_lstm else states[0],
                                         *[param(p) for p in weights])
            return tuple(out) if is_lstm else out
        x_seq = x.reshape(1, *x.shape)
        packed = rnn_kernels.scan(self.mode, x_seq, states[0], states[1] if is_lstm else None,
                                  *weights)
        return (packed[1], packed[2]) if is_lstm else packed[1]

    def extend_repr(self):
        return f"input_size={self.input_size}, hidden_size={self.hidden_size}, " \
               f"has_bias={self.has_bias}"


class LSTMCell(_CellBase):
    """(h', c') = LSTMCell(x, (h, c)): x (batch, input_size), h and c (batch, hidden_size)."""

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=np.float32,
                 *old_arguments, **old_keywords):
        old = {"batch_size", "dropout", "bidirectional"} & set(old_keywords)
        if old_arguments or old:
            raise ValueError("The arguments of `nn.LSTMCell` from old MindSpore version(<1.6) "
                             "are detected, if you still need use single LSTM layer, please use "
                             "`nn.LSTM` instead.")
        if old_keywords:
            raise TypeError(f"LSTMCell got unexpected keyword arguments {sorted(old_keywords)}")
        super().__init__("LSTM", input_size, hidden_size, has_bias, dtype)


class GRUCell(_CellBase):
    """h' = GRUCell(x, h)."""

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=np.float32):
        super().__init__("GRU", input_size, hidden_size, has_bias, dtype)


class RNNCell(_CellBase):
    """h' = RNNCell(x, h), nonlinearity 'tanh' or 'relu'."""

    def __init__(self, input_size, hidden_size, has_bias=True, nonlinearity="tanh",
                 dtype=np.float32):
        if not isinstance(nonlinearity, str):
            raise TypeError(f"For 'RNNCell', the type of 'nonlinearity' should be 'str', but got "
                            f"type '{type(nonlinearity).__name__}'.")
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"For 'RNNCell', the 'nonlinearity' must be str and must be in "
                             f"'['tanh', 'relu']', but got '{nonlinearity}'.")
        super().__init__(f"RNN_{nonlinearity.upper()}", input_size, hidden_size, has_bias, dtype)
        self.nonlinearity = nonlinearity
