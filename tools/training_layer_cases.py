"""tools/training_nn_cases.py's wider layers (activations, pooling, padding, dropout, shuffles,
normalizations, 3-D and transposed convolutions): how each one's arguments and input are drawn
(some arguments wrong). training_nn_cases.layer_case asks ``more_layer_case`` for the layers of
MORE_LAYERS and runs them as it runs its own. Run in MindSpore's interpreter this module
imports numpy only."""
import numpy as np

ACTIVATIONS = ["ELU", "SiLU", "Mish", "SeLU", "CELU", "Softsign", "LogSigmoid", "Hardtanh",
               "HShrink", "SoftShrink", "Threshold", "Tanhshrink", "Softmin", "GLU", "RReLU",
               "FastGelu", "Identity", "Softmax2d"]
MORE_LAYERS = ACTIVATIONS
# the layers whose case runs in training mode now and then
TRAINED = ()


def drawn_input(d, shape):
    """Mostly float32, now and then float64, or int32 (that float-only layers refuse)."""
    kind = d.r.random()
    values = d.rng.standard_normal(shape) * d.r.choice([1.0, 3.0])
    if kind < 0.05:
        return np.round(values).astype(np.int32)
    return values.astype(np.float64 if kind < 0.15 else np.float32)


ACTIVATION_ARGUMENTS = {    # name: {argument: values, the last one wrong}
    "ELU": {"alpha": [1.0, 1.0, 0.5, 1]},
    "CELU": {"alpha": [1.0, 2.0, -1.5, 0.0, 1]},
    "HShrink": {"lambd": [0.5, 1.0, 0.0, -1.0, 1, "a"]},
    "SoftShrink": {"lambd": [0.5, 1.0, 0.0, 1, -1.0]},
    "Softmin": {"axis": [-1, 0, 1, (0, 1), 1.0]},
    "GLU": {"axis": [-1, 0, 1, 1.0]},
}


def activation_case(d, name):
    c = d.r.choice
    x = drawn_input(d, c([(2, 4), (2, 3, 4), (1, 2, 2, 3), (4,)]))
    args, kwargs = (), {}
    for argument, values in ACTIVATION_ARGUMENTS.get(name, {}).items():
        if d.r.random() < 0.7:
            kwargs[argument] = c(values)
    if name == "Hardtanh":
        low, high = c([-1.0, -0.5, 0, -2]), c([1.0, 0.5, 2, -1.0])
        args = (low, high) if d.r.random() < 0.5 else ()
    elif name == "Threshold":
        args = (c([0.0, 0.5, -1.0, 1]), c([0.0, 7.0, -2, "a"]))
    elif name == "RReLU":      # random unless lower == upper (MindSpore draws at every call)
        low = c([0.1, 0.25, 0, 1])
        args = c([(low, low), (low, low), (0.5, 0.1), ("a", 1.0)])
    elif name == "Identity":
        args, kwargs = c([(), (3,), ("x", 2)]), c([{}, {"a": 1}])
    elif name == "Softmax2d":
        x = drawn_input(d, c([(2, 3, 2), (1, 3, 2, 2), (2, 3)]))
    return args, kwargs, x


def more_layer_case(d, name):
    """(args, kwargs, input) of one layer of MORE_LAYERS."""
    return activation_case(d, name)


def largest_difference(why):
    """The number after 'largest difference' in a difference's words (inf if none)."""
    if "largest difference " not in why:
        return float("inf")
    return float(why.split("largest difference ", 1)[1].split()[0])


def documented_layer(case, why):
    """The README's word for a difference of one of MORE_LAYERS it lists as a deviation, or
    None."""
    _, name, args, kwargs, payload = case
    gradient = "x: largest difference" in why
    rules = [
        (name == "SeLU" and gradient,
         "SeLU's gradient below zero is scale * alpha * exp(x) (MindSpore 2.10's CPU kernel "
         "gives scale * (1 + SeLU(x)), negative for x < -0.9)"),
        (name == "Mish" and gradient and largest_difference(why) < 2e-3,
         "Mish's gradient is exact (MindSpore's float32 kernel is off by up to 8e-4 for x in "
         "[3, 7], where 1 - tanh^2 cancels)"),
        (name == "Tanhshrink" and gradient and largest_difference(why) < 1e-3,
         "tanh is exact (MindSpore's is off by up to 1e-4)"),
    ]
    return next((word for applies, word in rules if applies), None)
