"""tools/training_vs_mindspore.py's recurrent cases: how they are drawn and run.

A case builds one of ``nn.LSTM``, ``nn.GRU``, ``nn.RNN`` (random sizes, layers, directions,
batch_first, bias, dropout, tanh/relu) or ``nn.LSTMCell``, ``nn.GRUCell``, ``nn.RNNCell``, sets
every parameter by name to fixed values, and calls it on a random input with or without an
initial state and (layers) a ``seq_length`` of random lengths, 0 and the full length included;
now and then one argument or input is wrong (an int dropout, a bool size, a float seq_length,
lengths past the end, states of another dtype or shape, a feature count too many). The steps:
the outputs (the sequence and the final states), the gradients of sum(output * weights) +
sum(state * weights) with respect to the input, the initial states and every parameter by name,
then each parameter's place and shape by name. Run in MindSpore's interpreter this module imports numpy
only."""
import numpy as np

from training_attention_cases import gradients_and_places
from training_nn_cases import fixed_values, now_and_then, output_weights, tensor

LAYERS = ["LSTM", "GRU", "RNN"]
CELLS = ["LSTMCell", "GRUCell", "RNNCell"]


def rnn_case(d):
    """("rnn", name, args, kwargs, (train, x, hx, seq_length, salt)): hx a list of state
    arrays (None: not given)."""
    c = d.r.choice
    name = c(LAYERS * 2 + CELLS)
    input_size, hidden = c([1, 3, 4]), c([1, 2, 3])
    batch, steps = c([1, 2, 3]), c([1, 2, 4, 5])
    kwargs, states = {}, 2 if name.startswith("LSTM") else 1
    if name in LAYERS:
        kwargs["num_layers"] = c([1, 1, 2, 3])
        now_and_then(d, kwargs, {"has_bias": [False], "batch_first": [True],
                                 "bidirectional": [True], "dropout": [0.0, 0.5]}, 0.4)
        if name == "RNN":
            now_and_then(d, kwargs, {"nonlinearity": ["tanh", "relu"]}, 0.5)
        layers = kwargs["num_layers"] * (2 if kwargs.get("bidirectional") else 1)
        state_shape = (layers, batch, hidden)
        x_shape = (batch, steps, input_size) if kwargs.get("batch_first") else \
            (steps, batch, input_size)
    else:
        now_and_then(d, kwargs, {"has_bias": [False]}, 0.3)
        if name == "RNNCell":
            now_and_then(d, kwargs, {"nonlinearity": ["tanh", "relu"]}, 0.5)
        state_shape, x_shape = (batch, hidden), (batch, input_size)
    # float64 inputs without states run in float64 in MindSpore's layers (its cells refuse them)
    dtype = np.float64 if d.r.random() < 0.1 else np.float32
    hx = [normal(d, state_shape) for _ in range(states)] \
        if name in CELLS or d.r.random() < 0.5 else None
    seq_length = None
    if name in LAYERS and d.r.random() < 0.4:
        lengths = d.rng.integers(0, steps + 1, batch)
        seq_length = tensor(lengths.astype(c([np.int32, np.int64])))
    if d.r.random() < 0.15:
        x_shape, hx, seq_length = wrong_argument(d, name, kwargs, x_shape, hx, seq_length,
                                                 batch, steps)
    x = normal(d, x_shape).astype(dtype)
    train = d.r.random() < 0.3
    if train and kwargs.get("dropout") == 0.5:
        kwargs["dropout"] = 0.0     # a training-mode dropout is random unless it drops nothing
    return ("rnn", name, (input_size, hidden), kwargs,
            (train, tensor(x), hx and [tensor(s) for s in hx], seq_length, d.r.randrange(100)))


def wrong_argument(d, name, kwargs, x_shape, hx, seq_length, batch, steps):
    """One argument or input MindSpore refuses (or, for lengths past the end of a
    one-directional layer, takes)."""
    c = d.r.choice
    kinds = ["has_bias", "x features", "hx dtype", "hx shape"]
    if name in LAYERS:
        kinds += ["dropout", "num_layers", "seq_length dtype", "seq_length batch",
                  "seq_length range"]
    kind = c(kinds)
    if kind == "has_bias":
        kwargs["has_bias"] = 1
    elif kind == "dropout":
        kwargs["dropout"] = c([0, 1.0, -0.1])
    elif kind == "num_layers":
        kwargs["num_layers"] = c([0, True, 2.0])
    elif kind == "x features":
        x_shape = x_shape[:-1] + (x_shape[-1] + 1,)
    elif kind.startswith("hx"):
        states = hx or [normal(d, (kwargs.get("num_layers", 1) * (1 + bool(kwargs.get(
            "bidirectional"))), batch, 2)) for _ in range(2 if name.startswith("LSTM") else 1)]
        hx = [s.astype(np.float16) if kind == "hx dtype" else s[..., :1] for s in states]
    else:
        lengths = d.rng.integers(0, steps + 1, batch)
        if kind == "seq_length range":
            lengths[0] = c([steps + 1, -1])
        elif kind == "seq_length batch":
            lengths = np.append(lengths, 1)
        seq_length = tensor(lengths.astype(np.float32 if kind == "seq_length dtype"
                                           else np.int32))
    return x_shape, hx, seq_length


def normal(d, shape):
    return (d.rng.standard_normal(shape) * d.r.choice([0.5, 1.0, 2.0])).astype(np.float32)


def run_rnn(lib, case, plain, error):
    """The outputs, the gradients by name ("x", "hx0", "hx1" and the parameters'), then each
    parameter's place and shape by name (MindSpore's names and order)."""
    _, name, args, kwargs, (train, x, hx, seq_length, salt) = case
    made = []
    try:
        cell = getattr(lib.nn, name)(*args, **kwargs)
        for param_name, param in cell.parameters_and_names():
            values = fixed_values(param_name, param.shape, salt) / np.sqrt(args[1])
            param.set_data(lib.Tensor(values))
        cell.set_train(train)
        inputs = [lib.input(x[1])] + [lib.input(state[1]) for state in hx or ()]
        lengths = None if seq_length is None else lib.input(seq_length[1])
        is_cell, is_lstm = name in ("LSTMCell", "GRUCell", "RNNCell"), name.startswith("LSTM")

        def call(value, *states):
            given = (tuple(states) if is_lstm else states[0]) if states else None
            result = cell(value, given) if is_cell else cell(value, given, lengths)
            if is_cell:
                return tuple(result) if is_lstm else (result,)
            return (result[0],) + (tuple(result[1]) if is_lstm else (result[1],))

        results = call(*inputs)
        made.append(("ok", ("list", [plain(r) for r in results])))
        weights = [lib.input(output_weights(tuple(r.shape)).astype(x[1].dtype))
                   for r in results]

        def weighted_sum(*values):
            return sum((r * w).sum() for r, w in zip(call(*values), weights))
        made += gradients_and_places(lib, cell, weighted_sum, inputs, ["x"] + [
            f"hx{i}" for i in range(len(inputs) - 1)], plain)
    except Exception as exc:         # an outcome to compare, like a value
        made.append(error(exc))
    return made


def described_rnn(case):
    _, name, args, kwargs, (train, x, hx, seq_length, _) = case
    parts = [f"x {x[1].dtype}{x[1].shape}"]
    if hx:
        parts.append(f"hx {[f'{s[1].dtype}{s[1].shape}' for s in hx]}")
    if seq_length is not None:
        parts.append(f"seq_length {seq_length[1].dtype}{seq_length[1].tolist()}")
    return f"{name}{args} {kwargs}{' in training mode' if train else ''} on {', '.join(parts)}"


def documented_rnn(case, why):
    """The README's word for a recurrent case's documented difference, or None."""
    _, name, _, _, (_, x, _, seq_length, _) = case
    if name == "LSTM" and x[1].dtype == np.float64 and seq_length is None and \
            why.startswith("step 1:"):
        return "LSTM has gradients on float64 inputs (MindSpore's CPU LSTM kernel gives zeros " \
               "or wrong values; its forward is right)"
    if "largest difference" in why and \
            float(why.split("largest difference ")[1].split()[0]) <= 2e-3:
        return "tanh is exact (MindSpore's is off by up to 1e-4, and a recurrence carries the " \
               "error on through its steps and gradients)"
    return None
